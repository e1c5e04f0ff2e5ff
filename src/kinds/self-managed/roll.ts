// Rolling a self-managed Auto Scaling group with kOps' semantics
// (https://kops.sigs.k8s.io/operations/rolling-update/ and kOps' pkg/instancegroups): validate,
// taint the selected nodes PreferNoSchedule, surge by detaching instances (a canary first when
// nothing is up to date), then the sliding window (window.ts) with detached instances last.
// Every step is idempotent and every decision comes from the plan, live state and our marks, so
// a later run finishes what an interrupted one started.
import { isDetached, type Replacement, type SelfManagedGroupInfo } from "../../plan/index.js";
import type { RollContext } from "../../roll/context.js";
import { addTaint, CORDONED_ANNOTATION, SCHEDULED_TAINT } from "../../roll/marks.js";
import { runPhase } from "../../roll/phase.js";
import type { GroupJob } from "../kind.js";
import { selfManagedJob, type Job } from "./job.js";
import { releaseNewNodes } from "./capacity.js";
import { validateGroup } from "./validate.js";
import { hasLeft } from "./left.js";
import { holdProcesses, restoreProcesses } from "./processes.js";
import { upgrade } from "./window.js";
import { surgeAndWait } from "./surge.js";
import { untagStale } from "./surge-tag.js";
import { refreshWarmPool } from "./warm-pool.js";
import { GatedRoll, nextCheckpoint, watchFor } from "./gates.js";

async function setup(ctx: RollContext, job: Job, todo: Replacement[]): Promise<void> {
  const bastion = job.plan.role === "bastion";
  // Replacements must launch from the policy's version, or the roll would never converge.
  const lt = job.plan.launchTemplate;
  if (lt) {
    await ctx.cloud.autoScaling.updateAutoScalingGroup({
      AutoScalingGroupName: job.plan.name,
      LaunchTemplate: { LaunchTemplateId: lt.id, Version: lt.version },
    });
    ctx.emit({
      type: "note",
      group: job.plan.name,
      message: `${job.plan.name}: launch template version set to ${lt.version}`,
    });
  }
  await untagStale(ctx, job, todo);
  // kOps returns before validating a group with nothing to update (pkg/instancegroups,
  // rollingUpdateInstanceGroup): its own NotReady node is not a reason to fail the apply.
  if (!bastion && todo.length > 0) await validateGroup(ctx, job, 1);
  // After the template is set and the cluster validated, as kOps: the pool refills from the
  // target.
  await refreshWarmPool(ctx, job);
  for (const r of todo) {
    if (bastion || !r.node || !job.nodes.byName.has(r.node)) continue;
    if (await addTaint(ctx, r.node, SCHEDULED_TAINT, job.nodes.byName.get(r.node)))
      ctx.emit({
        type: "node.taint",
        group: job.plan.name,
        node: r.node,
        taint: `${SCHEDULED_TAINT.key}:${SCHEDULED_TAINT.effect}`,
      });
  }
}

/**
 * Instances detached for surge whose nodes are gone (found by their tag): they give the group
 * nothing, and nothing runs there to drain. Ended before the surge, so that it detaches afresh
 * within maxSurge.
 */
async function endLost(ctx: RollContext, job: Job, lost: Replacement[]): Promise<void> {
  for (const r of lost) {
    await ctx.cloud.ec2.terminateInstances({ InstanceIds: [r.instance] });
    ctx.emit({
      type: "instance.terminate",
      group: job.plan.name,
      instance: r.instance,
      decrement: false,
    });
  }
}

async function scaleUp(
  ctx: RollContext,
  job: Job,
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
  const candidates = attached.filter((r) => r.node && job.nodes.byName.has(r.node)).reverse();
  // No more surge than the first checkpoint allows: the replacements it launches count there.
  const picks = Math.min(more, candidates.length, nextCheckpoint(job)?.count ?? Infinity);
  const first = canary && detached.length === 0 ? Math.min(1, picks) : picks;
  await surgeAndWait(ctx, job, candidates, first, { old, planned: picks });
  if (first < picks && job.roll.surgeGivenUp === 0) {
    // The canary's replacement works (and kept the gates green through its bake): surge the rest.
    await validateGroup(ctx, job, job.plan.settings.validation.count);
    await watchFor(ctx, job, job.plan.settings.gates.bakeMs, "bake");
    await surgeAndWait(ctx, job, candidates, picks - first, { old, planned: picks });
  }
  await validateGroup(ctx, job, job.plan.settings.validation.count);
  return "done";
}

