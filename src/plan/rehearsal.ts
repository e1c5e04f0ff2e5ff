// What a rehearsal found (docs/rehearsal.md): the shape in the plan's JSON (`rehearsal`), and
// how it replaces the plan's heuristic estimates.
import type { Plan } from "./types.js";

export interface RehearsalPhase {
  phase: string;
  /** Offsets from the rehearsal's start. */
  startMs: number;
  endMs: number;
}

export interface RehearsalGroup {
  group: string;
  durationMs: number;
  result: string;
  phases: RehearsalPhase[];
}

export interface RehearsalWorkload {
  kind: "Deployment" | "StatefulSet";
  namespace: string;
  name: string;
  desired: number;
  /** The fewest Ready replicas at any moment of the roll. */
  minReady: number;
  /** Time with fewer Ready replicas than its PodDisruptionBudget wants (0 without one). */
  msBelowPdb: number;
  /** Time with no Ready replica: the workload was down. */
  msAtZero: number;
}

export interface RehearsalStall {
  /** pdb: a PodDisruptionBudget held a drain; pending: pods found no node; deleted: force. */
  kind: "pdb" | "pending" | "deleted";
  /** The pod ("ns/name") or, for pending, the workload ("Kind/ns/name"). */
  object: string;
  /** The PodDisruptionBudget that held it. */
  by?: string;
  node?: string;
  fromMs: number;
  forMs: number;
  /** Pending: the most pods pending at once. */
  pods?: number;
}

export interface Rehearsal {
  /** How the twin's roll ended, as apply would say it. */
  result: string;
  message: string;
  durationMs: number;
  groups: RehearsalGroup[];
  workloads: RehearsalWorkload[];
  stalls: RehearsalStall[];
  /** The most nodes running beyond the cluster's own at any moment (surge, EKS's scale-up). */
  peakExtraNodes: number;
  /** The most Kubernetes and AWS requests the roll made in any minute. */
  peakRequestsPerMinute: number;
  /** The timings the twin assumed, and where each came from. */
  timings: { values: Record<string, number>; sources: Record<string, string> };
}

/**
 * The plan with the rehearsal's findings: its durations replace the heuristic estimates of the
 * groups it rolled (and the total), which is what the chart and the time limits then show.
 */
export function withRehearsal(plan: Plan, rehearsal: Rehearsal): Plan {
  const rehearsed = new Map(rehearsal.groups.map((g) => [g.group, g.durationMs]));
  const groups = plan.groups.map((g) => {
    const ms = rehearsed.get(g.name);
    return ms === undefined || g.status !== "roll"
      ? g
      : { ...g, schedule: { ...g.schedule, estimatedMs: ms } };
  });
  const estimatedMs = groups
    .filter((g) => g.status === "roll")
    .reduce((n, g) => n + g.schedule.estimatedMs, 0);
  return { ...plan, groups, summary: { ...plan.summary, estimatedMs }, rehearsal };
}
