// Rolling an EKS managed node group by delegation (reference 000): set updateConfig when it
// differs, start UpdateNodegroupVersion (force from the policy or the dispatch), then follow the
// update — DescribeUpdate, the Auto Scaling group's sizes and the nodes — so that each of EKS's
// four phases is reported as it happens. An update already in progress (a run that died) is
// followed rather than started again.
import type { ManagedGroupInfo } from "../plan/index.js";
import { isReady, type EksUpdate, type UpdateConfig } from "../ports/index.js";
import { RollError, type RollContext } from "./context.js";
import { PHASES, type Phase } from "./events.js";
import type { GroupJob } from "./self-managed.js";

const POLL_MS = 15_000;
const NODEGROUP_LABEL = "eks.amazonaws.com/nodegroup";

export interface ManagedTarget {
  version?: string;
  releaseVersion?: string;
  launchTemplateVersion?: number;
  updateConfig?: UpdateConfig;
}

async function waitForUpdate(
  ctx: RollContext,
  job: GroupJob,
  cluster: string,
  update: EksUpdate,
  onPoll?: (u: EksUpdate) => Promise<void>,
): Promise<EksUpdate> {
  let last = update.status;
  let current = update;
  while (current.status === "InProgress") {
    await ctx.clock.sleep(POLL_MS, ctx.signal);
    current = await ctx.cloud.eks.describeUpdate({
      name: cluster,
      nodegroupName: job.plan.name,
      updateId: update.id,
    });
    if (current.status !== last) {
      last = current.status;
      ctx.emit({
        type: "eks.update",
        group: job.plan.name,
        updateId: current.id,
        updateType: String(current.type),
        status: current.status,
        errors: explain(current),
      });
    }
    await onPoll?.(current);
  }
  return current;
}

