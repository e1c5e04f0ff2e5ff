// A plan in one line and one number, in Terraform's spirit.
import type { GroupPlan, Plan, PlanSummary } from "./types.js";

/** A group apply stops at (engine/apply.ts: it stops at the first group that fails). */
const stops = (g: GroupPlan) => g.status === "blocked" || g.status === "error";
/** The groups with work to do after the one apply stops at `index`: it will not start them. */
export function notStartedAfter<G extends GroupPlan>(groups: readonly G[], index: number): G[] {
  return groups.slice(index + 1).filter((g) => g.status !== "no-change");
}

/** The 0-based index of the group apply stops at, or -1 when it reaches every group. */
export function stopIndex(groups: readonly GroupPlan[]): number {
  return groups.findIndex(stops);
}

/** The groups apply reaches: every group before the one it stops at. */
export function reachedGroups<G extends GroupPlan>(groups: readonly G[]): G[] {
  const stop = stopIndex(groups);
  return stop < 0 ? [...groups] : groups.slice(0, stop);
}

export function summarize(groups: GroupPlan[]): PlanSummary {
  const reached = reachedGroups(groups);
  const rolling = reached.filter((g) => g.status === "roll");
  const stop = stopIndex(groups);
  const at = groups[stop];
  return {
    groupsToRoll: rolling.length,
    nodesToReplace: rolling.reduce((n, g) => n + g.replacements.length, 0),
    configChanges: reached.reduce((n, g) => n + g.configChanges.length, 0),
    cleanups: reached.filter((g) => g.status === "cleanup").length,
    blocked: groups.filter((g) => g.status === "blocked").length,
    errors: groups.filter((g) => g.status === "error").length,
    estimatedMs: rolling.reduce((n, g) => n + g.schedule.estimatedMs, 0),
    ...(at && {
      stopsAt: {
        group: at.name,
        index: stop,
        status: at.status as "blocked" | "error",
        notStarted: notStartedAfter(groups, stop).map((g) => g.name),
      },
    }),
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
