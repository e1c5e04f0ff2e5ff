// Rolling an EKS managed node group by delegation (Amazon EKS user guide, "Update a managed node
// group for your cluster" and "Understand each phase of node updates"): set updateConfig when it
// differs, start UpdateNodegroupVersion (force from the policy or the dispatch), then follow the
// update — DescribeUpdate, the Auto Scaling group's sizes and the nodes — so that each of EKS's
// four phases is reported as it happens. An update already in progress (a run that died) is
// followed rather than started again.
import type { ManagedGroupInfo } from "../../plan/index.js";
import { isReady, type EksUpdate, type UpdateConfig } from "../../ports/index.js";
import { RollError, type RollContext } from "../../roll/context.js";
import type { GroupJob } from "../kind.js";
import { describeBlockers, evictionBlockers } from "./evictions.js";
import { PhaseTracker } from "./phases.js";

const POLL_MS = 15_000;
const NODEGROUP_LABEL = "eks.amazonaws.com/nodegroup";

type Job = GroupJob<ManagedGroupInfo>;

function explain(u: EksUpdate): { code: string; message: string; resources: string[] }[] {
  return u.errors.map((e) => ({
    code: e.errorCode,
    message: e.errorMessage,
    resources: e.resourceIds,
  }));
}

function report(ctx: RollContext, group: string, u: EksUpdate, type = String(u.type)): void {
  ctx.emit({
    type: "eks.update",
    group,
    updateId: u.id,
    updateType: type,
    status: u.status,
    errors: explain(u),
  });
}

async function waitForUpdate(
  ctx: RollContext,
  job: Job,
  update: EksUpdate,
  onPoll?: (u: EksUpdate) => Promise<void>,
): Promise<EksUpdate> {
  let last = update.status;
  let current = update;
  while (current.status === "InProgress") {
    await ctx.clock.sleep(POLL_MS, ctx.signal);
    current = await ctx.cloud.eks.describeUpdate({
      name: job.cluster,
      nodegroupName: job.plan.name,
      updateId: update.id,
    });
    if (current.status !== last) {
      last = current.status;
      report(ctx, job.plan.name, current);
    }
    await onPoll?.(current);
  }
  return current;
}

function describeFailure(u: EksUpdate): string {
  return u.errors
    .map((e) => {
      const on = e.resourceIds.length ? ` (${e.resourceIds.slice(0, 10).join(", ")})` : "";
      if (e.errorCode === "PodEvictionFailure")
        return `PodEvictionFailure${on}: EKS could not evict pods within 15 minutes — a PodDisruptionBudget allows no disruption, several select one pod, or a workload tolerates every taint. Fix the PDB or roll with force. EKS said: ${e.errorMessage}`;
      if (e.errorCode === "NodeCreationFailure")
        return `NodeCreationFailure${on}: new nodes did not become Ready with the EKS labels — no capacity in a zone, an EC2 instance limit, user data that breaks bootstrap, or a node condition. EKS said: ${e.errorMessage}`;
      return `${e.errorCode}${on}: ${e.errorMessage}`;
    })
    .join("; ");
}

function failureCode(u: EksUpdate): RollError["code"] {
  if (u.errors.some((e) => e.errorCode === "PodEvictionFailure")) return "PodEvictionFailure";
  if (u.errors.some((e) => e.errorCode === "NodeCreationFailure")) return "NodeCreationFailure";
  return "UpdateFailed";
}

async function inProgress(ctx: RollContext, job: Job): Promise<EksUpdate | undefined> {
  const scope = { name: job.cluster, nodegroupName: job.plan.name };
  for (const id of (await ctx.cloud.eks.listUpdates(scope)).slice(0, 5)) {
    const u = await ctx.cloud.eks.describeUpdate({ ...scope, updateId: id });
    if (u.status === "InProgress") return u;
  }
  return undefined;
}

