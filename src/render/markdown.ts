// The plan as GitHub-flavoured Markdown for the sticky PR comment, the check run and the job
// summary: the Terraform-style first line, a table of groups, a section per group with its
// preflight findings, long parts in <details>, and a Mermaid gantt of the predicted schedule.
// Bodies are kept under GitHub's limits by dropping detail in steps (fitMarkdown).
import { describeReason, summaryLine, type GroupPlan, type Plan } from "../plan/index.js";
import {
  budgetText,
  estimate,
  kindWord,
  reasonCounts,
  STATUS_WORD,
  surgeBar,
  surgeBudgetWord,
  waveSummary,
} from "./words.js";

const ICON: Record<GroupPlan["status"], string> = {
  roll: "🔄",
  "config-only": "⚙️",
  "no-change": "✅",
  blocked: "⛔",
  error: "❌",
};
const FINDING_ICON = { blocker: "⛔", warning: "⚠️", info: "ℹ️" } as const;

export interface MarkdownDetail {
  /** Rows of the per-group node table; Infinity for all. */
  nodeRows: number;
  gantt: boolean;
  /** Findings per group. */
  findings: number;
}

export const FULL_DETAIL: MarkdownDetail = { nodeRows: Infinity, gantt: true, findings: Infinity };

/** Table cells may not hold "|" or newlines. */
export function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

function overviewTable(plan: Plan): string[] {
  const rows = plan.groups.map((g, i) => {
    const replace = g.replacements.length > 0 ? `${g.replacements.length} of ${g.nodes}` : "-";
    return `| ${i + 1} | \`${cell(g.name)}\` | ${cell(kindWord(g))} | ${ICON[g.status]} ${STATUS_WORD[g.status]} | ${replace} | ${cell(budgetText(g))} | ${estimate(g.schedule.estimatedMs)} |`;
  });
  return [
    "| # | group | kind | status | replace | budgets | estimate |",
    "| -: | --- | --- | --- | --: | --- | --: |",
    ...rows,
  ];
}

