// A warm pool's instances launched from an older template are replaced, as kOps replaces them
// (issue 46, item 10; pkg/instancegroups deletes out-of-date warm-pool instances before it rolls
// a group): left alone, the group's next scale-out would put the old template back in service.
// They run no pods: terminated first, no drain, no capacity spent. Invariants after every event.
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

const policy = policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 1 } }]\n");

/** The pool's instances as the sandbox's Auto Scaling lists them: id → template version. */
async function pool(w: ReturnType<typeof selfManagedWorld>) {
  const listed = await w.run(w.cloud.autoScaling.describeWarmPool({ AutoScalingGroupName: "w" }));
  return new Map(listed.map((i) => [i.InstanceId, i.LaunchTemplate?.Version]));
}

describe("a warm pool", () => {
  it("is in the plan: its instances on an older template, terminated first", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 3, warmPool: { size: 2, version: 1 } }]);
    const old = [...(await pool(w)).keys()];
    const { plan } = await w.run(observeAndPlan(policy, "p.yaml", w));
    const g = plan.groups[0]!;
    expect(g.warmPool).toEqual({ replace: old });
    expect(g.configChanges).toContainEqual({
      field: "warmPool",
      from: "2 instances on version 1",
      to: "terminated first, refilled from 2",
    });
    // Not nodes: the counts and the schedule are the members'.
    expect(g.replacements).toHaveLength(3);
    expect(plan.summary.nodesToReplace).toBe(3);
  });

  it("has its old instances terminated before the first node, and refills from the target", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 3, warmPool: { size: 2, version: 1 } }]);
    const old = [...(await pool(w)).keys()];
    const r = await roll(w, policy);
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    const warm = ofType(r.events, "instance.terminate").filter((e) => e.warmPool);
    expect(warm.map((e) => e.instance).sort()).toEqual([...old].sort());
    // Before any node of the group was touched.
    const first = r.events.findIndex(
      (e) => e.type === "node.cordon" || e.type === "instance.detach",
    );
    expect(r.events.findIndex((e) => e.type === "instance.terminate" && e.warmPool)).toBeLessThan(
      first,
    );
    await w.advance(120_000);
    const now = await pool(w);
    expect(now.size).toBe(2);
    expect([...now.values()]).toEqual(["2", "2"]);
    // The progress counts the group's nodes, not the pool's.
    expect(ofType(r.events, "instance.terminate").filter((e) => !e.warmPool)).toHaveLength(3);
  });

  it("alone makes a group's plan: the members up to date, only the pool is renewed, nothing drained", async () => {
    const w = selfManagedWorld([
      { name: "w", nodes: 3, upToDate: 3, warmPool: { size: 1, version: 1 } },
    ]);
    const r = await roll(w, policy);
    expect(r.plan.groups[0]!.status).toBe("config-only");
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(ofType(r.events, "node.drain.start")).toEqual([]);
    expect(ofType(r.events, "instance.terminate").map((e) => e.warmPool)).toEqual([true]);
  });

  it("is left as it is when it is on the target already, and with drainAndTerminate false", async () => {
    const current = selfManagedWorld([
      { name: "w", nodes: 2, upToDate: 2, warmPool: { size: 2, version: 2 } },
    ]);
    const { plan } = await current.run(observeAndPlan(policy, "p.yaml", current));
    expect(plan.groups[0]!.warmPool).toBeUndefined();
    expect(plan.groups[0]!.status).toBe("no-change");
    const w = selfManagedWorld([{ name: "w", nodes: 2, warmPool: { size: 1, version: 1 } }]);
    const r = await roll(
      w,
      policyFor("groups: [{ name: w, rollingUpdate: { drainAndTerminate: false } }]\n"),
    );
    expect(r.result.result).toBe("success");
    expect(ofType(r.events, "instance.terminate")).toEqual([]);
    expect([...(await pool(w)).values()]).toEqual(["1"]);
    // …and the plan does not promise it: no config change apply would not make.
    expect(r.plan.groups[0]!.warmPool).toBeUndefined();
    expect(r.plan.groups[0]!.configChanges.map((c) => c.field)).not.toContain("warmPool");
  });
});

describe("a warm pool's instance that enters service after the plan", () => {
  it("is not terminated: the pool is read again before the write, and only those still waiting go", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 3, warmPool: { size: 2, version: 1 } }]);
    const [taken, left] = [...(await pool(w)).keys()] as [string, string];
    // A scale-out takes one instance from the pool as the group starts, after its plan: it is
    // a member now, with a node, serving.
    let moved = false;
    const r = await roll(w, policy, {}, undefined, (e) => {
      if (e.type !== "group.start" || moved) return;
      moved = true;
      const g = w.asg("w");
      const inst = w.ec2.instances.get(taken)!;
      g.warmPool!.instances.delete(taken);
      g.instances.add(taken);
      g.desired += 1;
      inst.state = "running";
      inst.lifecycle = "InService";
      w.ec2.registerNode(g, inst, true);
    });
    expect(moved).toBe(true);
    expect(r.plan.groups[0]!.warmPool).toEqual({ replace: [taken, left] });
    expect(r.invariants.violations).toEqual([]);
    const warm = ofType(r.events, "instance.terminate").filter((e) => e.warmPool);
    expect(warm.map((e) => e.instance)).toEqual([left]);
    expect(w.ec2.instances.get(taken)?.state).toBe("running");
  });
});
