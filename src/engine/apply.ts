// apply: carry out a plan — its groups in its order, one roll per cluster. Each group is read
// again just before it rolls, its plan's decisions checked against that (contract.ts: a stale one
// is refused, nodes that joined or left and the roll's own progress are taken as they are, so a
// run that died is simply finished), refused when blocked or in error (unless deleteAfterDrainTimeout gets past it), and handed
// to its kind with the plan — the contract — that says everything the roll does. Every step is an
// event; the result says what happened and how to continue.
import { isWindowOpen, nextWindowOpening, wallClock, type Policy } from "../policy/index.js";
import {
  notStartedAfter,
  proveByEndpoint,
  reachedGroups,
  type GroupPlan,
  type LiveGroup,
  type Plan,
  type Snapshot,
} from "../plan/index.js";
import {
  describeFailure,
  resilient,
  type Cloud,
  type Cluster,
  type Clock,
  type Metrics,
  type Reporter,
  type Result,
} from "../ports/index.js";
import type { ReadyPlan } from "../kinds/kind.js";
import { kindOf } from "../kinds/registry.js";
import {
  byRequest,
  describeStop,
  howToContinue,
  resultOfStop,
  RollError,
  Stopped,
  type RollContext,
  type StopReason,
} from "../roll/context.js";
import { ClusterLock, holderIdentity, LEASE_DURATION_SECONDS } from "../roll/lease.js";
import { stopOf } from "../roll/lease-request.js";
import { GateFailed } from "../roll/gates.js";
import { noteBefore, noteDone } from "./rollback.js";
import { clearStaleMarks, releaseScaleDown } from "../roll/marks.js";
import { NodeCache } from "../roll/nodes.js";
import { plannedMoves } from "../roll/rescheduled.js";
import { observe, Planner } from "./observe.js";
import { nodeOwners } from "./owners.js";
import { resolvePending, settleInFlight, stillGoing } from "./in-flight.js";
import { rollContext } from "./context.js";
import { carriedOut, checkCovers, readyPlan } from "./contract.js";
import { PENDING } from "../roll/in-flight.js";

export interface ApplyOptions {
  runId: string;
  runUrl?: string;
  reason?: string;
  /** Stop starting nodes after this long (GitHub's 6-hour job limit). */
  maxDurationMs?: number;
  /** An emergency may roll outside the maintenance window. */
  ignoreWindow?: boolean;
  /** How long to wait for another run's lock before giving up. */
  lockWaitMs?: number;
  signal?: AbortSignal;
  /** The run's planner, when the caller already planned with it (settings resolved once). */
  planner?: Planner;
  /**
   * The run is a rollback (engine/rollback.ts): the record of what the groups ran before is the
   * one it goes back to, and is not rewritten.
   */
  rollback?: boolean;
}

export interface ApplyResult {
  result: Result;
  message: string;
  /** Why the run stopped before it was done, when it did. */
  stop?: StopReason;
  plan?: Plan;
  /** The gate that halted the roll, its group and verdict (a rollback may follow: onFailure). */
  halted?: { group: string; gate: string; verdict: "fail" | "inconclusive" };
}

export interface ApplyPorts {
  cloud: Cloud;
  cluster: Cluster;
  clock: Clock;
  /** Prometheus, for gates that query it. */
  metrics?: Metrics;
}

interface Run {
  ctx: RollContext;
  policy: Policy;
  /** The plan apply carries out: its decisions are checked again before each group. */
  plan: Plan;
  options: ApplyOptions;
  planner: Planner;
  nodes: NodeCache;
  lock: ClusterLock;
  /** Why the run's signal aborted, when it was not a cancellation from outside (the lock lost). */
  abortedBy?: StopReason;
  /** The groups after one that failed: not started, and said so in the run's last words. */
  left?: string[];
}

