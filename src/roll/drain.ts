// Draining a node with kubectl drain's semantics (k8s.io/kubectl/pkg/drain, its pod filters and
// eviction loop): mirror pods and pods a DaemonSet controls stay; a running pod with no controller
// is evicted as kOps drains (kubectl's --force), or the drain refused where the policy says
// unmanagedPods: refuse (drain-filters.ts); the rest are
// evicted through the eviction API, so PodDisruptionBudgets decide. A budget's 429 is retried
// after its Retry-After (the API server sends 10 s); a 500 — more than one budget selects the
// pod, which the eviction subresource refuses — fails the drain at once, naming the budgets (with
// deleteAfterDrainTimeout the pod is deleted), and so does a 403 Forbidden, as kubectl's does. Deletion is awaited
// by a watch on the pods' UIDs (drain-wait.ts); on an unreachable node a pod is awaited only until its deletion is 5 minutes past due. Past
// drainTimeout the drain fails with PodEvictionFailure naming pods and budgets — unless
// deleteAfterDrainTimeout (EKS's force), which deletes what is left and says so. API throttling never reaches the drain as a refusal:
// it is retried below it (src/ports/resilient.ts).
import { matchesSelector } from "../plan/index.js";
import { abortError, listAll, pageOf, retryAfterMs, type Pod } from "../ports/index.js";
import { holdBudgets, takesDisruption, type BudgetCache } from "./budgets.js";
import { podId, refuseOrphans } from "./drain-filters.js";
import {
  awaitedOf,
  leftBehind,
  podsOn,
  waitGone,
  watchFromList,
  type EarlyWatch,
} from "./drain-wait.js";
import { RollError, RunPart, isAbort, type RollContext } from "./context.js";
import { movedPods, type MovedPod } from "./rescheduled.js";

export interface DrainOptions {
  group: string;
  node: string;
  timeoutMs: number;
  /** EKS's force: at the timeout, what is left is deleted, past its budgets. */
  deleteAfterDrainTimeout: boolean;
  /** kubectl drain's --force: running pods with no controller are evicted, not refused. */
  evictUnmanaged: boolean;
  /** Whether the node is unreachable now (its Ready condition Unknown); default: never. */
  unreachable?: () => boolean;
}

export interface DrainResult {
  evicted: number;
  deleted: string[];
  /** Pods an unreachable node keeps, left behind long past their deletion (drain-wait.ts). */
  leftBehind: string[];
  /** The pods it moved that have a controller: their successors must find a node (rescheduled.ts). */
  moved: MovedPod[];
}

/**
 * How many evicted pods a drain's event names: enough to see which workloads a node carried,
 * and the line stays a few kilobytes when a node runs a thousand pods (the rest are counted).
 */
export const EVICTED_PODS_SHOWN = 50;

/** The evicted pods as the drain's event names them: sorted, bounded, the rest counted. */
function evictedNames(
  pods: Pod[],
  blockers: Blocker[],
): { evictedPods?: string[]; evictedPodsNotShown?: number } {
  const blocked = new Set(blockers.map((b) => b.pod));
  const names = pods
    .map(podId)
    .filter((id) => !blocked.has(id))
    .sort();
  if (names.length === 0) return {};
  const shown = names.slice(0, EVICTED_PODS_SHOWN);
  return {
    evictedPods: shown,
    ...(names.length > shown.length && { evictedPodsNotShown: names.length - shown.length }),
  };
}

/** When a refusal names no Retry-After. */
const RETRY_MS = 5_000;

interface Blocker {
  pod: string;
  why: string;
  /** The eviction API will never accept it (several budgets): no point waiting. */
  final?: boolean;
}

/** The budgets in the pod's namespace that select it. */
async function budgetsOf(ctx: RollContext, pod: Pod): Promise<string[]> {
  const ns = pod.metadata.namespace ?? "default";
  const { items } = await listAll((cont) => ctx.cluster.listPodDisruptionBudgets(ns, pageOf(cont)));
  return items
    .filter((b) => matchesSelector(b.spec.selector, pod.metadata.labels ?? {}))
    .map((b) => `${ns}/${b.metadata.name}`);
}

/** The API server names the budget in the Status cause: "The disruption budget web needs 2 healthy pods…". */
function pdbFromMessage(message: string): string {
  return /disruption budget "?([a-z0-9][\w.-]*)"? needs/i.exec(message)?.[1] ?? "";
}

