// Pods that take longer to stop than their node's drain waits. A drain evicts a pod and then
// waits for it to be gone; the kubelet gives it up to terminationGracePeriodSeconds, running its
// preStop hook first (https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-termination).
// Past the drain's timeout the drain fails (kubectl drain's --timeout; the EKS user guide,
// "Understand each phase of node updates": 15 minutes, then PodEvictionFailure unless EKS's
// force, deleteAfterDrainTimeout here),
// leaving the node cordoned — and the next run fails the same way. A preStop sleep the pod is
// known to take that long proves it; a grace period that long only allows it.
import { formatDuration } from "../policy/index.js";
import { list, podId, stopping } from "./finding.js";
import type { PodInfo } from "./snapshot.js";
import type { Finding } from "./types.js";

export interface GraceInput {
  /** The group's drain timeout (a managed group's is EKS's 15 minutes). */
  drainTimeoutMs: number;
  deleteAfterDrainTimeout: boolean;
  /** How this kind of group lets a drain wait longer (GroupKind.drainTimeoutAdvice). */
  advice: string;
  /** Nodes whose drains leave pods long past due instead of failing (unreachable ones). */
  unreachable: ReadonlySet<string>;
}

/** The longest preStop sleep of a pod's containers, when known (0: none known). */
function preStopSeconds(p: PodInfo): number {
  let sleep = 0;
  for (const c of p.containers) sleep = Math.max(sleep, c.preStopSleepSeconds ?? 0);
  return sleep;
}

/** One line per workload: its pods, how long they are known to take and allowed to take. */
function described(pods: PodInfo[]): { lines: string[]; longestMs: number } {
  const by = new Map<string, { pods: PodInfo[]; sleep: number; grace: number }>();
  for (const p of pods) {
    const key = p.workload ?? podId(p);
    const e = by.get(key) ?? { pods: [], sleep: 0, grace: 0 };
    e.pods.push(p);
    e.sleep = Math.max(e.sleep, Math.min(preStopSeconds(p), p.terminationGracePeriodSeconds));
    e.grace = Math.max(e.grace, p.terminationGracePeriodSeconds);
    by.set(key, e);
  }
  let longestMs = 0;
  const lines = [...by].map(([key, e]) => {
    longestMs = Math.max(longestMs, e.grace * 1000);
    const what =
      e.pods.length === 1 ? podId(e.pods[0] as PodInfo) : `${key} (${e.pods.length} pods)`;
    const sleep = e.sleep > 0 ? `preStop sleep ${formatDuration(e.sleep * 1000)}, ` : "";
    return `${what}: ${sleep}terminationGracePeriodSeconds ${e.grace} (${formatDuration(e.grace * 1000)})`;
  });
  return { lines, longestMs };
}

/**
 * `pods`: those the drains move (drainMoves). A pod already being deleted is left to the
 * findings about deletions; one on an unreachable node is waited for past the timeout anyway.
 */
export function graceFindings(pods: readonly PodInfo[], input: GraceInput): Finding[] {
  const timeout = input.drainTimeoutMs;
  const surely: PodInfo[] = [];
  const maybe: PodInfo[] = [];
  for (const p of pods) {
    if (p.deletionTimestamp !== undefined || input.unreachable.has(p.nodeName)) continue;
    if (p.terminationGracePeriodSeconds * 1000 <= timeout) continue;
    // The kubelet runs preStop to its end or to the grace period's: at least that long.
    const known = Math.min(preStopSeconds(p), p.terminationGracePeriodSeconds) * 1000;
    (known >= timeout ? surely : maybe).push(p);
  }
  const out: Finding[] = [];
  const wait = `drainTimeout ${formatDuration(timeout)}`;
  if (surely.length > 0) {
    const d = described(surely);
    out.push(
      stopping(
        "grace-exceeds-drain-timeout",
        input.deleteAfterDrainTimeout,
        `the drain cannot finish within ${wait}: these pods take longer to stop (a preStop sleep that long), so the drain would fail with PodEvictionFailure and leave its node cordoned, on every run: ${list(d.lines)}; ${input.advice.replace("LONGEST", formatDuration(d.longestMs))}`,
        surely.map(podId),
      ),
    );
  }
  if (maybe.length > 0) {
    const d = described(maybe);
    const atTimeout = input.deleteAfterDrainTimeout
      ? "with deleteAfterDrainTimeout: their node is terminated at the timeout; "
      : "";
    out.push({
      code: "grace-exceeds-drain-timeout",
      severity: "warning",
      message: `${atTimeout}these pods may take longer to stop than the drain waits (${wait}): if they use their grace period, the drain fails with PodEvictionFailure: ${list(d.lines)}; ${input.advice.replace("LONGEST", formatDuration(d.longestMs))}`,
      objects: maybe.map(podId),
    });
  }
  return out;
}