/** Why no new node may start now, decided here and nowhere else; undefined while it may. */
function stopReason(run: Run): StopReason | undefined {
  const { ctx, policy, options } = run;
  if (ctx.signal.aborted) return run.abortedBy ?? { kind: "cancelled" };
  // A pause or an abort asked on the Lease (`noderoll pause|abort`), seen as the lock renews.
  if (run.lock.request) return stopOf(run.lock.request);
  const now = ctx.clock.now();
  if (ctx.deadline && now >= ctx.deadline) return { kind: "deadline", at: now.toISOString() };
  if (policy.window && !options.ignoreWindow && !isWindowOpen(policy.window, now)) {
    const next = nextWindowOpening(policy.window, now);
    return {
      kind: "window-closed",
      ...(next && {
        nextOpening: next.toISOString(),
        nextOpeningLocal: wallClock(next, policy.window.timeZone),
      }),
    };
  }
  return undefined;
}

async function rollGroup(run: Run, name: string): Promise<void> {
  const { ctx, policy, nodes } = run;
  let seen = await run.planner.observe(ctx, [name]);
  // Every group of the policy is read: the others' updates in progress show there too.
  const others = { ...run, stopReason: () => stopReason(run) };
  if (await settleInFlight(ctx, others, name, seen.snapshot.groups))
    seen = await run.planner.observe(ctx, [name]);
  const { snapshot } = seen;
  const live = snapshot.groups.find((g) => g.name === name);
  if (reachedAlready(run, name, live)) return;
  const plan = carriedOut(run.plan, seen.plan.groups[0] as GroupPlan);
  ctx.emit({
    type: "group.start",
    group: name,
    kind: plan.kind,
    nodes: plan.nodes,
    replace: plan.replacements.length,
  });
  let ready: ReadyPlan;
  try {
    ready = readyPlan(plan, live);
  } catch (e) {
    // Not rolled: what an earlier run left on the group for its roll alone goes back.
    if (live) await kindOf(live).release?.(ctx, live);
    throw e;
  }
  if (!run.options.rollback && plan.replacements.length > 0)
    await noteBefore(ctx, policy.cluster.name, run.options.runId, plan, live as LiveGroup);
  const { owners, moving } = await clearLeftMarks(run, plan, snapshot);
  const at = ctx.clock.now().getTime();
  await kindOf(live as LiveGroup).roll(ctx, {
    plan: ready,
    live: live as LiveGroup,
    cluster: policy.cluster.name,
    runId: run.options.runId,
    nodes,
    ...owners,
    stopReason: () => stopReason(run),
    track: (w) => run.lock.track(w),
    untrack: (w) => run.lock.untrack(w),
    toMove: () => plannedMoves(snapshot.pods, [...moving], at),
  });
  // Said once the kind's roll is over: it gives back what it holds on the group itself.
  if (plan.replacements.length === 0) saidCleared(ctx, plan);
}

/** The plan's change to the group is made already (its kind says): said, and nothing done. */
function reachedAlready(run: Run, name: string, live: LiveGroup | undefined): boolean {
  const planned = run.plan.groups.find((g) => g.name === name);
  if (!live || !planned || !kindOf(live).reachedTarget?.(planned, live)) return false;
  const { ctx } = run;
  ctx.emit({
    type: "group.start",
    group: name,
    kind: planned.kind,
    nodes: planned.nodes,
    replace: 0,
  });
  ctx.emit({
    type: "note",
    group: name,
    message: `${name}: at the plan's target already (an earlier run's update, or another's): nothing left to do`,
  });
  return true;
}

/**
 * The marks an earlier run left on nodes this plan does not replace, cleared; with nothing to
 * replace, the scale-down marks too (a run killed after its last termination, before its
 * scale-down gave the nodes back). What the roll then needs of the group's nodes.
 */
async function clearLeftMarks(run: Run, plan: GroupPlan, snapshot: Snapshot) {
  const { ctx, nodes, policy } = run;
  const live = snapshot.groups.find((g) => g.name === plan.name);
  const owners = nodeOwners(ctx, snapshot.groups, policy);
  const groupNodes = [...nodes.byName.values()].filter(
    (n) => owners.ownerOf(n).group === plan.name,
  );
  const moving = new Set(plan.replacements.flatMap((r) => (r.node ? [r.node] : [])));
  const members = new Set(live?.instances.filter((i) => !i.detachedForSurge).map((i) => i.id));
  await clearStaleMarks(ctx, moving, groupNodes, members);
  if (plan.replacements.length === 0) await releaseScaleDown(ctx, groupNodes);
  return { owners, moving };
}