/** The upgrade queue: nodes an earlier run already cordoned first (they already count against
 * the budget: the roll's own progress), then the plan's order, then what this run detached,
 * then earlier detachments. */
function upgradeQueue(job: Job, attached: Replacement[], detached: Replacement[]): Replacement[] {
  const ours = (r: Replacement) =>
    r.node
      ? job.nodes.byName.get(r.node)?.metadata.annotations?.[CORDONED_ANNOTATION] !== undefined
      : false;
  const ordered = attached.filter((r) => !isDetached(r));
  return [
    ...ordered.filter(ours),
    ...ordered.filter((r) => !ours(r)),
    ...attached.filter(isDetached),
    ...detached,
  ].filter((r) => !hasLeft(job, r.instance));
}

/**
 * The roll, with AZRebalance held while it changes the group (processes.ts): resumed when it
 * ends, done, failed or stopped at a deadline — but not once the run is cancelled or has lost
 * its lock: then the ports refuse, another run may be rolling the group already, and the mark
 * left on the group is the next run's to act on. A group with nothing to replace gets back what
 * an earlier run left suspended.
 */
/** The kind's roll of one group: its own state made here, gone when the group is done. */
export async function rollSelfManaged(
  ctx: RollContext,
  group: GroupJob<SelfManagedGroupInfo>,
): Promise<void> {
  const job = selfManagedJob(group);
  // What is ours to resume: the earlier run's, or what setup holds.
  const held = job.plan.replacements.length > 0 ? [] : [...(job.live.suspendedByNoderoll ?? [])];
  try {
    await rollPhases(ctx, job, held);
  } finally {
    if (!ctx.signal.aborted) await restoreProcesses(ctx, job.plan.name, held);
  }
}

async function rollPhases(ctx: RollContext, job: Job, held: string[]): Promise<void> {
  const group = job.plan.name;
  // In the plan's order (made once, in the plan): the surge is detached from its end, the
  // window starts from its head.
  const todo = job.plan.replacements.map((r) => ({ ...r, reasons: [...r.reasons] }));
  // With drainAndTerminate false nothing is terminated, lost instances neither.
  const ends = job.plan.settings.drainAndTerminate;
  const lost = ends
    ? todo.filter((r) => isDetached(r) && !(r.node && job.nodes.byName.has(r.node)))
    : [];
  const detached = todo.filter((r) => isDetached(r) && !lost.includes(r));
  const attached = todo.filter((r) => !isDetached(r));
  const canary = job.plan.schedule.waves[0]?.canary === true;
  await runPhase(ctx, group, "setup", async () => {
    if (todo.length > 0) held.push(...(await holdProcesses(ctx, job.live)));
    await setup(ctx, job, todo);
    await endLost(ctx, job, lost);
  });
  // The gates are read from the surge on: the first replacements launch there.
  const gated = new GatedRoll(ctx, job);
  try {
    await runPhase(
      ctx,
      group,
      "scale-up",
      () => gated.run((g) => scaleUp(g, job, attached, detached, canary)),
      "maxSurge is 0: nodes are replaced in place",
    );
    await runPhase(
      ctx,
      group,
      "upgrade",
      () =>
        gated.run(async (g) => {
          if (!job.plan.settings.drainAndTerminate || todo.length === 0) return "skipped";
          const queue = upgradeQueue(job, attached, detached);
          // Without a surge (none planned, or every detach refused) the canary is replaced in place.
          const inPlace =
            job.plan.budgets.maxSurge === 0 || job.roll.surged + detached.length === 0;
          await upgrade(g, job, queue, canary && inPlace);
          return "done";
        }),
      todo.length === 0
        ? "nothing to replace: the group is neither drained nor validated"
        : "drainAndTerminate is false: nodes stay tainted, nothing is drained or terminated",
    );
  } finally {
    await gated.close();
  }
  await runPhase(
    ctx,
    group,
    "scale-down",
    async () => {
      await releaseNewNodes(ctx, job);
      return "skipped";
    },
    "surge by detaching leaves desired capacity as it was; nothing to scale down",
  );
}
