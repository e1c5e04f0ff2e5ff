// Small wording helpers shared by the text and Markdown renderers.
import { describeReason, type GroupPlan, type Replacement } from "../plan/index.js";
import { formatDuration } from "../policy/index.js";

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "~12m30s", rounded to whole seconds: an estimate, not a promise. */
export function estimate(ms: number): string {
  return ms <= 0 ? "-" : `~${formatDuration(Math.round(ms / 1000) * 1000)}`;
}

export const STATUS_WORD: Record<GroupPlan["status"], string> = {
  roll: "roll",
  "config-only": "config change",
  "no-change": "no change",
  blocked: "blocked",
  error: "error",
};

export function kindWord(g: GroupPlan): string {
  return g.kind === "managed"
    ? "EKS managed node group"
    : g.kind === "self-managed"
      ? "self-managed Auto Scaling group"
      : "not found";
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

export function budgetText(g: GroupPlan): string {
  if (g.kind === "missing") return "-";
  const surge =
    g.kind === "managed" ? `EKS scale-up ${g.budgets.maxSurge}` : `maxSurge ${g.budgets.maxSurge}`;
  return `maxUnavailable ${g.budgets.maxUnavailable} · ${surge}`;
}
