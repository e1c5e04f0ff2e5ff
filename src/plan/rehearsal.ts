// How what a rehearsal found (docs/rehearsal.md) replaces the plan's heuristic estimates. Its
// shape in the plan's JSON (`rehearsal`) is in types.ts, beside the plan's.
import { reachedGroups } from "./summary.js";
import type { Plan, Rehearsal } from "./types.js";

/**
 * The plan with the rehearsal's findings: its durations replace the heuristic estimates of the
 * groups it rolled (and the total), which is what the chart and the time limits then show.
 */
export function withRehearsal(plan: Plan, rehearsal: Rehearsal): Plan {
  const rehearsed = new Map(rehearsal.groups.map((g) => [g.group, g.durationMs]));
  const groups = plan.groups.map((g) => {
    const ms = rehearsed.get(g.name);
    return ms === undefined || g.status !== "roll"
      ? g
      : { ...g, schedule: { ...g.schedule, estimatedMs: ms } };
  });
  // What apply reaches, as the summary counts it.
  const estimatedMs = reachedGroups(groups)
    .filter((g) => g.status === "roll")
    .reduce((n, g) => n + g.schedule.estimatedMs, 0);
  return { ...plan, groups, summary: { ...plan.summary, estimatedMs }, rehearsal };
}
