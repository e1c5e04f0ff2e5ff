// What every kind's schedule shares: the estimates a plan uses for a node's boot and a drain,
// zones taken in turn, and cutting an ordered list of nodes into waves. A schedule is an
// estimate for a reviewer, not a promise; the kinds build theirs from these
// (src/kinds/*/schedule.ts).
import type { RollSettings } from "../policy/index.js";
import { drainMoves, type PdbInfo, type PodInfo } from "./snapshot.js";
import type { Replacement, Schedule } from "./types.js";

/** EC2 launch, kubelet registration and Ready: what a new node typically takes. */
export const BOOT_ESTIMATE_MS = 150_000;
const EVICTION_OVERHEAD_MS = 5_000;

export interface ScheduleInput {
  replacements: Replacement[];
  /** Instances of the group that are already up to date. */
  upToDate: number;
  zones: string[];
  settings: RollSettings;
  budgets: { maxSurge: number; maxUnavailable: number };
  podsByNode: Map<string, PodInfo[]>;
  /** The cluster's PodDisruptionBudgets: a schedule may order nodes for their turns. */
  pdbs: PdbInfo[];
}

export const NO_SCHEDULE: Schedule = { waves: [], zoneOrder: [], surge: 0, estimatedMs: 0 };

/** Zones in turn: a, b, c, a, b, c… oldest instance first within a zone (input order). */
export function interleaveByZone(replacements: Replacement[]): Replacement[] {
  const byZone = new Map<string, Replacement[]>();
  for (const r of replacements) byZone.set(r.zone, [...(byZone.get(r.zone) ?? []), r]);
  const zones = [...byZone.keys()].sort();
  const out: Replacement[] = [];
  for (let i = 0; out.length < replacements.length; i++) {
    for (const z of zones) {
      const r = byZone.get(z)?.[i];
      if (r) out.push(r);
    }
  }
  return out;
}

/** A drain takes the longest termination grace of the pods it moves, plus the evictions. */
function drainEstimateMs(node: string | undefined, podsByNode: Map<string, PodInfo[]>): number {
  const pods = node ? (podsByNode.get(node) ?? []) : [];
  const movable = pods.filter(drainMoves);
  const grace = Math.max(0, ...movable.map((p) => p.terminationGracePeriodSeconds));
  return movable.length === 0 ? 0 : EVICTION_OVERHEAD_MS + grace * 1000;
}

/** The longest drain among a wave's nodes. */
export function waveDrainMs(wave: Replacement[], podsByNode: Map<string, PodInfo[]>): number {
  return Math.max(...wave.map((r) => drainEstimateMs(r.node, podsByNode)));
}

export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
