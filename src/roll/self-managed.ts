// Rolling a self-managed Auto Scaling group with kOps' semantics (reference 004): validate,
// taint the selected nodes PreferNoSchedule, surge by detaching instances (a canary first when
// nothing is up to date), then replace nodes in a sliding window of maxSurge + maxUnavailable —
// cordon, exclude from load balancers, drain, wait postDrainDelay, terminate, wait interval,
// validate — with detached instances last. Every step is idempotent and every decision comes
// from live state plus our marks, so a later run finishes what an interrupted one started.
import type { EffectiveSettings } from "../policy/index.js";
import {
  interleaveByZone,
  type GroupPlan,
  type Replacement,
  type SelfManagedGroupInfo,
} from "../plan/index.js";
import { isReady, type Node } from "../ports/index.js";
import { RollError, type RollContext } from "./context.js";
import { drainNode } from "./drain.js";
import type { Phase } from "./events.js";
import {
  addTaint,
  CORDONED_ANNOTATION,
  clearMarks,
  cordon,
  DETACHED_LABEL,
  EXCLUDE_LB_LABEL,
  SCALE_DOWN_BY_US,
  SCALE_DOWN_DISABLED,
  SCHEDULED_TAINT,
  updateNode,
} from "./marks.js";
import type { NodeCache } from "./nodes.js";
import { validateUntilStable, type NodeOwner } from "./validate.js";

export interface GroupJob {
  plan: GroupPlan;
  settings: EffectiveSettings;
  runId: string;
  nodes: NodeCache;
  ownerOf: (n: Node) => NodeOwner;
  /** Why no new node may start now (window closed, deadline, cancelled), or undefined. */
  stopReason: () => string | undefined;
  /** The launch template version the group must launch from, when the policy changes it. */
  launchTemplate?: { id: string; version: string };
}

const POLL_MS = 10_000;

async function phase<T>(
  ctx: RollContext,
  group: string,
  name: Phase,
  body: () => Promise<T | "skipped">,
  skipMessage?: string,
): Promise<T | "skipped"> {
  ctx.emit({ type: "phase.start", group, phase: name });
  try {
    const r = await body();
    ctx.emit({
      type: "phase.end",
      group,
      phase: name,
      result: r === "skipped" ? "skipped" : "success",
      ...(r === "skipped" && skipMessage && { message: skipMessage }),
    });
    return r;
  } catch (e) {
    ctx.emit({
      type: "phase.end",
      group,
      phase: name,
      result: ctx.signal.aborted ? "cancelled" : "failure",
      message: (e as Error).message,
    });
    throw e;
  }
}

export { phase as runPhase };

/** Ready nodes of the group's InService instances, with the instance ids that have none yet. */
async function groupReadiness(
  ctx: RollContext,
  job: GroupJob,
  asgName: string,
): Promise<{ desired: number; ready: string[]; waiting: string[] }> {
  const [asg] = await ctx.cloud.autoScaling.describeAutoScalingGroups({
    AutoScalingGroupNames: [asgName],
  });
  if (!asg) throw new RollError("NodeCreationFailure", `Auto Scaling group ${asgName} is gone`);
  const inService = asg.Instances.filter(
    (i) => i.LifecycleState === "InService" || i.LifecycleState.startsWith("Pending"),
  );
  const ready: string[] = [];
  const waiting: string[] = [];
  for (const i of inService) {
    const n = job.nodes.byInstance(i.InstanceId);
    // Cordoned counts: a node an earlier run cordoned still backs its instance until terminated.
    if (n && isReady(n)) ready.push(i.InstanceId);
    else if (!n || !isReady(n)) waiting.push(i.InstanceId);
  }
  return { desired: asg.DesiredCapacity, ready, waiting };
}

/**
 * Wait until at least `want` Ready, schedulable nodes back the group's instances (replacements
 * booted and registered). Past the validation timeout: NodeCreationFailure with the instances.
 */
