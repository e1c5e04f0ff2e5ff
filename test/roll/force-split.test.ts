// "force" meant three things (issue 46, item 7); each has its own name now, and one does not
// bring another along. kubectl drain's --force is the policy's `unmanagedPods` (kOps drains with
// it: pods no controller owns are evicted, pkg/instancegroups drainNode), EKS's force is
// `deleteAfterDrainTimeout`, kOps' --force is a run's `replaceAll`. Invariants after every event.
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { formatDiagnostic, loadPolicy } from "../../src/policy/index.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

/** Group w (3 nodes, to replace) with a bare pod and a web Deployment on its nodes. */
const bare = (extra: Partial<ScenarioInput> = {}) =>
  selfManagedWorld([{ name: "w", nodes: 3 }], {
    workloads: [
      { kind: "Pod", name: "debug", replicas: 1 },
      { kind: "Deployment", name: "web", replicas: 3, pdb: { minAvailable: 2 } },
    ],
    ...extra,
  } as Partial<ScenarioInput>);

const finding = (plan: { groups: { findings: { code: string }[] }[] }, code: string) =>
  plan.groups[0]!.findings.find((f) => f.code === code) as
    { code: string; severity: string; message: string } | undefined;

describe("pods with no controller (kubectl drain's --force, the policy's unmanagedPods)", () => {
  it("are evicted by default, as kOps drains, with a warning that nothing brings them back", async () => {
    const w = bare();
    const r = await roll(w, policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 1 } }]\n"));
    expect(r.invariants.violations).toEqual([]);
    expect(finding(r.plan, "unmanaged-pods")).toMatchObject({
      severity: "warning",
      message: expect.stringMatching(
        /^pods with no controller are evicted like the rest, and nothing brings them back: default\/debug/,
      ),
    });
    expect(r.plan.groups[0]!.status).toBe("roll");
    expect(r.result.result).toBe("success");
    // Evicted, not deleted past a budget, and not back: nothing recreates it.
    expect(w.workload("debug").pods.size).toBe(0);
    expect(ofType(r.events, "node.drain.end").flatMap((e) => e.deleted ?? [])).toEqual([]);
  });

  it("block the group with unmanagedPods: refuse — and deleteAfterDrainTimeout does not lift that", async () => {
    for (const extra of ["", ", deleteAfterDrainTimeout: true"]) {
      const w = bare();
      const r = await roll(
        w,
        policyFor(`groups: [{ name: w, rollingUpdate: { unmanagedPods: refuse${extra} } }]\n`),
      );
      expect(finding(r.plan, "unmanaged-pods")).toMatchObject({
        severity: "blocker",
        message: expect.stringMatching(/or set unmanagedPods: evict, as kOps drains/),
      });
      expect(r.result.result).toBe("failure");
      expect(ofType(r.events, "node.cordon")).toEqual([]);
      expect(w.workload("debug").pods.size).toBe(1);
    }
  });
});

describe("replaceAll and deleteAfterDrainTimeout: one does not bring the other", () => {
  it("replaceAll replaces every node of an up-to-date group, and still honours a PodDisruptionBudget that never allows a disruption", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 3, upToDate: 3 }], {
      workloads: [{ kind: "Deployment", name: "db", replicas: 1, pdb: { minAvailable: 1 } }],
    } as Partial<ScenarioInput>);
    const p = policyFor("groups: [{ name: w }]\n");
    const none = await w.run(observeAndPlan(p, "p.yaml", w));
    expect(none.plan.groups[0]!.replacements).toEqual([]);
    const all = await w.run(observeAndPlan(p, "p.yaml", w, { replaceAll: true }));
    expect(all.plan.options).toEqual({ replaceAll: true, deleteAfterDrainTimeout: false });
    expect(all.plan.groups[0]!.replacements.map((r) => r.reasons)).toEqual([
      [{ kind: "replace-all" }],
      [{ kind: "replace-all" }],
      [{ kind: "replace-all" }],
    ]);
    expect(finding(all.plan, "pdb-blocks")?.severity).toBe("blocker");
  });

  it("deleteAfterDrainTimeout gets past that budget, and replaces nothing that is up to date", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 3, upToDate: 3 }], {
      workloads: [{ kind: "Deployment", name: "db", replicas: 1, pdb: { minAvailable: 1 } }],
    } as Partial<ScenarioInput>);
    const p = policyFor("groups: [{ name: w }]\n");
    const past = await w.run(observeAndPlan(p, "p.yaml", w, { deleteAfterDrainTimeout: true }));
    expect(past.plan.groups[0]!.replacements).toEqual([]);
    const both = await w.run(
      observeAndPlan(p, "p.yaml", w, { replaceAll: true, deleteAfterDrainTimeout: true }),
    );
    expect(finding(both.plan, "pdb-blocks")).toMatchObject({
      severity: "warning",
      message: expect.stringMatching(/^with deleteAfterDrainTimeout: after the drain timeout/),
    });
  });
});

