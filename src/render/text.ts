// The plan for a terminal: the Terraform-style first line, then each group in roll order.
import { summaryLine, type GroupPlan, type Plan } from "../plan/index.js";
import {
  budgetText,
  cleanupText,
  estimate,
  kindWord,
  plural,
  reasonCounts,
  STATUS_WORD,
  waveSummary,
  defaultGatesText,
  gatesText,
  forcedSentences,
} from "./words.js";
import { planHeadline } from "./headline.js";
import { rehearsalText } from "./rehearsal.js";

const MARK = { blocker: "✗", warning: "!", info: "·" } as const;

function groupText(g: GroupPlan, i: number): string[] {
  const lines = [`${i + 1}. ${g.name} (${kindWord(g)}, ${g.role}): ${STATUS_WORD[g.status]}`];
  for (const e of g.errors) lines.push(`   error: ${e}`);
  for (const c of g.configChanges) lines.push(`   ~ ${c.field}: ${c.from} → ${c.to}`);
  if (g.cleanup.length > 0)
    lines.push(`   - marks an earlier run left, which apply clears: ${cleanupText(g.cleanup)}`);
  if (g.replacements.length > 0) {
    lines.push(
      `   replace ${g.replacements.length} of ${g.nodes} nodes: ${reasonCounts(g.replacements)}`,
    );
    // How a budget was derived, when that says more than the number itself.
    const how = (["maxUnavailable", "maxSurge"] as const)
      .filter((k) => g.budgets.derivation[k] && g.budgets.derivation[k] !== String(g.budgets[k]))
      .map((k) => `${k}: ${g.budgets.derivation[k]}`);
    lines.push(`   budgets: ${budgetText(g)}${how.length > 0 ? ` (${how.join("; ")})` : ""}`);
    lines.push(`   schedule: ${waveSummary(g)}; ${estimate(g.schedule.estimatedMs)}`);
    const gates = gatesText(g);
    if (gates) lines.push(`   gates: ${gates}`);
  }
  for (const f of g.findings) lines.push(`   ${MARK[f.severity]} ${f.severity}: ${f.message}`);
  for (const n of g.notes) lines.push(`   note: ${n}`);
  return lines;
}

export function renderPlanText(plan: Plan): string {
  const head = [
    `noderoll plan: policy ${plan.policy.name} (${plan.policy.file}), cluster ${plan.cluster.name} (${plan.cluster.region}, Kubernetes ${plan.cluster.version})`,
    "",
  ];
  // Where apply stops comes first, as in the comment: what follows is what it reaches.
  if (plan.summary.stopsAt) head.push(`${planHeadline(plan)}.`, "");
  const forced = forcedSentences(plan.options);
  if (forced.length > 0) head.push(...forced, "");
  const gates = defaultGatesText(plan.groups);
  if (gates) head.push(`gates: ${gates}`, "");
  const body = [...plan.groups.flatMap((g, i) => [...groupText(g, i), ""]), ...rehearsalText(plan)];
  const total =
    plan.summary.estimatedMs > 0
      ? ` Estimated ${estimate(plan.summary.estimatedMs)} for ${plural(plan.summary.nodesToReplace, "node")}.`
      : "";
  return `${[...head, ...body, `${summaryLine(plan.summary)}${total}`].join("\n")}\n`;
}
