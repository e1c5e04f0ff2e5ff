// apply: roll every group of a policy, in policy order, one roll per cluster. Each group is
// planned afresh from live state just before it rolls (so a run that died is simply finished),
// refused when its plan is blocked or in error (unless force), and handed to the engine for
// its kind. Every step is an event; the result says what happened and how to continue.
import { isWindowOpen, nextWindowOpening, orderGroups, type Policy } from "../policy/index.js";
import {
  buildPlan,
  readGroupsAndNodes,
  addWorkloads,
  resolveTarget,
  type GroupPlan,
  type LiveGroup,
  type Plan,
} from "../plan/index.js";
import { resolveGroup } from "../policy/index.js";
import {
  instanceIdOf,
  resilient,
  type Cloud,
  type Cluster,
  type Clock,
  type Node,
} from "../ports/index.js";
import { RollError, type EventLog, type RollContext } from "./context.js";
import type { Result } from "./events.js";
import { ClusterLock } from "./lease.js";
import { rollManaged } from "./managed.js";
import { DETACHED_LABEL } from "./marks.js";
import { NodeCache } from "./nodes.js";
import { clearStaleMarks, rollSelfManaged, type GroupJob } from "./self-managed.js";
import type { NodeOwner } from "./validate.js";

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

/** The launch template version a self-managed group must be switched to, if the policy changes it. */
function launchTemplateChange(
  group: Policy["groups"][number],
  live: LiveGroup,
  plan: GroupPlan,
): { launchTemplate?: { id: string; version: string } } {
  const wanted = group.target?.launchTemplateVersion;
  if (live.kind !== "self-managed" || !live.launchTemplate || wanted === undefined) return {};
  if (!plan.configChanges.some((c) => c.field === "launchTemplate.version")) return {};
  return { launchTemplate: { id: live.launchTemplate.id, version: String(wanted) } };
}

function stopReason(ctx: RollContext, policy: Policy, options: ApplyOptions): string | undefined {
  if (ctx.signal.aborted) return "the run was cancelled";
  const now = ctx.clock.now();
  if (ctx.deadline && now >= ctx.deadline) return `--max-duration reached at ${now.toISOString()}`;
  if (policy.window && !options.ignoreWindow && !isWindowOpen(policy.window, now)) {
    const next = nextWindowOpening(policy.window, now);
    return `the maintenance window is closed${next ? ` (next opening ${next.toISOString()})` : ""}`;
  }
  return undefined;
}

async function rollGroup(
  ctx: RollContext,
  policy: Policy,
  file: string,
  name: string,
  nodes: NodeCache,
  options: ApplyOptions,
): Promise<void> {
  const snapshot = await readGroupsAndNodes(policy, ctx);
  const draft = buildPlan(policy, file, snapshot, {
    force: options.force ?? false,
    groups: [name],
  });
  const nodesToMove = draft.groups[0]?.replacements.flatMap((r) => (r.node ? [r.node] : [])) ?? [];
  const full = await addWorkloads(snapshot, nodesToMove, ctx.cluster);
  const plan = buildPlan(policy, file, full, { force: options.force ?? false, groups: [name] })
    .groups[0] as GroupPlan;
  const live = full.groups.find((g) => g.name === name);
  const policyGroup = policy.groups.find((g) => g.name === name);
  ctx.emit({
    type: "group.start",
    group: name,
    kind: live?.kind ?? "self-managed",
    nodes: plan.nodes,
    replace: plan.replacements.length,
  });
  if (!live || !policyGroup || plan.status === "error")
    throw new RollError("UpdateFailed", plan.errors.join("; ") || `group ${name} not found`);
  if (plan.status === "blocked") {
    const blockers = plan.findings.filter((f) => f.severity === "blocker").map((f) => f.message);
    throw new RollError(
      plan.findings.some(
        (f) =>
          f.code.startsWith("pdb") ||
          f.code === "multiple-pdbs" ||
          f.code === "tolerates-everything",
      )
        ? "PodEvictionFailure"
        : "UpdateFailed",
      `not started, it would fail: ${blockers.join("; ")}`,
    );
  }
  const resolution = resolveGroup(policy, policyGroup, {
    kind: live.kind,
    size: plan.nodes,
    needUpdate: plan.replacements.length,
  });
  const settings = {
    ...resolution.settings,
    force: resolution.settings.force || (options.force ?? false),
    maxSurge: plan.budgets.maxSurge,
    maxUnavailable: plan.budgets.maxUnavailable,
  };
  const job: GroupJob = {
    plan,
    settings,
    runId: options.runId,
    nodes,
    ownerOf: ownerResolver(full.groups, policy),
    stopReason: () => stopReason(ctx, policy, options),
    ...launchTemplateChange(policyGroup, live, plan),
  };
  const groupNodes = [...nodes.byName.values()].filter((n) => job.ownerOf(n).group === name);
  await clearStaleMarks(ctx, job, new Set(nodesToMove), groupNodes);
  if (live.kind === "managed") {
    const target = resolveTarget(policyGroup, live, full);
    await rollManaged(ctx, job, live, policy.cluster.name, {
      ...(target.kubernetesVersion && { version: target.kubernetesVersion }),
      ...(target.releaseVersion && { releaseVersion: target.releaseVersion }),
      ...(target.launchTemplateVersion !== undefined && {
        launchTemplateVersion: target.launchTemplateVersion,
      }),
      ...(resolution.updateConfig && { updateConfig: resolution.updateConfig }),
    });
  } else {
    await rollSelfManaged(ctx, job, live);
  }
}

