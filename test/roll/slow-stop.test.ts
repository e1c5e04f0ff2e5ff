// Issue 44, defect 8, whole rolls in virtual time: a Deployment whose pods take an hour to stop
// (terminationGracePeriodSeconds 3600, a preStop of 58 minutes) on a group whose drains wait 15
// minutes. Before the plan knew, apply failed 15 minutes into the first drain, leaving the node
// cordoned and a surge instance detached, and every rerun failed alike. Now the plan blocks the
// group and apply touches nothing; raised above the grace period, drainTimeout lets the roll
// through in the time the plan estimated; with deleteAfterDrainTimeout the drains end at their
// timeout.
import { describe, expect, it } from "vitest";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

const slowWorld = () =>
  selfManagedWorld([{ name: "workers", nodes: 3 }], {
    workloads: [
      {
        kind: "Deployment",
        name: "slow",
        replicas: 2,
        terminationGracePeriod: "1h",
        preStop: "58m",
      },
    ],
  });
const policy = (drainTimeout: string) =>
  policyFor(`groups: [{ name: workers, rollingUpdate: { drainTimeout: ${drainTimeout} } }]\n`);

describe("pods that take an hour to stop, drains that wait 15 minutes", () => {
  it("the plan blocks the group, and apply cordons and detaches nothing, run after run", async () => {
    const world = slowWorld();
    for (const run of [1, 2]) {
      const r = await roll(world, policy("15m"));
      const g = r.plan.groups[0]!;
      expect(g.status, `run ${run}`).toBe("blocked");
      expect(g.findings.find((f) => f.code === "grace-exceeds-drain-timeout")?.message).toContain(
        "raise the group's drainTimeout above 1h",
      );
      expect(r.result).toMatchObject({
        result: "failure",
        message: expect.stringMatching(
          /^PodEvictionFailure: not started, it would fail: the drain cannot finish within drainTimeout 15m/,
        ),
      });
      expect(ofType(r.events, "node.cordon"), `run ${run}`).toEqual([]);
      expect(ofType(r.events, "instance.detach"), `run ${run}`).toEqual([]);
      expect(r.invariants.violations).toEqual([]);
    }
    expect(world.timeline.of("instance.detach")).toEqual([]);
    expect(world.kube.nodeList().filter((n) => n.unschedulable)).toEqual([]);
  });

  it("with drainTimeout above the grace period, rolls in the time the plan estimated", async () => {
    const world = slowWorld();
    const start = world.clock.nowMs();
    const r = await roll(world, policy("70m"));
    expect(r.result.result).toBe("success");
    const took = world.clock.nowMs() - start;
    const estimate = r.plan.groups[0]!.schedule.estimatedMs;
    expect(estimate).toBeGreaterThanOrEqual(2 * 3600_000);
    expect(took).toBeGreaterThanOrEqual(2 * 58 * 60_000);
    expect(took).toBeLessThanOrEqual(estimate * 1.25);
    expect(r.invariants.violations).toEqual([]);
  });

  it("with deleteAfterDrainTimeout, each drain goes on at its timeout, as the estimate said", async () => {
    const world = slowWorld();
    const start = world.clock.nowMs();
    const r = await roll(world, policy("15m"), { deleteAfterDrainTimeout: true, reason: "a CVE" });
    expect(r.result.result).toBe("success");
    const g = r.plan.groups[0]!;
    expect(g.findings.find((f) => f.code === "grace-exceeds-drain-timeout")?.severity).toBe(
      "warning",
    );
    const took = world.clock.nowMs() - start;
    expect(g.schedule.estimatedMs).toBeLessThan(3600_000);
    expect(took).toBeLessThan(3600_000);
  });
});
