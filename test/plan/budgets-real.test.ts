// Budgets as the systems that carry them out resolve them (issue 46, item 4): a self-managed
// group's percentages as kOps' pkg/instancegroups/settings.go does (rounded down, at least 1,
// with surge or without), a managed group's as EKS does (never more than 100 nodes at once:
// EKS API reference, NodegroupUpdateConfig).
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { policyFor, selfManagedWorld } from "../roll/scenarios.js";

describe("a self-managed group's maxUnavailable percentage", () => {
  it("resolves to at least 1 with surge too (10% of 5 nodes, maxSurge 1 → 1, as kOps)", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 5 }]);
    const policy = policyFor(
      `groups: [{ name: w, rollingUpdate: { maxSurge: 1, maxUnavailable: "10%" } }]\n`,
    );
    const { plan } = await w.run(observeAndPlan(policy, "policy.yaml", w, {}));
    const g = plan.groups[0]!;
    expect(g.budgets.maxUnavailable).toBe(1);
    expect(g.budgets.maxSurge).toBe(1);
    expect(g.budgets.derivation.maxUnavailable).toBe(
      "10% of 5 nodes, rounded down = 1 (a percentage: at least 1)",
    );
    // Two nodes in flight at once after the canary: the window is maxSurge + maxUnavailable.
    expect(Math.max(...g.schedule.waves.map((x) => x.nodes.length))).toBe(2);
  });
});

describe("a managed group's maxUnavailable", () => {
  it("is never more than the 100 nodes EKS updates at once (50% of 240 → 100)", async () => {
    const w = World.from(
      managedScenario({
        nodes: 240,
        max: 480,
        group: { capacity: { cpu: 4, memory: "16Gi", pods: 40 } },
      }),
    );
    const policy = policyFor(
      `groups: [{ name: ng, target: { kubernetesVersion: "1.33" }, rollingUpdate: { maxUnavailable: "50%" } }]\n`,
      "test",
    );
    const { plan } = await w.run(observeAndPlan(policy, "policy.yaml", w, {}));
    const g = plan.groups[0]!;
    expect(g.replacements).toHaveLength(240);
    expect(g.budgets.maxUnavailable).toBe(100);
    expect(g.budgets.derivation.maxUnavailable).toMatch(
      /^50% of 240 nodes, rounded down = 120, capped at 100 \(EKS updates at most 100 nodes at once\)$/,
    );
    for (const wave of g.schedule.waves) expect(wave.nodes.length).toBeLessThanOrEqual(100);
  });
});
