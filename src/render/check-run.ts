// What a check run says: for a plan (completed at once) and for a roll (in progress through
// the phases, then completed). The title leads with what matters (where apply stops, how many
// of the planned nodes are done), cut at a word; the summary is the Markdown; the text is the
// per-node timeline. Pure payloads; the GitHub adapter sends them.
import type { Plan } from "../plan/index.js";
import { PHASES } from "../ports/index.js";
import { planHeadline } from "./headline.js";
import type { RunInfo } from "./limits.js";
import { CHECK_OUTPUT_LIMIT, fitMarkdown, renderPlanMarkdown } from "./markdown.js";
import { renderProgressMarkdown, renderTimeline } from "./progress-markdown.js";
import { nodeCounts, notStartedGroups, wasBlocked, type Progress } from "./progress.js";
import { forcedFlags, plural, STOPPED_WORD } from "./words.js";

export type Conclusion = "success" | "failure" | "cancelled" | "neutral";

export interface CheckRunPayload {
  status: "in_progress" | "completed";
  conclusion?: Conclusion;
  output: { title: string; summary: string; text?: string };
}

/** GitHub shows a check run's title on one line; keep it short, and cut it between words. */
export const TITLE_LIMIT = 250;

export function cutWords(text: string, max = TITLE_LIMIT): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(" ");
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,;:·(]+$/, "")}…`;
}

export function planCheckName(policyName: string): string {
  return `noderoll plan / ${policyName}`;
}

export function applyCheckName(policyName: string): string {
  return `noderoll apply / ${policyName}`;
}

export function planCheckRun(plan: Plan, info: RunInfo = {}): CheckRunPayload {
  const failing = plan.summary.blocked > 0 || plan.summary.errors > 0;
  return {
    status: "completed",
    conclusion: failing ? "failure" : "success",
    output: {
      title: cutWords(planHeadline(plan)),
      summary: fitMarkdown(
        (d) => renderPlanMarkdown(plan, d, info),
        CHECK_OUTPUT_LIMIT,
        "",
        info.runUrl,
      ),
    },
  };
}

const ENDED = {
  success: "Rolled",
  failure: "Failed",
  cancelled: "Stopped",
  skipped: "Skipped",
} as const;

/**
 * A roll's title with why it runs: a forced roll's reason (or what it forces), so the checks
 * list says why a roll replaced every node or went past PodDisruptionBudgets without opening it.
 */
export function withRunReason(
  title: string,
  p: Pick<Progress, "reason" | "replaceAll" | "deleteAfterDrainTimeout">,
): string {
  const flags = forcedFlags(p);
  const tail = p.reason
    ? ` · reason: ${p.reason}`
    : flags.length > 0
      ? ` · ${flags.join(", ")}`
      : "";
  return cutWords(`${title}${tail}`);
}

function progressTitle(p: Progress): string {
  return withRunReason(progressState(p), p);
}

function progressState(p: Progress): string {
  const { done, total } = nodeCounts(p);
  // Nothing planned and nothing done (apply stops at the first group): no count to give.
  const counted = total > 0 ? ` ${done}/${total} nodes` : "";
  if (p.result) {
    const blocked = p.groups.find(wasBlocked);
    const why = blocked
      ? `blocked at ${blocked.name}; ${plural(notStartedGroups(p).length, "group")} not started`
      : (p.message ?? "").replace(/ Run apply again.*$/, "");
    const ended = p.stop ? STOPPED_WORD[p.stop.kind] : ENDED[p.result];
    return cutWords(`${ended}${counted}: ${why}`);
  }
  const running = p.groups.flatMap((g) =>
    PHASES.filter((ph) => g.phases[ph] === "running").map((ph) => `${g.name}: ${ph}`),
  );
  const last = p.lastPhaseChange?.split("/");
  const where =
    running.join(", ") ||
    (last ? `${last[0]}: ${last[1]} ${last[2] === "start" ? "started" : last[2]}` : "starting");
  return cutWords(counted ? `${where} ·${counted}` : where);
}

const CONCLUSION = {
  success: "success",
  failure: "failure",
  cancelled: "cancelled",
  skipped: "neutral",
} as const;

export function progressCheckRun(p: Progress, info: RunInfo = {}): CheckRunPayload {
  const summary = renderProgressMarkdown(p, "noderoll apply", info).slice(0, CHECK_OUTPUT_LIMIT);
  const text = renderTimeline(p, CHECK_OUTPUT_LIMIT);
  const output = { title: progressTitle(p), summary, ...(text && { text }) };
  if (!p.result) return { status: "in_progress", output };
  return { status: "completed", conclusion: CONCLUSION[p.result], output };
}
