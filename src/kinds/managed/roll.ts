// Rolling an EKS managed node group by delegation (Amazon EKS user guide, "Update a managed node
// group for your cluster" and "Understand each phase of node updates"): set updateConfig when it
// differs, start UpdateNodegroupVersion (force from the policy's deleteAfterDrainTimeout or the run's), then follow the
// update — DescribeUpdate, the Auto Scaling group's sizes and the nodes — so that each of EKS's
// four phases is reported as it happens. An update already in progress (a run that died, or
// whose answer was lost) is found (updates.ts) and followed rather than started again.
import type { ManagedGroupInfo, Target, UpdateInProgress } from "../../plan/index.js";
import {
  ApiCallError,
  isLostAnswer,
  isReady,
  isTryLater,
  type EksUpdate,
  type Nodegroup,
  type UpdateConfig,
  type UpdateNodegroupVersionInput,
} from "../../ports/index.js";
import { RollError, Stopped, type RollContext } from "../../roll/context.js";
import { PENDING } from "../../roll/in-flight.js";
import { awaitRescheduled } from "../../roll/rescheduled.js";
import type { GateWatch } from "../../roll/gates.js";
import { managedBake, managedGates, managedHalt } from "./gates.js";
import type { GroupJob } from "../kind.js";
import { customAmiAdvice, eksTarget, isCustomAmi } from "./custom-ami.js";
import { describeBlockers, evictionBlockers } from "./evictions.js";
import { EKS_UPDATE_TAINT, PhaseTracker } from "./phases.js";
import {
  awaitSuccess,
  describeFailure,
  describeTarget,
  failureCode,
  inProgress,
  report,
  takesToTarget,
  updateInfo,
  waitForUpdate,
} from "./updates.js";

type Job = GroupJob<ManagedGroupInfo>;

function sameConfig(want: UpdateConfig | undefined, have: UpdateConfig): boolean {
  if (!want) return true;
  if (want.updateStrategy && want.updateStrategy !== (have.updateStrategy ?? "DEFAULT"))
    return false;
  if (want.maxUnavailable === undefined && want.maxUnavailablePercentage === undefined) return true;
  if (want.maxUnavailablePercentage !== undefined)
    return want.maxUnavailablePercentage === have.maxUnavailablePercentage;
  return (
    (want.maxUnavailable ?? 1) ===
    (have.maxUnavailable ?? (have.maxUnavailablePercentage === undefined ? 1 : undefined))
  );
}

/** Change updateConfig first when the plan says so, and wait until EKS has taken it. */
async function applyConfig(ctx: RollContext, job: Job, have: UpdateConfig): Promise<void> {
  const want = job.plan.updateConfig;
  if (!want || sameConfig(want, have)) return;
  // NodegroupUpdateConfig wants maxUnavailable or maxUnavailablePercentage with the strategy
  // (EKS API reference): a strategy alone goes with the live budget.
  const budget =
    have.maxUnavailablePercentage !== undefined
      ? { maxUnavailablePercentage: have.maxUnavailablePercentage }
      : { maxUnavailable: have.maxUnavailable ?? 1 };
  const alone = want.maxUnavailable === undefined && want.maxUnavailablePercentage === undefined;
  const cfg = await ctx.cloud.eks.updateNodegroupConfig({
    clusterName: job.cluster,
    nodegroupName: job.plan.name,
    updateConfig: alone ? { ...budget, ...want } : want,
  });
  report(ctx, job.plan.name, { ...cfg, errors: [] }, "ConfigUpdate");
  await awaitSuccess(ctx, job, cfg);
}

/**
 * UpdateNodegroupVersion as EKS takes it (its API reference): what of the planned target EKS
 * takes for the group's AMI (custom-ami.ts) — a custom AMI's launch template version alone, an
 * EKS optimized AMI's version and release too, with or without the customer's template (no
 * release: EKS takes the latest for the version).
 */
export function versionInput(job: Job, amiType: string | undefined): UpdateNodegroupVersionInput {
  const target = eksTarget(amiType, job.plan.target);
  const lt = job.live.launchTemplate;
  const ltChange = lt && target.launchTemplateVersion !== undefined;
  if (isCustomAmi(amiType) && !ltChange)
    throw new RollError("UpdateFailed", customAmiAdvice(job.plan.name));
  return {
    clusterName: job.cluster,
    nodegroupName: job.plan.name,
    // EKS's force is the policy's deleteAfterDrainTimeout (UpdateNodegroupVersion, "force").
    force: job.plan.settings.deleteAfterDrainTimeout,
    ...(target.kubernetesVersion && { version: target.kubernetesVersion }),
    ...(target.releaseVersion && { releaseVersion: target.releaseVersion }),
    ...(ltChange && {
      launchTemplate: { id: lt.id, version: String(target.launchTemplateVersion) },
    }),
  };
}

