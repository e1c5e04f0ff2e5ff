// A watched cache of the cluster's nodes (an informer, reduced): one paginated list, then a
// watch from its resourceVersion, relisting on 410 or when the watch goes silent (watch.ts).
// Waits for node state read the cache and wake on change instead of polling the API server
// (https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes).
import { instanceIdOf, listAll, pageOf, type Node, type WatchEvent } from "../ports/index.js";
import { isAbort, type RollContext } from "./context.js";
import { guardedWatch, mustRelist, watchBackoffMs, WATCH_TIMEOUT_SECONDS } from "./watch.js";

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

  private apply(e: WatchEvent<Node>): void {
    if (e.type === "BOOKMARK") return;
    if (e.type === "DELETED") this.remove(e.object);
    else this.put(e.object);
    this.notify();
  }

  /** Watch from `rv` until the watch ends; the last resourceVersion seen, and how many events. */
  private async watchFrom(rv: string): Promise<{ rv: string; events: number }> {
    let events = 0;
    const watch = guardedWatch(
      this.ctx.clock,
      (signal) =>
        this.ctx.cluster.watchNodes({
          resourceVersion: rv,
          timeoutSeconds: WATCH_TIMEOUT_SECONDS,
          allowWatchBookmarks: true,
          signal,
        }),
      this.stop.signal,
    );
    for await (const e of watch) {
      events++;
      if (e.object.metadata.resourceVersion) rv = e.object.metadata.resourceVersion;
      this.apply(e);
    }
    return { rv, events };
  }

  private async loop(resourceVersion: string): Promise<void> {
    let rv = resourceVersion;
    let failures = 0;
    const pause = (ms: number) => this.ctx.clock.sleep(ms, this.stop.signal).catch(() => undefined);
    while (!this.stop.signal.aborted) {
      try {
        const r = await this.watchFrom(rv);
        rv = r.rv;
        failures = 0;
        // Ended by the server (its timeout, or a connection cut): watch again from where it
        // left off; at once, unless it gave nothing (a server that ends every watch at once).
        if (r.events === 0) await pause(1000);
      } catch (e) {
        if (isAbort(e) || this.stop.signal.aborted) return;
        let failure = e;
        if (mustRelist(e)) {
          // A relist that fails is retried like any other failure; the loop never rejects.
          try {
            rv = await this.relist();
            continue;
          } catch (relistError) {
            failure = relistError;
          }
        }
        await pause(watchBackoffMs(failure, failures++));
      }
    }
  }
}
