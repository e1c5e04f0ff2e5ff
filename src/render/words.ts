// Small wording helpers shared by the text and Markdown renderers.
import {
  describeReason,
  type Cleanup,
  type GroupPlan,
  type NodeDown,
  type ReplaceReason,
  type Replacement,
} from "../plan/index.js";
import { formatDuration, gateSettings } from "../policy/index.js";
import type { StopReason } from "../ports/index.js";

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "~12m30s", rounded to whole seconds: an estimate, not a promise. */
export function estimate(ms: number): string {
  return ms <= 0 ? "-" : `~${formatDuration(Math.round(ms / 1000) * 1000)}`;
}

/** A replacement's node out of service already, as the plan's node table says it. */
export const DOWN_WORD: Record<NodeDown, string> = {
  "not-ready": "node NotReady",
  unreachable: "node unreachable (kubelet not reporting)",
  "no-node": "no node (never joined)",
};

export const STATUS_WORD: Record<GroupPlan["status"], string> = {
  roll: "roll",
  "config-only": "config change",
  cleanup: "marks to clear",
  "no-change": "no change",
  blocked: "blocked",
  error: "error",
};

/** What a reader calls each kind of group, and the surge it launches. */
const KIND_WORDS: Record<
  GroupPlan["kind"],
  {
    name: string;
    surge: string;
    budget: string;
    bar: string;
    /** What the bake follows, whether checkpoints apply, and what a failed gate stops. */
    gates: { bakeAfter: string; checkpoints: boolean; halts: string };
  }
> = {
  managed: {
    name: "EKS managed node group",
    surge: "EKS scale-up",
    budget: "scale-up",
    bar: "scale-up",
    // EKS runs the update in its own waves, and nothing stops it midway.
    gates: {
      bakeAfter: "the update",
      checkpoints: false,
      halts: "a failed gate stops the run (EKS's update itself goes on)",
    },
  },
  "self-managed": {
    name: "self-managed Auto Scaling group",
    surge: "maxSurge",
    budget: "maxSurge",
    bar: "surge",
    gates: { bakeAfter: "each wave", checkpoints: true, halts: "a failed gate halts" },
  },
  missing: {
    name: "not found",
    surge: "",
    budget: "",
    bar: "",
    gates: { bakeAfter: "", checkpoints: false, halts: "" },
  },
};

export function kindWord(g: GroupPlan): string {
  return KIND_WORDS[g.kind].name;
}

/** The kind in a table cell: "managed" (EKS managed node group) or "ASG" (self-managed). */
export const KIND_LABEL: Record<GroupPlan["kind"], string> = {
  managed: "managed",
  "self-managed": "ASG",
  missing: "not found",
};

/** "1.33.1" for "1.33.1-20250715", unless the dates are all that differ. */
function release(from: string, to: string): [string, string] {
  const short = (v: string) => v.replace(/-\d{8}$/, "");
  return short(from) === short(to) ? [from, to] : [short(from), short(to)];
}

/** A replacement reason in a few words, for the overview's "why" column. */
export function shortReason(r: ReplaceReason): string {
  switch (r.kind) {
    case "release-version": {
      const [from, to] = release(r.from, r.to);
      return `AMI ${from} → ${to}`;
    }
    case "kubernetes-version":
      return `Kubernetes ${r.from} → ${r.to}`;
    case "launch-template":
      return r.fromTemplate !== r.toTemplate
        ? `another launch template (${r.fromTemplate ?? "?"})`
        : `launch template ${r.from ?? "?"} → ${r.to}`;
    case "max-node-age":
      return `older than ${Math.floor(r.maxMs / 86_400_000)}d`;
    case "annotated":
      return "annotated";
    case "detached-for-surge":
      return "left detached";
    case "group-update":
      return "whole-group update";
    case "replace-all":
      return "replace-all";
  }
}

/** Why a group changes, in one cell: its reasons (most common first) and config changes. */
export function whyCell(g: GroupPlan): string {
  const counts = new Map<string, number>();
  for (const r of g.replacements)
    for (const reason of r.reasons)
      if (reason.kind !== "group-update")
        counts.set(shortReason(reason), (counts.get(shortReason(reason)) ?? 0) + 1);
  const reasons = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([t]) => t);
  const config = g.configChanges.map((c) => `${c.field.replace(/^.*\./, "")} ${c.from} → ${c.to}`);
  const all = [...reasons, ...config];
  if (g.status === "error") return "see errors";
  return all.length > 0 ? all.join(", ") : "-";
}

/** "EKS scale-up" or "maxSurge": what the group's surge is called. */
export function surgeWord(g: GroupPlan): string {
  return KIND_WORDS[g.kind].surge;
}

/** The surge in a group's budget line: "scale-up" (EKS) or "maxSurge". */
export function surgeBudgetWord(g: GroupPlan): string {
  return KIND_WORDS[g.kind].budget;
}

