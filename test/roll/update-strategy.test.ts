// EKS's update strategy for a managed node group (issue 46, item 5): DEFAULT launches new nodes
// first (a scale-up of max(2 × zones, maxUnavailable)); MINIMAL terminates first and adds no
// node (EKS API reference, NodegroupUpdateConfig.updateStrategy). noderoll reads it, shows it in
// the plan, lets the policy set it, and plans and rolls with it; the sandbox's EKS plays both.
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { physicsOf, readLiveCluster } from "../../src/rehearsal/live.js";
import { twinScenario } from "../../src/rehearsal/twin.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { policyFor, roll, selfManagedWorld } from "./scenarios.js";

type Strategy = "DEFAULT" | "MINIMAL";

function world(live?: Strategy): World {
  return World.from(
    managedScenario({
      nodes: 6,
      workloads: [{ kind: "Deployment", name: "web", replicas: 6, pdb: { minAvailable: 4 } }],
      group: { updateConfig: { maxUnavailable: 1, ...(live && { updateStrategy: live }) } },
    }),
  );
}

const policy = (strategy?: Strategy) =>
  policyFor(
    `groups: [{ name: ng, target: { kubernetesVersion: "1.33" }${strategy ? `, rollingUpdate: { updateStrategy: ${strategy} }` : ""} }]\n`,
    "test",
  );

/** Roll, and the most instances the node group's Auto Scaling group wanted at once. */
async function rollWatchingSize(w: World, strategy?: Strategy) {
  const asg = w.autoScaling.groups.get(w.eks.nodegroups.get("ng")!.asg)!;
  let peak = asg.desired;
  const r = await roll(w, policy(strategy), {}, undefined, () => {
    peak = Math.max(peak, asg.desired);
  });
  return { r, peak, start: 6 };
}

describe("a managed node group's update strategy", () => {
  it("is read from the node group: MINIMAL is planned with no scale-up, and says so", async () => {
    const w = world("MINIMAL");
    const { plan } = await w.run(observeAndPlan(policy(), "policy.yaml", w, {}));
    const g = plan.groups[0]!;
    expect(g.replacements).toHaveLength(6);
    expect(g.schedule.surge).toBe(0);
    expect(g.budgets.derivation.maxSurge).toBe(
      "none: updateStrategy MINIMAL (EKS terminates first and launches no node ahead)",
    );
    expect(g.budgets.spec).toMatchObject({ maxSurge: "EKS, MINIMAL" });
    const dflt = (await w.run(observeAndPlan(policy("DEFAULT"), "policy.yaml", w, {}))).plan
      .groups[0]!;
    expect(dflt.schedule.surge).toBe(6);
  });

  it("set by the policy: a config change made first, then EKS replaces the nodes without adding any", async () => {
    const w = world();
    const { r, peak, start } = await rollWatchingSize(w, "MINIMAL");
    expect(r.plan.groups[0]!.configChanges).toContainEqual({
      field: "updateConfig.updateStrategy",
      from: "DEFAULT",
      to: "MINIMAL",
    });
    // Warned: the group runs short while replacements boot (no floor is promised, the
    // invariants check everything else after every event).
    expect(r.plan.groups[0]!.findings).toContainEqual(
      expect.objectContaining({ code: "minimal-strategy", severity: "warning" }),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(w.eks.nodegroups.get("ng")!.updateConfig.updateStrategy).toBe("MINIMAL");
    expect(peak).toBe(start);
  });

  it("DEFAULT scales up first, as the plan said", async () => {
    const w = world();
    const { r, peak, start } = await rollWatchingSize(w);
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(r.plan.groups[0]!.findings.map((f) => f.code)).not.toContain("minimal-strategy");
    expect(peak).toBe(start + r.plan.groups[0]!.schedule.surge);
  });

  it("is an error on a self-managed group's own entry (its surge is maxSurge)", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 2 }]);
    const p = policyFor(`groups: [{ name: w, rollingUpdate: { updateStrategy: MINIMAL } }]\n`);
    const { plan } = await w.run(observeAndPlan(p, "policy.yaml", w, {}));
    const g = plan.groups[0]!;
    expect(g.status).toBe("error");
    expect(g.errors[0]).toMatch(/^rollingUpdate\.updateStrategy: updateStrategy is EKS's/);
  });

  it("is the rehearsal's too: the twin's node group updates as the live one does", async () => {
    const w = world("MINIMAL");
    const { snapshot } = await w.run(observeAndPlan(policy(), "policy.yaml", w, {}));
    const live = { ...(await w.run(readLiveCluster(w))), physics: physicsOf(w) };
    const { scenario } = twinScenario(snapshot, live);
    expect(scenario.nodeGroups[0]).toMatchObject({
      name: "ng",
      updateConfig: { maxUnavailable: 1, updateStrategy: "MINIMAL" },
    });
  });
});