function saidCleared(ctx: RollContext, plan: GroupPlan): void {
  if (plan.cleanup.length === 0) return;
  ctx.emit({
    type: "note",
    group: plan.name,
    message: `${plan.name}: cleared the marks an earlier run left (${cleanupMarks(plan.cleanup)})`,
  });
}

/**
 * The window is closed: no node is replaced, but the marks an earlier run left on groups with
 * nothing else to do are cleared — they replace nothing, and left alone until the window opens
 * (a week, for a weekly one) the cluster autoscaler is kept off nodes and AZRebalance suspended.
 */
async function clearOutsideWindow(run: Run, order: string[]): Promise<void> {
  for (const name of order) {
    const { plan: planned, snapshot } = await run.planner.observe(run.ctx, [name]);
    const plan = planned.groups[0] as GroupPlan;
    const live = snapshot.groups.find((g) => g.name === name);
    if (plan.status !== "cleanup" || !live) continue;
    await clearLeftMarks(run, plan, snapshot);
    await kindOf(live).release?.(run.ctx, live);
    saidCleared(run.ctx, plan);
  }
}

/** "scale-down-disabled on 3 nodes; cordon on 1": what a cleanup cleared, in short. */
const cleanupMarks = (cleanup: GroupPlan["cleanup"]) =>
  cleanup.map((c) => `${c.mark} on ${c.objects.length}`).join("; ");

async function rollGroups(run: Run, order: string[]): Promise<void> {
  const { ctx } = run;
  for (const name of order) {
    // Between groups too: no group starts past the deadline, outside the window or cancelled.
    const stop = stopReason(run);
    if (stop) throw new Stopped(stop, `group ${name} and after it left for the next run`);
    try {
      await rollGroup(run, name);
      // Rolled to its target: nothing of it goes on, and its rollback record is history.
      for (const w of run.lock.inFlight.filter((x) => x.group === name)) await run.lock.untrack(w);
      const planned = run.plan.groups.find((g) => g.name === name);
      if (!run.options.rollback && planned)
        await noteDone(ctx, run.policy.cluster.name, run.options.runId, planned);
      ctx.emit({ type: "group.end", group: name, result: "success" });
    } catch (e) {
      const cancelled = ctx.signal.aborted || e instanceof Stopped;
      // noderoll stops at the first group that fails; kOps goes on to the next node group unless
      // validation timed out (pkg/instancegroups, isExitableError). A failure here is a cause to
      // look at before more nodes go, and the next run picks up from it: the groups after it
      // are named as not started.
      if (!cancelled)
        run.left = notStartedAfter(run.plan.groups, order.indexOf(name)).map((g) => g.name);
      ctx.emit({
        type: "group.end",
        group: name,
        result: cancelled ? "cancelled" : "failure",
        message: (e as Error).message,
      });
      throw e;
    }
  }
}

/** The outcome of a run that failed before it started (its plan could not be made). */
export function notStarted(e: unknown, signal?: AbortSignal): ApplyResult {
  return outcomeOf(e, signal ?? new AbortController().signal);
}

function outcomeOf(
  e: unknown,
  signal: AbortSignal,
  abortedBy?: StopReason,
  left: string[] = [],
  policyFile?: string,
): ApplyResult {
  const code = e instanceof RollError ? e.code : undefined;
  // Why the run stopped (the lock lost, the job cancelled) first; where it was, after.
  if (signal.aborted) {
    const stop = abortedBy ?? { kind: "cancelled" as const };
    const where = code && !(e instanceof Stopped) ? ` (${(e as RollError).message})` : "";
    return {
      result: resultOfStop(stop),
      stop,
      message: `Cancelled: ${describeStop(stop)}${where}; what was in flight was abandoned, leaving only marks the next run resumes from. Run apply again to continue: it picks up where this run stopped.`,
    };
  }
  const text = (e instanceof RollError ? e.message : describeFailure(e)).replace(/\.?$/, ".");
  if (e instanceof Stopped)
    return {
      result: resultOfStop(e.stop),
      stop: e.stop,
      message: `${e.code}: ${text} ${howToContinue(e.stop, policyFile)}`,
    };
  const after =
    left.length > 0
      ? ` Not started after it: ${left.join(", ")} (apply stops at the first group that fails).`
      : "";
  return {
    result: "failure",
    message: `${code ? `${code}: ` : ""}${text}${after}`,
    ...(e instanceof GateFailed && {
      halted: { group: e.group, gate: e.gate, verdict: e.verdict },
    }),
  };
}