/** The gantt bar of the nodes launched before the first wave. */
export function surgeBar(g: GroupPlan): string {
  return KIND_WORDS[g.kind].bar;
}

/** Reasons with counts, most common first: "launch template 6 → 7 (4), annotated … (1)". */
export function reasonCounts(replacements: Replacement[]): string {
  const counts = new Map<string, number>();
  for (const r of replacements)
    for (const reason of r.reasons)
      counts.set(describeReason(reason), (counts.get(describeReason(reason)) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([text, n]) => `${text} (${n})`)
    .join(", ");
}

export function waveSummary(g: GroupPlan): string {
  const waves = g.schedule.waves;
  if (waves.length === 0) return "";
  const canary = waves[0]?.canary ? "a canary, then " : "";
  const rest = waves[0]?.canary ? waves.slice(1) : waves;
  const sizes = [...new Set(rest.map((w) => w.nodes.length))];
  const shape =
    rest.length === 0
      ? ""
      : `${plural(rest.length, "wave")} of ${sizes.length === 1 ? sizes[0] : `up to ${Math.max(...sizes)}`}`;
  const zones =
    g.schedule.zoneOrder.length > 1 ? `, zones in turn (${g.schedule.zoneOrder.join(" → ")})` : "";
  return `${canary}${shape}${zones}`;
}

/**
 * A group's health gates in one line: what is read during every wave and bake, and what a
 * checkpoint does. Managed node groups: EKS runs the update in its own waves and nothing stops
 * it midway, so their gates stop the run, not the update, and have no checkpoints.
 */
export function gatesText(g: GroupPlan): string {
  const s = g.settings?.gates;
  if (!s || g.replacements.length === 0) return "";
  const r = s.replacements;
  const builtIn = `Ready within ${formatDuration(r.readyWithinMs)}, ${r.crashLoopingPods === 1 ? "no crash-looping pod" : `fewer than ${r.crashLoopingPods} crash-looping pods`}`;
  // Most groups keep the built-in gate alone: the plan says it once (defaultGatesText).
  if (hasDefaultGates(g)) return "";
  const parts = [
    `replacements ${builtIn}`,
    ...(s.alarms.length > 0
      ? [`CloudWatch alarm${s.alarms.length === 1 ? "" : "s"} ${s.alarms.join(", ")} not in ALARM`]
      : []),
    ...s.prometheus.map(
      (p) =>
        `Prometheus ${p.name} ${"above" in p.fail ? `≤ ${p.fail.above}` : `≥ ${p.fail.below}`}`,
    ),
  ];
  const words = KIND_WORDS[g.kind].gates;
  const bake = s.bakeMs > 0 ? `; bake ${formatDuration(s.bakeMs)} after ${words.bakeAfter}` : "";
  const checkpoints =
    words.checkpoints && s.checkpoints.length > 0
      ? `; checkpoints at ${s.checkpoints.map((c) => `${Math.round(c * 100)}%`).join(", ")} (${s.checkpointDelayMs !== undefined ? `wait ${formatDuration(s.checkpointDelayMs)}, then go on` : "pause until resumed"})`
      : "";
  const onFailure = s.onFailure === "rollback" ? ", then rolls back" : "";
  return `${parts.join("; ")}${bake}${checkpoints}; ${words.halts}${onFailure}, an inconclusive one ${INCONCLUSIVE_WORD[s.onInconclusive]}`;
}

const DEFAULT_GATES = JSON.stringify(gateSettings({}));

/** A group that replaces nodes under the built-in gate alone, as every policy has it. */
const hasDefaultGates = (g: GroupPlan) =>
  g.replacements.length > 0 && JSON.stringify(g.settings?.gates) === DEFAULT_GATES;

/** What gates the groups with none of their own: said once for the plan, "" when no such group. */
export function defaultGatesText(groups: readonly GroupPlan[]): string {
  const plain = groups.filter(hasDefaultGates);
  if (plain.length === 0) return "";
  const r = gateSettings({}).replacements;
  const every = plain.length === groups.filter((g) => g.replacements.length > 0).length;
  const on = every ? "every group" : plain.map((g) => g.name).join(", ");
  return `the built-in gate on ${on} — replacements Ready within ${formatDuration(r.readyWithinMs)} and no pod crash-looping on them, read every 30 s; a failure halts the roll (the policy's \`gates\`, docs/gates.md)`;
}

const INCONCLUSIVE_WORD = { pause: "pauses", halt: "halts", continue: "is noted" } as const;

export function budgetText(g: GroupPlan): string {
  // Budgets only mean something for a group that replaces nodes.
  if (g.kind === "missing" || g.replacements.length === 0) return "-";
  return `maxUnavailable ${g.budgets.maxUnavailable} · ${surgeWord(g)} ${g.budgets.maxSurge}`;
}

/** What each of noderoll's marks is, for a reader (plan/marks.ts). */
const MARK_WORD: Record<Cleanup["mark"], string> = {
  "scale-down-disabled": "the cluster autoscaler kept off (scale-down-disabled)",
  cordon: "cordoned by noderoll",
  "scheduled-taint": "tainted scheduled-for-update",
  "surge-mark": "marked for surge, never detached",
  "suspended-process": "a scaling process noderoll suspended on the group",
};

/** A group's marks to clear, one phrase per kind of mark. */
export function cleanupText(cleanup: readonly Cleanup[]): string {
  return cleanup
    .map(
      (c) =>
        `${MARK_WORD[c.mark]}: ${c.objects.slice(0, 5).join(", ")}${c.objects.length > 5 ? ` and ${c.objects.length - 5} more` : ""}`,
    )
    .join("; ");
}

/** How a roll that stopped before it was done ended, by why (ports StopReason). */
export const STOPPED_WORD: Record<StopReason["kind"], string> = {
  cancelled: "Cancelled",
  "lock-lost": "Stopped, the cluster lock lost",
  deadline: "Paused at --max-duration",
  "window-closed": "Paused, the maintenance window closed",
  paused: "Paused on request (noderoll pause)",
  aborted: "Aborted on request (noderoll abort)",
};

type Forced = { replaceAll: boolean; deleteAfterDrainTimeout: boolean };

/** What a run may force: its flag, and what it does, for the top of a plan. */
const FORCED: readonly { on: (o: Forced) => boolean; flag: string; does: string }[] = [
  {
    on: (o) => o.replaceAll,
    flag: "replace-all",
    does: "every selected node is replaced, whatever its version",
  },
  {
    on: (o) => o.deleteAfterDrainTimeout,
    flag: "delete-after-drain-timeout",
    does: "what a drain leaves at its timeout is deleted, past PodDisruptionBudgets",
  },
];

/** What a run forces, as flags ("replace-all", "delete-after-drain-timeout"): one word each. */
export function forcedFlags(o: Forced): string[] {
  return FORCED.filter((f) => f.on(o)).map((f) => f.flag);
}

/**
 * What a reader must see before the groups, in GitHub's alert kinds (GitHub docs, "Basic
 * writing and formatting syntax", Alerts): the comment shows them as alerts, the terminal as
 * marked lines. Lines are inline Markdown (`code`, **bold**); "" parts paragraphs.
 */
export interface Alert {
  kind: "CAUTION" | "WARNING" | "IMPORTANT";
  lines: string[];
}

/** The alerts as GitHub-flavoured Markdown, each followed by a blank line. */
export function alertMarkdown(alerts: readonly Alert[]): string[] {
  return alerts.flatMap((a) => [`> [!${a.kind}]`, ...a.lines.map((l) => (l ? `> ${l}` : ">")), ""]);
}

/** What a run forces, a sentence each, as one alert at the top of a plan. */
export function forcedAlerts(o: Forced): Alert[] {
  const lines = FORCED.filter((f) => f.on(o)).map((f) => `**${f.flag}**: ${f.does}.`);
  return lines.length > 0 ? [{ kind: "WARNING", lines }] : [];
}

/** Inline Markdown as a terminal shows it: no backticks, and **bold** through `bold`. */
export function inlinePlain(md: string, bold: (s: string) => string = (s) => s): string {
  return md.replace(/\*\*(.+?)\*\*/g, (_, b: string) => bold(b)).replace(/`([^`]*)`/g, "$1");
}

function derived(value: number, derivation: string): string {
  return derivation && derivation !== String(value)
    ? `**${value}** (${derivation})`
    : `**${value}**`;
}

/**
 * What a group that replaces nodes does, a line each in inline Markdown — the nodes and why,
 * the budgets and how each was derived, the schedule and its estimate, its own gates — for the
 * comment's list and the terminal's lines alike.
 */
export function rollLines(g: GroupPlan): string[] {
  if (g.replacements.length === 0) return [];
  const { maxUnavailable, maxSurge, derivation } = g.budgets;
  const gates = gatesText(g);
  return [
    `Replace **${g.replacements.length} of ${g.nodes}** nodes: ${reasonCounts(g.replacements)}`,
    `Budgets: maxUnavailable ${derived(maxUnavailable, derivation.maxUnavailable)}; ${surgeBudgetWord(g)} ${derived(maxSurge, derivation.maxSurge)}`,
    `Schedule: ${waveSummary(g)}; ${estimate(g.schedule.estimatedMs)}`,
    ...(gates ? [`Gates: ${gates}`] : []),
  ];
}

/** A group's marks an earlier run left, in a line; "" when none. */
export function cleanupLine(g: GroupPlan): string {
  return g.cleanup.length > 0
    ? `Marks an earlier run left, which apply clears: ${cleanupText(g.cleanup)}`
    : "";
}
