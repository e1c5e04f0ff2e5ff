// Issue 44, defect 5: capacity that cannot come back. A group whose Launch process is suspended
// (frozen during an incident) launches nothing: a roll would drain and terminate its nodes and
// leave it short. Such a group — and one whose Terminate is suspended — is blocked by the plan,
// force or not.
import { describe, expect, it } from "vitest";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { policyFor, roll, selfManagedWorld } from "./scenarios.js";

const policy = policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 1 } }]\n");

describe("a suspended Launch or Terminate stops the group (defect 5)", () => {
  it.each([false, true])(
    "Launch suspended (force: %s): the plan is blocked, and apply drains and terminates nothing",
    async (force) => {
      const world = selfManagedWorld([{ name: "w", nodes: 4, suspended: ["Launch"] }]);
      const before = world.instances("w").map((i) => i.id);
      const { result, plan, events } = await roll(world, policy, {
        force,
        ...(force && { reason: "test" }),
      });
      const g = plan.groups[0]!;
      expect(g.status).toBe("blocked");
      const f = g.findings.find((x) => x.code === "processes-suspended");
      expect(f).toMatchObject({ severity: "blocker", objects: ["w"] });
      expect(f!.message).toMatch(
        /^Auto Scaling group w has a process suspended that a roll needs — Launch/,
      );
      expect(f!.message).toContain(
        "aws autoscaling resume-processes --auto-scaling-group-name w --scaling-processes Launch",
      );
      expect(result).toMatchObject({ result: "failure", message: expect.stringMatching(/Launch/) });
      for (const t of ["node.cordon", "node.drain.start", "instance.detach", "instance.terminate"])
        expect(events.filter((e) => e.type === t)).toEqual([]);
      expect(world.instances("w").map((i) => i.id)).toEqual(before);
      expect(world.nodes("w").filter((n) => n.ready && !n.unschedulable)).toHaveLength(4);
    },
  );

  it("Terminate suspended: blocked, naming it", async () => {
    const world = selfManagedWorld([
      { name: "w", nodes: 3, suspended: ["Terminate", "HealthCheck"] },
    ]);
    const { result, plan } = await roll(world, policy);
    const f = plan.groups[0]!.findings.filter((x) => x.code === "processes-suspended");
    expect(f).toHaveLength(1);
    expect(f[0]!.severity).toBe("blocker");
    expect(f[0]!.message).toMatch(
      /— Terminate \(User suspended at [^)]+\): it terminates none of its InService/,
    );
    expect(f[0]!.message).not.toMatch(/HealthCheck/);
    expect(result.result).toBe("failure");
  });

  it("AddToLoadBalancer suspended: a warning, and the roll goes on", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 3, suspended: ["AddToLoadBalancer"] }]);
    const { result, plan, invariants } = await roll(world, policy);
    expect(plan.groups[0]!.findings.filter((x) => x.code === "processes-suspended")).toEqual([
      expect.objectContaining({ severity: "warning" }),
    ]);
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
  });

  it("an EKS managed node group whose Auto Scaling group has Launch suspended is blocked too", async () => {
    const world = World.from(managedScenario({ group: { suspendedProcesses: ["Launch"] } }));
    const p = policyFor(`groups: [{ name: ng, target: { kubernetesVersion: "1.33" } }]\n`, "test");
    const { result, plan } = await roll(world, p);
    const f = plan.groups[0]!.findings.find((x) => x.code === "processes-suspended");
    expect(f?.severity).toBe("blocker");
    expect(f!.message).toContain(world.asg("ng").name);
    expect(f!.message).toMatch(/NodeCreationFailure/);
    expect(result.result).toBe("failure");
    expect(world.eks.listUpdateIds("ng")).toEqual([]);
  });
});
