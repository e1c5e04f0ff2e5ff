// What every kind's schedule shares: the estimates a plan uses for a node's boot and a drain,
// zones taken in turn, and cutting an ordered list of nodes into waves. A schedule is an
// estimate for a reviewer, not a promise; the kinds build theirs from these
// (src/kinds/*/schedule.ts).
import type { RollSettings } from "../policy/index.js";
import {
  drainMoves,
  drainWaitsFor,
  heldPastDeletion,
  UNREACHABLE_WAIT_MS,
  type PdbInfo,
  type PodInfo,
} from "./snapshot.js";
import type { FindingCode, Replacement, Schedule } from "./types.js";
import { leavesPodsOf } from "./down-findings.js";

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
  /** When the snapshot was taken (a pod's deletion is due relative to it). */
  now: Date;
  /** The cluster's PodDisruptionBudgets: a schedule may order nodes for their turns. */
  pdbs: PdbInfo[];
  /** The kind's drain leaves an unreachable node's pods once long past due (GroupKind). */
  leavesUnreachable?: boolean;
  /**
   * Under deleteAfterDrainTimeout, the nodes whose pods some finding says cannot leave
   * (preflight.ts drainHolds); each kind reads those its drain waits on (`heldBy`). Without
   * it, none: such a group is blocked.
   */
  holds?: DrainHolds;
}

/** The findings whose pods may keep a drain waiting until its timeout. */
export type HoldingCode = Extract<
  FindingCode,
  "pdb-blocks" | "multiple-pdbs" | "tolerates-everything"
>;

/** Per finding, the nodes carrying the pods it names. */
export type DrainHolds = ReadonlyMap<HoldingCode, ReadonlySet<string>>;

/** The nodes whose drain one of `codes` holds until its timeout. */
export function heldBy(
  holds: DrainHolds | undefined,
  codes: readonly HoldingCode[],
): ReadonlySet<string> {
  const out = new Set<string>();
  for (const code of codes) for (const node of holds?.get(code) ?? []) out.add(node);
  return out;
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

/**
 * What a drain's estimate reads: the pods on each node, the plan's now, the drain's timeout,
 * whether the drain leaves an unreachable node's pods once UNREACHABLE_WAIT_MS past due, and
 * whether it goes on at its timeout (deleteAfterDrainTimeout) rather than wait for pods slower to stop,
 * and the nodes whose pods cannot leave before it (`heldBy`).
 */
export interface DrainInput {
  podsByNode: Map<string, PodInfo[]>;
  now: Date;
  timeoutMs: number;
  leavesUnreachable?: boolean;
  deleteAfterDrainTimeout?: boolean;
  held?: ReadonlySet<string>;
}

/**
 * A drain takes the longest termination grace of the pods it evicts, plus the evictions — the
 * whole grace, however long: a drain that cannot wait so long blocks the group (grace-findings),
 * and with deleteAfterDrainTimeout goes on at its timeout, which is then the estimate. A pod already being deleted
 * is not evicted: the drain waits what is left until its deletion is due, from the wave's start.
 * One held past its deletion (a finalizer, an unreachable kubelet; a finished Job pod held by its
 * finalizer too) keeps the drain waiting until its timeout (the plan blocks such a group unless
 * deleteAfterDrainTimeout, and with it the drain goes on then) — except on an unreachable node a drain leaves
 * such pods on: there each pod is waited for until its deletion is UNREACHABLE_WAIT_MS past due,
 * and no longer. A node whose pods cannot leave (`held`: a budget that never allows, for one)
 * keeps its drain until the timeout, whatever their grace.
 */
function drainEstimateMs(r: Replacement, input: DrainInput, startMs: number): number {
  if (r.node !== undefined && input.held?.has(r.node)) return input.timeoutMs;
  const pods = r.node ? (input.podsByNode.get(r.node) ?? []) : [];
  const waveAt = input.now.getTime() + startMs;
  const unreachable = leavesPodsOf(r, input.leavesUnreachable);
  const beyondDue = unreachable ? UNREACHABLE_WAIT_MS : 0;
  let evicts = false;
  let waitMs = 0;
  for (const p of pods) {
    if (!drainWaitsFor(p)) continue;
    if (!unreachable && heldPastDeletion(p, input.now)) return input.timeoutMs;
    if (p.deletionTimestamp !== undefined)
      waitMs = Math.max(waitMs, Date.parse(p.deletionTimestamp) + beyondDue - waveAt);
    else if (drainMoves(p)) {
      evicts = true;
      waitMs = Math.max(waitMs, p.terminationGracePeriodSeconds * 1000 + beyondDue);
    }
  }
  const ms = (evicts ? EVICTION_OVERHEAD_MS : 0) + waitMs;
  return input.deleteAfterDrainTimeout && !unreachable ? Math.min(ms, input.timeoutMs) : ms;
}

/** The longest drain among a wave's nodes, the wave starting `startMs` after the plan's now. */
export function waveDrainMs(wave: Replacement[], input: DrainInput, startMs: number): number {
  return Math.max(...wave.map((r) => drainEstimateMs(r, input, startMs)));
}

export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Replacements in the order of the schedule's waves: what the plan's replacements are put in,
 * once, so that apply follows the plan's order rather than make one (a replacement the waves do
 * not name keeps its place after those they do).
 */
export function inWaveOrder(schedule: Pick<Schedule, "waves">, rs: Replacement[]): Replacement[] {
  const at = new Map<string, number>();
  for (const w of schedule.waves) for (const n of w.nodes) at.set(n, at.size);
  const place = (r: Replacement) =>
    at.get(r.node ?? r.instance) ?? at.get(r.instance) ?? Number.MAX_SAFE_INTEGER;
  return [...rs].sort((a, b) => place(a) - place(b));
}
