// The clock of a run against a live cluster: this machine's, or the API server's where the two
// differ by more than a few seconds. Why: the plan compares the API server's timestamps with its
// own now: a node's creationTimestamp for maxNodeAge, a pod's deletionTimestamp to tell a pod held
// past its deletion (stuck-terminating, with a minute's slack) from one going as usual. A runner
// whose clock is off by minutes would see every pod being deleted as stuck, or the reverse; a
// sandbox served over the wire runs on its world's time, months from the wall's. AWS keeps its
// clocks with the API server's, so its launch times read right against the same now.
//
// Everything else that asks the run's clock for the time of day reads the server's too: the
// maintenance window, --max-duration's end, the event log's times, the Lease's acquireTime and
// renewTime, the action's heartbeat (so with a skewed runner these differ from GitHub's own log
// times). Waits are lengths of time and use the machine's clock. The server's time is read from
// the first answer and kept (src/adapters/kubernetes/http.ts): the callers read the cluster before
// anything else (apply plans first). A sandbox served over the wire, whose world runs ahead when
// idle, drifts ahead of it during a long apply: a pod then looks held past its deletion later, a
// node younger, never the reverse. The Lease's expiry needs none of this: it times a holder by
// what it has seen change, on the monotonic clock (src/roll/lease.ts), as client-go does.
import type { Clock } from "../ports/index.js";

/** Differences below this are the two clocks agreeing (the Date header has whole seconds). */
export const SKEW_TOLERANCE_MS = 5_000;

/**
 * `base`, or the server's time (`serverNowMs`) where it is SKEW_TOLERANCE_MS or more away. Which
 * of the two is decided once, when the server's time is first known: decided on every call, a
 * difference near the tolerance would make now() step back and forth by it.
 */
export function serverAlignedClock(base: Clock, serverNowMs: () => number | undefined): Clock {
  let useServer: boolean | undefined;
  return {
    now: () => {
      const own = base.now();
      const server = serverNowMs();
      if (server === undefined) return own;
      useServer ??= Math.abs(server - own.getTime()) >= SKEW_TOLERANCE_MS;
      return useServer ? new Date(server) : own;
    },
    sleep: (ms, signal) => base.sleep(ms, signal),
    ...(base.monotonic && { monotonic: () => base.monotonic!() }),
  };
}
