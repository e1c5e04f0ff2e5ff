// A rehearsal as a reviewer reads it (docs/rehearsal.md): what stops or takes a service down
// first, as GitHub alerts; then the rehearsed timeline per group, every workload that lost
// replicas, the stalls, the peaks, and the timings the twin assumed.
import type { Plan, Rehearsal, RehearsalStall, RehearsalWorkload } from "../plan/index.js";
import { stopPoint } from "./headline.js";
import { alertMarkdown, estimate, inlinePlain, plural, type Alert } from "./words.js";

const MAX_ROWS = 30;
const id = (w: RehearsalWorkload) => `${w.kind}/${w.namespace}/${w.name}`;
const dur = (ms: number) => estimate(ms).replace(/^~/, "");

/** Workloads the roll takes down (no Ready replica), longest first. */
export function downWorkloads(r: Rehearsal): RehearsalWorkload[] {
  return r.workloads.filter((w) => w.msAtZero > 0).sort((a, b) => b.msAtZero - a.msAtZero);
}

/**
 * The twin's roll stopped where the plan says apply stops, not starting that group as apply
 * does not: the plan's caution says why already, naming the live cluster's pods (the twin's
 * have names of their own), so the rehearsal says it once, there.
 */
export function stopsAsPlanned(plan: Plan): boolean {
  const r = plan.rehearsal;
  const stop = stopPoint(plan);
  if (!r || !stop || r.result === "success") return false;
  const g = r.groups.find((x) => x.group === stop.group.name);
  return g !== undefined && g.result !== "success" && g.phases.length === 0;
}

/** A group's time in the twin, or, for one the twin never rolled, why (blocked, not reached). */
const notRolled = (g: Rehearsal["groups"][number]) =>
  g.phases.length === 0 && g.durationMs === 0 && g.result !== "success" ? g.result : undefined;

/** What a rehearsal says that stops or hurts, for the top of the plan. */
export function rehearsalCautions(plan: Plan): Alert[] {
  const r = plan.rehearsal;
  if (!r) return [];
  const out: Alert[] = [];
  if (r.result !== "success" && !stopsAsPlanned(plan))
    out.push({
      kind: "CAUTION",
      lines: [`**The rehearsal did not complete** (${r.result}): ${r.message}`],
    });
  const down = downWorkloads(r);
  if (down.length > 0)
    out.push({
      kind: "WARNING",
      lines: [
        `**The rehearsal takes ${plural(down.length, "workload")} down:** ${down
          .slice(0, 10)
          .map((w) => `\`${id(w)}\` for ${dur(w.msAtZero)}`)
          .join(", ")}${down.length > 10 ? ` and ${down.length - 10} more` : ""}.`,
      ],
    });
  return out;
}

/** rehearsalCautions in Markdown. */
export function rehearsalAlerts(plan: Plan): string[] {
  return alertMarkdown(rehearsalCautions(plan));
}

/**
 * How the twin's roll ended and how long it took: its result, or where it stopped when that is
 * where apply stops (at once, when that is the first group: no time to tell).
 */
function outcome(plan: Plan, r: Rehearsal): string {
  const stop = stopPoint(plan);
  const took = dur(r.durationMs) === "-" ? "" : ` in ${dur(r.durationMs)}`;
  return stop && stopsAsPlanned(plan)
    ? `**stopped at group ${stop.index + 1} \`${stop.group.name}\`** (where apply stops)${took}`
    : `**${r.result}**${took}`;
}

const at = (ms: number) => `at +${dur(ms) === "-" ? "0s" : dur(ms)}`;

/**
 * The stalls, a line each; a pod a budget held and then deleted at the drain timeout is one
 * line: held, then deleted (deleteAfterDrainTimeout), never held as if the wait had ended.
 */
function stallLines(r: Rehearsal): string[] {
  const deleted = new Map(
    r.stalls.filter((s) => s.kind === "deleted").map((s) => [`${s.object} ${s.node}`, s]),
  );
  const held = new Set(
    r.stalls.filter((s) => s.kind === "pdb").map((s) => `${s.object} ${s.node}`),
  );
  return r.stalls.flatMap((s) => {
    if (s.kind === "deleted" && held.has(`${s.object} ${s.node}`)) return [];
    if (s.kind !== "pdb") return [stallLine(s)];
    const then = deleted.get(`${s.object} ${s.node}`);
    const line = stallLine(s);
    return [
      then
        ? line.replace(
            / \(at \+[^)]*\)$/,
            `, then deleted past it at the drain timeout (${at(s.fromMs)})`,
          )
        : line,
    ];
  });
}

function stallLine(s: RehearsalStall): string {
  if (s.kind === "pdb")
    return `\`${s.object}\` held on \`${s.node}\` by PodDisruptionBudget \`${s.by}\` for ${dur(s.forMs)} (${at(s.fromMs)})`;
  if (s.kind === "pending")
    return `${plural(s.pods ?? 1, "pod")} of \`${s.object}\` Pending for ${dur(s.forMs)}: no node had room (${at(s.fromMs)})`;
  return `\`${s.object}\` deleted past its PodDisruptionBudget at the drain timeout on \`${s.node}\` (${at(s.fromMs)})`;
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
  const groups = r.groups
    .map((g) => `\`${g.group}\` ${notRolled(g) ?? dur(g.durationMs)}`)
    .join(", ");
  const out = [
    "#### Rehearsal on a twin of the cluster",
    "",
    `The roll, run on a sandbox twin of the cluster in virtual time (nothing live was touched): ${outcome(plan, r)}${groups ? ` — ${groups}` : ""}. At its peak it ran ${plural(r.peakExtraNodes, "extra node")} and made ${r.peakRequestsPerMinute} API requests a minute.`,
    "",
    ...workloadRows(r),
  ];
  const stalls = stallLines(r);
  if (stalls.length > 0)
    out.push(
      ...stalls.slice(0, 20).map((s) => `- ${s}`),
      ...(stalls.length > 20 ? [`- … ${stalls.length - 20} more`] : []),
      "",
    );
  return [...out, ...timingLines(r), ""];
}

/** The rehearsal for a terminal. */
export function rehearsalText(plan: Plan): string[] {
  const r = plan.rehearsal;
  if (!r) return [];
  const out = [
    `rehearsal on a twin of the cluster (nothing live touched): ${inlinePlain(outcome(plan, r))}; peak ${plural(r.peakExtraNodes, "extra node")}, ${r.peakRequestsPerMinute} requests/min`,
  ];
  for (const g of r.groups)
    out.push(`   ${g.group}: ${notRolled(g) ?? `${dur(g.durationMs)} (${g.result})`}`);
  for (const w of r.workloads)
    if (w.msAtZero > 0 || w.msBelowPdb > 0)
      out.push(
        `   ${w.msAtZero > 0 ? "✗ down" : "! below its PDB"}: ${id(w)} ${w.msAtZero > 0 ? dur(w.msAtZero) : dur(w.msBelowPdb)} (ready at least ${w.minReady} of ${w.desired})`,
      );
  for (const s of stallLines(r)) out.push(`   stall: ${inlinePlain(s)}`);
  if (r.result !== "success" && !stopsAsPlanned(plan)) out.push(`   ✗ ${r.message}`);
  return [...out, ""];
}
