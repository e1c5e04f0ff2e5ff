// The plan as GitHub-flavoured Markdown for the sticky PR comment, the check run and the job
// summary: what stops or hurts first (alerts), the Terraform-style line, the window and time
// limits, a table of groups, a section per group with its preflight findings, long parts in
// <details>, and a Mermaid gantt of the predicted schedule (gantt.ts). Bodies are kept under
// GitHub's limits by dropping detail in steps (fitMarkdown), with a note at the top.
import {
  describeReason,
  summaryLine,
  type GroupPlan,
  type Plan,
  type Replacement,
} from "../plan/index.js";
import { gantt, type GanttDetail } from "./gantt.js";
import { alertLines } from "./headline.js";
import { rehearsalAlerts, rehearsalMarkdown } from "./rehearsal.js";
import { limitAlert, limitLines, readAt, type RunInfo } from "./limits.js";
import { planFingerprint } from "./reviewed.js";
import { notReached } from "./text.js";
import {
  DOWN_WORD,
  alertMarkdown,
  budgetText,
  cleanupLine,
  estimate,
  forcedAlerts,
  KIND_LABEL,
  kindWord,
  rollLines,
  STATUS_WORD,
  defaultGatesText,
  whyCell,
} from "./words.js";

const ICON: Record<GroupPlan["status"], string> = {
  roll: "🔄",
  "config-only": "⚙️",
  cleanup: "🧹",
  "no-change": "✅",
  blocked: "⛔",
  error: "❌",
};
const FINDING_ICON = { blocker: "⛔", warning: "⚠️", info: "ℹ️" } as const;

export interface MarkdownDetail {
  /** Rows of the per-group node table; Infinity for all. */
  nodeRows: number;
  /** The schedule chart: a bar per wave, a bar per group, or none. */
  gantt: GanttDetail | false;
  /** Findings per group. */
  findings: number;
  /** What was cut to fit, said at the top (fitMarkdown fills it in). */
  note?: string;
}

export const FULL_DETAIL: MarkdownDetail = {
  nodeRows: Infinity,
  gantt: "waves",
  findings: Infinity,
};

/** Table cells may not hold "|" or newlines. */
export function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

function overviewTable(plan: Plan): string[] {
  const rows = plan.groups.map((g, i) => {
    const replace = g.replacements.length > 0 ? `${g.replacements.length} of ${g.nodes}` : "-";
    const time = g.replacements.length > 0 ? estimate(g.schedule.estimatedMs) : "-";
    // A group after the one apply stops at is planned, but apply will not reach it.
    return `| ${i + 1} | \`${cell(g.name)}\` | ${KIND_LABEL[g.kind]} | ${ICON[g.status]} ${STATUS_WORD[g.status]}${notReached(plan.groups, i)} | ${replace} | ${cell(whyCell(g))} | ${cell(budgetText(g))} | ${time} |`;
  });
  return [
    "| # | group | kind | status | replace | why | budgets | estimate |",
    "| -: | --- | --- | --- | --: | --- | --- | --: |",
    ...rows,
  ];
}

/** The node table's "why": the reasons, and the node's state when it is down already. */
const whyReplaced = (r: Replacement) =>
  [r.reasons.map(describeReason).join(", "), ...(r.down ? [`**${DOWN_WORD[r.down]}**`] : [])].join(
    "; ",
  );

function nodeTable(g: GroupPlan, limit: number): string[] {
  if (g.replacements.length === 0) return [];
  const shown = g.replacements.slice(0, limit);
  const rows = shown.map(
    (r) =>
      `| \`${cell(r.node ?? "-")}\` | \`${r.instance}\` | ${r.zone} | ${cell(whyReplaced(r))} |`,
  );
  const more =
    g.replacements.length > shown.length
      ? [`| … | ${g.replacements.length - shown.length} more | | |`]
      : [];
  return [
    "<details>",
    `<summary>Nodes to replace (${g.replacements.length})</summary>`,
    "",
    "| node | instance | zone | why |",
    "| --- | --- | --- | --- |",
    ...rows,
    ...more,
    "",
    "</details>",
  ];
}

function groupSection(plan: Plan, i: number, detail: MarkdownDetail): string[] {
  const g = plan.groups[i] as GroupPlan;
  const out = [
    `#### ${i + 1}. \`${g.name}\` · ${kindWord(g)} · ${ICON[g.status]} ${STATUS_WORD[g.status]}${notReached(plan.groups, i)}`,
    "",
  ];
  for (const e of g.errors) out.push(`- ❌ ${e}`);
  // Blockers before anything else of the group: they decide whether it rolls at all.
  const ordered = [...g.findings].sort(
    (a, b) => Number(b.severity === "blocker") - Number(a.severity === "blocker"),
  );
  const findings = ordered.slice(0, detail.findings);
  for (const f of findings.filter((x) => x.severity === "blocker"))
    out.push(`- ${FINDING_ICON.blocker} **blocker**: ${f.message}`);
  for (const c of g.configChanges) out.push(`- ⚙️ \`${c.field}\`: ${c.from} → **${c.to}**`);
  const cleanup = cleanupLine(g);
  if (cleanup) out.push(`- 🧹 ${cleanup}`);
  out.push(...rollLines(g).map((l) => `- ${l}`));
  for (const f of findings.filter((x) => x.severity !== "blocker"))
    out.push(`- ${FINDING_ICON[f.severity]} **${f.severity}**: ${f.message}`);
  if (g.findings.length > findings.length)
    out.push(`- … ${g.findings.length - findings.length} more findings`);
  for (const n of g.notes) out.push(`- ${n}`);
  if (detail.nodeRows > 0 && g.replacements.length > 0)
    out.push("", ...nodeTable(g, detail.nodeRows));
  return [...out, ""];
}

