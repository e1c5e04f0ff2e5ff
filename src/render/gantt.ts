// The predicted schedule as a Mermaid gantt chart (Mermaid docs, "Gantt diagrams":
// https://mermaid.js.org/syntax/gantt.html). Bars are written as wall-clock times in the
// maintenance window's time zone (UTC without a window), which the title names, with a
// `dateFormat` that reads them exactly as written: Mermaid parses and draws dates in the
// viewer's local time, so a local-time string comes back as the same local time. The chart
// starts when apply could start (the next opening of a closed window, or the plan's moment).
// Many waves would make a chart too long to read (and to fit a comment), so past MAX_BARS it
// draws one bar per group instead.
import { reachedGroups, type GroupPlan, type Plan } from "../plan/index.js";
import { shortTime, ZoneTime } from "./time.js";
import { surgeBar } from "./words.js";

/** Above this many bars the chart shows one bar per group. */
export const MAX_BARS = 40;

export type GanttDetail = "waves" | "groups";

/** When the chart starts and in which zone: where apply could first start a node. */
export function scheduleStart(plan: Plan): { at: number; timeZone: string } {
  const w = plan.window;
  const taken = new Date(plan.takenAt).getTime();
  if (!w) return { at: taken, timeZone: "UTC" };
  const next = !w.openAtPlan && w.nextOpening ? new Date(w.nextOpening).getTime() : taken;
  return { at: next, timeZone: w.timeZone };
}

const sectionName = (name: string) => name.replace(/[:#;]/g, "_");

function waveBars(g: GroupPlan, offset: number, at: (ms: number) => string): string[] {
  const bars: string[] = [];
  const first = g.schedule.waves[0];
  if (first && first.startMs > 0)
    bars.push(`  ${surgeBar(g)} : ${at(offset)}, ${at(offset + first.startMs)}`);
  g.schedule.waves.forEach((w, i) => {
    const start = offset + w.startMs;
    const end = Math.max(start + 1000, start + w.durationMs);
    bars.push(
      `  ${w.canary ? "canary" : `wave ${i + 1}`} (${w.nodes.length}) : ${at(start)}, ${at(end)}`,
    );
  });
  return bars;
}

/** A rehearsed plan's chart: each group's phases as the twin went through them. */
function rehearsedBars(plan: Plan, at: (ms: number) => string, perGroup: boolean): string[] {
  // A group the twin never started (where apply stops, and after it) has no bar to draw.
  const rolled = plan.rehearsal!.groups.filter((g) => g.phases.length > 0);
  if (perGroup)
    return [
      "  section groups",
      ...rolled.map((g) => {
        const start = g.phases[0]?.startMs ?? 0;
        return `  ${sectionName(g.group)} : ${at(start)}, ${at(start + Math.max(1000, g.durationMs))}`;
      }),
    ];
  return rolled.flatMap((g) => [
    `  section ${sectionName(g.group)}`,
    ...g.phases.map(
      (p) => `  ${p.phase} : ${at(p.startMs)}, ${at(Math.max(p.startMs + 1000, p.endMs))}`,
    ),
  ]);
}

/**
 * Mermaid gantt of the waves (or of the groups), on the wall clock of the window's zone; for a
 * rehearsed plan, the phases the twin went through. `detail` "groups" forces one bar per group.
 */
export function gantt(plan: Plan, detail: GanttDetail = "waves"): string[] {
  if (plan.rehearsal?.groups.some((g) => g.phases.length > 0)) return rehearsedGantt(plan, detail);
  // What apply reaches: a blocked group's waves, and the groups after it, never happen.
  const groups = reachedGroups(plan.groups).filter((g) => g.schedule.waves.length > 0);
  if (groups.length === 0) return [];
  const { at: start, timeZone } = scheduleStart(plan);
  const zone = new ZoneTime(timeZone);
  const at = (ms: number) => zone.stamp(start + ms);
  const bars = groups.reduce((n, g) => n + g.schedule.waves.length + 1, 0);
  const perGroup = detail === "groups" || bars > MAX_BARS;
  const total = groups.reduce((n, g) => n + g.schedule.estimatedMs, 0);
  const lines = [
    "```mermaid",
    "gantt",
    `  title Predicted schedule from ${shortTime(start, timeZone)} (${timeZone}), estimate`,
    "  dateFormat YYYY-MM-DD HH:mm:ss",
    `  axisFormat ${total > 20 * 3_600_000 ? "%a %H:%M" : "%H:%M"}`,
  ];
  let offset = 0;
  if (perGroup) lines.push("  section groups");
  for (const g of groups) {
    if (perGroup) {
      const end = offset + Math.max(1000, g.schedule.estimatedMs);
      lines.push(
        `  ${sectionName(g.name)} (${g.replacements.length} nodes) : ${at(offset)}, ${at(end)}`,
      );
    } else {
      lines.push(`  section ${sectionName(g.name)}`, ...waveBars(g, offset, at));
    }
    offset += g.schedule.estimatedMs;
  }
  return [...lines, "```"];
}

function rehearsedGantt(plan: Plan, detail: GanttDetail): string[] {
  const { at: start, timeZone } = scheduleStart(plan);
  const zone = new ZoneTime(timeZone);
  const at = (ms: number) => zone.stamp(start + ms);
  const r = plan.rehearsal!;
  const bars = r.groups.reduce((n, g) => n + g.phases.length, 0);
  return [
    "```mermaid",
    "gantt",
    `  title Rehearsed schedule from ${shortTime(start, timeZone)} (${timeZone})`,
    "  dateFormat YYYY-MM-DD HH:mm:ss",
    `  axisFormat ${r.durationMs > 20 * 3_600_000 ? "%a %H:%M" : "%H:%M"}`,
    ...rehearsedBars(plan, at, detail === "groups" || bars > MAX_BARS),
    "```",
  ];
}