async function waitForCapacity(
  ctx: RollContext,
  job: GroupJob,
  want: (desired: number) => number,
): Promise<string[]> {
  const deadline = ctx.clock.now().getTime() + job.settings.validation.timeoutMs;
  for (;;) {
    const r = await groupReadiness(ctx, job, job.plan.name);
    if (r.ready.length >= want(r.desired)) return r.ready;
    if (ctx.clock.now().getTime() > deadline) {
      throw new RollError(
        "NodeCreationFailure",
        `${job.plan.name}: ${r.ready.length} of ${want(r.desired)} nodes Ready after ${Math.round(job.settings.validation.timeoutMs / 60_000)} min; instances without a Ready node: ${r.waiting.join(", ") || "none launched (check the group's scaling activities)"}`,
      );
    }
    await job.nodes.changed(POLL_MS);
    if (ctx.signal.aborted)
      throw new RollError("Cancelled", "cancelled while waiting for new nodes");
  }
}

/** New nodes must outlive the roll: ask the cluster autoscaler to leave them while we work. */
async function protectNewNodes(
  ctx: RollContext,
  job: GroupJob,
  instanceIds: string[],
  old: Set<string>,
): Promise<void> {
  for (const id of instanceIds) {
    if (old.has(id)) continue;
    const n = job.nodes.byInstance(id);
    if (n && n.metadata.annotations?.[SCALE_DOWN_DISABLED] === undefined) {
      await updateNode(ctx, n.metadata.name, () => ({
        annotations: { [SCALE_DOWN_DISABLED]: "true", [SCALE_DOWN_BY_US]: job.runId },
      }));
    }
  }
}

async function detach(ctx: RollContext, job: GroupJob, r: Replacement): Promise<void> {
  // Mark first: a run that dies between the two steps still finds the instance as ours.
  if (r.node)
    await updateNode(ctx, r.node, () => ({ labels: { [DETACHED_LABEL]: job.plan.name } }));
  await ctx.cloud.autoScaling.detachInstances({
    AutoScalingGroupName: job.plan.name,
    InstanceIds: [r.instance],
    ShouldDecrementDesiredCapacity: false,
  });
  r.reasons.push({ kind: "detached-for-surge" });
  ctx.emit({ type: "instance.detach", group: job.plan.name, instance: r.instance });
}

/** Validate from the node cache, `count` times in a row, within the group's timeout. */
function validate(ctx: RollContext, job: GroupJob, count: number): Promise<void> {
  return validateUntilStable(ctx, job.ownerOf, job.plan.name, {
    count,
    timeoutMs: job.settings.validation.timeoutMs,
    nodes: () => job.nodes.byName.values(),
  });
}

const isDetached = (r: Replacement) => r.reasons.some((x) => x.kind === "detached-for-surge");

/** One node's replacement; `state.terminated` tells the window when its slot is empty. */
async function replaceOne(
  ctx: RollContext,
  job: GroupJob,
  r: Replacement,
  state: { terminated: boolean },
): Promise<void> {
  const group = job.plan.name;
  const s = job.settings;
  if (r.node && job.nodes.byName.has(r.node)) {
    await cordon(ctx, r.node, job.runId);
    ctx.emit({ type: "node.cordon", group, node: r.node });
    if (job.plan.role !== "bastion") {
      await updateNode(ctx, r.node, (n) =>
        n.metadata.labels?.[EXCLUDE_LB_LABEL] === "true"
          ? undefined
          : { labels: { [EXCLUDE_LB_LABEL]: "true" } },
      );
      ctx.emit({ type: "node.label", group, node: r.node, label: `${EXCLUDE_LB_LABEL}=true` });
      await drainNode(ctx, { group, node: r.node, timeoutMs: s.drainTimeoutMs, force: s.force });
      await ctx.clock.sleep(s.postDrainDelayMs, ctx.signal);
    }
  }
  if (isDetached(r)) await ctx.cloud.ec2.terminateInstances({ InstanceIds: [r.instance] });
  else
    await ctx.cloud.autoScaling.terminateInstanceInAutoScalingGroup({
      InstanceId: r.instance,
      ShouldDecrementDesiredCapacity: false,
    });
  state.terminated = true;
  ctx.emit({ type: "instance.terminate", group, instance: r.instance, decrement: false });
  await ctx.clock.sleep(s.intervalMs, ctx.signal);
}