/** A failure after which EKS may have started the update anyway (the answer was lost) or be busy. */
function mayHaveStarted(e: unknown): boolean {
  return isLostAnswer(e) || isTryLater(e instanceof ApiCallError ? e.cause : e);
}

/**
 * Start the version update. When its answer is lost or EKS stays busy, the node group is read
 * again: an update in progress is followed; none, after a lost answer, means the request never
 * took effect, and it is made again (a re-read makes the repeat safe).
 */
async function startVersionUpdate(
  ctx: RollContext,
  job: Job,
  amiType: string | undefined,
): Promise<EksUpdate> {
  const input = versionInput(job, amiType);
  for (let n = 1; ; n++) {
    try {
      return await ctx.cloud.eks.updateNodegroupVersion(input);
    } catch (e) {
      if (!mayHaveStarted(e)) throw e;
      const running = await inProgress(ctx, job);
      if (running && isOurs(job, running)) {
        ctx.emit({
          type: "note",
          message: `${job.plan.name}: UpdateNodegroupVersion got no clear answer; following EKS update ${running.id} in progress, to this plan's target`,
        });
        return running;
      }
      // Someone else's got there first (EKS refused ours as busy): wait it out, then ours.
      if (running && n < 3) await waitOut(ctx, job, running);
      else if (running || !isLostAnswer(e) || n >= 3) throw e;
    }
  }
}

/** The record of an update asked for, before its answer (in-flight.ts PENDING). */
const pendingOf = (job: Job) => ({ kind: "managed" as const, group: job.plan.name, id: PENDING });

/** An update in progress that takes the group where the plan does: followed as the roll's. */
const isOurs = (job: Job, u: EksUpdate) =>
  u.type === "VersionUpdate" &&
  takesToTarget(updateInfo(u), eksTarget(job.live.amiType, job.plan.target));

/** Watches the Auto Scaling group behind the node group, reporting sizes and terminations. */
class GroupWatch {
  private last: { min: number; max: number; desired: number };
  private readonly gone = new Set<string>();

  constructor(
    private readonly ctx: RollContext,
    private readonly job: Job,
    readonly asgName: string | undefined,
    private readonly old: Set<string>,
    readonly tracker: PhaseTracker,
  ) {
    const { min, max, desired } = job.live;
    this.last = { min, max, desired };
  }

  observe = async (): Promise<void> => {
    if (!this.asgName) return;
    const [asg] = await this.ctx.cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: [this.asgName],
    });
    if (!asg) return;
    const group = this.job.plan.name;
    const sizes = { min: asg.MinSize, max: asg.MaxSize, desired: asg.DesiredCapacity };
    if (JSON.stringify(sizes) !== JSON.stringify(this.last)) {
      this.ctx.emit({ type: "asg.resize", group, from: this.last, to: sizes });
      this.last = sizes;
    }
    const present = new Set(asg.Instances.map((i) => i.InstanceId));
    // EKS terminates the old instances itself; report each as it goes so progress counts it.
    for (const id of this.old) {
      if (present.has(id) || this.gone.has(id)) continue;
      this.gone.add(id);
      this.ctx.emit({ type: "instance.terminate", group, instance: id, decrement: true });
    }
    const left = [...this.old].filter((id) => present.has(id));
    const nodes = left.map((id) => this.job.nodes.byInstance(id));
    this.tracker.observe(sizes, {
      left: left.length,
      cordoned: nodes.filter((n) => n?.spec.unschedulable).length,
      tainted: nodes.filter((n) =>
        n?.spec.taints?.some(
          (t) => t.key === EKS_UPDATE_TAINT.key && t.effect === EKS_UPDATE_TAINT.effect,
        ),
      ).length,
    });
  };
}

/**
 * The node group already runs the planned version and release (an update another run started
 * ended between this run's plan and now): nothing to start. A launch template change is
 * always started, EKS telling whether it is needed.
 */
function atTarget(job: Job, ng: Nodegroup): boolean {
  const { target } = job.plan;
  if (target.launchTemplateVersion !== undefined) return false;
  if (!target.kubernetesVersion && !target.releaseVersion) return false;
  return reached(target, ng);
}

