// A pod already being deleted, read from a sandbox cluster and planned, by either read path: the
// eviction API lets it go without asking its budgets (canIgnorePDB in the Kubernetes source,
// pkg/registry/core/pod/storage/eviction.go), so the plan's budget findings leave it out, while
// the pod that replaced it still counts; held by its finalizer past its grace, it is a blocker.
import { describe, expect, it } from "vitest";
import { Planner } from "../../src/engine/index.js";
import type { ReadPath } from "../../src/plan/index.js";
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
  for (const path of ["by-node", "cluster-wide"] as ReadPath[])
    it(`is read with its deletion time and asks no budget; its replacement does (${path})`, async () => {
      const w = world();
      const r = loadPolicy(POLICY, "p.yaml");
      if (!r.ok) throw new Error("policy");
      const [first] = [...w.workload("sticky").pods];
      // Deleted (not evicted: a deletion asks no budget), and held by its finalizer.
      await w.cluster.deletePod("default", first!.name);
      const due = new Date(w.clock.nowMs() + 30_000).toISOString();
      await w.advance(20_000);
      const pods = [...w.workload("sticky").pods];
      const replacement = pods.find((p) => p !== first && p.ready);
      expect(replacement).toBeDefined();

      const planner = new Planner(r.policy, "p.yaml", {}, path);
      const { plan, snapshot } = await w.run(planner.observe(w));
      const read = (name: string) => snapshot.pods.all().find((p) => p.name === name);
      expect(read(first!.name)?.deletionTimestamp).toBe(due);
      expect(read(replacement!.name)?.deletionTimestamp).toBeUndefined();
      // minAvailable 1: of the two pods the budget expects, one is leaving, so it never
      // allows a disruption of the other — a blocker naming that one alone.
      const findings = plan.groups[0]!.findings;
      expect(findings.map((f) => f.code)).toEqual(["pdb-blocks", "single-replica"]);
      expect(findings[0]!.objects).toEqual([
        "PodDisruptionBudget/default/sticky",
        `default/${replacement!.name}`,
      ]);

      // Past its grace by more than a minute, and still there: stuck.
      await w.advance(120_000);
      const later = await w.run(new Planner(r.policy, "p.yaml", {}, path).observe(w));
      expect(later.plan.groups[0]!.findings.map((f) => f.code)).toEqual([
        "stuck-terminating",
        "pdb-blocks",
        "single-replica",
      ]);
      expect(later.plan.groups[0]!.findings[0]!.objects).toEqual([
        `default/${first!.name} (deletion due ${due})`,
      ]);
    });
});