function explain(u: EksUpdate): { code: string; message: string; resources: string[] }[] {
  return u.errors.map((e) => ({
    code: e.errorCode,
    message: e.errorMessage,
    resources: e.resourceIds,
  }));
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

async function inProgress(
  ctx: RollContext,
  cluster: string,
  nodegroup: string,
): Promise<EksUpdate | undefined> {
  for (const id of (
    await ctx.cloud.eks.listUpdates({ name: cluster, nodegroupName: nodegroup })
  ).slice(0, 5)) {
    const u = await ctx.cloud.eks.describeUpdate({
      name: cluster,
      nodegroupName: nodegroup,
      updateId: id,
    });
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

/** Which phase EKS is in, from what can be seen of the group. */
class PhaseTracker {
  current: Phase = "setup";
  constructor(
    private readonly ctx: RollContext,
    private readonly group: string,
    private readonly original: { desired: number; max: number },
    private readonly old: Set<string>,
  ) {
    ctx.emit({ type: "phase.start", group, phase: "setup" });
  }

  moveTo(next: Phase, message?: string): void {
    while (PHASES.indexOf(this.current) < PHASES.indexOf(next)) {
      this.ctx.emit({
        type: "phase.end",
        group: this.group,
        phase: this.current,
        result: "success",
        ...(message && { message }),
      });
      this.current = PHASES[PHASES.indexOf(this.current) + 1] as Phase;
      this.ctx.emit({ type: "phase.start", group: this.group, phase: this.current });
    }
  }

  observe(sizes: { desired: number; max: number }, oldLeft: number, oldCordoned: number): void {
    if (sizes.desired > this.original.desired || sizes.max > this.original.max)
      this.moveTo("scale-up");
    if (oldCordoned > 0 || oldLeft < this.old.size) this.moveTo("upgrade");
    if (oldLeft === 0 && this.old.size > 0) this.moveTo("scale-down");
  }

  finish(result: "success" | "failure" | "cancelled", message?: string): void {
    if (result === "success") this.moveTo("scale-down");
    this.ctx.emit({
      type: "phase.end",
      group: this.group,
      phase: this.current,
      result,
      ...(message && { message }),
    });
    for (const p of PHASES.slice(PHASES.indexOf(this.current) + 1)) {
      this.ctx.emit({ type: "phase.start", group: this.group, phase: p });
      this.ctx.emit({ type: "phase.end", group: this.group, phase: p, result: "skipped" });
    }
  }
}

export async function rollManaged(
  ctx: RollContext,
  job: GroupJob,
  live: ManagedGroupInfo,
  cluster: string,
  target: ManagedTarget,
): Promise<void> {
  const group = job.plan.name;
  const asgName = await ctx.cloud.eks
    .describeNodegroup(cluster, group)
    .then((n) => n.resources.autoScalingGroups[0]?.name);
  const old = new Set(job.plan.replacements.map((r) => r.instance));
  const tracker = new PhaseTracker(ctx, group, { desired: live.desired, max: live.max }, old);
  let lastSizes = { min: live.min, max: live.max, desired: live.desired };
  const gone = new Set<string>();
  const observe = async () => {
    if (!asgName) return;
    const [asg] = await ctx.cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: [asgName],
    });
    if (!asg) return;
    const sizes = { min: asg.MinSize, max: asg.MaxSize, desired: asg.DesiredCapacity };
    if (
      sizes.desired !== lastSizes.desired ||
      sizes.max !== lastSizes.max ||
      sizes.min !== lastSizes.min
    ) {
      ctx.emit({ type: "asg.resize", group, from: lastSizes, to: sizes });
      lastSizes = sizes;
    }
    const present = new Set(asg.Instances.map((i) => i.InstanceId));
    // EKS terminates the old instances itself; report each as it goes so progress counts it.
    for (const id of old) {
      if (present.has(id) || gone.has(id)) continue;
      gone.add(id);
      ctx.emit({ type: "instance.terminate", group, instance: id, decrement: true });
    }
    const oldLeft = [...old].filter((id) => present.has(id)).length;
    const oldCordoned = [...old].filter(
      (id) => job.nodes.byInstance(id)?.spec.unschedulable,
    ).length;
    tracker.observe(sizes, oldLeft, oldCordoned);
  };
  try {
    let update = await inProgress(ctx, cluster, group);
    if (update)
      ctx.emit({
        type: "note",
        message: `${group}: following EKS update ${update.id} already in progress`,
      });
    if (!update && !sameConfig(target.updateConfig, live.updateConfig) && target.updateConfig) {
      const cfg = await ctx.cloud.eks.updateNodegroupConfig({
        clusterName: cluster,
        nodegroupName: group,
        updateConfig: target.updateConfig,
      });
      ctx.emit({
        type: "eks.update",
        group,
        updateId: cfg.id,
        updateType: "ConfigUpdate",
        status: cfg.status,
        errors: [],
      });
      const done = await waitForUpdate(ctx, job, cluster, cfg);
      if (done.status !== "Successful")
        throw new RollError(
          "UpdateFailed",
          `updateConfig change ${done.id} ended ${done.status}: ${describeFailure(done)}`,
        );
    }
    if (!update && job.plan.replacements.length > 0) {
      update = await ctx.cloud.eks.updateNodegroupVersion({
        clusterName: cluster,
        nodegroupName: group,
        force: job.settings.force,
        ...(target.version && { version: target.version }),
        ...(target.releaseVersion &&
          !live.launchTemplate && { releaseVersion: target.releaseVersion }),
        ...(live.launchTemplate &&
          target.launchTemplateVersion !== undefined && {
            launchTemplate: {
              id: live.launchTemplate.id,
              version: String(target.launchTemplateVersion),
            },
          }),
      });
      ctx.emit({
        type: "eks.update",
        group,
        updateId: update.id,
        updateType: String(update.type),
        status: update.status,
        errors: [],
      });
    }
    if (!update) {
      tracker.finish("success", "nothing to replace");
      return;
    }
    const done = await waitForUpdate(ctx, job, cluster, update, observe);
    await observe();
    if (done.status !== "Successful")
      throw new RollError(
        done.errors.some((e) => e.errorCode === "PodEvictionFailure")
          ? "PodEvictionFailure"
          : done.errors.some((e) => e.errorCode === "NodeCreationFailure")
            ? "NodeCreationFailure"
            : "UpdateFailed",
        `EKS update ${done.id} of ${group} ended ${done.status}: ${describeFailure(done)}`,
      );
    tracker.finish("success");
    const ready = [...job.nodes.byName.values()].filter(
      (n) => n.metadata.labels?.[NODEGROUP_LABEL] === group && isReady(n),
    ).length;
    ctx.emit({ type: "note", message: `${group}: ${ready} Ready nodes after the update` });
  } catch (e) {
    tracker.finish(ctx.signal.aborted ? "cancelled" : "failure", (e as Error).message);
    throw e;
  }
}