/**
 * Wait for an update in progress that does not take the group to the plan's target — someone
 * else's, or an earlier policy's — without reporting it as the roll's: its end is a note, and the
 * run's stop (cancelled, deadline, window) ends the wait with nothing started.
 */
async function waitOut(ctx: RollContext, job: Job, running: EksUpdate): Promise<Nodegroup> {
  const u = updateInfo(running);
  const version = u.type === "VersionUpdate";
  const what = `EKS update ${u.id} of ${job.plan.name} (${u.type}${version ? `, to ${describeTarget(u.to)}` : ""}, started ${u.createdAt.toISOString()})`;
  const why = version
    ? `does not take the group to this plan's target (${describeTarget(job.plan.target)})`
    : "changes the group's configuration";
  ctx.emit({ type: "wait.start", group: job.plan.name, what });
  ctx.emit({
    type: "note",
    group: job.plan.name,
    message: `${what} is in progress and ${why}: waiting for it to end, then rolling to the target`,
  });
  const done = await waitForUpdate(
    ctx,
    job,
    running,
    async () => {
      const stop = job.stopReason();
      if (stop)
        throw new Stopped(
          stop,
          `while waiting for ${what}; nothing of this run was started on ${job.plan.name}`,
        );
    },
    false,
  );
  ctx.emit({ type: "wait.end", group: job.plan.name });
  ctx.emit({
    type: "note",
    group: job.plan.name,
    message: `${what} ended ${done.status}; rolling ${job.plan.name} to the plan's target`,
  });
  return ctx.cloud.eks.describeNodegroup(job.cluster, job.plan.name);
}

/** The update to follow: one in progress to the plan's target, or a new one once any other
 * update in progress (an updateConfig change, someone else's version update) has ended. */
async function theUpdate(
  ctx: RollContext,
  job: Job,
  ng: Nodegroup,
): Promise<EksUpdate | undefined> {
  let latest = ng;
  const running =
    ng.status === "UPDATING" ? await inProgress(ctx, job, (n) => (latest = n)) : undefined;
  let config = latest.updateConfig;
  if (running && isOurs(job, running)) {
    ctx.emit({
      type: "note",
      message: `${job.plan.name}: following EKS update ${running.id} (${String(running.type)}) already in progress, to this plan's target`,
    });
    return running;
  }
  // Any other — an updateConfig change, someone else's version update, an earlier run's of
  // whatever kind — ends first, unreported, the run's stop ending the wait; what it left is
  // read back, and the policy's configuration set again where it differs.
  if (running) {
    latest = await waitOut(ctx, job, running);
    config = latest.updateConfig;
  }
  // UPDATING, and no update in progress any more: it ended meanwhile; see what it left.
  if (latest.status === "UPDATING") {
    latest = await ctx.cloud.eks.describeNodegroup(job.cluster, job.plan.name);
    config = latest.updateConfig;
  }
  await applyConfig(ctx, job, config);
  if (job.plan.replacements.length === 0 || atTarget(job, latest)) return undefined;
  // On the record before the request: a run stopped (or killed) while it is on the wire leaves
  // what it asked for to be found (InFlightWork.resolve), not an update nobody knows of.
  await job.track(pendingOf(job));
  const started = await startVersionUpdate(ctx, job, ng.amiType);
  report(ctx, job.plan.name, { ...started, errors: [] });
  return started;
}

/** What the node group is at, in the plan target's terms. */
function at(ng: Nodegroup): UpdateInProgress["to"] {
  const lt = Number(ng.launchTemplate?.version);
  return {
    kubernetesVersion: ng.version,
    releaseVersion: ng.releaseVersion,
    ...(Number.isFinite(lt) && { launchTemplateVersion: lt }),
  };
}

/** Whether the node group is at everything the plan's target names. */
function reached(target: Target, ng: Nodegroup): boolean {
  const now = at(ng);
  return (
    (target.kubernetesVersion === undefined ||
      now.kubernetesVersion === target.kubernetesVersion) &&
    (target.releaseVersion === undefined || now.releaseVersion === target.releaseVersion) &&
    (target.launchTemplateVersion === undefined ||
      now.launchTemplateVersion === target.launchTemplateVersion)
  );
}

/**
 * Success is the node group at the plan's target, read back: an update that ended Successful
 * somewhere else (someone else's, started meanwhile) is not the roll's success.
 */
