// Pods the scheduler tried and could not place: their PodScheduled condition says so as
// kube-scheduler writes it — status False, reason Unschedulable, and a message counting the
// nodes by why each refused ("0/3 nodes are available: 1 node(s) had volume node affinity
// conflict, 2 node(s) were unschedulable."). Kept beside the records, not in them (a world holds
// millions of pods, a handful of them unschedulable): in the cluster's state (KubeState), and
// the message worked out when read.
// https://kubernetes.io/docs/concepts/scheduling-eviction/kube-scheduler/
import type { PodRec } from "../../model/records.js";

/** The pods the scheduler tried and could not place, each with how to say why. */
export type UnschedulablePods = WeakMap<PodRec, () => string>;

/** The scheduler could not place the pod; `explain` gives the message. False if marked already. */
export function markUnschedulable(
  failed: UnschedulablePods,
  pod: PodRec,
  explain: () => string,
): boolean {
  if (failed.has(pod)) return false;
  failed.set(pod, explain);
  return true;
}

/** The pod was placed (or is gone). */
export function clearUnschedulable(failed: UnschedulablePods, pod: PodRec): void {
  failed.delete(pod);
}

/** Why the scheduler could not place a pod it tried, or undefined. */
export function unschedulableMessage(
  failed: UnschedulablePods | undefined,
  pod: PodRec,
): string | undefined {
  return pod.nodeName ? undefined : failed?.get(pod)?.();
}

/** kube-scheduler's FailedScheduling message from the counts of each reason. */
export function schedulingMessage(nodes: number, reasons: readonly string[]): string {
  const why = [...reasons].sort((a, b) => reasonOf(a).localeCompare(reasonOf(b)));
  return `0/${nodes} nodes are available${why.length > 0 ? `: ${why.join(", ")}` : ""}.`;
}

const reasonOf = (counted: string) => counted.replace(/^\d+ /, "");
