// apply: roll every group of a policy, in policy order, one roll per cluster. Each group is
// observed and planned afresh just before it rolls (so a run that died is simply finished),
// refused when its plan is blocked or in error (unless force), and handed to its kind with the
// plan — the contract — that says everything the roll does. Every step is an event; the result
// says what happened and how to continue.
import { isWindowOpen, nextWindowOpening, orderGroups, type Policy } from "../policy/index.js";
import type { FindingCode, GroupPlan, LiveGroup, Plan } from "../plan/index.js";
import {
  describeFailure,
  instanceIdOf,
  KubeApiError,
  resilient,
  type RetryInfo,
  type Cloud,
  type Cluster,
  type Clock,
  type Reporter,
  type Node,
  type Result,
} from "../ports/index.js";
import type { ReadyPlan } from "../kinds/kind.js";
import { kindOf } from "../kinds/registry.js";
import { RollError, type RollContext } from "../roll/context.js";
import { ClusterLock, holderIdentity } from "../roll/lease.js";
import { clearStaleMarks, DETACHED_LABEL } from "../roll/marks.js";
import { closeBudgets } from "../roll/budgets.js";
import { closeSystemPods } from "../roll/system-pods.js";
import { NodeCache } from "../roll/nodes.js";
import type { NodeOwner } from "../roll/validate.js";
import { Planner } from "./observe.js";

export interface ApplyOptions {
  runId: string;
  runUrl?: string;
  /** Replace every node of the selected groups and go past PodDisruptionBudgets. */
  force?: boolean;
  groups?: string[];
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
}

export interface ApplyResult {
  result: Result;
  message: string;
  plan?: Plan;
}

export interface ApplyPorts {
  cloud: Cloud;
  cluster: Cluster;
  clock: Clock;
}

interface Run {
  ctx: RollContext;
  policy: Policy;
  options: ApplyOptions;
  planner: Planner;
  nodes: NodeCache;
}

function ownerResolver(groups: LiveGroup[], policy: Policy): (n: Node) => NodeOwner {
  const byInstance = new Map<string, string>();
  for (const g of groups) for (const i of g.instances) byInstance.set(i.id, g.name);
  const controlPlane = new Set(
    policy.groups.filter((g) => g.role === "control-plane").map((g) => g.name),
  );
  return (n) => {
    const id = instanceIdOf(n);
    const group =
      (id && byInstance.get(id)) ||
      n.metadata.labels?.[DETACHED_LABEL] ||
      n.metadata.labels?.["eks.amazonaws.com/nodegroup"];
    return {
      ...(group && { group }),
      ...(group && controlPlane.has(group) && { controlPlane: true }),
    };
  };
}

function stopReason(run: Run): string | undefined {
  const { ctx, policy, options } = run;
  if (ctx.signal.aborted) return "the run was cancelled";
  const now = ctx.clock.now();
  if (ctx.deadline && now >= ctx.deadline) return `--max-duration reached at ${now.toISOString()}`;
  if (policy.window && !options.ignoreWindow && !isWindowOpen(policy.window, now)) {
    const next = nextWindowOpening(policy.window, now);
    return `the maintenance window is closed${next ? ` (next opening ${next.toISOString()})` : ""}`;
  }
  return undefined;
}

/** Blockers whose roll would fail in a drain (the drain's and EKS's PodEvictionFailure). */
const EVICTION_BLOCKERS: ReadonlySet<FindingCode> = new Set<FindingCode>([
  "pdb-blocks",
  "multiple-pdbs",
  "tolerates-everything",
  "stuck-terminating",
  "unmanaged-pods",
]);

/** A group apply may roll: planned complete, not in error, not blocked. */
function readyPlan(plan: GroupPlan, live: LiveGroup | undefined): ReadyPlan {
  if (!live || !plan.settings || !plan.target || plan.status === "error")
    throw new RollError("UpdateFailed", plan.errors.join("; ") || `group ${plan.name} not found`);
  if (plan.status === "blocked") {
    const blockers = plan.findings.filter((f) => f.severity === "blocker").map((f) => f.message);
    const evictions = plan.findings.some(
      (f) => f.severity === "blocker" && EVICTION_BLOCKERS.has(f.code),
    );
    throw new RollError(
      evictions ? "PodEvictionFailure" : "UpdateFailed",
      `not started, it would fail: ${blockers.join("; ")}`,
    );
  }
  return plan as ReadyPlan;
}