/**
 * That the API is the policy's cluster's, before the first write: from DescribeCluster's endpoint
 * or certificate authority alone when either matches, else by reading the groups and nodes
 * (observe proves it or throws ClusterMismatch).
 */
export async function verifyBeforeLock(policy: Policy, ctx: RollContext): Promise<void> {
  const eks = await ctx.cloud.eks.describeCluster(policy.cluster.name);
  if (proveByEndpoint(eks, ctx.cluster.endpoint)) return;
  await observe(policy, ctx);
}

/** How long finding what an unanswered request became may take once the run has stopped. */
const SETTLE_MS = 3_000;

/**
 * Work this run asked for whose answer never came: found through ports the run's stop does not
 * cancel, within SETTLE_MS, so that the record it hands on and its last words name it.
 */
async function settlePending(lock: ClusterLock, ports: ApplyPorts, cluster: string) {
  if (!lock.inFlight.some((w) => w.id === PENDING)) return;
  const timer = new AbortController();
  const cloud = resilient(ports.cloud, ports.clock, {
    callTimeoutMs: SETTLE_MS,
    signal: timer.signal,
  });
  await Promise.race([
    resolvePending(lock, cloud, cluster).catch(() => undefined),
    ports.clock.sleep(SETTLE_MS, timer.signal).catch(() => undefined),
  ]);
  timer.abort();
}

/** How long giving the lock back may take once the run has stopped (a cancelled job is killed soon). */
const RELEASE_MS = 5_000;

/**
 * Give the lock back through ports the run's signal does not cancel, within RELEASE_MS, and say
 * truthfully whether it was: a lock not given back is the post step's (or frees itself).
 */
async function release(lock: ClusterLock, ports: ApplyPorts, log: Reporter): Promise<void> {
  const clock = ports.clock;
  const timer = new AbortController();
  const cluster = resilient(ports.cluster, clock, {
    callTimeoutMs: RELEASE_MS,
    signal: timer.signal,
  });
  const holder = lock.me.holder;
  const outcome = await Promise.race([
    lock.release(cluster).then(
      (released) => (released ? "released" : "no longer this run's"),
      (e: unknown) => describeFailure(e),
    ),
    clock.sleep(RELEASE_MS, timer.signal).then(
      () => `no answer within ${RELEASE_MS / 1000} s`,
      () => "stopped",
    ),
  ]);
  timer.abort();
  if (outcome === "released") log.emit({ type: "lock.release", holder });
  else if (outcome === "no longer this run's")
    log.emit({
      type: "note",
      message: "the cluster lock was no longer this run's: nothing to give back",
    });
  else
    log.emit({
      type: "lock.kept",
      holder,
      why: `${outcome}: the action's post step gives it back; otherwise it frees itself once unchanged for ${LEASE_DURATION_SECONDS} s`,
    });
}

/**
 * Carry out `plan` (made by `plan`, read from a saved file, or the one reviewed): its groups in
 * its order, each checked again against fresh state first (plan/decisions.ts) and refused with
 * StalePlan where a decision no longer holds; nodes that joined or left since, and the roll's
 * own progress, are taken as they are.
 */
