// A plan in one line and one number, in Terraform's spirit.
import type { GroupPlan, Plan, PlanSummary } from "./types.js";

export function summarize(groups: GroupPlan[]): PlanSummary {
  const rolling = groups.filter((g) => g.status === "roll");
  return {
    groupsToRoll: rolling.length,
    nodesToReplace: rolling.reduce((n, g) => n + g.replacements.length, 0),
    configChanges: groups.reduce((n, g) => n + g.configChanges.length, 0),
    blocked: groups.filter((g) => g.status === "blocked").length,
    errors: groups.filter((g) => g.status === "error").length,
    estimatedMs: rolling.reduce((n, g) => n + g.schedule.estimatedMs, 0),
  };
}

/** Terraform's first line: "Plan: 2 groups to roll (37 nodes), 1 config change, 0 blocked." */
export function summaryLine(s: PlanSummary): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (s.groupsToRoll === 0 && s.configChanges === 0 && s.blocked === 0 && s.errors === 0)
    return "No changes. The node groups match the policy.";
  const errors = s.errors > 0 ? `, ${plural(s.errors, "error")}` : "";
  return `Plan: ${plural(s.groupsToRoll, "group")} to roll (${plural(s.nodesToReplace, "node")}), ${plural(s.configChanges, "config change")}, ${s.blocked} blocked${errors}.`;
}

export function hasChanges(plan: Plan): boolean {
  return plan.summary.groupsToRoll + plan.summary.configChanges + plan.summary.blocked > 0;
}
