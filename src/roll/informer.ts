// A watched cache (an informer, reduced): one paginated list, then a watch from its
// resourceVersion, watching again from the last version seen when the server ends the watch,
// and listing again on 410 Gone or when the watch goes silent (watch.ts). Waits read the cache
// and wake on change instead of polling the API server
// (https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes).
// What is kept of the objects is the subclass's: it is told of every list and every event.
import type { WatchEvent, WatchOptions } from "../ports/index.js";
import { isAbort, type RollContext } from "./context.js";
import { guardedWatch, mustRelist, watchBackoffMs, WATCH_TIMEOUT_SECONDS } from "./watch.js";

export abstract class Informer<T extends { metadata: { resourceVersion?: string } }> {
  private waiters: (() => void)[] = [];
  private readonly stop = new AbortController();
  private running?: Promise<void>;

  constructor(protected readonly ctx: RollContext) {}

  /** The whole list (all its pages) and its resourceVersion. */
  protected abstract list(): Promise<{ items: T[]; resourceVersion: string }>;
  protected abstract watch(opts: WatchOptions): AsyncIterable<WatchEvent<T>>;
  /** The cache is the list's items now. */
  protected abstract reset(items: T[]): void;
  /** An ADDED, MODIFIED or DELETED event. */
  protected abstract apply(e: WatchEvent<T>): void;
  /** A watch or list failed (it is tried again after a pause). */
  protected failed(_e: unknown): void {}
  /** The watch answered: an event, a bookmark too (the API server is heard from again). */
  protected heard(): void {}

  async start(): Promise<void> {
    const rv = await this.relist();
    this.running = this.loop(rv);
  }

  async close(): Promise<void> {
    this.stop.abort();
    await this.running;
  }

  /** Resolves at the next change (or after `maxMs`, so callers re-check what they poll elsewhere). */
  async changed(maxMs: number, signal?: AbortSignal): Promise<void> {
    const wake = new AbortController();
    const woken = new Promise<void>((resolve) => this.waiters.push(resolve));
    const until = signal ? AbortSignal.any([wake.signal, signal]) : wake.signal;
    await Promise.race([woken, this.ctx.clock.sleep(maxMs, until).catch(() => undefined)]);
    wake.abort();
  }

  private notify(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const resolve of w) resolve();
  }

  private async relist(): Promise<string> {
    const { items, resourceVersion } = await this.list();
    this.reset(items);
    this.notify();
    return resourceVersion;
  }

  /** Watch from `rv` until the watch ends; the last resourceVersion seen, and how many events. */
  private async watchFrom(rv: string): Promise<{ rv: string; events: number }> {
    let events = 0;
    const watch = guardedWatch(
      this.ctx.clock,
      (signal) =>
        this.watch({
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
      this.heard();
      if (e.type === "BOOKMARK") continue;
      this.apply(e);
      this.notify();
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
        this.failed(e);
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
