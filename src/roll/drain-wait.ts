// The waiting half of a drain (drain.ts): the node's pods listed, then watched until the ones it
// evicted are gone. A watch on the pods' UIDs, so a pod recreated under the same name is another
// pod. On an unreachable node (its kubelet no longer reporting), nothing deleted there will be
// confirmed gone: a pod is waited for only until its deletion is 5 minutes past due,
// then left behind, as kubectl drain's --skip-wait-for-delete-timeout does where Cluster API sets
// it for such a node; the node's termination takes it.
import { unreachableLeaveAt } from "../plan/index.js";
import { listAll, pageOf, SETTLED, type Pod, type WatchEvent } from "../ports/index.js";
import { RollError, isAbort, type RollContext } from "./context.js";
import { podId, podsToMove } from "./drain-filters.js";
import { guardedWatch, WATCH_TIMEOUT_SECONDS, watchBackoffMs } from "./watch.js";

/** The node's pods a drain moves, and the list's resourceVersion. */
export async function podsOn(
  ctx: RollContext,
  node: string,
  fresh: boolean,
): Promise<{ pods: Pod[]; resourceVersion: string }> {
  // The first list is a consistent read; the re-reads while waiting may come from the API
  // server's cache (resourceVersion "0"): the watch that follows corrects them.
  const r = await listAll((cont) =>
    ctx.cluster.listPods(undefined, {
      ...pageOf(cont, { fieldSelector: `spec.nodeName=${node}` }),
      ...(!fresh && { resourceVersion: "0" }),
    }),
  );
  return { pods: podsToMove(r.items), resourceVersion: r.resourceVersion };
}

/** A watch of the node's pods, opened before the evictions (see `watchFromList`). */
export interface EarlyWatch {
  events: AsyncIterable<WatchEvent<Pod>>;
  close: () => void;
}

const podWatchOptions = (node: string, resourceVersion: string, signal: AbortSignal) => ({
  fieldSelector: `spec.nodeName=${node}`,
  resourceVersion,
  allowWatchBookmarks: true,
  timeoutSeconds: WATCH_TIMEOUT_SECONDS,
  signal,
});

/**
 * The node's pods watched from the drain's list, opened before the first eviction: the
 * deletions the evictions cause are then seen without listing the pods again (the API server
 * replays what changed since a resourceVersion from its watch cache). When the watch cannot be
 * opened now (throttled), the wait meets the refusal first, as after a failed watch.
 */
export function watchFromList(ctx: RollContext, node: string, resourceVersion: string): EarlyWatch {
  const ctl = new AbortController();
  const close = () => ctl.abort(SETTLED);
  try {
    const options = podWatchOptions(node, resourceVersion, ctl.signal);
    return { events: ctx.cluster.watchPods(undefined, options), close };
  } catch (e) {
    const next = () => Promise.reject(e as Error);
    return { events: { [Symbol.asyncIterator]: () => ({ next }) }, close };
  }
}

/** A pod waited for: its UID when known, and when its deletion is due (ms), once it is deleted. */
export interface Awaited {
  uid?: string | undefined;
  dueMs?: number | undefined;
}

export const awaitedOf = (p: Pod): Awaited => ({
  uid: p.metadata.uid,
  dueMs: p.metadata.deletionTimestamp ? Date.parse(p.metadata.deletionTimestamp) : undefined,
});

/** Whether the drain of an unreachable node leaves this pod behind now (unreachableLeaveAt). */
export const leftBehind = (a: Awaited, now: number) =>
  a.dueMs !== undefined && now >= unreachableLeaveAt(a.dueMs);

/** While a pod is past its time on a node that still reports, how often to look again. */
const RECHECK_MS = 60_000;

export interface GoneOptions {
  node: string;
  /** The pods by id ("namespace/name"); the wait removes each that goes. */
  pods: Map<string, Awaited>;
  deadline: number;
  early: EarlyWatch | undefined;
  /** Whether the node is unreachable now (its Ready condition Unknown). */
  unreachable: () => boolean;
}

/**
 * Wait until none of the pods is left on the node, or only pods an unreachable node leaves
 * behind are: whether it came to that before the deadline, and the pods left behind.
 */
export async function waitGone(
  ctx: RollContext,
  o: GoneOptions,
): Promise<{ gone: boolean; left: string[] }> {
  const left: string[] = [];
  const leave = () => {
    if (o.pods.size === 0 || !o.unreachable()) return;
    const now = ctx.clock.now().getTime();
    for (const [id, a] of o.pods)
      if (leftBehind(a, now)) {
        left.push(id);
        o.pods.delete(id);
      }
  };
  leave();
  if (o.pods.size === 0) return { gone: true, left };
  const stop = new AbortController();
  const changes = new Changes();
  // Never rejects; once stopped it ends at its next step (a list under way ends by its deadline).
  void follow(ctx, o, AbortSignal.any([stop.signal, ctx.signal]), changes);
  try {
    while (o.pods.size > 0 && !ctx.signal.aborted) {
      const now = ctx.clock.now().getTime();
      const deadline = o.unreachable() ? Math.max(o.deadline, lastLook(o.pods)) : o.deadline;
      if (now >= deadline) break;
      await changes.next(ctx, Math.min(deadline, nextLook(o.pods, now)) - now);
      leave();
    }
    if (ctx.signal.aborted) throw new RollError("Cancelled", `cancelled while ${o.node} drained`);
    return { gone: o.pods.size === 0, left };
  } finally {
    stop.abort(SETTLED);
    o.early?.close();
  }
}

