// A saved plan (`noderoll plan --out FILE`), read back and held against the plan made afresh at
// `noderoll apply FILE`: the plans are real plans (buildPlan over live-state fixtures), the file
// is the text written and read back, and each refusal is the sentence a user reads.
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/engine/index.js";
import type { Plan } from "../../src/plan/index.js";
import {
  describeChange,
  readSavedPlan,
  savedPlanChanges,
  savedPlanText,
  type SavedPlan,
  type SavedStamp,
} from "../../src/plan/saved.js";
import { instances, policy, selfManaged, snapshot } from "./fixtures.js";

const zones = ["eu-west-1a", "eu-west-1b"];
const STAMP: SavedStamp = {
  noderoll: "0.2.0",
  policySha256: "a".repeat(64),
  clusterArn: "arn:aws:eks:eu-west-1:123456789012:cluster/prod",
};

function batchPlan(
  o: { maxUnavailable?: string; count?: number; latest?: number; drainTimeout?: string } = {},
): Plan {
  const batch = selfManaged("batch", instances("b", o.count ?? 5, zones, 1), {
    latest: o.latest ?? 2,
  });
  const web = selfManaged("web", instances("w", 2, zones, 2), { latest: 2 });
  const p = policy(
    `groups:\n  - name: batch\n    target: { launchTemplateVersion: $Latest }\n    rollingUpdate: { maxSurge: 0, maxUnavailable: ${o.maxUnavailable ?? "2"}${o.drainTimeout ? `, drainTimeout: ${o.drainTimeout}` : ""} }\n  - name: web\n    target: { launchTemplateVersion: $Latest }\n`,
  );
  return buildPlan(p, "policies/prod.yaml", snapshot([batch, web]));
}

/** The plan as `plan --out` writes it and `apply FILE` reads it back. */
const saved = (plan: Plan, stamp: SavedStamp = STAMP): SavedPlan =>
  readSavedPlan(savedPlanText(plan, stamp));

const refusals = (was: SavedPlan, now: Plan, stamp: SavedStamp = STAMP) =>
  savedPlanChanges(was, { ...now, saved: stamp }).map(describeChange);

