// The plan for a terminal: the same facts as the pull request's comment (markdown.ts), worded in
// the same shared helpers (words.ts, headline.ts, limits.ts, rehearsal.ts) — what stops or hurts
// first, the window and the time, the gates, what the run forces, then each group in roll order
// and the Terraform-style line last. In colour when the caller says so (cli/terminal.ts).
import { stopIndex, summaryLine, type GroupPlan, type Plan } from "../plan/index.js";
import { painter, type Paint, type Tone } from "./colour.js";
import { planAlerts } from "./headline.js";
import { limitAlerts, limitFacts, readAt, type Fact, type RunInfo } from "./limits.js";
import { rehearsalCautions, rehearsalText } from "./rehearsal.js";
import { planFingerprint } from "./reviewed.js";
import {
  cleanupLine,
  defaultGatesText,
  forcedAlerts,
  inlinePlain,
  kindWord,
  rollLines,
  STATUS_WORD,
  type Alert,
} from "./words.js";

const MARK = { blocker: "✗", warning: "!", info: "·" } as const;
const FINDING_TONE = { blocker: "red", warning: "yellow", info: undefined } as const;
const ALERT: Record<Alert["kind"], { mark: string; tone: Tone }> = {
  CAUTION: { mark: "✗", tone: "red" },
  WARNING: { mark: "!", tone: "yellow" },
  IMPORTANT: { mark: "!", tone: "yellow" },
};
const STATUS_TONE: Partial<Record<GroupPlan["status"], Tone>> = { blocked: "red", error: "red" };

export interface TextOptions {
  /** ANSI colour (a TTY without NO_COLOR: the command line decides). */
  colour?: boolean;
  info?: RunInfo;
}

/** An alert as marked lines: its mark and emphasis in its colour, the rest indented under it. */
function alertText(a: Alert, paint: Paint): string[] {
  const { mark, tone } = ALERT[a.kind];
  const lines = a.lines.filter(Boolean).map((l) => inlinePlain(l, (b) => paint(b, "bold", tone)));
  return [...lines.map((l, i) => (i === 0 ? `${paint(mark, tone)} ${l}` : `  ${l}`)), ""];
}

/**
 * " · not reached" for a group with work after the one apply stops at (plan/summary.ts): planned,
 * but apply will not get to it — said wherever the group's status is, so none says it will roll.
 */
export function notReached(groups: readonly GroupPlan[], i: number): string {
  const stop = stopIndex(groups);
  return stop < 0 || i <= stop || groups[i]?.status === "no-change" ? "" : " · not reached";
}

function groupText(plan: Plan, i: number, paint: Paint): string[] {
  const g = plan.groups[i] as GroupPlan;
  const status = `${paint(STATUS_WORD[g.status], STATUS_TONE[g.status])}${notReached(plan.groups, i)}`;
  const lines = [`${i + 1}. ${paint(g.name, "bold")} (${kindWord(g)}, ${g.role}): ${status}`];
  for (const e of g.errors) lines.push(`   ${paint(`error: ${e}`, "red")}`);
  for (const c of g.configChanges) lines.push(`   ~ ${c.field}: ${c.from} → ${c.to}`);
  const cleanup = cleanupLine(g);
  if (cleanup) lines.push(`   - ${cleanup}`);
  lines.push(...rollLines(g).map((l) => `   ${inlinePlain(l)}`));
  for (const f of g.findings)
    lines.push(
      `   ${paint(`${MARK[f.severity]} ${f.severity}: ${f.message}`, FINDING_TONE[f.severity])}`,
    );
  for (const n of g.notes) lines.push(`   note: ${n}`);
  return lines;
}

const factText = (f: Fact) => `${f.label}: ${inlinePlain(f.text)}`;

export function renderPlanText(plan: Plan, options: TextOptions = {}): string {
  const paint = painter(options.colour);
  const info = options.info ?? {};
  const head = [
    `noderoll plan: policy ${plan.policy.name} (${plan.policy.file}), cluster ${plan.cluster.name} (${plan.cluster.region}, Kubernetes ${plan.cluster.version}) · read ${readAt(plan)} · plan ${planFingerprint(plan)}`,
    "",
  ];
  // What stops or hurts first, as in the comment: what follows is what apply reaches.
  const alerts = [...planAlerts(plan), ...rehearsalCautions(plan), ...limitAlerts(plan, info)];
  head.push(...alerts.flatMap((a) => alertText(a, paint)));
  const gates = defaultGatesText(plan.groups);
  const facts = [
    ...limitFacts(plan, info),
    ...(gates ? [{ label: "Gates", text: gates }] : []),
  ].map(factText);
  if (facts.length > 0) head.push(...facts, "");
  head.push(...forcedAlerts(plan.options).flatMap((a) => alertText(a, paint)));
  const body = [
    ...plan.groups.flatMap((_, i) => [...groupText(plan, i, paint), ""]),
    ...rehearsalText(plan),
  ];
  return `${[...head, ...body, paint(summaryLine(plan.summary), "bold")].join("\n")}\n`;
}
