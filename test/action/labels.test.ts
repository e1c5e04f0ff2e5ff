// Which of noderoll's labels a pull request gets for what the run came to (the wire test,
// after-run.test.ts, sees them set on the sandbox's GitHub): one plan label at most, the other
// two removed; after a merge's apply, applied or apply-failed, and nothing for a run that did
// nothing.
import { describe, expect, it } from "vitest";
import type { PolicyOutcome } from "../../src/action/context.js";
import { applyLabels, planLabels } from "../../src/action/labels.js";

const OURS = ["noderoll/blocked", "noderoll/to-roll", "noderoll/no-changes"];

const outcome = (o: Partial<PolicyOutcome>): PolicyOutcome => ({
  file: "policies/p.yaml",
  name: "p",
  result: "planned",
  hasChanges: false,
  ...o,
});

const report = (blocked: number) => ({
  cluster: "c",
  nodes: 3,
  groups: ["a"],
  blocked: Array.from({ length: blocked }, (_, i) => ({ group: `b${i}`, why: "PDB" })),
  planned: true,
});

describe("a plan's label", () => {
  it("is no-changes, to-roll or blocked, the worst of the policies', and removes the other two", () => {
    expect(planLabels([outcome({})])).toEqual({ add: ["noderoll/no-changes"], remove: OURS });
    expect(planLabels([outcome({}), outcome({ hasChanges: true, report: report(0) })])).toEqual({
      add: ["noderoll/to-roll"],
      remove: OURS,
    });
    expect(
      planLabels([
        outcome({ hasChanges: true, report: report(0) }),
        outcome({ report: report(1) }),
      ]),
    ).toEqual({ add: ["noderoll/blocked"], remove: OURS });
  });

  it("is none when a policy could not be planned: none of the three would be true", () => {
    for (const result of ["invalid", "error", "refused"] as const)
      expect(planLabels([outcome({}), outcome({ result })])).toEqual({ add: [], remove: OURS });
  });
});

describe("an apply's label", () => {
  it("is applied, apply-failed, or none for a run that did nothing", () => {
    const remove = ["noderoll/applied", "noderoll/apply-failed"];
    expect(applyLabels([outcome({ result: "success" })])).toEqual({
      add: ["noderoll/applied"],
      remove,
    });
    for (const result of ["failure", "cancelled", "error"] as const)
      expect(applyLabels([outcome({ result: "success" }), outcome({ result })])).toEqual({
        add: ["noderoll/apply-failed"],
        remove,
      });
    expect(applyLabels([outcome({ result: "skipped" })])).toBeUndefined();
  });
});
