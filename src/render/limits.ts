// The time limits a roll runs under, said in the plan: the maintenance window (days, hours,
// zone; open or closed at the plan's moment; the next opening) and whether the estimate fits
// one opening and one run (`max-duration`, GitHub's 6-hour job limit). A roll that does not fit
// stops starting nodes and ends early, and nothing restarts it by itself: the plan says so, and
// how to continue (the apply workflow's schedule trigger, docs/action.md, "Example workflows").
import type { Plan, PlanWindow } from "../plan/index.js";
import { formatDuration } from "../policy/index.js";
import { readableTime, roughly, shortTime, spansOf } from "./time.js";
import { alertMarkdown, type Alert } from "./words.js";

/** What the run around a plan or roll adds: which commit, which run, its limits. */
export interface RunInfo {
  /** The commit the plan or roll is for. */
  sha?: string;
  /** The workflow run (its page also holds the job summary). */
  runUrl?: string;
  /** Apply's `max-duration`: no node starts after this long. */
  maxDurationMs?: number;
}

const WEEK = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** "Mon–Thu", "Mon, Wed, Fri", "every day". */
export function dayList(days: readonly string[]): string {
  const idx = WEEK.map((d, i) => (days.includes(d) ? i : -1)).filter((i) => i >= 0);
  if (idx.length === 7) return "every day";
  const runs: number[][] = [];
  for (const i of idx) {
    const last = runs.at(-1);
    if (last && last.at(-1) === i - 1) last.push(i);
    else runs.push([i]);
  }
  return runs
    .map((r) =>
      r.length >= 3 ? `${WEEK[r[0]!]}–${WEEK[r.at(-1)!]}` : r.map((i) => WEEK[i]).join(", "),
    )
    .join(", ");
}

function windowState(w: PlanWindow): string {
  if (w.openAtPlan)
    return `open when planned${w.closesAt ? `, closes ${shortTime(w.closesAt, w.timeZone)}` : ""}`;
  return `closed when planned${w.nextOpening ? `; next opening ${shortTime(w.nextOpening, w.timeZone)}` : "; it does not open in the next 15 days"}`;
}

/** What the estimate needs: openings of the window and runs of max-duration. */
function fitWords(
  estimate: number,
  w: PlanWindow | undefined,
  maxMs: number | undefined,
): string[] {
  const out: string[] = [];
  if (w && estimate > w.openingMs)
    out.push(`≈ ${spansOf(estimate, w.openingMs)} openings of ${formatDuration(w.openingMs)}`);
  if (maxMs !== undefined && estimate > maxMs)
    out.push(`≈ ${spansOf(estimate, maxMs)} runs of ${formatDuration(maxMs)} (max-duration)`);
  return out;
}

/** A labelled line under the plan's summary: "Maintenance window", "Time", "Gates". */
export interface Fact {
  label: string;
  /** Inline Markdown. */
  text: string;
}

/** The window and the time: what a plan says of when it runs and whether it fits. */
export function limitFacts(plan: Plan, info: RunInfo = {}): Fact[] {
  const w = plan.window;
  const estimate = plan.summary.estimatedMs;
  const out: Fact[] = [];
  if (w)
    out.push({
      label: "Maintenance window",
      text: `${dayList(w.days)} ${w.start}–${w.end} ${w.timeZone} · ${windowState(w)}`,
    });
  if (estimate > 0) {
    const fit = fitWords(estimate, w, info.maxDurationMs);
    const max =
      info.maxDurationMs !== undefined
        ? ` · max-duration ${formatDuration(info.maxDurationMs)} per run`
        : "";
    out.push({
      label: "Time",
      text: `estimate ${roughly(estimate)}${max}${fit.length > 0 ? ` · needs ${fit.join(" and ")}` : w || max ? " · fits" : ""}`,
    });
  }
  return out;
}

/** The window and time lines under the plan's summary; empty when neither applies. */
export function limitLines(plan: Plan, info: RunInfo = {}): string[] {
  const out = limitFacts(plan, info).map((f) => `- **${f.label}**: ${f.text}`);
  return out.length > 0 ? [...out, ""] : [];
}

/** When a plan's state was read, in the window's zone (UTC without one), the zone named. */
export function readAt(plan: Plan): string {
  return readableTime(plan.takenAt, plan.window?.timeZone);
}

/** An alert when a merge would not finish in one go: what happens, and how to continue. */
export function limitAlerts(plan: Plan, info: RunInfo = {}): Alert[] {
  const w = plan.window;
  const estimate = plan.summary.estimatedMs;
  if (estimate <= 0) return [];
  const remaining =
    w?.openAtPlan && w.closesAt
      ? new Date(w.closesAt).getTime() - new Date(plan.takenAt).getTime()
      : undefined;
  const closed = w !== undefined && !w.openAtPlan;
  const tooLongForWindow = w !== undefined && estimate > (remaining ?? w.openingMs);
  const tooLongForRun = info.maxDurationMs !== undefined && estimate > info.maxDurationMs;
  if (!closed && !tooLongForWindow && !tooLongForRun) return [];
  const lines: string[] = [];
  if (closed)
    lines.push(
      `The window is closed now: a merge before ${w.nextOpening ? shortTime(w.nextOpening, w.timeZone) : "it opens"} (${w.timeZone}) ends \`skipped\` without starting a node.`,
    );
  if (tooLongForWindow || tooLongForRun) {
    const why = [
      tooLongForWindow && "the window closes",
      tooLongForRun && "max-duration is reached",
    ]
      .filter(Boolean)
      .join(" or ");
    lines.push(
      `The roll (${roughly(estimate)}) does not finish in one go: apply starts no node once ${why}, and ends early.`,
    );
  }
  lines.push(
    "Nothing starts apply again by itself: keep the apply workflow's `schedule` trigger (it resumes the roll in the next opening), or run it by hand (`workflow_dispatch`).",
  );
  return [{ kind: "IMPORTANT", lines }];
}

/** The alert of limitAlerts, in Markdown. */
export function limitAlert(plan: Plan, info: RunInfo = {}): string[] {
  return alertMarkdown(limitAlerts(plan, info));
}