describe("a saved plan against the plan made afresh", () => {
  it("holds when nothing apply would do has changed, though time has passed", () => {
    const plan = batchPlan();
    const later = { ...batchPlan(), takenAt: "2026-11-22T10:00:00.000Z" };
    expect(refusals(saved(plan), later)).toEqual([]);
  });

  it("names a group's budget that changed: was in the saved plan, is now", () => {
    const was = saved(batchPlan({ maxUnavailable: "2" }));
    expect(refusals(was, batchPlan({ maxUnavailable: "1" }))).toEqual([
      "group batch: maxUnavailable was 2 in the saved plan, is now 1",
    ]);
    // A percentage: the budget as asked for and the count it came to.
    expect(refusals(was, batchPlan({ maxUnavailable: '"40%"' }))).toEqual([
      "group batch: maxUnavailable was 2 in the saved plan, is now 40% (2 nodes)",
    ]);
  });

  it("names the roll settings that changed", () => {
    expect(refusals(saved(batchPlan()), batchPlan({ drainTimeout: "5m" }))).toEqual([
      "group batch: the roll settings drainTimeoutMs changed since the saved plan",
    ]);
  });

  it("names the nodes to replace that are no longer, or newly, to replace", () => {
    const was = saved(batchPlan({ count: 5 }));
    expect(refusals(was, batchPlan({ count: 4 }))).toEqual([
      "group batch: the nodes to replace changed: 5 in the saved plan, 4 now (no longer: i-b004)",
    ]);
    expect(refusals(saved(batchPlan({ count: 4 })), batchPlan({ count: 5 }))).toEqual([
      "group batch: the nodes to replace changed: 4 in the saved plan, 5 now (new: i-b004)",
    ]);
  });

  it("names a target that changed (a launch template's $Latest moved on)", () => {
    expect(refusals(saved(batchPlan({ latest: 2 })), batchPlan({ latest: 3 }))).toEqual([
      "group batch: target launchTemplateVersion was 2 in the saved plan, is now 3",
    ]);
  });

  it("names a blocker the saved plan did not have, and a group that is new or gone", () => {
    const plan = batchPlan();
    const blocked: Plan = {
      ...plan,
      groups: plan.groups.map((g) =>
        g.name === "batch"
          ? {
              ...g,
              status: "blocked",
              findings: [
                ...g.findings,
                {
                  code: "pdb-blocks",
                  severity: "blocker",
                  message: "PodDisruptionBudget default/web allows no disruption",
                  objects: ["default/web"],
                },
              ],
            }
          : g,
      ),
    };
    expect(refusals(saved(plan), blocked)).toEqual([
      "group batch: a new blocker: PodDisruptionBudget default/web allows no disruption",
    ]);
    const fewer: Plan = { ...plan, groups: plan.groups.filter((g) => g.name !== "web") };
    expect(refusals(saved(plan), fewer)).toEqual([
      "the groups were batch, web in the saved plan, are now batch",
    ]);
  });

  it("names the policy file, the noderoll and the cluster when they are not the saved plan's", () => {
    const plan = batchPlan();
    const other: SavedStamp = {
      noderoll: "0.3.0",
      policySha256: "b".repeat(64),
      clusterArn: "arn:aws:eks:eu-west-1:999999999999:cluster/prod",
    };
    expect(refusals(saved(plan), plan, other)).toEqual([
      "the saved plan was made by noderoll 0.2.0, this is noderoll 0.3.0",
      "the policy policies/prod.yaml changed since the plan was saved (sha256 aaaaaaaaaaaa…, now bbbbbbbbbbbb…)",
      "the cluster's ARN was arn:aws:eks:eu-west-1:123456789012:cluster/prod in the saved plan, is now arn:aws:eks:eu-west-1:999999999999:cluster/prod",
    ]);
    const elsewhere: Plan = {
      ...plan,
      cluster: {
        ...plan.cluster,
        region: "us-east-1",
        verified: { by: "endpoint", server: "https://B.eks.amazonaws.com" },
      },
    };
    const proven: Plan = {
      ...plan,
      cluster: {
        ...plan.cluster,
        verified: { by: "endpoint", server: "https://A.eks.amazonaws.com" },
      },
    };
    expect(refusals(saved(proven), elsewhere)).toEqual([
      "the cluster's region was eu-west-1 in the saved plan, is now us-east-1",
      "the cluster's Kubernetes API was https://A.eks.amazonaws.com in the saved plan, is now https://B.eks.amazonaws.com",
    ]);
  });
});

describe("reading a saved plan", () => {
  it("refuses what is not one, saying what is wrong", () => {
    const plan = batchPlan();
    const text = savedPlanText(plan, STAMP);
    const wrong = (t: string) => {
      try {
        readSavedPlan(t);
        return "read";
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(wrong("PK\u0003\u0004 not json")).toMatch(/^is not JSON \(/);
    expect(wrong("[1, 2]")).toBe("is not a saved plan: not a JSON object");
    // What `plan --format json` prints is a plan, not a saved one.
    expect(wrong(JSON.stringify(plan))).toBe(
      'is a plan without the "saved" stamp (as `plan --format json` prints it), not a saved plan: save one with `noderoll plan --out FILE`',
    );
    expect(wrong(text.replace('"schemaVersion": 1', '"schemaVersion": 2'))).toBe(
      "is a plan of schemaVersion 2; this noderoll reads schemaVersion 1",
    );
    const broken = JSON.parse(text) as { groups: { budgets?: unknown }[] };
    delete broken.groups[1]!.budgets;
    expect(wrong(JSON.stringify(broken))).toBe(
      "is not a saved plan noderoll can read: groups[1].budgets.maxUnavailable is missing or not a number",
    );
    expect(wrong(JSON.stringify({ kind: "SandboxScenario", saved: {} }))).toBe(
      "is not a saved plan noderoll can read: schemaVersion is missing or not a number",
    );
    expect(wrong(text)).toBe("read");
  });
});