function sameConfig(
  want: UpdateConfig | undefined,
  have: ManagedGroupInfo["updateConfig"],
): boolean {
  if (!want) return true;
  if (want.maxUnavailablePercentage !== undefined)
    return want.maxUnavailablePercentage === have.maxUnavailablePercentage;
  return (
    (want.maxUnavailable ?? 1) ===
    (have.maxUnavailable ?? (have.maxUnavailablePercentage === undefined ? 1 : undefined))
  );
}

/** Change updateConfig first when the plan says so, and wait until EKS has taken it. */
async function applyConfig(ctx: RollContext, job: Job): Promise<void> {
  const want = job.plan.updateConfig;
  if (!want || sameConfig(want, job.live.updateConfig)) return;
  const cfg = await ctx.cloud.eks.updateNodegroupConfig({
    clusterName: job.cluster,
    nodegroupName: job.plan.name,
    updateConfig: want,
  });
  report(ctx, job.plan.name, { ...cfg, errors: [] }, "ConfigUpdate");
  const done = await waitForUpdate(ctx, job, cfg);
  if (done.status !== "Successful")
    throw new RollError(
      "UpdateFailed",
      `updateConfig change ${done.id} ended ${done.status}: ${describeFailure(done)}`,
    );
}

function startVersionUpdate(ctx: RollContext, job: Job): Promise<EksUpdate> {
  const { target, settings } = job.plan;
  const lt = job.live.launchTemplate;
  return ctx.cloud.eks.updateNodegroupVersion({
    clusterName: job.cluster,
    nodegroupName: job.plan.name,
    force: settings.force,
    ...(target.kubernetesVersion && { version: target.kubernetesVersion }),
    ...(target.releaseVersion && !lt && { releaseVersion: target.releaseVersion }),
    ...(lt &&
      target.launchTemplateVersion !== undefined && {
        launchTemplate: { id: lt.id, version: String(target.launchTemplateVersion) },
      }),
  });
}

/** Watches the Auto Scaling group behind the node group, reporting sizes and terminations. */
class GroupWatch {
  private last: { min: number; max: number; desired: number };
  private readonly gone = new Set<string>();

  constructor(
    private readonly ctx: RollContext,
    private readonly job: Job,
    private readonly asgName: string | undefined,
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
    const oldLeft = [...this.old].filter((id) => present.has(id)).length;
    const oldCordoned = [...this.old].filter(
      (id) => this.job.nodes.byInstance(id)?.spec.unschedulable,
    ).length;
    this.tracker.observe(sizes, oldLeft, oldCordoned);
  };
}

async function follow(ctx: RollContext, job: Job, watch: GroupWatch): Promise<void> {
  let update = await inProgress(ctx, job);
  if (update)
    ctx.emit({
      type: "note",
      message: `${job.plan.name}: following EKS update ${update.id} already in progress`,
    });
  if (!update) await applyConfig(ctx, job);
  if (!update && job.plan.replacements.length > 0) {
    update = await startVersionUpdate(ctx, job);
    report(ctx, job.plan.name, { ...update, errors: [] });
  }
  if (!update) return watch.tracker.finish("success", "nothing to replace");
  const done = await waitForUpdate(ctx, job, update, watch.observe);
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
  watch.tracker.finish("success");
  const ready = [...job.nodes.byName.values()].filter(
    (n) => n.metadata.labels?.[NODEGROUP_LABEL] === job.plan.name && isReady(n),
  ).length;
  ctx.emit({ type: "note", message: `${job.plan.name}: ${ready} Ready nodes after the update` });
}

export async function rollManaged(ctx: RollContext, job: Job): Promise<void> {
  const asgName = await ctx.cloud.eks
    .describeNodegroup(job.cluster, job.plan.name)
    .then((n) => n.resources.autoScalingGroups[0]?.name);
  const old = new Set(job.plan.replacements.map((r) => r.instance));
  const { desired, max } = job.live;
  const tracker = new PhaseTracker(ctx, job.plan.name, { desired, max }, old);
  const watch = new GroupWatch(ctx, job, asgName, old, tracker);
  try {
    await follow(ctx, job, watch);
  } catch (e) {
    tracker.finish(ctx.signal.aborted ? "cancelled" : "failure", (e as Error).message);
    throw e;
  }
}
