// A watch stream: events pushed by the sandbox as they happen, pulled by an async iterator.
// Pushing wakes the consumer through the virtual clock (notify), so a watcher resumes at the
// virtual instant the change happened, not later.
import type { WatchEvent, WatchOptions } from "../../ports/cluster.js";
import type { TimerHandle, VirtualClock } from "../model/clock.js";
import type { Watcher } from "../sim/kube/state.js";

/** How often the API server's watch cache sends a BOOKMARK to a watch that allows them. */
export const BOOKMARK_EVERY_MS = 60_000;

export class WatchStream<T> implements AsyncIterable<WatchEvent<T>> {
  #queue: WatchEvent<T>[] = [];
  #waiting: ((r: IteratorResult<WatchEvent<T>>) => void) | undefined;
  #closed = false;

  constructor(
    private readonly clock: VirtualClock,
    private readonly onClose: () => void,
    signal?: AbortSignal,
  ) {
    signal?.addEventListener("abort", () => this.close(), { once: true });
  }

  push(event: WatchEvent<T>): void {
    if (this.#closed) return;
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      this.clock.notify();
      waiting({ value: event, done: false });
    } else this.#queue.push(event);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onClose();
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting) {
      this.clock.notify();
      waiting({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    return {
      next: () => {
        const event = this.#queue.shift();
        if (event) return Promise.resolve({ value: event, done: false });
        if (this.#closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.#waiting = resolve));
      },
      return: () => {
        this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}

/**
 * The API server's side of a watch's lifetime: it ends the watch after `timeoutSeconds`, and
 * sends a BOOKMARK with the current resourceVersion about once a minute when the client allows
 * them (https://kubernetes.io/docs/reference/using-api/api-concepts/#watch-bookmarks). Returns
 * what stops both, for the stream's close.
 */
export function serveLifetime<T>(
  stream: WatchStream<T>,
  clock: VirtualClock,
  opts: WatchOptions | undefined,
  resourceVersion: () => string,
): () => void {
  const timers: TimerHandle[] = [];
  if (opts?.timeoutSeconds)
    timers.push(clock.after(opts.timeoutSeconds * 1000, () => stream.close()));
  if (opts?.allowWatchBookmarks) {
    const tick = () => {
      stream.push({
        type: "BOOKMARK",
        object: { metadata: { resourceVersion: resourceVersion() } } as T,
      });
      timers[1] = clock.after(BOOKMARK_EVERY_MS, tick);
    };
    timers[1] = clock.after(BOOKMARK_EVERY_MS, tick);
  }
  return () => {
    for (const t of timers) t?.cancel();
  };
}

/**
 * A watch on the simulator's own watchers: the current objects as ADDED events first when no
 * resourceVersion is given, then every change the filter keeps, until the client lets go or
 * the server's lifetime (serveLifetime) ends it.
 */
export function serveWatch<T>(
  clock: VirtualClock,
  opts: WatchOptions | undefined,
  filter: (o: T) => boolean,
  sim: {
    add(w: Watcher<T>): void;
    remove(w: Watcher<T>): void;
    rv(): string;
    current(): Iterable<T>;
    /** From a resourceVersion: what happened since, sent before the live events. */
    replay?(): Iterable<WatchEvent<T>>;
    /** The node a pod watch's field selector names (Watcher.node). */
    node?: string;
  },
): WatchStream<T> {
  let stop = () => {};
  const watcher: Watcher<T> = {
    filter,
    ...(sim.node !== undefined && { node: sim.node }),
    stream: new WatchStream<T>(
      clock,
      () => {
        sim.remove(watcher);
        stop();
      },
      opts?.signal,
    ),
  };
  const stream = watcher.stream as WatchStream<T>;
  stop = serveLifetime(stream, clock, opts, sim.rv);
  if (opts?.resourceVersion === undefined) {
    for (const obj of sim.current()) if (filter(obj)) stream.push({ type: "ADDED", object: obj });
  } else {
    for (const e of sim.replay?.() ?? []) if (filter(e.object)) stream.push(e);
  }
  sim.add(watcher);
  return stream;
}
