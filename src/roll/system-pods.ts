// kube-system's pods as validation sees them: one watched cache (informer.ts) for the run instead
// of a list of the namespace at every validation — a roll of 100 nodes validates a few hundred
// times. The Kubernetes docs' "efficient detection of changes":
// https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes.
// The cache answers only while its watch works: after a failed watch or list it answers nothing
// until it has heard from the API server again, and validation lists the pods itself.
import { listAll, pageOf, type Pod, type WatchEvent, type WatchOptions } from "../ports/index.js";
import { RunPart, type RollContext } from "./context.js";
import { Informer } from "./informer.js";

export const SYSTEM_NAMESPACE = "kube-system";

export class SystemPods extends Informer<Pod> {
  private readonly byName = new Map<string, Pod>();
  /** The last list or watch answered: what is cached is the namespace as the server has it. */
  private current = true;

  protected list() {
    return listAll((cont) => this.ctx.cluster.listPods(SYSTEM_NAMESPACE, pageOf(cont)));
  }

  protected watch(opts: WatchOptions) {
    return this.ctx.cluster.watchPods(SYSTEM_NAMESPACE, opts);
  }

  protected reset(items: Pod[]): void {
    this.byName.clear();
    for (const p of items) this.byName.set(p.metadata.name, p);
    this.current = true;
  }

  protected apply(e: WatchEvent<Pod>): void {
    this.current = true;
    if (e.type === "DELETED") this.byName.delete(e.object.metadata.name);
    else this.byName.set(e.object.metadata.name, e.object);
  }

  protected override failed(): void {
    this.current = false;
  }

  /** The namespace's pods, or undefined while the watch is failing. */
  pods(): Pod[] | undefined {
    return this.current ? [...this.byName.values()] : undefined;
  }
}

/** The run's cache, once its first validation has asked for it. */
const SYSTEM_PODS = new RunPart<Promise<SystemPods | undefined>>("kube-system pods", async (held) =>
  (await held)?.close(),
);

/** The run's cache of kube-system pods, started at the first validation; undefined when it could
 * not be listed (that validation lists the pods itself, the next tries the cache again). */
export async function systemPodsOf(ctx: RollContext): Promise<SystemPods | undefined> {
  const held = ctx.state.of(SYSTEM_PODS, () => {
    const cache = new SystemPods(ctx);
    return cache.start().then(
      () => cache,
      () => undefined,
    );
  });
  const cache = await held;
  if (!cache && ctx.state.peek(SYSTEM_PODS) === held) ctx.state.drop(SYSTEM_PODS);
  return cache;
}