/**
 * When the last pod known to be deleted becomes one to leave behind: on an unreachable node
 * the wait lasts until then, past the drain's timeout if a long grace period puts it there —
 * the pod cannot be confirmed gone sooner, and a drain that failed instead would stop the roll
 * the plan promised (its estimate counts the same grace and wait).
 */
function lastLook(pods: Map<string, Awaited>): number {
  let at = Number.NEGATIVE_INFINITY;
  for (const a of pods.values())
    if (a.dueMs !== undefined) at = Math.max(at, unreachableLeaveAt(a.dueMs));
  return at;
}

/** When a pod next becomes one to leave behind (if the node is unreachable by then). */
function nextLook(pods: Map<string, Awaited>, now: number): number {
  let at = Number.POSITIVE_INFINITY;
  for (const a of pods.values())
    if (a.dueMs !== undefined) at = Math.min(at, unreachableLeaveAt(a.dueMs));
  return at > now ? at : now + RECHECK_MS;
}

/** Wakes the wait when the watch changes what it waits for. */
class Changes {
  #wake: () => void = () => {};
  #next = this.#renew();

  #renew(): Promise<void> {
    return new Promise<void>((resolve) => (this.#wake = resolve));
  }

  notify(): void {
    this.#wake();
    this.#next = this.#renew();
  }

  /** The next change, or `ms` passing, whichever comes first. */
  async next(ctx: RollContext, ms: number): Promise<void> {
    const timer = new AbortController();
    const signal = AbortSignal.any([timer.signal, ctx.signal]);
    try {
      await Promise.race([this.#next, ctx.clock.sleep(Math.max(0, ms), signal)]);
    } catch (e) {
      if (!isAbort(e)) throw e;
    } finally {
      timer.abort(SETTLED);
    }
  }
}

/**
 * Follow the node's pods until none of those waited for is left or `signal` aborts: the early
 * watch first, then list and watch again whenever a watch ends or fails. Never rejects.
 */
async function follow(
  ctx: RollContext,
  o: GoneOptions,
  signal: AbortSignal,
  changes: Changes,
): Promise<void> {
  let early = o.early;
  let failures = 0;
  while (!signal.aborted && o.pods.size > 0) {
    try {
      let open: (signal: AbortSignal) => AsyncIterable<WatchEvent<Pod>>;
      if (early) {
        const { events, close } = early;
        early = undefined;
        open = (s) => {
          s.addEventListener("abort", close, { once: true });
          return events;
        };
      } else {
        const now = await podsOn(ctx, o.node, false);
        seen(o.pods, now.pods);
        changes.notify();
        if (o.pods.size === 0 || signal.aborted) return;
        open = (s) =>
          ctx.cluster.watchPods(undefined, podWatchOptions(o.node, now.resourceVersion, s));
      }
      for await (const e of guardedWatch(ctx.clock, open, signal)) {
        failures = 0;
        if (e.type === "BOOKMARK") continue;
        if (changed(o.pods, e)) changes.notify();
        if (o.pods.size === 0) return;
      }
      // The watch ended by itself: pause before asking again, to be kind to the server.
      await ctx.clock.sleep(1000, signal);
    } catch (e) {
      if (isAbort(e) || signal.aborted) return;
      // A 429 waits out its Retry-After; other failures back off (roll/watch.ts).
      await ctx.clock.sleep(watchBackoffMs(e, failures++), signal).catch(() => undefined);
    }
  }
}

/** The same pod: the same UID when both are known (the name is the id's already). */
const same = (a: Awaited, p: Pod) => !a.uid || !p.metadata.uid || a.uid === p.metadata.uid;

/** A fresh list of the node's pods: the waited-for pods it lacks are gone. */
function seen(pods: Map<string, Awaited>, listed: Pod[]): void {
  const present = new Map<string, Pod>();
  for (const p of listed) present.set(podId(p), p);
  for (const [id, a] of pods) {
    const p = present.get(id);
    if (!p || !same(a, p)) pods.delete(id);
    else a.dueMs = awaitedOf(p).dueMs ?? a.dueMs;
  }
}

/** One watch event: a waited-for pod gone, replaced by another of its name, or being deleted. */
function changed(pods: Map<string, Awaited>, e: WatchEvent<Pod>): boolean {
  const id = podId(e.object);
  const a = pods.get(id);
  if (!a) return false;
  if (e.type === "DELETED" || !same(a, e.object)) {
    pods.delete(id);
    return true;
  }
  const due = awaitedOf(e.object).dueMs;
  if (due === undefined || due === a.dueMs) return false;
  a.dueMs = due;
  return true;
}