async function setup(ctx: RollContext, job: GroupJob, todo: Replacement[]): Promise<void> {
  const bastion = job.plan.role === "bastion";
  // Replacements must launch from the policy's version, or the roll would never converge.
  if (job.launchTemplate) {
    await ctx.cloud.autoScaling.updateAutoScalingGroup({
      AutoScalingGroupName: job.plan.name,
      LaunchTemplate: {
        LaunchTemplateId: job.launchTemplate.id,
        Version: job.launchTemplate.version,
      },
    });
    ctx.emit({
      type: "note",
      group: job.plan.name,
      message: `${job.plan.name}: launch template version set to ${job.launchTemplate.version}`,
    });
  }
  if (!bastion) await validate(ctx, job, 1);
  for (const r of todo) {
    if (bastion || !r.node || !job.nodes.byName.has(r.node)) continue;
    if (await addTaint(ctx, r.node, SCHEDULED_TAINT))
      ctx.emit({
        type: "node.taint",
        group: job.plan.name,
        node: r.node,
        taint: `${SCHEDULED_TAINT.key}:${SCHEDULED_TAINT.effect}`,
      });
  }
}

async function scaleUp(
  ctx: RollContext,
  job: GroupJob,
  attached: Replacement[],
  detached: Replacement[],
  canary: boolean,
): Promise<"done" | "skipped"> {
  const surge = job.plan.budgets.maxSurge;
  const more = Math.max(0, surge - detached.length);
  if (surge === 0 || (more === 0 && detached.length === 0)) return "skipped";
  const old = new Set([...attached, ...detached].map((r) => r.instance));
  // Detach from the end of the queue: surge instances are drained last. Only instances with a
  // node: the node carries our mark, without which a run that died would orphan the instance.
  const markable = attached.filter((r) => r.node && job.nodes.byName.has(r.node));
  const picks = markable.slice(Math.max(0, markable.length - more)).reverse();
  const first = canary && detached.length === 0 ? picks.slice(0, 1) : picks;
  for (const r of first) await detach(ctx, job, r);
  await protectNewNodes(ctx, job, await waitForCapacity(ctx, job, (d) => d), old);
  if (first.length < picks.length) {
    // The canary's replacement works: surge the rest.
    await validate(ctx, job, job.settings.validation.count);
    for (const r of picks.slice(first.length)) await detach(ctx, job, r);
    await protectNewNodes(ctx, job, await waitForCapacity(ctx, job, (d) => d), old);
  }
  await validate(ctx, job, job.settings.validation.count);
  return "done";
}

