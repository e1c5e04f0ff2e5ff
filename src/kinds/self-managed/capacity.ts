// The group's capacity as the roll sees it: how many Ready nodes back its instances, waiting
// (by the node watch, not by polling the API server) until enough do, and keeping the cluster
// autoscaler off the new nodes while the roll still needs them.
import type { SelfManagedGroupInfo } from "../../plan/index.js";
import { isReady, listAll, pageOf } from "../../ports/index.js";
import { RollError, type RollContext } from "../../roll/context.js";
import { SCALE_DOWN_BY_US, SCALE_DOWN_DISABLED, updateNode } from "../../roll/marks.js";
import type { GroupJob } from "../kind.js";

type Job = GroupJob<SelfManagedGroupInfo>;

/** How often a wait re-reads the group when the node watch has nothing new. */
const POLL_MS = 10_000;

/** Ready nodes of the group's InService instances, with the instance ids that have none yet. */
async function groupReadiness(
  ctx: RollContext,
  job: Job,
): Promise<{ desired: number; ready: string[]; waiting: string[] }> {
  const asgName = job.plan.name;
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
    else waiting.push(i.InstanceId);
  }
  return { desired: asg.DesiredCapacity, ready, waiting };
}

/**
 * Wait until at least `want` Ready, schedulable nodes back the group's instances (replacements
 * booted and registered). Past the validation timeout: NodeCreationFailure with the instances.
 */
export async function waitForCapacity(
  ctx: RollContext,
  job: Job,
  want: (desired: number) => number,
): Promise<string[]> {
  const timeoutMs = job.plan.settings.validation.timeoutMs;
  const deadline = ctx.clock.now().getTime() + timeoutMs;
  for (;;) {
    const r = await groupReadiness(ctx, job);
    if (r.ready.length >= want(r.desired)) return r.ready;
    if (ctx.clock.now().getTime() > deadline) {
      throw new RollError(
        "NodeCreationFailure",
        `${job.plan.name}: ${r.ready.length} of ${want(r.desired)} nodes Ready after ${Math.round(timeoutMs / 60_000)} min; instances without a Ready node: ${r.waiting.join(", ") || "none launched (check the group's scaling activities)"}`,
      );
    }
    await job.nodes.changed(POLL_MS);
    if (ctx.signal.aborted)
      throw new RollError("Cancelled", "cancelled while waiting for new nodes");
  }
}

/** Whether at least `want` Ready nodes back the group's instances now (no waiting). */
export async function hasCapacity(
  ctx: RollContext,
  job: Job,
  want: (desired: number) => number,
): Promise<boolean> {
  const r = await groupReadiness(ctx, job);
  return r.ready.length >= want(r.desired);
}

/** New nodes must outlive the roll: ask the cluster autoscaler to leave them while we work. */
export async function protectNewNodes(
  ctx: RollContext,
  job: Job,
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

/**
 * The roll is done with this group: the autoscaler may have our new nodes back. Read from the
 * API, not the watched cache: a cache behind a stalled watch must not leave a mark behind.
 */
export async function releaseNewNodes(ctx: RollContext, _job: Job): Promise<void> {
  const { items } = await listAll((cont) => ctx.cluster.listNodes(pageOf(cont)));
  for (const n of items) {
    if (n.metadata.annotations?.[SCALE_DOWN_BY_US] === undefined) continue;
    await updateNode(ctx, n.metadata.name, () => ({
      annotations: { [SCALE_DOWN_DISABLED]: null, [SCALE_DOWN_BY_US]: null },
    }));
  }
}
