// The pull request's sticky comment, as the command line previews it and the action posts it:
// one comment per policy, found again by a hidden marker and replaced in place. The plan
// comment carries the reviewed plan (hidden) for apply to compare with on merge; the apply
// comment follows the roll, with the plan it carries out folded below.
import type { Plan } from "../plan/index.js";
import { COMMENT_LIMIT, fitMarkdown, renderPlanMarkdown, type MarkdownDetail } from "./markdown.js";
import { renderProgressMarkdown } from "./progress-markdown.js";
import type { Progress } from "./progress.js";
import type { RunInfo } from "./limits.js";
import { reviewedMarker } from "./reviewed.js";

/** The hidden marker that finds a policy's comment on a pull request again. */
export function stickyMarker(policyName: string): string {
  return `<!-- noderoll:policy:${policyName} -->`;
}

/** The plan comment: the plan, the reviewed plan hidden, and the policy's marker. */
export function planComment(plan: Plan, info: RunInfo): string {
  return fitMarkdown(
    (d) => renderPlanMarkdown(plan, d, info),
    COMMENT_LIMIT,
    `\n${reviewedMarker(plan, info.sha)}\n${stickyMarker(plan.policy.name)}`,
    info.runUrl,
  );
}

/** A comment that is only `markdown` (an invalid policy's errors), with the policy's marker. */
export function markedComment(policyName: string, markdown: string): string {
  return fitMarkdown(() => markdown, COMMENT_LIMIT, `\n${stickyMarker(policyName)}`);
}

/** The roll as it goes, and the plan it carries out folded below (the reviewer read it already). */
export function applyMarkdown(
  p: Progress,
  plan: Plan | undefined,
  info: RunInfo,
  d: MarkdownDetail,
): string {
  const below = plan
    ? `\n<details>\n<summary>The plan this roll carries out</summary>\n\n${renderPlanMarkdown(plan, d, info)}\n</details>\n`
    : "";
  return `${renderProgressMarkdown(p, "noderoll apply", info)}${below}`;
}

/**
 * The apply comment; `reviewed` is the reviewed plan's hidden marker, carried over from the plan
 * comment it replaces so that a later run can still compare with what was reviewed.
 */
export function applyComment(
  policyName: string,
  p: Progress,
  plan: Plan | undefined,
  info: RunInfo,
  reviewed?: string,
): string {
  return fitMarkdown(
    (d) => applyMarkdown(p, plan, info, d),
    COMMENT_LIMIT,
    `\n${reviewed ? `${reviewed}\n` : ""}${stickyMarker(policyName)}`,
    info.runUrl,
  );
}
