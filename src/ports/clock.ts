// Time as a port. The roll engine never reads Date.now() or calls setTimeout itself: it asks a
// Clock. In production that is wall-clock time; in the sandbox and the tests it is virtual time
// (src/sandbox/model/clock.ts), so a 15-minute drain timeout costs no real time and replays exactly.

export interface Clock {
  /** The current time (virtual in the sandbox). */
  now(): Date;
  /**
   * Resolves after `ms` milliseconds. Rejects with an AbortError (name "AbortError") when the
   * signal aborts first, so cancelled waits never leak timers.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Milliseconds on a monotonic clock, for elapsed time: unlike now(), it never steps when the
   * machine's clock is set (NTP on a fresh VM). Absent: elapsed time is taken from now().
   */
  monotonic?(): number;
}

/** Elapsed-time milliseconds from a clock: monotonic where it has one. */
export function monotonicMs(clock: Clock): number {
  return clock.monotonic ? clock.monotonic() : clock.now().getTime();
}

/** The error a cancelled sleep rejects with; same name as the DOM's, so callers test `name`. */
export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  const e = new Error("The operation was aborted");
  e.name = "AbortError";
  return e;
}

/**
 * The reason to abort a controller of one's own with when it only cancels a timer or a wait that
 * no longer matters: abort() without a reason makes a DOMException, stack and all, each time, and
 * a roll aborts one per API call and per watch event. An AbortError like any other.
 */
export const SETTLED: Error = Object.assign(new Error("The operation was aborted"), {
  name: "AbortError",
});

/** The wall clock, for real runs. */
export const systemClock: Clock = {
  now: () => new Date(),
  monotonic: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError(signal));
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortError(signal));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};