function nodeTable(g: GroupPlan, limit: number): string[] {
  if (g.replacements.length === 0) return [];
  const shown = g.replacements.slice(0, limit);
  const rows = shown.map(
    (r) =>
      `| \`${cell(r.node ?? "-")}\` | \`${r.instance}\` | ${r.zone} | ${cell(r.reasons.map(describeReason).join(", "))} |`,
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

function derived(value: number, derivation: string): string {
  return derivation && derivation !== String(value)
    ? `**${value}** (${derivation})`
    : `**${value}**`;
}

function budgetLine(g: GroupPlan): string {
  const { maxUnavailable, maxSurge, derivation } = g.budgets;
  return `maxUnavailable ${derived(maxUnavailable, derivation.maxUnavailable)}; ${surgeBudgetWord(g)} ${derived(maxSurge, derivation.maxSurge)}`;
}

function groupSection(g: GroupPlan, i: number, detail: MarkdownDetail): string[] {
  const out = [
    `#### ${i + 1}. \`${g.name}\` · ${kindWord(g)} · ${ICON[g.status]} ${STATUS_WORD[g.status]}`,
    "",
  ];
  for (const e of g.errors) out.push(`- ❌ ${e}`);
  for (const c of g.configChanges) out.push(`- ⚙️ \`${c.field}\`: ${c.from} → **${c.to}**`);
  if (g.replacements.length > 0) {
    out.push(
      `- Replace **${g.replacements.length} of ${g.nodes}** nodes: ${reasonCounts(g.replacements)}`,
    );
    out.push(`- Budgets: ${budgetLine(g)}`);
    out.push(`- Schedule: ${waveSummary(g)}; ${estimate(g.schedule.estimatedMs)}`);
  }
  const findings = g.findings.slice(0, detail.findings);
  for (const f of findings)
    out.push(`- ${FINDING_ICON[f.severity]} **${f.severity}**: ${f.message}`);
  if (g.findings.length > findings.length)
    out.push(`- … ${g.findings.length - findings.length} more findings`);
  for (const n of g.notes) out.push(`- ${n}`);
  if (detail.nodeRows > 0) out.push("", ...nodeTable(g, detail.nodeRows));
  return [...out, ""];
}

/** Mermaid gantt of the waves, one section per group, on a timeline of seconds from the start. */
export function gantt(plan: Plan): string[] {
  const groups = plan.groups.filter((g) => g.schedule.waves.length > 0);
  if (groups.length === 0) return [];
  const lines = [
    "```mermaid",
    "gantt",
    "  title Predicted schedule (estimate)",
    "  dateFormat X",
    "  axisFormat %H:%M",
  ];
  let offset = 0;
  for (const g of groups) {
    lines.push(`  section ${g.name.replace(/[:#;]/g, "_")}`);
    if (g.schedule.waves[0] && g.schedule.waves[0].startMs > 0) {
      lines.push(
        `  ${surgeBar(g)} : ${Math.round(offset / 1000)}, ${Math.round((offset + g.schedule.waves[0].startMs) / 1000)}`,
      );
    }
    g.schedule.waves.forEach((w, i) => {
      const start = Math.round((offset + w.startMs) / 1000);
      const end = Math.max(start + 1, Math.round((offset + w.startMs + w.durationMs) / 1000));
      lines.push(
        `  ${w.canary ? "canary" : `wave ${i + 1}`} (${w.nodes.length}) : ${start}, ${end}`,
      );
    });
    offset += g.schedule.estimatedMs;
  }
  return [...lines, "```"];
}

export function renderPlanMarkdown(plan: Plan, detail: MarkdownDetail = FULL_DETAIL): string {
  const out = [
    `### noderoll plan · \`${plan.policy.name}\``,
    "",
    `**${summaryLine(plan.summary)}**`,
    "",
    `Cluster \`${plan.cluster.name}\` (${plan.cluster.region}, Kubernetes ${plan.cluster.version}) · policy \`${plan.policy.file}\` · read ${plan.takenAt}${plan.summary.estimatedMs > 0 ? ` · estimated ${estimate(plan.summary.estimatedMs)}` : ""}`,
    "",
  ];
  if (plan.options.force)
    out.push(
      "> [!WARNING]",
      "> **force**: every selected node is replaced, past PodDisruptionBudgets.",
      "",
    );
  if (plan.groups.length > 0) out.push(...overviewTable(plan), "");
  plan.groups.forEach((g, i) => out.push(...groupSection(g, i, detail)));
  if (detail.gantt) {
    const chart = gantt(plan);
    if (chart.length > 0)
      out.push(
        "<details>",
        "<summary>Predicted schedule</summary>",
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
    detail: { nodeRows: 50, gantt: true, findings: Infinity },
    note: "node lists cut to 50 rows per group",
  },
  {
    detail: { nodeRows: 10, gantt: false, findings: 20 },
    note: "node lists cut to 10 rows, schedule chart and some findings left out",
  },
  {
    detail: { nodeRows: 0, gantt: false, findings: 5 },
    note: "node lists and schedule chart left out, findings cut to 5 per group",
  },
];

/**
 * The most detailed rendering that fits in `limit` characters, with a note of what was cut;
 * as a last resort the text itself is cut. `suffix` (a hidden marker) is always kept.
 */
export function fitMarkdown(
  render: (detail: MarkdownDetail) => string,
  limit: number,
  suffix = "",
): string {
  for (const step of STEPS) {
    const note = step.note
      ? `\n> [!NOTE]\n> Shortened to fit GitHub's limit of ${limit} characters: ${step.note}. The full plan is in the job summary and \`--format json\`.\n`
      : "";
    const body = `${render(step.detail)}${note}${suffix}`;
    if (body.length <= limit) return body;
  }
  const note = `\n\n> [!NOTE]\n> Cut at GitHub's limit of ${limit} characters. The full plan is in the job summary and \`--format json\`.\n`;
  const head = render(STEPS[STEPS.length - 1]!.detail).slice(
    0,
    limit - note.length - suffix.length,
  );
  return `${head}${note}${suffix}`;
}
