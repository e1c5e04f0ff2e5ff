// Watches that never wait forever. The API server ends a watch after the timeoutSeconds the
// client asks for, and sends BOOKMARK events to a client that allows them (about once a minute
// from its watch cache), so a healthy watch is never silent for long; a connection that stalls
// (no bytes, no close) is noticed by a client-side staleness deadline, after which the caller
// re-lists and watches again. A watch refused with 429 waits out its Retry-After; other
// failures back off exponentially. (Kubernetes API concepts, "Efficient detection of changes"
// and "Watch bookmarks": https://kubernetes.io/docs/reference/using-api/api-concepts/.)
import {
  abortError,
  KubeApiError,
  retryAfterMs,
  SETTLED,
  type Clock,
  type WatchEvent,
} from "../ports/index.js";

/** Asked of the server: end the watch after this long (then it is simply watched again). */
export const WATCH_TIMEOUT_SECONDS = 300;
/** No event, not even a BOOKMARK, for this long: the watch is presumed dead. */
export const WATCH_STALE_MS = 90_000;

export class StaleWatch extends Error {
  override name = "StaleWatch";
}

/** The wait before watching again after a failure: Retry-After for a 429, else backoff. */
export function watchBackoffMs(e: unknown, failures: number): number {
  if (e instanceof KubeApiError && e.status === 429) return retryAfterMs(e.retryAfterSeconds, 1000);
  return Math.min(30_000, 1000 * 2 ** failures);
}

/** Whether a watch failure means the client must list again (410 Gone, or silence). */
export function mustRelist(e: unknown): boolean {
  return e instanceof StaleWatch || (e instanceof KubeApiError && e.status === 410);
}

/**
 * The next event; StaleWatch when none comes within `staleMs`; AbortError as soon as `signal`
 * aborts, whether or not the connection underneath notices.
 */
async function nextWithin<T>(
  it: AsyncIterator<WatchEvent<T>>,
  clock: Clock,
  staleMs: number,
  signal: AbortSignal,
): Promise<IteratorResult<WatchEvent<T>>> {
  const timer = new AbortController();
  let onAbort = () => {};
  try {
    return await Promise.race([
      it.next(),
      clock.sleep(staleMs, timer.signal).then(() => {
        throw new StaleWatch(`no event for ${staleMs / 1000} s`);
      }),
      new Promise<never>((_, reject) => {
        onAbort = () => reject(abortError(signal));
        if (signal.aborted) onAbort();
        else signal.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
  } finally {
    timer.abort(SETTLED);
    signal.removeEventListener("abort", onAbort);
  }
}

/**
 * The events of one watch (opened with its own signal, aborted when `signal` aborts or the
 * watch goes stale), ending normally when the server ends it.
 */
export async function* guardedWatch<T>(
  clock: Clock,
  open: (signal: AbortSignal) => AsyncIterable<WatchEvent<T>>,
  signal: AbortSignal,
  staleMs = WATCH_STALE_MS,
): AsyncGenerator<WatchEvent<T>> {
  const inner = new AbortController();
  const stop = () => inner.abort();
  signal.addEventListener("abort", stop, { once: true });
  if (signal.aborted) stop();
  const it = open(inner.signal)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const r = await nextWithin(it, clock, staleMs, signal);
      if (r.done) return;
      yield r.value;
    }
  } finally {
    inner.abort();
    signal.removeEventListener("abort", stop);
    // Not awaited: a pending next() of a dead connection must not hold the caller.
    void it.return?.()?.catch(() => undefined);
  }
}