async function readBack(ctx: RollContext, job: Job, done: EksUpdate): Promise<Nodegroup> {
  const ng = await ctx.cloud.eks.describeNodegroup(job.cluster, job.plan.name);
  // What EKS takes for the group's AMI (a custom AMI's: its launch template version alone) is
  // all it moves, and all there is to read back.
  if (reached(eksTarget(ng.amiType, job.plan.target), ng)) return ng;
  throw new RollError(
    "UpdateFailed",
    `EKS update ${done.id} of ${job.plan.name} ended Successful, but the node group is at ${describeTarget(at(ng))}, not the plan's target (${describeTarget(job.plan.target)}). Run apply again to roll it there`,
  );
}

async function follow(ctx: RollContext, job: Job, watch: GroupWatch, ng: Nodegroup): Promise<void> {
  if (job.plan.replacements.length === 0) return followUngated(ctx, job, watch, ng);
  const gates = managedGates(ctx, job, watch.asgName);
  try {
    // A gate failing already (an alarm firing before the roll) starts no update.
    const before = await gates.start();
    if (before) throw await managedHalt(ctx, job, before, "before");
    const update = await theUpdate(ctx, job, ng);
    if (!update) return watch.tracker.finish("success", "nothing to replace");
    await followGated(ctx, job, watch, update, gates);
  } finally {
    await gates.close();
  }
}

/** A group with nothing to replace: its configuration and an update in progress, no gates. */
async function followUngated(ctx: RollContext, job: Job, watch: GroupWatch, ng: Nodegroup) {
  const update = await theUpdate(ctx, job, ng);
  if (!update) return watch.tracker.finish("success", "nothing to replace");
  await followGated(ctx, job, watch, update, undefined);
}

/** The update followed under the group's gates: read at each poll, and through the bake after. */
async function followGated(
  ctx: RollContext,
  job: Job,
  watch: GroupWatch,
  update: EksUpdate,
  gates: GateWatch | undefined,
): Promise<void> {
  const halt = async (when: "during" | "after") => {
    if (gates?.stopped) throw await managedHalt(ctx, job, gates.stopped, when);
  };
  // On the cluster's Lease while it replaces nodes: it goes on if this run stops.
  const work = { kind: "managed" as const, group: job.plan.name, id: update.id };
  await job.track(work);
  await job.untrack(pendingOf(job));
  const done = await waitForUpdate(ctx, job, update, async () => {
    await watch.observe();
    await halt("during");
  });
  await job.untrack(work);
  await watch.observe();
  if (done.status !== "Successful") {
    const evictions = done.errors.filter((e) => e.errorCode === "PodEvictionFailure");
    const blocked = evictions.length
      ? await evictionBlockers(
          ctx,
          job,
          evictions.flatMap((e) => e.resourceIds),
        )
      : [];
    throw new RollError(
      failureCode(done),
      `EKS update ${done.id} of ${job.plan.name} ended ${done.status}: ${describeFailure(done)}${describeBlockers(blocked)}`,
    );
  }
  // An update that was followed (an earlier run's, someone else's to the same target) was
  // started without the policy's updateConfig: set it now, where it differs.
  await applyConfig(ctx, job, (await readBack(ctx, job, done)).updateConfig);
  // EKS says the update succeeded once the old nodes are gone, whether or not what they ran
  // found a node again: a pod bound to a zone where no node could take it would stay Pending.
  await awaitRescheduled(ctx, {
    group: job.plan.name,
    moved: job.toMove(),
    timeoutMs: job.plan.settings.validation.timeoutMs,
    nodes: job.nodes.byName.values(),
  });
  if (gates) await managedBake(ctx, job, gates);
  await halt("after");
  watch.tracker.finish("success");
  const ready = [...job.nodes.byName.values()].filter(
    (n) => job.ownerOf(n).group === job.plan.name && isReady(n),
  ).length;
  ctx.emit({ type: "note", message: `${job.plan.name}: ${ready} Ready nodes after the update` });
}

export async function rollManaged(ctx: RollContext, job: Job): Promise<void> {
  const old = new Set(job.plan.replacements.map((r) => r.instance));
  const { desired, max } = job.live;
  const tracker = new PhaseTracker(ctx, job.plan.name, { desired, max }, old);
  try {
    const ng = await ctx.cloud.eks.describeNodegroup(job.cluster, job.plan.name);
    const asgName = ng.resources.autoScalingGroups[0]?.name;
    const watch = new GroupWatch(ctx, job, asgName, old, tracker);
    await follow(ctx, job, watch, ng);
  } catch (e) {
    tracker.finish(ctx.signal.aborted ? "cancelled" : "failure", (e as Error).message);
    throw e;
  }
}
