// Plans for the example policies, on sandbox clusters shaped like the ones they describe:
// right to the node, checked against the world's own record of every instance.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadPolicy, type Policy } from "../../src/policy/index.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { World } from "../../src/sandbox/world/world.js";

function load(policyFile: string, scenarioFile: string): { policy: Policy; world: World } {
  const r = loadPolicy(readFileSync(policyFile, "utf8"), policyFile);
  if (!r.ok) throw new Error(`${policyFile} invalid`);
  return {
    policy: r.policy,
    world: World.fromYaml(readFileSync(scenarioFile, "utf8"), scenarioFile),
  };
}

describe("plans of the example policies", () => {
  it("policies/mixed.yaml on prod-eu: every old instance and only those, for the right reasons", async () => {
    const { policy, world } = load("policies/mixed.yaml", "policies/sandbox/mixed.yaml");
    const { plan } = await world.run(observeAndPlan(policy, "policies/mixed.yaml", world));
    const byGroup = Object.fromEntries(plan.groups.map((g) => [g.name, g]));
    expect(plan.groups.map((g) => [g.name, g.status])).toEqual([
      ["system", "roll"],
      ["ingress-a", "roll"],
      ["ingress-b", "no-change"],
      ["batch", "roll"],
    ]);
    for (const [name, latest] of [
      ["ingress-a", 4],
      ["ingress-b", 4],
      ["batch", 2],
    ] as const) {
      const old = world
        .instances(name)
        .filter((i) => i.ltVersion !== latest)
        .map((i) => i.id)
        .sort();
      expect(byGroup[name]!.replacements.map((r) => r.instance).sort(), name).toEqual(old);
      expect(
        byGroup[name]!.replacements.every(
          (r) => r.node === world.ec2.instances.get(r.instance)?.nodeName,
        ),
      ).toBe(true);
    }
    expect(byGroup["system"]!.replacements.map((r) => r.instance).sort()).toEqual(
      world
        .instances("system")
        .map((i) => i.id)
        .sort(),
    );
    expect(byGroup["system"]!.configChanges).toEqual([
      { field: "updateConfig.maxUnavailable", from: "1", to: "2" },
    ]);
    expect(byGroup["batch"]!.budgets).toMatchObject({ maxUnavailable: 1, maxSurge: 0 });
    expect(byGroup["batch"]!.findings.map((f) => f.code)).toEqual([
      "single-replica",
      "no-readiness-probe",
    ]);
    expect(plan.summary).toMatchObject({
      groupsToRoll: 3,
      nodesToReplace: 13,
      configChanges: 1,
      blocked: 0,
      errors: 0,
    });
  });

  it("policies/single-managed.yaml on staging-us: the whole group, 2 at a time", async () => {
    const { policy, world } = load(
      "policies/single-managed.yaml",
      "policies/sandbox/single-managed.yaml",
    );
    const { plan } = await world.run(observeAndPlan(policy, "policies/single-managed.yaml", world));
    const g = plan.groups[0]!;
    expect(g.replacements.map((r) => r.instance).sort()).toEqual(
      world
        .instances("general")
        .map((i) => i.id)
        .sort(),
    );
    expect(g.schedule.waves.map((w) => w.nodes.length)).toEqual([2, 2]);
    expect(g.budgets.maxSurge).toBe(4);
  });

  it("a plan after the roll has nothing left to do", async () => {
    const { policy, world } = load(
      "policies/single-managed.yaml",
      "policies/sandbox/single-managed.yaml",
    );
    const { planAndApply: apply } = await import("../../src/app/apply.js");
    const { EventLog } = await import("../../src/ports/index.js");
    const r = await world.run(apply(policy, "p", world, new EventLog(world.clock), { runId: "t" }));
    expect(r.result).toBe("success");
    const { plan } = await world.run(observeAndPlan(policy, "p", world));
    expect(plan.summary).toMatchObject({ groupsToRoll: 0, configChanges: 0, blocked: 0 });
  });
});
