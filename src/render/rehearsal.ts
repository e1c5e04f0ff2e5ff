// A rehearsal as a reviewer reads it (docs/rehearsal.md): what stops or takes a service down
// first, as GitHub alerts; then the rehearsed timeline per group, every workload that lost
// replicas, the stalls, the peaks, and the timings the twin assumed.
import type { Plan, Rehearsal, RehearsalStall, RehearsalWorkload } from "../plan/index.js";
import { estimate, plural } from "./words.js";

const MAX_ROWS = 30;
const id = (w: RehearsalWorkload) => `${w.kind}/${w.namespace}/${w.name}`;
const dur = (ms: number) => estimate(ms).replace(/^~/, "");

/** Workloads the roll takes down (no Ready replica), longest first. */
export function downWorkloads(r: Rehearsal): RehearsalWorkload[] {
  return r.workloads.filter((w) => w.msAtZero > 0).sort((a, b) => b.msAtZero - a.msAtZero);
}

/** What a rehearsal says that stops or hurts: an alert for the top of the plan. */
export function rehearsalAlerts(plan: Plan): string[] {
  const r = plan.rehearsal;
  if (!r) return [];
  const out: string[] = [];
  if (r.result !== "success")
    out.push(
      "> [!CAUTION]",
      `> **The rehearsal did not complete** (${r.result}): ${r.message}`,
      "",
    );
  const down = downWorkloads(r);
  if (down.length > 0)
    out.push(
      "> [!WARNING]",
      `> **The rehearsal takes ${plural(down.length, "workload")} down:** ${down
        .slice(0, 10)
        .map((w) => `\`${id(w)}\` for ${dur(w.msAtZero)}`)
        .join(", ")}${down.length > 10 ? ` and ${down.length - 10} more` : ""}.`,
      "",
    );
  return out;
}

function stallLine(s: RehearsalStall): string {
  const at = `at +${dur(s.fromMs) === "-" ? "0s" : dur(s.fromMs)}`;
  if (s.kind === "pdb")
    return `\`${s.object}\` held on \`${s.node}\` by PodDisruptionBudget \`${s.by}\` for ${dur(s.forMs)} (${at})`;
  if (s.kind === "pending")
    return `${plural(s.pods ?? 1, "pod")} of \`${s.object}\` Pending for ${dur(s.forMs)}: no node had room (${at})`;
  return `\`${s.object}\` deleted past its PodDisruptionBudget at the drain timeout on \`${s.node}\` (${at})`;
}

function workloadRows(r: Rehearsal): string[] {
  const hit = r.workloads.filter(
    (w) => w.minReady < w.desired || w.msAtZero > 0 || w.msBelowPdb > 0,
  );
  if (hit.length === 0)
    return ["Every Deployment and StatefulSet kept all its replicas Ready.", ""];
  // The worst first, and no more than a reviewer reads (a big cluster has thousands).
  const worst = [...hit].sort((a, b) => b.msAtZero - a.msAtZero || b.msBelowPdb - a.msBelowPdb);
  return [
    "| workload | ready at least | below its PDB | down |",
    "| --- | --: | --: | --: |",
    ...worst
      .slice(0, MAX_ROWS)
      .map(
        (w) =>
          `| \`${id(w)}\` | ${w.minReady} of ${w.desired} | ${w.msBelowPdb > 0 ? dur(w.msBelowPdb) : "-"} | ${w.msAtZero > 0 ? `**${dur(w.msAtZero)}**` : "-"} |`,
      ),
    ...(worst.length > MAX_ROWS ? [`| … ${worst.length - MAX_ROWS} more | | | |`] : []),
    "",
  ];
}

function timingLines(r: Rehearsal): string[] {
  return [
    "<details>",
    "<summary>Timings the twin assumed</summary>",
    "",
    "| timing | seconds | from |",
    "| --- | --: | --- |",
    ...Object.entries(r.timings.sources).map(
      ([k, from]) => `| \`${k}\` | ${r.timings.values[k] ?? "-"} | ${from} |`,
    ),
    "",
    "</details>",
  ];
}

/** The rehearsal's section of the plan (Markdown). */
export function rehearsalMarkdown(plan: Plan): string[] {
  const r = plan.rehearsal;
  if (!r) return [];
  const groups = r.groups.map((g) => `\`${g.group}\` ${dur(g.durationMs)}`).join(", ");
  const out = [
    "#### Rehearsal on a twin of the cluster",
    "",
    `The roll, run on a sandbox twin of the cluster in virtual time (nothing live was touched): **${r.result}** in ${dur(r.durationMs)}${groups ? ` — ${groups}` : ""}. At its peak it ran ${plural(r.peakExtraNodes, "extra node")} and made ${r.peakRequestsPerMinute} API requests a minute.`,
    "",
    ...workloadRows(r),
  ];
  if (r.stalls.length > 0)
    out.push(
      ...r.stalls.slice(0, 20).map((s) => `- ${stallLine(s)}`),
      ...(r.stalls.length > 20 ? [`- … ${r.stalls.length - 20} more`] : []),
      "",
    );
  return [...out, ...timingLines(r), ""];
}

/** The rehearsal for a terminal. */
export function rehearsalText(plan: Plan): string[] {
  const r = plan.rehearsal;
  if (!r) return [];
  const out = [
    `rehearsal on a twin of the cluster (nothing live touched): ${r.result} in ${dur(r.durationMs)}; peak ${plural(r.peakExtraNodes, "extra node")}, ${r.peakRequestsPerMinute} requests/min`,
  ];
  for (const g of r.groups) out.push(`   ${g.group}: ${dur(g.durationMs)} (${g.result})`);
  for (const w of r.workloads)
    if (w.msAtZero > 0 || w.msBelowPdb > 0)
      out.push(
        `   ${w.msAtZero > 0 ? "✗ down" : "! below its PDB"}: ${id(w)} ${w.msAtZero > 0 ? dur(w.msAtZero) : dur(w.msBelowPdb)} (ready at least ${w.minReady} of ${w.desired})`,
      );
  for (const s of r.stalls) out.push(`   stall: ${stallLine(s).replace(/`/g, "")}`);
  if (r.result !== "success") out.push(`   ✗ ${r.message}`);
  return [...out, ""];
}
