// A roll as the merged pull request's comment, the apply check run and the job summary show it:
// what happened and when (start, end, actual against estimated time, what started it and why),
// a row per group with its phases and nodes (pending groups with their planned counts, a
// blocked group marked, the groups after it "not started"), each error once, and a successful
// roll's PodDisruptionBudget waits said as what they were: honoured, not broken.
import { PHASES } from "../ports/index.js";
import { formatDuration } from "../policy/index.js";
import { provenance } from "./markdown.js";
import type { RunInfo } from "./limits.js";
import {
  nodeCounts,
  wasBlocked,
  type GroupProgress,
  type PhaseState,
  type Progress,
} from "./progress.js";
import { readableTime, roughly } from "./time.js";
import { forcedFlags, KIND_LABEL, STOPPED_WORD } from "./words.js";

const PHASE_ICON: Record<PhaseState, string> = {
  pending: "·",
  running: "⏳",
  success: "✅",
  failure: "❌",
  cancelled: "⏹️",
  skipped: "—",
};

const STATE = {
  success: "✅ done",
  failure: "❌ failed",
  cancelled: "⏹️ stopped",
  skipped: "— skipped",
} as const;

/** What became of a group, in one cell. */
export function groupState(g: GroupProgress, p: Progress): string {
  if (wasBlocked(g)) return "⛔ blocked, not started";
  if (g.result === "success") return g.toReplace === 0 ? "✅ nothing to replace" : "✅ rolled";
  if (g.result === "failure") return "❌ failed";
  if (g.result === "cancelled") return "⏹️ stopped";
  if (g.result === "skipped") return "— skipped";
  if (g.started) return "⏳ rolling";
  // A group with nothing to change the roll ended before is no work left undone.
  if (p.result) return g.planned === "no-change" ? "no change" : "not started";
  return g.planned === "blocked" ? "· pending (blocked in the plan)" : "· pending";
}

function timing(p: Progress): string {
  const parts: string[] = [];
  if (p.startedAt) parts.push(`started ${readableTime(p.startedAt)}`);
  if (p.endedAt) {
    const end = readableTime(p.endedAt);
    // The same day: the time alone says it.
    const sameDay = p.startedAt && readableTime(p.startedAt).slice(0, -10) === end.slice(0, -10);
    parts.push(`ended ${sameDay ? end.slice(-9) : end}`);
  }
  if (p.startedAt && p.endedAt) {
    const took = new Date(p.endedAt).getTime() - new Date(p.startedAt).getTime();
    const est = p.estimatedMs ? ` (estimated ${roughly(p.estimatedMs)})` : "";
    parts.push(`took ${formatDuration(Math.round(took / 1000) * 1000)}${est}`);
  } else if (p.estimatedMs) parts.push(`estimated ${roughly(p.estimatedMs)}`);
  return parts.join(" · ");
}

function headerLines(p: Progress, info: RunInfo): string[] {
  const { done, total } = nodeCounts(p);
  const who = [
    ...(p.trigger ? [`trigger: ${p.trigger}`] : []),
    ...(p.reason ? [`reason: ${p.reason}`] : []),
    ...forcedFlags(p).map((f) => `**${f}**`),
  ];
  const from = provenance(info);
  return [
    `**${done} of ${total} planned node${total === 1 ? "" : "s"} replaced** · ${timing(p) || "not started yet"}`,
    "",
    ...(who.length > 0 || from ? [[...who, ...(from ? [from] : [])].join(" · "), ""] : []),
  ];
}

function driftLines(p: Progress): string[] {
  if (!p.drift || p.drift.length === 0) return [];
  return [
    "> [!WARNING]",
    "> **The plan applied differs from the one reviewed on the pull request:**",
    ...p.drift.slice(0, 20).map((d) => `> - ${d}`),
    "",
  ];
}

function groupTable(p: Progress): string[] {
  const rows = p.groups.map((g, i) => {
    const phases = PHASES.map((ph) => `${PHASE_ICON[g.phases[ph]]} ${g.phases[ph]}`).join(" | ");
    const kind = g.kind ? KIND_LABEL[g.kind] : "";
    return `| ${i + 1} | \`${g.name}\` | ${kind} | ${phases} | ${g.replaced} / ${g.toReplace} | ${groupState(g, p)} |`;
  });
  return [
    `| # | group | kind | ${PHASES.join(" | ")} | nodes | state |`,
    `| -: | --- | --- | ${PHASES.map(() => ":-:").join(" | ")} | --: | --- |`,
    ...rows,
    "",
  ];
}

