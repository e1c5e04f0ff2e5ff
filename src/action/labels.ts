// The pull request's labels (the `labels` input, off by default), as tfcmt labels a pull request
// by its plan: one of ours says where it stands, the others of ours go, nobody else's label is
// touched. A plan: noderoll/blocked (a group the roll would stop at), noderoll/to-roll, or
// noderoll/no-changes; when a policy could not be planned (invalid, an error) none of the three
// stays, since none would be true. The apply of a merged pull request: noderoll/applied, or
// noderoll/apply-failed; an apply that did nothing (the window closed, nothing left) adds none.
// A token that may not write (a fork's) is warned about once by GitHubOut and changes nothing.
import type { LabelChange } from "../adapters/github/labels.js";
import type { PolicyOutcome, PolicyResult } from "./context.js";
import type { GitHubOut } from "./github.js";

export const PLAN_LABELS = {
  blocked: "noderoll/blocked",
  toRoll: "noderoll/to-roll",
  noChanges: "noderoll/no-changes",
} as const;

export const APPLY_LABELS = {
  applied: "noderoll/applied",
  failed: "noderoll/apply-failed",
} as const;

const FAILED: ReadonlySet<PolicyResult> = new Set<PolicyResult>([
  "refused",
  "invalid",
  "error",
  "failure",
  "cancelled",
]);

export function planLabels(outcomes: readonly PolicyOutcome[]): LabelChange {
  const remove = Object.values(PLAN_LABELS);
  if (outcomes.length === 0 || outcomes.some((o) => o.result !== "planned"))
    return { add: [], remove };
  const label = outcomes.some((o) => (o.report?.blocked.length ?? 0) > 0)
    ? PLAN_LABELS.blocked
    : outcomes.some((o) => o.hasChanges)
      ? PLAN_LABELS.toRoll
      : PLAN_LABELS.noChanges;
  return { add: [label], remove };
}

export function applyLabels(outcomes: readonly PolicyOutcome[]): LabelChange | undefined {
  const remove = Object.values(APPLY_LABELS);
  if (outcomes.some((o) => FAILED.has(o.result))) return { add: [APPLY_LABELS.failed], remove };
  if (outcomes.some((o) => o.result === "success")) return { add: [APPLY_LABELS.applied], remove };
  return undefined;
}

/** Label `pullRequest` for what the run came to: a plan's, or a merge's apply. */
export async function labelPullRequest(
  gh: GitHubOut,
  pullRequest: number,
  kind: "plan" | "apply",
  outcomes: readonly PolicyOutcome[],
): Promise<void> {
  const change = kind === "plan" ? planLabels(outcomes) : applyLabels(outcomes);
  if (change) await gh.labels(pullRequest, change);
}