async function rollGroup(run: Run, name: string): Promise<void> {
  const { ctx, policy, nodes } = run;
  const { plan: planned, snapshot } = await run.planner.observe(ctx, [name]);
  const plan = planned.groups[0] as GroupPlan;
  const live = snapshot.groups.find((g) => g.name === name);
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
  const ownerOf = ownerResolver(snapshot.groups, policy);
  const groupNodes = [...nodes.byName.values()].filter((n) => ownerOf(n).group === name);
  const moving = new Set(plan.replacements.flatMap((r) => (r.node ? [r.node] : [])));
  const members = new Set(live?.instances.filter((i) => !i.detachedForSurge).map((i) => i.id));
  await clearStaleMarks(ctx, moving, groupNodes, members);
  await kindOf(live as LiveGroup).roll(ctx, {
    plan: ready,
    live: live as LiveGroup,
    cluster: policy.cluster.name,
    runId: run.options.runId,
    nodes,
    ownerOf,
    stopReason: () => stopReason(run),
  });
}

async function rollGroups(run: Run, order: string[]): Promise<void> {
  const { ctx } = run;
  for (const name of order) {
    // Between groups too: no group starts past the deadline, outside the window or cancelled.
    const stop = stopReason(run);
    if (stop)
      throw new RollError(
        ctx.signal.aborted ? "Cancelled" : "Deadline",
        `${stop}; group ${name} and after it left for the next run`,
      );
    try {
      await rollGroup(run, name);
      ctx.emit({ type: "group.end", group: name, result: "success" });
    } catch (e) {
      const cancelled =
        ctx.signal.aborted ||
        (e instanceof RollError && (e.code === "Cancelled" || e.code === "Deadline"));
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

function outcomeOf(e: unknown, signal: AbortSignal, stopped: string): ApplyResult {
  const code = e instanceof RollError ? e.code : undefined;
  // Why the run stopped (the lock lost, the job cancelled) first; where it was, after.
  if (signal.aborted && (!code || code === "Cancelled"))
    return {
      result: "cancelled",
      message: `Cancelled: ${stopped}${code ? ` (${(e as RollError).message})` : ""}; what was in flight was abandoned, leaving only marks the next run resumes from. Run apply again to continue: it picks up where this run stopped.`,
    };
  const result: Result =
    signal.aborted || code === "Cancelled" || code === "Deadline"
      ? "cancelled"
      : code === "WindowClosed"
        ? "skipped"
        : "failure";
  const next =
    result === "cancelled" || result === "skipped"
      ? " Run apply again to continue: it picks up where this run stopped."
      : "";
  const text = (e instanceof RollError ? e.message : describeFailure(e)).replace(/\.?$/, ".");
  return { result, message: `${code ? `${code}: ` : ""}${text}${next}` };
}

function groupOrder(policy: Policy, groups: string[] | undefined): string[] {
  const wanted = groups ? new Set(groups) : undefined;
  return orderGroups(
    policy.groups.map((g) => ({ ...g, role: g.role ?? ("node" as const) })),
    policy.order,
  )
    .map((g) => g.name)
    .filter((n) => !wanted || wanted.has(n));
}

/** How often, at most, the log says that one API keeps asking the run to slow down or wait. */
const RETRY_NOTE_EVERY_MS = 5 * 60_000;

/**
 * A note in the event log when an API throttles the run, is busy or does not answer — at most
 * one per API and reason every few minutes. A throttled eviction is named as throttling, apart
 * from a PodDisruptionBudget's refusal (an eviction.blocked event).
 */
function retryNotes(clock: Clock, log: Reporter): (info: RetryInfo) => void {
  const last = new Map<string, number>();
  return (info) => {
    const key = `${info.api}/${info.why}`;
    const now = clock.now().getTime();
    if (now - (last.get(key) ?? -Infinity) < RETRY_NOTE_EVERY_MS) return;
    last.set(key, now);
    const what =
      info.why === "throttled"
        ? `throttled ${info.call} (${info.error instanceof KubeApiError ? "429 TooManyRequests, API Priority and Fairness" : "ThrottlingException"}); not a PodDisruptionBudget's refusal`
        : info.why === "busy"
          ? `refused ${info.call} for now (${(info.error as { code?: string }).code ?? "busy"})`
          : `gave no answer to ${info.call} (${(info.error as Error).message})`;
    log.emit({
      type: "note",
      message: `${info.api} ${what}; retrying in ${Math.round(info.waitMs / 1000)} s (attempt ${info.attempts})`,
    });
  };
}

/** The engine's view of the ports: retried, bounded and cancelled in one place (resilient.ts). */
function rollContext(
  ports: ApplyPorts,
  log: Reporter,
  options: ApplyOptions,
  signal: AbortSignal,
): RollContext {
  const start = ports.clock.now();
  const onRetry = retryNotes(ports.clock, log);
  return {
    cloud: resilient(ports.cloud, ports.clock, { signal, onRetry }),
    cluster: resilient(ports.cluster, ports.clock, { signal, onRetry }),
    clock: ports.clock,
    emit: log.emit,
    signal,
    ...(options.maxDurationMs !== undefined && {
      deadline: new Date(start.getTime() + options.maxDurationMs),
    }),
  };
}

/** How long giving the lock back may take once the run has stopped (a cancelled job is killed soon). */
const RELEASE_MS = 5_000;

/** Give the lock back through ports the run's signal does not cancel, within RELEASE_MS. */
async function release(lock: ClusterLock, ports: ApplyPorts): Promise<void> {
  const clock = ports.clock;
  const timer = new AbortController();
  const cluster = resilient(ports.cluster, clock, {
    callTimeoutMs: RELEASE_MS,
    signal: timer.signal,
  });
  await Promise.race([
    lock.release(cluster).catch(() => undefined),
    clock.sleep(RELEASE_MS, timer.signal).catch(() => undefined),
  ]);
  timer.abort();
}

export async function apply(
  policy: Policy,
  file: string,
  ports: ApplyPorts,
  log: Reporter,
  options: ApplyOptions,
): Promise<ApplyResult> {
  // Stopping comes from outside (SIGTERM) or from losing the cluster lock mid-roll.
  const lockLost = new AbortController();
  const signal = AbortSignal.any([options.signal ?? new AbortController().signal, lockLost.signal]);
  const ctx = rollContext(ports, log, options, signal);
  const planner =
    options.planner ??
    new Planner(policy, file, {
      force: options.force ?? false,
      ...(options.groups && { groups: options.groups }),
    });
  const run: Run = { ctx, policy, options, planner, nodes: new NodeCache(ctx) };
  const order = groupOrder(policy, options.groups);
  ctx.emit({
    type: "roll.start",
    cluster: policy.cluster.name,
    policy: policy.metadata.name,
    groups: order,
    force: options.force ?? false,
    ...(options.reason && { reason: options.reason }),
    ...(options.runUrl && { run: options.runUrl }),
  });
  let stopped = "the run was cancelled";
  const holder = holderIdentity(options.runId);
  const lost = (why: string) => {
    // Everything in flight stops now: another run may hold the cluster soon.
    ctx.emit({ type: "note", message: `${why}: stopping everything in flight` });
    stopped = why;
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
  let outcome: ApplyResult = {
    result: "success",
    message: `${order.length} group${order.length === 1 ? "" : "s"} rolled`,
  };
  let locked = false;
  try {
    await lock.acquire(options.lockWaitMs ?? 0);
    locked = true;
    const closed = stopReason(run);
    if (closed)
      throw new RollError(
        signal.aborted ? "Cancelled" : "WindowClosed",
        `${closed}; nothing was started`,
      );
    await run.nodes.start();
    await rollGroups(run, order);
  } catch (e) {
    outcome = outcomeOf(e, signal, stopped);
  } finally {
    await run.nodes.close();
    await closeBudgets(ctx);
    await closeSystemPods(ctx);
    if (locked) await release(lock, ports);
    ctx.emit({ type: "roll.end", result: outcome.result, message: outcome.message });
  }
  return outcome;
}