export async function apply(
  policy: Policy,
  plan: Plan,
  ports: ApplyPorts,
  log: Reporter,
  options: ApplyOptions,
): Promise<ApplyResult> {
  // Stopping comes from outside (SIGTERM) or from losing the cluster lock mid-roll.
  const lockLost = new AbortController();
  const signal = AbortSignal.any([options.signal ?? new AbortController().signal, lockLost.signal]);
  const ctx = rollContext(ports, log, options, signal);
  const planner = options.planner ?? new Planner(policy, plan.policy.file, plan.options);
  const order = plan.groups.map((g) => g.name);
  ctx.emit({
    type: "roll.start",
    cluster: policy.cluster.name,
    policy: policy.metadata.name,
    groups: order,
    replaceAll: plan.options.replaceAll,
    deleteAfterDrainTimeout: plan.options.deleteAfterDrainTimeout,
    ...(options.reason && { reason: options.reason }),
    ...(options.runUrl && { run: options.runUrl }),
    ...(options.rollback && { rollback: true }),
  });
  const holder = holderIdentity(options.runId);
  const lost = (why: string) => {
    // Everything in flight stops now: another run may hold the cluster soon.
    ctx.emit({ type: "note", message: `${why}: stopping everything in flight` });
    run.abortedBy = { kind: "lock-lost", why };
    lockLost.abort();
  };
  // The lock's own calls go to the ports as they are: it retries against its own deadline.
  const lock = new ClusterLock(
    ctx,
    policy.cluster.name,
    holder,
    options.runUrl,
    lost,
    ports.cluster,
  );
  const run: Run = { ctx, policy, plan, options, planner, nodes: new NodeCache(ctx), lock };
  let outcome: ApplyResult = { result: "success", message: doneMessage(plan) };
  let locked = false;
  try {
    checkCovers(policy, plan);
    // The Lease is a write too: not on a cluster that is not the policy's.
    await verifyBeforeLock(policy, ctx);
    await lock.acquire(options.lockWaitMs ?? 0);
    locked = true;
    await rollHeld(run, order);
  } catch (e) {
    outcome = outcomeOf(e, signal, run.abortedBy, run.left, plan.policy.file);
  } finally {
    await wrapUp(run, ports, log, locked ? outcome : undefined);
    ctx.emit({
      type: "roll.end",
      result: outcome.result,
      message: outcome.message,
      ...(outcome.stop && { stop: outcome.stop }),
    });
  }
  return outcome;
}

/**
 * A roll's last words, in the plan's counts (plan/summary.ts): "3 groups rolled" where the plan
 * said 3 to roll — a group with nothing to change is not among them.
 */
function doneMessage(plan: Plan): string {
  const n = (k: number, what: string) => `${k} group${k === 1 ? "" : "s"}${what}`;
  const configured = reachedGroups(plan.groups).filter((g) => g.status === "config-only").length;
  const cleared = plan.summary.cleanups ?? 0;
  return `${n(plan.summary.groupsToRoll, " rolled")}${configured > 0 ? `, ${n(configured, " reconfigured")}` : ""}${cleared > 0 ? `, marks cleared on ${n(cleared, "")}` : ""}`;
}

/** The roll, the lock held: the groups in order — or, the window closed, marks cleared only. */
async function rollHeld(run: Run, order: string[]): Promise<void> {
  const stop = stopReason(run);
  await run.nodes.start();
  if (!stop) return rollGroups(run, order);
  // Paused or aborted: not a mark is touched either.
  if (!run.ctx.signal.aborted && !byRequest(stop)) await clearOutsideWindow(run, order);
  throw new Stopped(stop, "nothing was started");
}

/**
 * Whatever ended the roll: the watches closed; with the lock held (`outcome`), what goes on
 * said in a stopped run's last words, and the lock given back.
 */
async function wrapUp(run: Run, ports: ApplyPorts, log: Reporter, outcome?: ApplyResult) {
  const { ctx, lock, policy } = run;
  await run.nodes.close();
  // The run's own caches (budgets, kube-system's pods, the budgets' turns), closed in one go.
  await ctx.state.close();
  if (!outcome) return;
  if (outcome.result !== "success") {
    await settlePending(lock, ports, policy.cluster.name);
    outcome.message += stillGoing(lock, policy.cluster);
  }
  await release(lock, ports, log);
}