describe("the old key", () => {
  it("is refused where it is written, saying what each of its meanings is called now", () => {
    const r = loadPolicy(
      `apiVersion: noderoll.io/v1\nkind: UpgradePolicy\nmetadata: { name: p }\ncluster: { name: c, region: eu-west-1 }\ngroups:\n  - name: a\n    rollingUpdate:\n      force: true\n`,
      "p.yaml",
    );
    expect(r.ok).toBe(false);
    expect(r.ok ? [] : r.errors.map(formatDiagnostic)).toEqual([
      expect.stringMatching(
        /^p\.yaml:8:7: groups\[0\]\.rollingUpdate\.force: "force" meant three things and was split: "deleteAfterDrainTimeout: true" .*"unmanagedPods: evict \| refuse" .*--replace-all$/,
      ),
    ]);
  });
});

describe("a pod with no controller that appears after the plan (someone's kubectl run, an orphaned pod)", () => {
  /** At the first cordon, `debug`'s pod loses its controller: the drains meet it, not the plan. */
  const orphanedMidRoll = async (body: string) => {
    const w = selfManagedWorld([{ name: "w", nodes: 3 }], {
      workloads: [
        { kind: "Deployment", name: "debug", replicas: 1 },
        { kind: "Deployment", name: "web", replicas: 3, pdb: { minAvailable: 2 } },
      ],
    } as Partial<ScenarioInput>);
    let orphaned = false;
    const r = await roll(w, policyFor(body), {}, undefined, (e) => {
      if (e.type !== "node.cordon" || orphaned) return;
      orphaned = true;
      w.workload("debug").kind = "Pod";
    });
    expect(orphaned).toBe(true);
    return { w, r };
  };

  it("stops the drain that meets it under unmanagedPods: refuse, the pod left where it runs", async () => {
    const { w, r } = await orphanedMidRoll(
      "groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 1, unmanagedPods: refuse } }]\n",
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(
      /^PodEvictionFailure: cannot drain .* \(the policy says unmanagedPods: refuse, as kubectl drain without --force\): default\/debug-/,
    );
    expect(w.workload("debug").pods.size).toBe(1);
  });

  it("is evicted with the rest by default", async () => {
    const { w, r } = await orphanedMidRoll(
      "groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }]\n",
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(w.workload("debug").pods.size).toBe(0);
  });
});

describe("deleteAfterDrainTimeout written in the policy alone", () => {
  it("reaches EKS as UpdateNodegroupVersion's force", async () => {
    const w = World.from(managedScenario({ nodes: 3 }) as never);
    const asked: { force?: boolean }[] = [];
    const update = w.cloud.eks.updateNodegroupVersion.bind(w.cloud.eks);
    w.cloud.eks.updateNodegroupVersion = async (input) => {
      asked.push(input);
      return update(input);
    };
    const p = policyFor(
      `groups: [{ name: ng, target: { kubernetesVersion: "1.33" }, rollingUpdate: { deleteAfterDrainTimeout: true } }]\n`,
      w.scenario.cluster.name,
    );
    const r = await roll(w, p);
    expect(r.result.result).toBe("success");
    expect(asked.map((x) => x.force)).toEqual([true]);
  });
});
