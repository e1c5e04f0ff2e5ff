// The pods validation judges, as kOps' `validate cluster` does (pkg/validation,
// collectPodFailures): pods of the critical priority classes in any namespace — not every pod
// of kube-system. One watched cache (informer.ts) for the run instead of a list of every pod at
// each validation — a roll of 100 nodes validates a few hundred times (the Kubernetes docs'
// "efficient detection of changes":
// https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes).
// No field selector reaches spec.priorityClassName, so the watch is cluster-wide and only the
// critical pods are kept. The cache answers only while its watch works: after a failed watch or
// list it answers nothing until it has heard from the API server again, and validation lists
// the pods itself. The same watch keeps the pods that crash-loop or restart, for the
// replacements gate (gates.ts): one watch of every pod for the run, not two.
import { listAll, pageOf, type Pod, type WatchEvent, type WatchOptions } from "../ports/index.js";
import { RunPart, type RollContext } from "./context.js";
import { Informer } from "./informer.js";

/** The priority classes Kubernetes ships for add-ons a cluster cannot work without
 * (https://kubernetes.io/docs/tasks/administer-cluster/guaranteed-scheduling-critical-addon-pods/).
 * A node-critical pod's failure is its node's group's; a cluster-critical pod's is everyone's. */
export const CRITICAL_PRIORITY = ["system-cluster-critical", "system-node-critical"] as const;
export type CriticalPriority = (typeof CRITICAL_PRIORITY)[number];

export function criticalPriority(p: Pod): CriticalPriority | undefined {
  const c = p.spec.priorityClassName;
  return CRITICAL_PRIORITY.find((k) => k === c);
}

/**
 * A pod that waits in CrashLoopBackOff or restarts again and again (the kubelet's back-off after repeated
 * restarts: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#container-restarts).
 */
export function crashLooping(p: Pod): boolean {
  // One restart is a hiccup a new node's pods can have (a CNI not ready yet); two, or a
  // container the kubelet holds back, is a release that does not run.
  return (p.status.containerStatuses ?? []).some(
    (c) => c.state?.waiting?.reason === "CrashLoopBackOff" || c.restartCount >= CRASH_RESTARTS,
  );
}

/** Restarts of one container that count as crash-looping without CrashLoopBackOff showing yet. */
export const CRASH_RESTARTS = 2;

const keyOf = (p: Pod) => `${p.metadata.namespace ?? ""}/${p.metadata.name}`;

/** The critical pods and the crash-looping ones, from one watch of every pod. */
export class WatchedPods extends Informer<Pod> {
  private readonly byKey = new Map<string, Pod>();
  private readonly looping = new Map<string, Pod>();
  /** The last list or watch answered: what is cached is the cluster as the server has it. */
  private current = true;

  protected list() {
    return listAll((cont) => this.ctx.cluster.listPods(undefined, pageOf(cont)));
  }

  protected watch(opts: WatchOptions) {
    return this.ctx.cluster.watchPods(undefined, opts);
  }

  protected reset(items: Pod[]): void {
    this.byKey.clear();
    this.looping.clear();
    for (const p of items) {
      if (criticalPriority(p)) this.byKey.set(keyOf(p), p);
      if (crashLooping(p)) this.looping.set(keyOf(p), p);
    }
    this.current = true;
  }

  protected override heard(): void {
    this.current = true;
  }

  protected apply(e: WatchEvent<Pod>): void {
    const key = keyOf(e.object);
    if (e.type === "DELETED" || !crashLooping(e.object)) this.looping.delete(key);
    else this.looping.set(key, e.object);
    // A pod's priority class cannot change (it is resolved at creation), so a pod never
    // critical is never cached and its events cost nothing but being read.
    if (!criticalPriority(e.object)) return;
    if (e.type === "DELETED") this.byKey.delete(key);
    else this.byKey.set(key, e.object);
  }

  protected override failed(): void {
    this.current = false;
  }

  /** The critical pods, or undefined while the watch is failing. */
  critical(): Pod[] | undefined {
    return this.current ? [...this.byKey.values()] : undefined;
  }

  /** The pods that restart or crash-loop, or undefined while the watch is failing. */
  crashLooping(): Pod[] | undefined {
    return this.current ? [...this.looping.values()] : undefined;
  }
}

/** The run's cache, once its first validation has asked for it; or when its list failed. */
type Held = WatchedPods | { failedAt: number };

const WATCHED_PODS = new RunPart<Promise<Held>>("watched pods", async (held) => {
  const h = await held;
  if (h instanceof WatchedPods) await h.close();
});

/**
 * After a failed start, how long validations list the pods themselves before the cache is
 * tried again: the list that failed is the cluster's every pod, usually for its weight, and
 * trying it at every validation (10 s) would double what a struggling API server is asked.
 */
const RESTART_AFTER_MS = 60_000;

/** The run's cache of watched pods, started when first asked for; undefined when it could
 * not be listed (validations list the pods themselves until it is tried again). */
export async function watchedPodsOf(ctx: RollContext): Promise<WatchedPods | undefined> {
  const now = () => ctx.clock.now().getTime();
  const start = (): Promise<Held> => {
    const cache = new WatchedPods(ctx);
    return cache.start().then(
      () => cache,
      () => ({ failedAt: now() }),
    );
  };
  let held = ctx.state.of(WATCHED_PODS, start);
  let h = await held;
  if (!(h instanceof WatchedPods) && now() - h.failedAt >= RESTART_AFTER_MS) {
    if (ctx.state.peek(WATCHED_PODS) === held) ctx.state.drop(WATCHED_PODS);
    held = ctx.state.of(WATCHED_PODS, start);
    h = await held;
  }
  return h instanceof WatchedPods ? h : undefined;
}
