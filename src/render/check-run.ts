// What a check run says: for a plan (completed at once) and for a roll (in progress through
// the phases, then completed). Pure payloads; the GitHub adapter sends them.
import { summaryLine, type Plan } from "../plan/index.js";
import { PHASES } from "../ports/index.js";
import { CHECK_OUTPUT_LIMIT, fitMarkdown, renderPlanMarkdown } from "./markdown.js";
import { renderProgressMarkdown, type Progress } from "./progress.js";

export type Conclusion = "success" | "failure" | "cancelled" | "neutral";

export interface CheckRunPayload {
  status: "in_progress" | "completed";
  conclusion?: Conclusion;
  output: { title: string; summary: string };
}

export function planCheckName(policyName: string): string {
  return `noderoll plan / ${policyName}`;
}

export function applyCheckName(policyName: string): string {
  return `noderoll apply / ${policyName}`;
}

export function planCheckRun(plan: Plan): CheckRunPayload {
  const failing = plan.summary.blocked > 0 || plan.summary.errors > 0;
  return {
    status: "completed",
    conclusion: failing ? "failure" : "success",
    output: {
      title: summaryLine(plan.summary),
      summary: fitMarkdown((d) => renderPlanMarkdown(plan, d), CHECK_OUTPUT_LIMIT),
    },
  };
}

function progressTitle(p: Progress): string {
  if (p.result)
    return `${p.result === "success" ? "Rolled" : p.result === "failure" ? "Failed" : p.result === "cancelled" ? "Stopped" : "Skipped"}: ${p.message ?? ""}`.slice(
      0,
      250,
    );
  const running = p.groups.flatMap((g) =>
    PHASES.filter((ph) => g.phases[ph] === "running").map((ph) => `${g.name}: ${ph}`),
  );
  const done = p.groups.reduce((n, g) => n + g.replaced, 0);
  const total = p.groups.reduce((n, g) => n + g.toReplace, 0);
  const last = p.lastPhaseChange?.split("/");
  const where =
    running.join(", ") ||
    (last ? `${last[0]}: ${last[1]} ${last[2] === "start" ? "started" : last[2]}` : "starting");
  return `${where} (${done}/${total} nodes)`.slice(0, 250);
}

export function progressCheckRun(p: Progress): CheckRunPayload {
  const summary = renderProgressMarkdown(p).slice(0, CHECK_OUTPUT_LIMIT);
  if (!p.result) return { status: "in_progress", output: { title: progressTitle(p), summary } };
  const conclusion: Conclusion =
    p.result === "success"
      ? "success"
      : p.result === "cancelled"
        ? "cancelled"
        : p.result === "skipped"
          ? "neutral"
          : "failure";
  return { status: "completed", conclusion, output: { title: progressTitle(p), summary } };
}