export async function apply(
  policy: Policy,
  file: string,
  ports: ApplyPorts,
  log: EventLog,
  options: ApplyOptions,
): Promise<ApplyResult> {
  // Stopping comes from outside (SIGTERM) or from losing the cluster lock mid-roll.
  const lockLost = new AbortController();
  const signal = AbortSignal.any([options.signal ?? new AbortController().signal, lockLost.signal]);
  const start = ports.clock.now();
  // Throttling is retried whoever implements the ports (the sandbox throttles at the port).
  const ctx: RollContext = {
    cloud: resilient(ports.cloud, ports.clock),
    cluster: resilient(ports.cluster, ports.clock),
    clock: ports.clock,
    emit: log.emit,
    signal,
    ...(options.maxDurationMs !== undefined && {
      deadline: new Date(start.getTime() + options.maxDurationMs),
    }),
  };
  const wanted = options.groups ? new Set(options.groups) : undefined;
  const order = orderGroups(
    policy.groups.map((g) => ({ ...g, role: g.role ?? ("node" as const) })),
    policy.order,
  )
    .map((g) => g.name)
    .filter((n) => !wanted || wanted.has(n));
  ctx.emit({
    type: "roll.start",
    cluster: policy.cluster.name,
    policy: policy.metadata.name,
    groups: order,
    force: options.force ?? false,
    ...(options.reason && { reason: options.reason }),
    ...(options.runUrl && { run: options.runUrl }),
  });
  const lock = new ClusterLock(ctx, policy.cluster.name, options.runId, options.runUrl, (why) => {
    ctx.emit({ type: "note", message: `${why}: stopping after the node in flight` });
    lockLost.abort();
  });
  const nodes = new NodeCache(ctx);
  let outcome: ApplyResult = {
    result: "success",
    message: `${order.length} group${order.length === 1 ? "" : "s"} rolled`,
  };
  let locked = false;
  try {
    await lock.acquire(options.lockWaitMs ?? 0);
    locked = true;
    const closed = stopReason(ctx, policy, options);
    if (closed)
      throw new RollError(
        signal.aborted ? "Cancelled" : "WindowClosed",
        `${closed}; nothing was started`,
      );
    await nodes.start();
    for (const name of order) {
      // Between groups too: no group starts past the deadline, outside the window or cancelled.
      const stop = stopReason(ctx, policy, options);
      if (stop)
        throw new RollError(
          signal.aborted ? "Cancelled" : "Deadline",
          `${stop}; group ${name} and after it left for the next run`,
        );
      try {
        await rollGroup(ctx, policy, file, name, nodes, options);
        ctx.emit({ type: "group.end", group: name, result: "success" });
      } catch (e) {
        const cancelled =
          signal.aborted ||
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
  } catch (e) {
    const code = e instanceof RollError ? e.code : undefined;
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
    const text = (e as Error).message.replace(/\.?$/, ".");
    outcome = { result, message: `${code ? `${code}: ` : ""}${text}${next}` };
  } finally {
    await nodes.close();
    if (locked) await lock.release().catch(() => undefined);
    ctx.emit({ type: "roll.end", result: outcome.result, message: outcome.message });
  }
  return outcome;
}
