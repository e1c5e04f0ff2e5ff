// What a run came to, for the steps after it (issue 48, item 9): per policy, the nodes replaced
// (a plan: to replace), the groups rolled (to roll) and blocked, and how long it took (a plan:
// its estimate) — read from the plan or from the roll's progress — and from them the outputs
// `nodes-replaced`, `groups-rolled`, `groups-blocked` and `summary`, one line fit for a chat
// message.
import type { GroupPlan, Plan } from "../plan/index.js";
import { roughly, type Progress } from "../render/index.js";
import type { PolicyOutcome, RollReport } from "./context.js";

/** A finding's code as a word for chat: the budgets are what most often stop a drain. */
function shortWhy(code: string): string {
  return /pdb/.test(code) ? "PDB" : code;
}

function blockedWhy(g: GroupPlan | undefined): string {
  const blocker = g?.findings.find((f) => f.severity === "blocker");
  return blocker ? shortWhy(blocker.code) : "blocked";
}

export function planReport(plan: Plan): RollReport {
  return {
    cluster: plan.cluster.name,
    nodes: plan.summary.nodesToReplace,
    groups: plan.groups
      .filter((g) => g.status === "roll" || g.status === "config-only")
      .map((g) => g.name),
    blocked: plan.groups
      .filter((g) => g.status === "blocked")
      .map((g) => ({ group: g.name, why: blockedWhy(g) })),
    durationMs: plan.summary.estimatedMs,
    planned: true,
  };
}

/** What the roll did, from its progress (fed by its events) and the plan it carried out. */
export function rollReport(progress: Progress, plan: Plan | undefined): RollReport {
  const planned = (name: string) => plan?.groups.find((g) => g.name === name);
  const started = progress.startedAt ? Date.parse(progress.startedAt) : undefined;
  const ended = progress.endedAt ? Date.parse(progress.endedAt) : undefined;
  return {
    cluster: progress.cluster ?? plan?.cluster.name ?? "",
    nodes: progress.groups.reduce((n, g) => n + g.replaced, 0),
    groups: progress.groups
      .filter(
        (g) =>
          g.started &&
          g.result === "success" &&
          (g.replaced > 0 || g.planned === "roll" || g.planned === "config-only"),
      )
      .map((g) => g.name),
    blocked: progress.groups
      .filter((g) => g.result === "failure" || (g.planned === "blocked" && !g.started))
      .map((g) => ({
        group: g.name,
        why:
          g.result === "failure"
            ? /PodDisruptionBudget|PodEvictionFailure/.test(g.message ?? "")
              ? "PDB"
              : "failed"
            : blockedWhy(planned(g.name)),
      })),
    ...(started !== undefined && ended !== undefined && { durationMs: ended - started }),
    planned: false,
  };
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** "12 nodes replaced in 2 groups, 1 blocked (batch-asg: PDB) in 14m". */
function counts(r: RollReport): string {
  const done = r.planned ? "to replace" : "replaced";
  const parts = [`${plural(r.nodes, "node")} ${done} in ${plural(r.groups.length, "group")}`];
  if (r.blocked.length > 0)
    parts.push(
      `${r.blocked.length} blocked (${r.blocked.map((b) => `${b.group}: ${b.why}`).join(", ")})`,
    );
  const text = parts.join(", ");
  if (r.durationMs === undefined || r.durationMs <= 0) return text;
  return r.planned
    ? `${text}, ${roughly(r.durationMs)}`
    : `${text} in ${roughly(r.durationMs).slice(1)}`;
}

/** A message cut to what a chat line can carry. */
const brief = (text: string | undefined) => {
  const one = (text ?? "").replace(/\s+/g, " ").trim();
  return one.length > 200 ? `${one.slice(0, 199)}…` : one;
};

/** One policy's part of the summary line, after "noderoll ". */
function policyLine(o: PolicyOutcome, verb: string): string {
  const r = o.report;
  const on = r?.cluster ? `${o.file} on ${r.cluster}` : o.file;
  const what = r && (r.nodes > 0 || r.groups.length > 0 || r.blocked.length > 0) ? counts(r) : "";
  const why = brief(o.message);
  switch (o.result) {
    case "planned":
      return `planned ${on}: ${what || "no changes"}`;
    case "success":
      return verb === "apply"
        ? `applied ${on}: ${what || why || "nothing to do"}`
        : `${verb} ${on}: ${why || "done"}`;
    case "invalid":
      return `found ${o.file} invalid: nothing was read or changed`;
    case "skipped":
      return `skipped ${on}: ${why || "nothing to do"}`;
    case "refused":
      return `refused ${on}: ${why}`;
    case "error":
      return `could not ${verb} ${on}: ${why}`;
    default: {
      const how = o.result === "cancelled" ? "was cancelled" : "failed";
      return `${verb} of ${on} ${how}: ${[what, why].filter(Boolean).join(" — ")}`;
    }
  }
}

/** The `summary` output: one line, whatever the run did. */
export function summaryLine(outcomes: readonly PolicyOutcome[], verb: string): string {
  const line = `noderoll ${outcomes.map((o) => policyLine(o, verb)).join("; ")}`;
  // A fleet of policies in one run: still a line a chat message carries.
  return line.length > SUMMARY_MAX ? `${line.slice(0, SUMMARY_MAX - 1)}…` : line;
}

const SUMMARY_MAX = 1000;

/** Group names: plain for one policy, "policy/group" when several were planned or rolled. */
function groupNames(outcomes: readonly PolicyOutcome[], pick: (r: RollReport) => string[]) {
  const several = outcomes.filter((o) => o.report).length > 1;
  return outcomes
    .flatMap((o) => (o.report ? pick(o.report).map((g) => (several ? `${o.name}/${g}` : g)) : []))
    .join(",");
}

export function reportOutputs(
  outcomes: readonly PolicyOutcome[],
  verb: string,
): Record<"nodes-replaced" | "groups-rolled" | "groups-blocked" | "summary", string> {
  return {
    "nodes-replaced": String(outcomes.reduce((n, o) => n + (o.report?.nodes ?? 0), 0)),
    "groups-rolled": groupNames(outcomes, (r) => r.groups),
    "groups-blocked": groupNames(outcomes, (r) => r.blocked.map((b) => b.group)),
    summary: summaryLine(outcomes, verb),
  };
}
