// The clock of a run against a live cluster: this machine's, set by the API server's where the two
// differ by more than a few seconds. Why: the plan compares the API server's timestamps with its
// own now: a node's creationTimestamp for maxNodeAge, a pod's deletionTimestamp to tell a pod held
// past its deletion (stuck-terminating, with a minute's slack) from one going as usual. A runner
// whose clock is off by minutes would see every pod being deleted as stuck, or the reverse; a
// sandbox served over the wire runs on its world's time, months from the wall's. AWS keeps its
// clocks with the API server's, so its launch times read right against the same now. Waits are
// lengths of time, never moved. The lease needs none of this: it times a holder by what it has
// seen change (src/roll/lease.ts), as client-go's leader election does.
import type { Clock } from "../ports/index.js";

/** Differences below this are the two clocks agreeing (the Date header has whole seconds). */
export const SKEW_TOLERANCE_MS = 5_000;

/**
 * `base`, moved by the server's offset (`offsetMs`, undefined until an answer has come) where it
 * is SKEW_TOLERANCE_MS or more.
 */
export function serverAlignedClock(base: Clock, offsetMs: () => number | undefined): Clock {
  const shift = () => {
    const o = offsetMs();
    return o !== undefined && Math.abs(o) >= SKEW_TOLERANCE_MS ? o : 0;
  };
  return {
    now: () => new Date(base.now().getTime() + shift()),
    sleep: (ms, signal) => base.sleep(ms, signal),
    ...(base.monotonic && { monotonic: () => base.monotonic!() }),
  };
}