/** "commit `abc1234` · [run](…)": which commit and which run a body speaks for. */
export function provenance(info: RunInfo): string {
  const parts = [
    ...(info.sha ? [`commit \`${info.sha.slice(0, 7)}\``] : []),
    ...(info.runUrl ? [`[workflow run](${info.runUrl})`] : []),
  ];
  return parts.join(" · ");
}

function metaLine(plan: Plan, info: RunInfo): string {
  const where = `Cluster \`${plan.cluster.name}\` (${plan.cluster.region}, Kubernetes ${plan.cluster.version}) · policy \`${plan.policy.file}\``;
  const from = provenance(info);
  return `${where} · read ${readAt(plan)}${from ? ` · ${from}` : ""} · plan \`${planFingerprint(plan)}\``;
}

export function renderPlanMarkdown(
  plan: Plan,
  detail: MarkdownDetail = FULL_DETAIL,
  info: RunInfo = {},
): string {
  const out = [`### noderoll plan · \`${plan.policy.name}\``, ""];
  if (detail.note) out.push(detail.note, "");
  out.push(...alertLines(plan), ...rehearsalAlerts(plan));
  out.push(`**${summaryLine(plan.summary)}**`, "", metaLine(plan, info), "");
  out.push(...limitLines(plan, info), ...limitAlert(plan, info));
  const gates = defaultGatesText(plan.groups);
  if (gates) out.push(`- **Gates**: ${gates}`, "");
  out.push(...alertMarkdown(forcedAlerts(plan.options)));
  if (plan.groups.length > 0) out.push(...overviewTable(plan), "");
  plan.groups.forEach((_, i) => out.push(...groupSection(plan, i, detail)));
  out.push(...rehearsalMarkdown(plan));
  if (detail.gantt) {
    const chart = gantt(plan, detail.gantt);
    if (chart.length > 0)
      out.push(
        "<details>",
        `<summary>${plan.rehearsal ? "Rehearsed" : "Predicted"} schedule</summary>`,
        "",
        ...chart,
        "",
        "</details>",
        "",
      );
  }
  return out.join("\n");
}

/** GitHub's limits: a comment body, and a check run's summary or text. */
export const COMMENT_LIMIT = 65_536;
export const CHECK_OUTPUT_LIMIT = 65_535;

const STEPS: { detail: MarkdownDetail; note: string }[] = [
  { detail: FULL_DETAIL, note: "" },
  {
    detail: { nodeRows: 50, gantt: "groups", findings: Infinity },
    note: "node lists cut to 50 rows per group, one schedule bar per group",
  },
  {
    detail: { nodeRows: 10, gantt: "groups", findings: 20 },
    note: "node lists cut to 10 rows, one schedule bar per group, some findings left out",
  },
  {
    detail: { nodeRows: 0, gantt: false, findings: 5 },
    note: "node lists and schedule chart left out, findings cut to 5 per group",
  },
];

function shortenedNote(limit: number, what: string, fullAt?: string): string {
  const where = fullAt
    ? `the [job summary](${fullAt}) and \`--format json\``
    : "the job summary and `--format json`";
  return `> [!NOTE]\n> Shortened to fit GitHub's limit of ${limit} characters: ${what}. The full plan is in ${where}.`;
}

/**
 * The most detailed rendering that fits in `limit` characters, with a note at the top of what
 * was cut (the renderer places `detail.note` under its heading) and where the whole plan is
 * (`fullAt`, the run's page with the job summary); as a last resort the text itself is cut.
 * `suffix` (hidden markers) is always kept.
 */
export function fitMarkdown(
  render: (detail: MarkdownDetail) => string,
  limit: number,
  suffix = "",
  fullAt?: string,
): string {
  for (const step of STEPS) {
    const detail = step.note
      ? { ...step.detail, note: shortenedNote(limit, step.note, fullAt) }
      : step.detail;
    const body = `${render(detail)}${suffix}`;
    if (body.length <= limit) return body;
  }
  const last = STEPS[STEPS.length - 1]!;
  const note = `\n\n${shortenedNote(limit, "cut at the limit", fullAt)}\n`;
  const head = render({ ...last.detail, note: shortenedNote(limit, last.note, fullAt) }).slice(
    0,
    limit - note.length - suffix.length,
  );
  return `${head}${note}${suffix}`;
}
