// Issue 44, defect 9: the group shrinking under the roll. Someone scales the group in while
// noderoll rolls it — a person lowering its desired capacity, or terminating an instance with a
// decrement as the cluster autoscaler does — and the instance the roll comes to is gone. That is
// not an error: the roll notes who took it, goes on against the desired capacity the person set,
// and ends with every member on the target, no mark and no detached instance left.
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import type { RollEvent } from "../../src/ports/index.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import type { World } from "../../src/sandbox/world/world.js";
import { leftovers } from "./crash.js";
import { ofType, policyFor, roll, selfManagedWorld, type Rolled } from "./scenarios.js";

const policy = policyFor(
  "groups: [{ name: w, rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } }]\n",
);

/** The roll done, then what it must leave: the person's capacity, all on the target, nothing of ours. */
async function expectConverged(world: World, r: Rolled, desired: number): Promise<void> {
  expect(r.invariants.violations).toEqual([]);
  expect(r.result).toMatchObject({ result: "success" });
  await world.advance(10 * 60_000);
  expect(world.sizes("w").desired).toBe(desired);
  expect(world.instances("w")).toHaveLength(desired);
  expect(world.instances("w").map((i) => i.ltVersion)).toEqual(Array(desired).fill(2));
  expect(leftovers(world)).toEqual([]);
  const again = await world.run(observeAndPlan(policy, "p.yaml", world));
  expect(again.plan.summary.nodesToReplace).toBe(0);
}

const left = (events: RollEvent[]) =>
  ofType(events, "note").filter((n) => /left the group .*by someone else's hand/.test(n.message));

describe("a scale-in by someone else while the group rolls (defect 9)", () => {
  it("a person lowers desired capacity after the first cordon: the roll finishes at theirs", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 6 }]);
    let once = false;
    const r = await roll(world, policy, {}, undefined, (e) => {
      if (e.type !== "node.cordon" || once) return;
      once = true;
      void world.cloud.autoScaling.updateAutoScalingGroup({
        AutoScalingGroupName: "w",
        DesiredCapacity: 3,
      });
    });
    expect(r.result).toMatchObject({ result: "success" });
    const notes = left(r.events);
    expect(notes.length).toBeGreaterThan(0);
    expect(notes[0]!.message).toMatch(/a scale-in \(the group's desired capacity is 3 now\)/);
    // What the group's scale-in took the roll neither terminated nor counted as its own.
    const ours = new Set(ofType(r.events, "instance.terminate").map((e) => e.instance));
    const scaledIn = world.timeline
      .of("instance.terminated", "w")
      .filter((e) => e.by === "scale-in");
    expect(scaledIn).toHaveLength(3);
    expect(scaledIn.filter((e) => ours.has(e.instance as string))).toEqual([]);
    expect(notes.length).toBeLessThanOrEqual(3);
    await expectConverged(world, r, 3);
  });

  it("the very instance being drained is terminated with a decrement (scenario scaleIns, pick: draining)", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 5 }], {
      workloads: [{ kind: "Deployment", name: "web", replicas: 5, terminationGracePeriod: "30s" }],
      scaleIns: [{ group: "w", after: "node.cordon", terminate: 1, pick: "draining" }],
    } as Partial<ScenarioInput>);
    const r = await roll(world, policy);
    expect(r.result).toMatchObject({ result: "success" });
    const [cordon] = ofType(r.events, "node.cordon");
    const taken = world.timeline.first("instance.terminated", { by: "person" });
    expect(taken?.node).toBe(cordon!.node);
    expect(left(r.events).map((n) => n.message)).toEqual([
      expect.stringContaining(`(${cordon!.node}) left the group before the roll terminated it`),
    ]);
    await expectConverged(world, r, 4);
  });

  it("scaled in while the roll surges: an instance it was to detach is gone, and it goes on", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
    const { plan } = await world.run(observeAndPlan(policy, "p.yaml", world));
    // The surge detaches the last of the plan's order first.
    const last = plan.groups[0]!.replacements.find(
      (x) => x.node === plan.groups[0]!.schedule.waves.at(-1)!.nodes.at(-1),
    )!;
    let once = false;
    const r = await roll(world, policy, {}, undefined, (e) => {
      if (e.type !== "phase.start" || e.phase !== "scale-up" || once) return;
      once = true;
      void world.cloud.autoScaling.terminateInstanceInAutoScalingGroup({
        InstanceId: last.instance,
        ShouldDecrementDesiredCapacity: true,
      });
    });
    expect(r.result).toMatchObject({ result: "success" });
    expect(left(r.events).map((n) => n.message)).toEqual([
      expect.stringContaining(
        `${last.instance} (${last.node}) left the group before the roll detached it`,
      ),
    ]);
    expect(ofType(r.events, "instance.detach").map((e) => e.instance)).not.toContain(last.instance);
    await expectConverged(world, r, 3);
  });

  it("the cluster autoscaler scales the group in as it rolls (autoscaler.scaleDown)", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 6 }], {
      workloads: [{ kind: "Deployment", name: "web", replicas: 3 }],
      autoscaler: {
        enabled: true,
        scaleDown: { unneededFor: "60s", delayAfterAdd: "0s" },
      },
    } as Partial<ScenarioInput>);
    world.asg("w").min = 3;
    const r = await roll(world, policy);
    const byAutoscaler = world.timeline
      .of("instance.terminated", "w")
      .filter((e) => e.by === "cluster-autoscaler");
    expect(byAutoscaler.length).toBeGreaterThan(0);
    expect(r.invariants.violations).toEqual([]);
    expect(r.result).toMatchObject({ result: "success" });
    // The autoscaler may go on scaling in once the roll has let the new nodes go.
    await world.advance(10 * 60_000);
    expect(world.instances("w").every((i) => i.ltVersion === 2)).toBe(true);
    expect(leftovers(world)).toEqual([]);
  });
});
