// Work going on on the cluster outside any run — an EKS update replaces nodes whether or not the
// run that started it is alive — as apply handles it: before a group rolls, every such work of
// another group has ended, whether the Lease records it (roll/in-flight.ts: a run that stopped
// handed it on) or the groups show it (an update in progress, whoever started it, the record
// lost with a deleted Lease); and a run that stops says what it leaves going and how to follow it.
import type { LiveGroup } from "../plan/index.js";
import type { Policy } from "../policy/index.js";
import type { Cloud } from "../ports/index.js";
import type { RollContext, StopReason } from "../roll/context.js";
import { PENDING, sameWork, type InFlight } from "../roll/in-flight.js";
import type { ClusterLock } from "../roll/lease.js";
import type { InFlightWork } from "../kinds/kind.js";
import { kindOf } from "../kinds/registry.js";

/** How a kind waits for its work; none for a kind this noderoll does not know (a newer one's). */
const workOf = (w: InFlight) =>
  (kindOf(w.kind) as { inFlight?: InFlightWork } | undefined)?.inFlight;

/** The work of groups other than `name`: on the record, and as the groups show it. */
function othersWork(lock: ClusterLock, name: string, groups: readonly LiveGroup[]): InFlight[] {
  const out = lock.inFlight.filter((w) => w.group !== name);
  for (const g of groups) {
    if (g.name === name) continue;
    const w = kindOf(g).inFlight?.ongoing(g);
    if (w && !out.some((x) => sameWork(x, w))) out.push(w);
  }
  return out;
}

/**
 * Before group `name` rolls: wait for the other groups' work to end (no two rolls at once,
 * whoever started them), taking it off the record. Whether it waited (what was read before is
 * stale then).
 */
export async function settleInFlight(
  ctx: RollContext,
  run: { lock: ClusterLock; policy: Policy; stopReason: () => StopReason | undefined },
  name: string,
  groups: readonly LiveGroup[],
): Promise<boolean> {
  const { lock, policy } = run;
  const works = othersWork(lock, name, groups);
  for (const w of works) {
    const work = workOf(w);
    if (work) {
      const what = work.describe(policy.cluster, w);
      ctx.emit({ type: "wait.start", group: name, what });
      ctx.emit({ type: "note", group: name, message: `waiting before ${name}: ${what}` });
      await work.awaitEnd(ctx, policy.cluster.name, w, run.stopReason);
      ctx.emit({ type: "wait.end", group: name });
      ctx.emit({ type: "note", group: name, message: `${w.group}: its update is over` });
    }
    await lock.untrack(w);
  }
  return works.length > 0;
}

/**
 * Work asked for and never answered (PENDING): what it became, from a read through ports the
 * run's stop does not cancel — so a stopped run's record and last words name it.
 */
export async function resolvePending(lock: ClusterLock, cloud: Cloud, cluster: string) {
  for (const w of lock.inFlight.filter((x) => x.id === PENDING)) {
    const work = workOf(w);
    lock.amend(w, work ? await work.resolve(cloud, cluster, w).catch(() => w) : undefined);
  }
}

/** What goes on after the run, for its last words. */
export function stillGoing(lock: ClusterLock, cluster: Policy["cluster"]): string {
  const lines = lock.inFlight.flatMap((w) => {
    const d = workOf(w)?.describe(cluster, w);
    return d ? [d] : [];
  });
  return lines.length > 0 ? ` ${lines.join(". ")}.` : "";
}
