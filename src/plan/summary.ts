// A plan in one line and one number, in Terraform's spirit.
import type { GroupPlan, Plan, PlanSummary } from "./types.js";

export function summarize(groups: GroupPlan[]): PlanSummary {
  const rolling = groups.filter((g) => g.status === "roll");
  return {
    groupsToRoll: rolling.length,
    nodesToReplace: rolling.reduce((n, g) => n + g.replacements.length, 0),
    configChanges: groups.reduce((n, g) => n + g.configChanges.length, 0),
    cleanups: groups.filter((g) => g.status === "cleanup").length,
    blocked: groups.filter((g) => g.status === "blocked").length,
    errors: groups.filter((g) => g.status === "error").length,
    estimatedMs: rolling.reduce((n, g) => n + g.schedule.estimatedMs, 0),
  };
}

/** Terraform's first line: "Plan: 2 groups to roll (37 nodes), 1 config change, 0 blocked." */
export function summaryLine(s: PlanSummary): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const cleanups = s.cleanups ?? 0;
  if (s.groupsToRoll + s.configChanges + cleanups + s.blocked + s.errors === 0)
    return "No changes. The node groups match the policy.";
  const errors = s.errors > 0 ? `, ${plural(s.errors, "error")}` : "";
  const marks = cleanups > 0 ? `, ${plural(cleanups, "group")} with marks to clear` : "";
  return `Plan: ${plural(s.groupsToRoll, "group")} to roll (${plural(s.nodesToReplace, "node")}), ${plural(s.configChanges, "config change")}${marks}, ${s.blocked} blocked${errors}.`;
}

export function hasChanges(plan: Plan): boolean {
  const s = plan.summary;
  return s.groupsToRoll + s.configChanges + (s.cleanups ?? 0) + s.blocked > 0;
}
