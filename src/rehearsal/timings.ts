// The timings a rehearsal assumes, in one place. What the cluster cannot show (how long an EC2
// instance boots, how long a pod takes to stop) comes from these defaults — the sandbox's own,
// close to what EKS-optimized AMIs show — unless the policy or a flag says otherwise; what the
// cluster does show (a recent node's launch to registration and to Ready, a pod's scheduling to
// Ready) is taken from observation, as the median of what it shows.
import type { Snapshot } from "../plan/index.js";
import { parseDuration } from "../policy/index.js";
import { hasReadyCondition, instanceIdOf, type Condition } from "../ports/index.js";
import type { LiveCluster } from "./live.js";
import { isRecentNode, RECENT_MS } from "./recent.js";

/** Seconds. boot + register is an instance's launch to its node object; nodeReady, to Ready. */
export const REHEARSAL_TIMINGS = {
  boot: 60,
  bootJitter: 15,
  register: 10,
  nodeReady: 20,
  terminate: 30,
  nodeDelete: 10,
  podShutdown: 2,
  podStart: 5,
  podReady: 5,
} as const;

export type TimingName = keyof typeof REHEARSAL_TIMINGS;

export interface Timings {
  /** The scenario's `timings:` (seconds). */
  values: Record<string, number>;
  /** Per timing: "default", "observed (median of N …)", "policy" or "flag". */
  sources: Record<TimingName, string>;
  /** A pod's start and readiness delays (seconds) where its workload shows none. */
  pod: { start: number; ready: number };
}

/** Longer than this is not a boot but a node that sat stopped, or a clock problem. */
const PLAUSIBLE_S = 30 * 60;

/** Seconds from a pod's scheduling to Ready, if recent and plausible. */
export function podStartup(
  p: { status: { conditions?: Condition[] } },
  now: number,
): number | undefined {
  const scheduled = transition(p.status.conditions, "PodScheduled");
  const ready = transition(p.status.conditions, "Ready");
  if (scheduled === undefined || ready === undefined || now - ready > RECENT_MS) return undefined;
  const s = (ready - scheduled) / 1000;
  return s > 0 && s < PLAUSIBLE_S ? s : undefined;
}

/**
 * A pod scheduled this long ago (seconds) and still not Ready is taken to stay so: the twin's
 * copy never becomes Ready, and a PodDisruptionBudget it counts toward stays as closed as live.
 */
export const NEVER_READY_S = PLAUSIBLE_S;

/** Scheduled long ago and not Ready now: it is not about to be. */
export function stuckUnready(
  p: { status: { phase?: string; conditions?: Condition[]; startTime?: string } },
  now: number,
): boolean {
  if (p.status.phase !== "Running" && p.status.phase !== "Pending") return false;
  if (p.status.conditions?.some((c) => c.type === "Ready" && c.status === "True")) return false;
  // When it was scheduled, or else when the kubelet took it (startTime).
  const since =
    transition(p.status.conditions, "PodScheduled") ?? Date.parse(p.status.startTime ?? "");
  return Number.isFinite(since) && (now - since) / 1000 > NEVER_READY_S;
}

export function median(xs: number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const transition = (cs: Condition[] | undefined, type: string) => {
  const t = cs?.find((c) => c.type === type && c.status === "True")?.lastTransitionTime;
  return t ? Date.parse(t) : undefined;
};

/** Seconds from an instance's launch to its node, and from the node to Ready, of recent nodes. */
function observedNodes(snapshot: Snapshot, live: LiveCluster) {
  const now = snapshot.takenAt.getTime();
  const toNode: number[] = [];
  const toReady: number[] = [];
  for (const n of live.nodes) {
    if (!isRecentNode(n, now)) continue;
    const created = Date.parse(n.metadata.creationTimestamp ?? "");
    const launch = live.launched.get(instanceIdOf(n) ?? "")?.getTime();
    if (launch !== undefined) toNode.push((created - launch) / 1000);
    const ready = transition(n.status.conditions, "Ready");
    if (ready !== undefined && hasReadyCondition(n.status.conditions))
      toReady.push((ready - created) / 1000);
  }
  const ok = (xs: number[]) => xs.filter((x) => x > 0 && x < PLAUSIBLE_S);
  return { toNode: ok(toNode), toReady: ok(toReady) };
}

export function twinTimings(
  snapshot: Snapshot,
  live: LiveCluster,
  overrides: Partial<Record<string, number>> = {},
): Timings {
  const values: Record<string, number> = { ...REHEARSAL_TIMINGS };
  const sources = Object.fromEntries(
    Object.keys(REHEARSAL_TIMINGS).map((k) => [k, "default"]),
  ) as Record<TimingName, string>;
  if (live.physics) {
    Object.assign(values, live.physics.timings);
    for (const k of Object.keys(sources))
      if (k in live.physics.timings)
        sources[k as TimingName] = `the sandbox's own (${live.physics.name})`;
  }
  const seen = live.physics ? { toNode: [], toReady: [] } : observedNodes(snapshot, live);
  const toNode = median(seen.toNode);
  if (toNode !== undefined) {
    values.boot = Math.max(1, toNode - values.register!);
    values.bootJitter = 0;
    sources.boot = `observed (median of ${seen.toNode.length} recent nodes' launch to registration)`;
  }
  const toReady = median(seen.toReady);
  if (toReady !== undefined) {
    values.nodeReady = toReady;
    sources.nodeReady = `observed (median of ${seen.toReady.length} recent nodes' registration to Ready)`;
  }
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined || !(k in REHEARSAL_TIMINGS)) continue;
    values[k] = v;
    sources[k as TimingName] = "given";
  }
  const { podStart, podReady, ...scenario } = values;
  return { values: scenario, sources, pod: { start: podStart!, ready: podReady! } };
}

/** Timings as the policy (`rehearsal.timings`) or a flag gives them: durations → seconds. */
export function givenTimings(
  written: Partial<Record<string, string>> | undefined,
): Partial<Record<string, number>> {
  const out: Partial<Record<string, number>> = {};
  for (const [k, v] of Object.entries(written ?? {})) {
    const ms = v === undefined ? undefined : parseDuration(v);
    if (ms !== undefined) out[k] = ms / 1000;
  }
  return out;
}
