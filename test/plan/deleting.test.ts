// A pod already being deleted, read from a sandbox cluster and planned: the eviction API lets it
// go without asking its budgets (canIgnorePDB in the Kubernetes source,
// pkg/registry/core/pod/storage/eviction.go), so the plan's budget findings leave it out, while
// the pod that replaced it still counts.
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { loadPolicy } from "../../src/policy/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { plainScenario } from "../sandbox/helpers.js";

const POLICY = `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata: { name: plain }
cluster: { name: plain, region: eu-west-1 }
groups: [{ name: nodes }]
`;

function world(): World {
  const scenario = plainScenario(
    [{ kind: "Deployment", name: "sticky", replicas: 1, pdb: { minAvailable: 1 } }],
    3,
    { faults: { stuckTerminating: ["default/sticky"] } },
  );
  const group = scenario.nodeGroups[0]!;
  // Every node a version behind its launch template: all of them are replaced.
  scenario.nodeGroups = [
    { ...group, launchTemplate: { versions: 2 }, instances: [{ version: 1, count: 3 }] },
  ];
  return World.from(scenario);
}

describe("a pod being deleted, in the plan", () => {
  it("is read as terminating, asks no budget, and its replacement does", async () => {
    const w = world();
    const r = loadPolicy(POLICY, "p.yaml");
    if (!r.ok) throw new Error("policy");
    const [first] = [...w.workload("sticky").pods];
    // Deleted (not evicted: a deletion asks no budget), and held by its finalizer.
    await w.cluster.deletePod("default", first!.name);
    await w.advance(120_000);
    const pods = [...w.workload("sticky").pods];
    const replacement = pods.find((p) => p !== first && p.ready);
    expect(replacement).toBeDefined();

    const { plan, snapshot } = await w.run(observeAndPlan(r.policy, "p.yaml", w));
    const read = (name: string) => snapshot.pods.find((p) => p.name === name);
    expect(read(first!.name)?.terminating).toBe(true);
    expect(read(replacement!.name)?.terminating).toBeUndefined();
    const budget = plan.groups[0]!.findings.filter((f) => f.code.startsWith("pdb-"));
    // minAvailable 1, one healthy pod (the one being deleted is expected, not healthy): closed
    // for now, for the running pod alone.
    expect(budget.map((f) => f.code)).toEqual(["pdb-closed-now"]);
    expect(budget[0]!.objects).toEqual([
      "PodDisruptionBudget/default/sticky",
      `default/${replacement!.name}`,
    ]);
  });
});