const bare = (m: string) => m.replace(/^[A-Za-z]+: /, "").replace(/\.$/, "");

/** Group messages, then the run's message unless it only repeats one of them. */
function messageLines(p: Progress): string[] {
  const out: string[] = [];
  const said: string[] = [];
  for (const g of p.groups)
    if (g.message) {
      out.push(`- \`${g.name}\`: ${g.message}`);
      said.push(bare(g.message));
    }
  if (p.message && !said.some((s) => bare(p.message as string).includes(s)))
    out.push(`- ${p.message}`);
  else if (p.message && /Run apply again/.test(p.message))
    out.push("- Run apply again to continue: it picks up where this run stopped.");
  return out;
}

function listed(items: string[], max = 20): string {
  const shown = items.slice(0, max).join(", ");
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

function pdbLines(p: Progress): string[] {
  const out: string[] = [];
  if (p.blocked.length > 0) {
    const pods = listed(p.blocked);
    const waited = `- PodDisruptionBudgets made ${p.blocked.length} eviction${p.blocked.length === 1 ? "" : "s"} wait (${pods})`;
    // Honoured only where nothing was deleted past them at the drain timeout (said below).
    out.push(
      p.result !== "success"
        ? `- Evictions refused by PodDisruptionBudgets (retried): ${pods}`
        : p.forced.length === 0
          ? `${waited}; they were retried until allowed, and honoured`
          : `${waited}; retried until allowed or until the drain timeout`,
    );
  }
  if (p.forced.length > 0)
    out.push(
      `- **delete-after-drain-timeout**: deleted past their PodDisruptionBudgets at the drain timeout: ${listed(p.forced.map((x) => `\`${x}\``))}`,
    );
  return out;
}

const VERDICT_ICON = { pass: "✅", fail: "❌", inconclusive: "❔" } as const;

/** Each group's gates, as last read: the verdict, the value, and why when it is not a pass. */
function gateLines(p: Progress): string[] {
  return p.groups.flatMap((g) => {
    const gates = Object.entries(g.gates ?? {});
    if (gates.length === 0) return [];
    const read = gates.map(
      ([name, v]) =>
        `${VERDICT_ICON[v.verdict]} ${name} ${v.value}${v.verdict !== "pass" && v.detail ? ` (${v.detail})` : ""}`,
    );
    return [`- \`${g.name}\` gates, as last read: ${read.join(" · ")}`];
  });
}

/** The rollback that followed the roll, if one did. */
function rollbackLines(p: Progress): string[] {
  const r = p.rollback;
  if (!r) return [];
  const state = r.result ? STATE[r.result] : "⏳ in progress";
  return [`- ↩️ **rollback**: ${state}${r.message ? ` — ${r.message}` : ""}`];
}

export function renderProgressMarkdown(
  p: Progress,
  title = "noderoll apply",
  info: RunInfo = {},
): string {
  const state = p.stop
    ? `${p.result === "skipped" ? "⏸️" : "⏹️"} ${STOPPED_WORD[p.stop.kind].toLowerCase()}`
    : p.result
      ? STATE[p.result]
      : "⏳ in progress";
  const out = [`### ${title} · \`${p.policy ?? "?"}\` · ${state}`, ""];
  out.push(...headerLines(p, info), ...driftLines(p), ...groupTable(p));
  const notes = [...messageLines(p), ...rollbackLines(p), ...gateLines(p), ...pdbLines(p)];
  if (notes.length > 0) out.push(...notes, "");
  return `${out.join("\n")}`;
}

/** The per-node timeline, for the check run's `text`: the newest lines that fit in `max`. */
export function renderTimeline(p: Progress, max = 65_535): string {
  if (p.timeline.length === 0) return "";
  const lines = [...p.timeline];
  let size = lines.reduce((n, l) => n + l.length + 1, 0);
  let dropped = 0;
  while (size > max - 200 && lines.length > 0) {
    size -= (lines.shift() as string).length + 1;
    dropped++;
  }
  const earlier = dropped > 0 ? [`… ${dropped} earlier lines are in the job's log`, ""] : [];
  return ["#### Node by node", "", ...earlier, "```text", ...lines, "```", ""].join("\n");
}
