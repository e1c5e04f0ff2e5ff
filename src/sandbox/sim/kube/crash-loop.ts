// Containers as the kubelet reports them (a pod's status.containerStatuses), and the crash loop of
// a bad release's node (faults.badRelease, effect crashLoop): a container that exits as soon as
// it starts, restarted by the kubelet after a back-off that doubles from 10 s and is capped at
// five minutes ("Container restarts",
// https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#container-restarts). Its
// pod is Running and never Ready; its one container waits in CrashLoopBackOff, restartCount
// climbing with virtual time. Kept beside the pod records, not in them (a world holds millions
// of pods, a bad release's a handful): in the cluster's state (KubeState.crashLoops).
import type { ContainerStatus } from "../../../ports/cluster.js";
import type { PodRec } from "../../model/records.js";

/** A crash-looping pod's container: the restarts the kubelet made so far. */
export interface CrashLoop {
  restarts: number;
}

export type CrashLoops = WeakMap<PodRec, CrashLoop>;

/** The kubelet's back-off before restart n + 1 (n restarts made): 10 s doubling, 5 min at most. */
export function crashBackoffMs(restarts: number): number {
  return Math.min(10_000 * 2 ** restarts, 300_000);
}

type Statuses = readonly ContainerStatus[];

const { freeze } = Object;

/** A bound pod's container not started yet (its image pulled, its sandbox made). */
const CREATING: Statuses = freeze([
  freeze({
    name: "main",
    ready: false,
    restartCount: 0,
    state: freeze({ waiting: freeze({ reason: "ContainerCreating" }) }),
  }),
]);

/**
 * The pod's containerStatuses: none before it is bound; waiting (ContainerCreating) until it
 * starts; in CrashLoopBackOff on a bad release's node; else running since it started, ready as
 * the pod is. `running` makes (and may share) the running ones.
 */
export function containerStatuses(
  p: PodRec,
  loops: CrashLoops | undefined,
  running: (startedAt: number, ready: boolean) => Statuses,
): Statuses | undefined {
  if (!p.nodeName) return undefined;
  const loop = loops?.get(p);
  if (loop)
    return [
      {
        name: "main",
        ready: false,
        restartCount: loop.restarts,
        state: { waiting: { reason: "CrashLoopBackOff" } },
      },
    ];
  if (p.startedAt === undefined || p.phase === "Pending") return CREATING;
  return running(p.startedAt, p.ready);
}
