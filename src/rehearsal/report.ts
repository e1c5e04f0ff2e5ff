// A rehearsal's findings, from the twin's roll: the timeline per group and phase, what every
// workload went through (the fewest ready replicas, time below its PodDisruptionBudget and at
// zero), where the roll stalled (PDBs holding drains, pods left Pending, pods deleted at the drain timeout), and
// the peak of extra nodes and API load.
import type { RollEvent } from "../ports/index.js";
import type { AvailabilitySample } from "../sandbox/model/observers.js";
import type { WorkloadRec } from "../sandbox/model/records.js";
import type { World } from "../sandbox/world/world.js";
import type { Plan, Rehearsal, RehearsalStall, RehearsalWorkload } from "../plan/index.js";
import { STALL_MS, type RehearsalWatch } from "./watch.js";

const at = (e: RollEvent) => Date.parse(e.t);

function groups(events: RollEvent[], start: number): Rehearsal["groups"] {
  const out: Rehearsal["groups"] = [];
  for (const e of events) {
    // A group started again (the roll resumed after a checkpoint's pause) keeps its one row.
    if (e.type === "group.start" && !out.some((x) => x.group === e.group))
      out.push({ group: e.group, durationMs: 0, phases: [], result: "running" });
    const g = e.group ? out.find((x) => x.group === e.group) : undefined;
    if (!g) continue;
    if (e.type === "phase.start")
      g.phases.push({ phase: e.phase, startMs: at(e) - start, endMs: at(e) - start });
    if (e.type === "phase.end") {
      const p = g.phases.findLast((x) => x.phase === e.phase);
      if (p) p.endMs = at(e) - start;
    }
    // Its first success stands: a resumed roll finds it at its target and says so again.
    if (e.type === "group.end" && g.result !== "success") {
      const begun = events.find((x) => x.type === "group.start" && x.group === e.group)!;
      g.durationMs = at(e) - at(begun);
      g.result = e.result;
    }
  }
  return out;
}

/**
 * Pods a PodDisruptionBudget kept from evicting, from the first refusal to their node's drain's
 * end. The twin's own record of the refusals counts: an EKS managed group's drain is EKS's, and
 * the roll learns what held it only when the update has failed.
 */
function pdbStalls(
  world: World,
  events: RollEvent[],
  start: number,
  end: number,
): RehearsalStall[] {
  const out: RehearsalStall[] = [];
  const seen = new Set<string>();
  const timeline = world.timeline.events;
  // Each node's drain ends, in the order recorded, from the twin's timeline and from the roll's
  // events: a cluster's refusals number in the thousands, so each looks up its node's few ends
  // rather than reading both records through again.
  const twinEnds = new Map<string, number[]>();
  const rollEnds = new Map<string, number[]>();
  const note = (ends: Map<string, number[]>, node: unknown, ms: number) => {
    if (typeof node !== "string") return;
    const list = ends.get(node);
    if (list) list.push(ms);
    else ends.set(node, [ms]);
  };
  for (const x of timeline) if (x.type === "node.drain.end") note(twinEnds, x.node, x.at);
  for (const x of events) if (x.type === "node.drain.end") note(rollEnds, x.node, at(x));
  /** The first end recorded for the node at or after `from`. */
  const firstEnd = (ends: Map<string, number[]>, node: string, from: number) =>
    ends.get(node)?.find((ms) => ms >= from);
  for (const e of timeline) {
    if (e.type !== "eviction.blocked" || typeof e.pod !== "string" || seen.has(e.pod)) continue;
    seen.add(e.pod);
    const node = typeof e.node === "string" ? e.node : "";
    const done = firstEnd(twinEnds, node, e.at) ?? firstEnd(rollEnds, node, e.at);
    const forMs = (done ?? end) - e.at;
    // A refusal retried and granted within a scheduler's moment is how drains go: only a wait
    // counts as a stall (as for pods Pending).
    if (forMs < STALL_MS) continue;
    out.push({
      kind: "pdb",
      object: e.pod,
      ...(typeof e.pdb === "string" && { by: e.pdb }),
      node,
      fromMs: e.at - start,
      forMs,
    });
  }
  return out;
}

