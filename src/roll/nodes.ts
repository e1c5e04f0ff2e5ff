// A watched cache of the cluster's nodes (an informer, reduced): one paginated list, then a
// watch from its resourceVersion, relisting on 410. Waits for node state read the cache and
// wake on change instead of polling the API server
// (https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes).
import { instanceIdOf, KubeApiError, listAll, pageOf, type Node } from "../ports/index.js";
import { isAbort, type RollContext } from "./context.js";

export class NodeCache {
  readonly byName = new Map<string, Node>();
  private readonly nameOfInstance = new Map<string, string>();
  private waiters: (() => void)[] = [];
  private readonly stop = new AbortController();
  private running?: Promise<void>;

  constructor(private readonly ctx: RollContext) {}

  async start(): Promise<void> {
    const rv = await this.relist();
    this.running = this.loop(rv);
  }

  async close(): Promise<void> {
    this.stop.abort();
    await this.running;
  }

  byInstance(id: string): Node | undefined {
    const name = this.nameOfInstance.get(id);
    return name === undefined ? undefined : this.byName.get(name);
  }

  private put(n: Node): void {
    this.byName.set(n.metadata.name, n);
    const id = instanceIdOf(n);
    if (id) this.nameOfInstance.set(id, n.metadata.name);
  }

  private remove(n: Node): void {
    this.byName.delete(n.metadata.name);
    const id = instanceIdOf(n);
    if (id && this.nameOfInstance.get(id) === n.metadata.name) this.nameOfInstance.delete(id);
  }

  /** Resolves at the next change (or after `maxMs`, so callers re-check what they poll elsewhere). */
  async changed(maxMs: number): Promise<void> {
    const wake = new AbortController();
    const woken = new Promise<void>((resolve) => this.waiters.push(resolve));
    await Promise.race([woken, this.ctx.clock.sleep(maxMs, wake.signal).catch(() => undefined)]);
    wake.abort();
  }

  private notify(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const resolve of w) resolve();
  }

  private async relist(): Promise<string> {
    const { items, resourceVersion } = await listAll((cont) =>
      this.ctx.cluster.listNodes(pageOf(cont)),
    );
    this.byName.clear();
    this.nameOfInstance.clear();
    for (const n of items) this.put(n);
    this.notify();
    return resourceVersion;
  }

  private async loop(resourceVersion: string): Promise<void> {
    let rv = resourceVersion;
    while (!this.stop.signal.aborted) {
      try {
        for await (const e of this.ctx.cluster.watchNodes({
          resourceVersion: rv,
          signal: this.stop.signal,
        })) {
          if (e.object.metadata.resourceVersion) rv = e.object.metadata.resourceVersion;
          if (e.type === "BOOKMARK") continue;
          if (e.type === "DELETED") this.remove(e.object);
          else this.put(e.object);
          this.notify();
        }
      } catch (e) {
        if (isAbort(e) || this.stop.signal.aborted) return;
        if (e instanceof KubeApiError && e.status === 410) {
          // A relist that fails is retried like any other failure; the loop never rejects.
          rv = await this.relist().catch(() => rv);
          continue;
        }
        await this.ctx.clock.sleep(1000, this.stop.signal).catch(() => undefined);
      }
    }
  }
}