/** The sliding window: up to maxSurge + maxUnavailable nodes in flight; a new one only after a completion validated. */
async function upgrade(
  ctx: RollContext,
  job: GroupJob,
  queue: Replacement[],
  canary: boolean,
): Promise<void> {
  const window = Math.max(1, job.plan.budgets.maxSurge + job.plan.budgets.maxUnavailable);
  const old = new Set(queue.map((r) => r.instance));
  let limit = canary ? 1 : window;
  const inFlight = new Map<
    string,
    { r: Replacement; done: Promise<void>; state: { terminated: boolean } }
  >();
  let failure: unknown;
  while ((queue.length > 0 || inFlight.size > 0) && failure === undefined) {
    const stop = job.stopReason();
    while (!stop && inFlight.size < limit && queue.length > 0) {
      const r = queue.shift() as Replacement;
      const state = { terminated: false };
      const done = replaceOne(ctx, job, r, state).then(
        () => void inFlight.delete(r.instance),
        (e: unknown) => {
          inFlight.delete(r.instance);
          failure ??= e;
        },
      );
      inFlight.set(r.instance, { r, done, state });
    }
    if (inFlight.size === 0) {
      if (stop)
        throw new RollError(
          ctx.signal.aborted ? "Cancelled" : "Deadline",
          `${stop}; ${queue.length} node${queue.length === 1 ? "" : "s"} of ${job.plan.name} left for the next run`,
        );
      break;
    }
    await Promise.race([...inFlight.values()].map((x) => x.done));
    if (failure !== undefined) break;
    // The replacement of what finished must be Ready; nodes still in flight are cordoned.
    // Every slot of the group must be backed by a Ready node again, but for those whose
    // instance another task in flight has already terminated.
    const emptied = [...inFlight.values()].filter(
      (x) => !isDetached(x.r) && x.state.terminated,
    ).length;
    const ready = await waitForCapacity(ctx, job, (d) => Math.max(0, d - emptied));
    await protectNewNodes(ctx, job, ready, old);
    await validate(ctx, job, job.settings.validation.count);
    limit = window;
  }
  await Promise.allSettled([...inFlight.values()].map((x) => x.done));
  if (failure !== undefined) throw failure;
}

/** The roll is done with this group: the autoscaler may have our new nodes back. */
async function scaleDown(ctx: RollContext, job: GroupJob): Promise<"skipped"> {
  for (const n of job.nodes.byName.values()) {
    if (n.metadata.annotations?.[SCALE_DOWN_BY_US] === undefined) continue;
    await updateNode(ctx, n.metadata.name, () => ({
      annotations: { [SCALE_DOWN_DISABLED]: null, [SCALE_DOWN_BY_US]: null },
    }));
  }
  return "skipped";
}

/** Marks left on nodes that no longer need replacing (a policy change, an earlier run): cleared. */
export async function clearStaleMarks(
  ctx: RollContext,
  job: GroupJob,
  keep: Set<string>,
  groupNodes: Node[],
): Promise<void> {
  for (const n of groupNodes)
    if (!keep.has(n.metadata.name)) await clearMarks(ctx, n.metadata.name);
}

export async function rollSelfManaged(
  ctx: RollContext,
  job: GroupJob,
  live: SelfManagedGroupInfo,
): Promise<void> {
  const group = job.plan.name;
  const todo = job.plan.replacements.map((r) => ({ ...r, reasons: [...r.reasons] }));
  const detached = todo.filter(isDetached);
  const attached = todo.filter((r) => !isDetached(r));
  const canary = live.instances.length - attached.length === 0 && todo.length > 1;
  await phase(ctx, group, "setup", () => setup(ctx, job, todo));
  await phase(
    ctx,
    group,
    "scale-up",
    () => scaleUp(ctx, job, attached, detached, canary),
    "maxSurge is 0: nodes are replaced in place",
  );
  // Nodes an earlier run already cordoned go first (they already count against the budget),
  // then zones in turn as the plan showed, detached instances last.
  const ours = (r: Replacement) =>
    r.node
      ? job.nodes.byName.get(r.node)?.metadata.annotations?.[CORDONED_ANNOTATION] !== undefined
      : false;
  const inPlace = attached.filter((r) => !isDetached(r));
  const ordered = job.settings.spreadAcrossZones ? interleaveByZone(inPlace) : inPlace;
  const queue = [
    ...ordered.filter(ours),
    ...ordered.filter((r) => !ours(r)),
    ...attached.filter(isDetached),
    ...detached,
  ];
  await phase(
    ctx,
    group,
    "upgrade",
    async () => {
      if (!job.settings.drainAndTerminate) return "skipped";
      await upgrade(ctx, job, queue, canary && job.plan.budgets.maxSurge === 0);
      return "done";
    },
    "drainAndTerminate is false: nodes stay tainted, nothing is drained or terminated",
  );
  await phase(
    ctx,
    group,
    "scale-down",
    () => scaleDown(ctx, job),
    "surge by detaching leaves desired capacity as it was; nothing to scale down",
  );
}