/**
 * Pods refused by the same PodDisruptionBudget take turns, across the drains in flight: one
 * of them asks again after the Retry-After, the others wait for its outcome instead of each
 * asking every 10 s. When it gets through, the budget allowed a disruption: the next in line
 * asks at once (a budget may allow several), and the one refused again waits the Retry-After.
 * Once such an ask at once has been refused (a budget allowing one disruption at a time
 * allows none just after one), the next in line of that budget waits the Retry-After instead,
 * until its queue empties. A refusal names the budget, so no budget list is
 * needed.
 */
class BudgetTurns {
  private readonly tails = new Map<string, Promise<void>>();
  /** Budgets whose last ask at once was refused, while pods queue for them. */
  readonly patient = new Set<string>();

  /** Wait for this budget's turn (false: it came at once); `release` hands it on. */
  async take(key: string, signal: AbortSignal): Promise<{ waited: boolean; release: () => void }> {
    const before = this.tails.get(key);
    let release = () => {};
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before ? before.then(() => mine) : mine;
    this.tails.set(key, tail);
    const done = () => {
      release();
      // Nobody waits for the budget any more: the next refusal starts afresh.
      if (this.tails.get(key) === tail) {
        this.tails.delete(key);
        this.patient.delete(key);
      }
    };
    if (!before) return { waited: false, release: done };
    let onAbort = () => {};
    try {
      await Promise.race([
        before,
        new Promise<never>((_, reject) => {
          onAbort = () => reject(abortError(signal));
          if (signal.aborted) onAbort();
          else signal.addEventListener("abort", onAbort, { once: true });
        }),
      ]);
    } catch (e) {
      done();
      throw e;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    return { waited: true, release: done };
  }
}

/** The turns are the run's: drains of every group take them, one queue per budget. */
const TURNS = new RunPart<BudgetTurns>("budgets' turns");
function budgetTurns(ctx: RollContext): BudgetTurns {
  return ctx.state.of(TURNS, () => new BudgetTurns());
}

/**
 * How long a drain believes the budget cache's "no disruption" before asking the eviction API
 * anyway: its pod may have stopped being Ready meanwhile (and an unready pod may be let go),
 * which the budget's watch does not show.
 */
const RECHECK_MS = 60_000;

/** One pod's asking, across its refusals. */
interface Asking {
  /** The blocker last reported (an eviction.blocked event), so it is reported once. */
  reported: string;
  /** Hands the pod's budget's turn on, while it holds it. */
  turn?: () => void;
  /** The budget the next ask goes to at once, its turn just come. */
  atOnce?: string;
}

/**
 * Before asking for an eviction: while the run's budget cache (budgets.ts) shows that the
 * API server is sure to refuse it, wait for the budget's watch to show a disruption allowed —
 * holding the budget's turn, so that drains waiting on one budget take a disruption one at a
 * time. What to tell the cache of the answer, or the blocker at the deadline.
 */
async function heldBack(
  ctx: RollContext,
  o: DrainOptions,
  pod: Pod,
  deadline: number,
  signal: AbortSignal,
  budgets: BudgetCache | undefined,
  s: Asking,
): Promise<{ blocker: Blocker } | { answered: (status: number) => void } | undefined> {
  // An eviction that takes no disruption is neither held back nor counted (takesDisruption).
  const key = takesDisruption(pod) ? budgets?.budgetOf(pod) : undefined;
  if (!budgets || !key) return undefined;
  if (budgets.refuses(key, pod)) {
    const pdb = key.slice(key.indexOf("/") + 1);
    const why = `PodDisruptionBudget ${pdb} allows no disruption`;
    if (s.reported !== why) {
      ctx.emit({ type: "eviction.blocked", group: o.group, node: o.node, pod: podId(pod), pdb });
      s.reported = why;
    }
    const now = () => ctx.clock.now().getTime();
    try {
      s.turn ??= (await budgetTurns(ctx).take(key, signal)).release;
      const until = Math.min(deadline, now() + RECHECK_MS);
      while (budgets.refuses(key, pod) && now() < until && !signal.aborted)
        await budgets.budgetChanged(key, until - now(), signal);
      if (signal.aborted) throw abortError(signal);
    } catch (e) {
      if (ctx.signal.aborted || !isAbort(e)) throw e;
      return { blocker: { pod: podId(pod), why } };
    }
    if (budgets.refuses(key, pod) && now() >= deadline)
      return { blocker: { pod: podId(pod), why } };
  }
  return { answered: budgets.ask(key) };
}

/** Evict one pod until the API accepts it, the deadline passes (returns the blocker) or it is gone. */
async function evict(
  ctx: RollContext,
  o: DrainOptions,
  pod: Pod,
  deadline: number,
  signal: AbortSignal,
  budgets: BudgetCache | undefined,
): Promise<Blocker | undefined> {
  const ns = pod.metadata.namespace ?? "default";
  const s: Asking = { reported: "" };
  try {
    for (;;) {
      const held = await heldBack(ctx, o, pod, deadline, signal, budgets, s);
      if (held && "blocker" in held) return held.blocker;
      const r = await ctx.cluster.evictPod(ns, pod.metadata.name).catch((e: unknown) => {
        held?.answered(0);
        throw e;
      });
      held?.answered(r.status);
      if (s.atOnce) {
        const patient = budgetTurns(ctx).patient;
        if (r.status === 429) patient.add(s.atOnce);
        else patient.delete(s.atOnce);
      }
      if (r.status === 201 || r.status === 404) return undefined;
      const blocker = await refused(ctx, o, pod, r, deadline, signal, s);
      if (blocker) return blocker;
    }
  } finally {
    s.turn?.();
  }
}

type Refusal = Exclude<
  Awaited<ReturnType<RollContext["cluster"]["evictPod"]>>,
  { status: 201 | 404 }
>;

/** After a refusal: the blocker to give up with, or undefined once the wait is done (the
 * budget's turn, when taken, held in `s`). */
async function refused(
  ctx: RollContext,
  o: DrainOptions,
  pod: Pod,
  r: Refusal,
  deadline: number,
  signal: AbortSignal,
  s: Asking,
): Promise<Blocker | undefined> {
  s.atOnce = undefined;
  const ns = pod.metadata.namespace ?? "default";
  const id = podId(pod);
  // kubectl drain gives up on a Forbidden eviction at once (k8s.io/kubectl/pkg/drain, evictPods):
  // retrying it for the whole drain timeout changes nothing. A namespace being deleted is the
  // exception, waited out like a budget's refusal.
  if (r.status === 403 && !r.namespaceTerminating) {
    const why = `the eviction API refused it (403 Forbidden: ${r.message})`;
    return { pod: id, why, final: true };
  }
  if (r.status === 500) {
    const pdbs = await budgetsOf(ctx, pod);
    const named = pdbs.length > 0 ? pdbs.join(", ") : "several";
    const blocked = { group: o.group, node: o.node, pod: id, pdb: named };
    ctx.emit({ type: "eviction.blocked", ...blocked, final: true });
    const why = `PodDisruptionBudgets ${named} all select it, and the eviction API refuses a pod more than one budget selects (${r.message})`;
    return { pod: id, why, final: true };
  }
  const pdb =
    r.status === 429
      ? (r.pdb ?? [...r.causes, r.message].map(pdbFromMessage).find(Boolean) ?? "")
      : "";
  const why =
    r.status === 429
      ? `PodDisruptionBudget ${pdb || "(unnamed)"} allows no disruption`
      : `the eviction API answered ${r.status}: ${r.message}`;
  const wait = r.status === 429 ? retryAfterMs(r.retryAfterSeconds, RETRY_MS) : RETRY_MS;
  // Past the deadline before the next ask, or the drain stopped: this answer is the last.
  const last = ctx.clock.now().getTime() + wait > deadline || signal.aborted;
  if (why !== s.reported && r.status === 429) {
    const blocked = { group: o.group, node: o.node, pod: id, pdb: pdb || "unknown" };
    ctx.emit({ type: "eviction.blocked", ...blocked, ...(last && { final: true as const }) });
    s.reported = why;
  }
  if (last) return { pod: id, why };
  try {
    if (!s.turn && r.status === 429 && pdb) {
      const key = `${ns}/${pdb}`;
      const t = await budgetTurns(ctx).take(key, signal);
      s.turn = t.release;
      // Another pod of the budget had the turn and is done: ask again at once, unless the
      // budget refused the last such ask.
      if (t.waited && !budgetTurns(ctx).patient.has(key)) {
        s.atOnce = key;
        return undefined;
      }
    }
    await ctx.clock.sleep(wait, signal);
    return undefined;
  } catch (e) {
    s.turn?.();
    if (ctx.signal.aborted || !isAbort(e)) throw e;
    // the drain stopped: another pod cannot be evicted at all
    return { pod: id, why };
  }
}

/** Evict every pod; the pods that could not be evicted, and why. */
async function evictAll(
  ctx: RollContext,
  o: DrainOptions,
  pods: Pod[],
  deadline: number,
): Promise<Blocker[]> {
  if (pods.length === 0) return [];
  // A pod the eviction API will never accept stops the drain at once (unless
  // deleteAfterDrainTimeout).
  const stop = new AbortController();
  const signal = AbortSignal.any([stop.signal, ctx.signal]);
  const budgets = await holdBudgets(ctx);
  try {
    const results = await Promise.all(
      pods.map(async (p) => {
        const b = await evict(ctx, o, p, deadline, signal, budgets.cache);
        if (b?.final && !o.deleteAfterDrainTimeout) stop.abort();
        return b;
      }),
    );
    return results.filter((b): b is Blocker => b !== undefined);
  } finally {
    budgets.release();
  }
}

function evictionFailure(o: DrainOptions, blockers: Blocker[]): RollError {
  const final = blockers.filter((b) => b.final);
  const shown = (final.length > 0 ? final : blockers).map((b) => `${b.pod} (${b.why})`);
  const when = final.length > 0 ? "" : ` within ${Math.round(o.timeoutMs / 60_000)} min`;
  return new RollError(
    "PodEvictionFailure",
    `could not drain ${o.node}${when}: ${shown.slice(0, 10).join("; ")}. Scale the workloads up or relax the PodDisruptionBudgets, or set deleteAfterDrainTimeout to delete them`,
  );
}

export async function drainNode(ctx: RollContext, o: DrainOptions): Promise<DrainResult> {
  ctx.emit({ type: "node.drain.start", group: o.group, node: o.node });
  const deadline = ctx.clock.now().getTime() + o.timeoutMs;
  const listed = await podsOn(ctx, o.node, true);
  // kubectl drain's filter for pods long deleted on an unreachable node: not evicted, not
  // waited for (drain-wait.ts).
  const now = ctx.clock.now().getTime();
  const lost = o.unreachable?.() ? listed.pods.filter((p) => leftBehind(awaitedOf(p), now)) : [];
  const pods = listed.pods.filter((p) => !lost.includes(p));
  refuseOrphans(o.node, o.evictUnmanaged, pods);
  const early = pods.length > 0 ? watchFromList(ctx, o.node, listed.resourceVersion) : undefined;
  try {
    return await evictAndWait(ctx, o, pods, deadline, early, lost.map(podId));
  } finally {
    early?.close();
  }
}

async function evictAndWait(
  ctx: RollContext,
  o: DrainOptions,
  pods: Pod[],
  deadline: number,
  early: EarlyWatch | undefined,
  lost: string[],
): Promise<DrainResult> {
  const blockers = await evictAll(ctx, o, pods, deadline);
  if (blockers.length > 0 && !o.deleteAfterDrainTimeout) throw evictionFailure(o, blockers);
  const evicted = pods.length - blockers.length;
  const deleted = blockers.map((b) => b.pod);
  for (const id of deleted) {
    const [ns, name] = id.split("/") as [string, string];
    await ctx.cluster.deletePod(ns, name).catch(() => undefined);
  }
  const waited = new Map(pods.map((p) => [podId(p), awaitedOf(p)]));
  // One timeout for the evictions and the wait for the pods to go, as kubectl drain's --timeout
  // (k8s.io/kubectl/pkg/drain, evictPods): what is still stopping at it fails the drain, or
  // with deleteAfterDrainTimeout is cut short by the node's termination, as EKS's force does.
  const { gone, left } = await waitGone(ctx, {
    node: o.node,
    pods: waited,
    deadline,
    early,
    unreachable: o.unreachable ?? (() => false),
  });
  if (!gone && !o.deleteAfterDrainTimeout) {
    throw new RollError(
      "PodEvictionFailure",
      `pods on ${o.node} did not terminate in time: ${[...waited.keys()].slice(0, 10).join(", ")}`,
    );
  }
  const stayed = [...lost, ...left];
  ctx.emit({
    type: "node.drain.end",
    group: o.group,
    node: o.node,
    evicted,
    ...evictedNames(pods, blockers),
    ...(deleted.length > 0 && { deleted }),
    ...(stayed.length > 0 && { leftBehind: stayed }),
  });
  return { evicted, deleted, leftBehind: stayed, moved: movedPods(pods, deadline - o.timeoutMs) };
}