function forced(events: RollEvent[], start: number): RehearsalStall[] {
  return events.flatMap((e) =>
    e.type === "node.drain.end" && e.deleted?.length
      ? e.deleted.map((pod) => ({
          kind: "deleted" as const,
          object: pod,
          node: e.node,
          fromMs: at(e) - start,
          forMs: 0,
        }))
      : [],
  );
}

/** Time (ms) the series spent below `floor`, from `start` to `end`. */
function timeBelow(
  samples: AvailabilitySample[],
  floor: number,
  start: number,
  end: number,
): number {
  let ms = 0;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]!;
    const from = Math.max(s.at, start);
    const to = Math.min(samples[i + 1]?.at ?? end, end);
    if (to > from && s.available < floor) ms += to - from;
  }
  return ms;
}

/** How many of a workload's pods its PodDisruptionBudget wants healthy (0: none selects it). */
function pdbFloor(world: World, w: WorkloadRec, desired: number): number {
  const scaled = (v: number | string) =>
    typeof v === "number" ? v : Math.ceil((Number(v.replace("%", "")) * desired) / 100);
  const first = w.pods.values().next().value;
  if (!first) return 0;
  for (const b of world.kube.pdbs.get(w.namespace) ?? []) {
    if (!b.pods.has(first)) continue;
    if (b.minAvailable !== undefined) return scaled(b.minAvailable);
    if (b.maxUnavailable !== undefined) return desired - scaled(b.maxUnavailable);
  }
  return 0;
}

function workloads(world: World, start: number, end: number): RehearsalWorkload[] {
  const out: RehearsalWorkload[] = [];
  for (const w of world.kube.workloads.values()) {
    if (w.kind !== "Deployment" && w.kind !== "StatefulSet") continue;
    const samples = world.availability.samples(w.key);
    const during = samples.filter((s) => s.at >= start && s.at <= end);
    const before = samples.filter((s) => s.at < start).at(-1);
    const seen = [...(before ? [before] : []), ...during];
    const floor = pdbFloor(world, w, w.replicas);
    out.push({
      kind: w.kind,
      namespace: w.namespace,
      name: w.name,
      desired: w.replicas,
      minReady: Math.min(...seen.map((s) => s.available)),
      msBelowPdb: floor > 0 ? timeBelow(samples, floor, start, end) : 0,
      msAtZero: timeBelow(samples, 1, start, end),
    });
  }
  return out.sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
}

export function rehearsalReport(
  world: World,
  events: RollEvent[],
  watch: RehearsalWatch,
  result: { result: string; message: string },
): Omit<Rehearsal, "timings"> {
  const start = at(events[0]!);
  const end = at(events.at(-1)!);
  return {
    result: result.result,
    message: result.message,
    durationMs: end - start,
    groups: groups(events, start),
    workloads: workloads(world, start, end),
    stalls: [
      ...pdbStalls(world, events, start, end),
      ...watch.pending.map((p) => ({
        kind: "pending" as const,
        object: p.workload,
        fromMs: p.fromMs,
        forMs: p.forMs,
        pods: p.maxPods,
      })),
      ...forced(events, start),
    ],
    peakExtraNodes: watch.peakExtraNodes,
    peakRequestsPerMinute: watch.peakRequestsPerMinute,
  };
}

/**
 * The twin's roll of the groups apply reaches, ended where the plan says apply stops
 * (`summary.stopsAt`): the group it stops at refused as the plan finds it (blocked, or in
 * error), and every group after it not reached — apply stops at the first group that fails.
 * A plan apply goes through to its end leaves the report as it is.
 */
export function stoppedWhereApplyStops<R extends Omit<Rehearsal, "timings">>(
  report: R,
  plan: Pick<Plan, "groups" | "summary">,
): R {
  const stop = plan.summary.stopsAt;
  if (!stop) return report;
  const after = plan.groups.slice(stop.index + 1).map((g) => g.name);
  const row = (group: string, result: string) => ({ group, durationMs: 0, result, phases: [] });
  return {
    ...report,
    result: "failure",
    message: `Stopped at group ${stop.index + 1} ${stop.group} (${stop.status}), where apply stops${after.length > 0 ? `; not reached: ${after.join(", ")}` : ""}.`,
    groups: [
      ...report.groups,
      row(stop.group, stop.status),
      ...after.map((g) => row(g, "not reached")),
    ],
  };
}
