// The pods validation judges, as kOps' `validate cluster` does (pkg/validation,
// collectPodFailures): pods of the critical priority classes in any namespace — not every pod
// of kube-system. One watched cache (informer.ts) for the run instead of a list of every pod at
// each validation — a roll of 100 nodes validates a few hundred times (the Kubernetes docs'
// "efficient detection of changes":
// https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes).
// No field selector reaches spec.priorityClassName, so the watch is cluster-wide and only the
// critical pods are kept. The cache answers only while its watch works: after a failed watch or
// list it answers nothing until it has heard from the API server again, and validation lists
// the pods itself.
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

const keyOf = (p: Pod) => `${p.metadata.namespace ?? ""}/${p.metadata.name}`;

export class CriticalPods extends Informer<Pod> {
  private readonly byKey = new Map<string, Pod>();
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
    for (const p of items) if (criticalPriority(p)) this.byKey.set(keyOf(p), p);
    this.current = true;
  }

  protected apply(e: WatchEvent<Pod>): void {
    this.current = true;
    // A pod's priority class cannot change (it is resolved at creation), so a pod never
    // critical is never cached and its events cost nothing but being read.
    if (!criticalPriority(e.object)) return;
    if (e.type === "DELETED") this.byKey.delete(keyOf(e.object));
    else this.byKey.set(keyOf(e.object), e.object);
  }

  protected override failed(): void {
    this.current = false;
  }

  /** The critical pods, or undefined while the watch is failing. */
  pods(): Pod[] | undefined {
    return this.current ? [...this.byKey.values()] : undefined;
  }
}

/** The run's cache, once its first validation has asked for it. */
const CRITICAL_PODS = new RunPart<Promise<CriticalPods | undefined>>(
  "critical pods",
  async (held) => (await held)?.close(),
);

/** The run's cache of critical pods, started at the first validation; undefined when it could
 * not be listed (that validation lists the pods itself, the next tries the cache again). */
export async function criticalPodsOf(ctx: RollContext): Promise<CriticalPods | undefined> {
  const held = ctx.state.of(CRITICAL_PODS, () => {
    const cache = new CriticalPods(ctx);
    return cache.start().then(
      () => cache,
      () => undefined,
    );
  });
  const cache = await held;
  if (!cache && ctx.state.peek(CRITICAL_PODS) === held) ctx.state.drop(CRITICAL_PODS);
  return cache;
}
