// What deleteAfterDrainTimeout (EKS's force) overrides, finding by finding (src/plan/finding.ts,
// AT_DRAIN_TIMEOUT): a blocker it can get past becomes a warning that says
// "with deleteAfterDrainTimeout: …" and the group rolls; one it cannot help with (a node group EKS
// will not update, pods with no controller under unmanagedPods: refuse) still stops it.
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { AT_DRAIN_TIMEOUT } from "../../src/plan/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

const tolerant = {
  workloads: [
    {
      kind: "Deployment" as const,
      name: "agent",
      replicas: 2,
      tolerations: [{ operator: "Exists" as const }],
    },
  ],
};

describe("deleteAfterDrainTimeout, finding by finding", () => {
  it("says what it overrides: PDBs that never allow or are closed, several PDBs, pods that tolerate the cordon, a zone's outage, pods slower to stop than the drain waits, pods bound to a zone no node will come to — not pods without a controller (unmanagedPods says)", () => {
    expect(Object.keys(AT_DRAIN_TIMEOUT).sort()).toEqual([
      "grace-exceeds-drain-timeout",
      "multiple-pdbs",
      "pdb-blocks",
      "pdb-closed-now",
      "stuck-terminating",
      "tolerates-everything",
      "zone-disrupted",
      "zone-pinned-pods",
    ]);
  });

  it("without deleteAfterDrainTimeout refuses a group with a pod stuck terminating; with it rolls it past the drain timeout", async () => {
    const sticky = {
      workloads: [{ kind: "Deployment" as const, name: "sticky", replicas: 1 }],
      faults: { stuckTerminating: ["default/sticky"] },
    };
    const stuck = async () => {
      const world = selfManagedWorld([{ name: "w", nodes: 3 }], sticky as never);
      const [pod] = [...world.workload("sticky").pods];
      await world.cluster.deletePod("default", pod!.name);
      await world.advance(180_000);
      return world;
    };
    const policy = policyFor("groups: [{ name: w, rollingUpdate: { drainTimeout: 2m } }]\n");
    const refused = await roll(await stuck(), policy);
    expect(refused.result).toMatchObject({
      result: "failure",
      message: expect.stringMatching(
        /^PodEvictionFailure: not started, it would fail: pods still there after their/,
      ),
    });
    const world = await stuck();
    const forced = await roll(world, policy, {
      deleteAfterDrainTimeout: true,
      reason: "CVE-2026-0004",
    });
    const finding = forced.plan.groups[0]!.findings.find((f) => f.code === "stuck-terminating");
    expect(finding?.message).toMatch(
      /^with deleteAfterDrainTimeout: after the drain timeout their node is terminated/,
    );
    expect(forced.result.result).toBe("success");
    expect(forced.invariants.violations).toEqual([]);
    expect(world.instances("w").every((i) => i.ltVersion === 2)).toBe(true);
  });

  it("without deleteAfterDrainTimeout refuses a group whose pods tolerate every taint; with it rolls it and says so", async () => {
    const policy = policyFor("groups: [{ name: w, rollingUpdate: { drainTimeout: 2m } }]\n");
    const refused = await roll(
      selfManagedWorld([{ name: "w", nodes: 3 }], tolerant as never),
      policy,
    );
    expect(refused.result).toMatchObject({
      result: "failure",
      message: expect.stringMatching(
        /^PodEvictionFailure: not started, it would fail: pods that tolerate every taint/,
      ),
    });
    expect(ofType(refused.events, "node.cordon")).toHaveLength(0);

    const world = selfManagedWorld([{ name: "w", nodes: 3 }], tolerant as never);
    const forced = await roll(world, policy, {
      deleteAfterDrainTimeout: true,
      reason: "CVE-2026-0002",
    });
    const finding = forced.plan.groups[0]!.findings.find((f) => f.code === "tolerates-everything");
    expect(finding).toMatchObject({
      severity: "warning",
      message: expect.stringMatching(
        /^with deleteAfterDrainTimeout: after the drain timeout what is left is deleted and the node terminated/,
      ),
    });
    expect(forced.plan.groups[0]!.status).toBe("roll");
    expect(forced.invariants.violations).toEqual([]);
    expect(forced.result.result).toBe("success");
    expect(world.instances("w").every((i) => i.ltVersion === 2)).toBe(true);
  });

  it("with deleteAfterDrainTimeout, EKS's force update replaces a managed group whose pods tolerate every taint", async () => {
    const world = World.from(managedScenario({ nodes: 3, workloads: tolerant.workloads }) as never);
    const policy = policyFor(
      'groups: [{ name: ng, target: { kubernetesVersion: "1.33" } }]\n',
      world.scenario.cluster.name,
    );
    const { plan } = await world.run(
      observeAndPlan(policy, "p.yaml", world, { deleteAfterDrainTimeout: true }),
    );
    expect(plan.groups[0]!.status).toBe("roll");
    const forced = await roll(world, policy, {
      deleteAfterDrainTimeout: true,
      reason: "CVE-2026-0003",
    });
    expect(forced.result.result).toBe("success");
    expect(ofType(forced.events, "eks.update")[0]).toMatchObject({ updateType: "VersionUpdate" });
  });
});

describe("what the preflight sees that it used to miss", () => {
  it("a PDB whose percentage rounds up to every pod never allows: a blocker, not a wait", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 3 }], {
      workloads: [{ kind: "Deployment", name: "web", replicas: 3, pdb: { minAvailable: "80%" } }],
    } as never);
    const { result, plan, events } = await roll(world, policyFor("groups: [{ name: w }]\n"));
    expect(plan.groups[0]!.findings.map((f) => `${f.severity}:${f.code}`)).toContain(
      "blocker:pdb-blocks",
    );
    expect(result.message).toMatch(/^PodEvictionFailure: not started/);
    expect(ofType(events, "node.cordon")).toHaveLength(0);
  });

  it.each([
    [{ operator: "Exists", effect: "NoSchedule" }],
    [{ key: "node.kubernetes.io/unschedulable", operator: "Exists" }],
  ])("pods tolerating the cordon (%j) are found before the roll", async (toleration) => {
    const world = selfManagedWorld([{ name: "w", nodes: 3 }], {
      workloads: [{ kind: "Deployment", name: "web", replicas: 2, tolerations: [toleration] }],
    } as never);
    const { result, plan } = await roll(world, policyFor("groups: [{ name: w }]\n"));
    expect(plan.groups[0]!.status).toBe("blocked");
    expect(result.message).toMatch(/tolerate every taint, or the cordon's/);
  });
});
