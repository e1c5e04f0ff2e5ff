// EKS updates of a managed node group as the engine sees them: reported as events, followed
// until they end, explained when they fail, and found again when an earlier run started one.
// The API promises no order for ListUpdates (EKS API reference), so an update in progress is
// found from the node group's status (UPDATING) and every page of update ids, each described
// for its status and createdAt — never by trusting the first ids listed.
import {
  CONCURRENCY,
  mapLimit,
  type ManagedGroupInfo,
  type Target,
  type UpdateInProgress,
} from "../../plan/index.js";
import { AwsApiError, type Eks, type EksUpdate, type Nodegroup } from "../../ports/index.js";
import { RollError, Stopped, type RollContext } from "../../roll/context.js";
import { PENDING, type InFlight } from "../../roll/in-flight.js";
import type { GroupJob, InFlightWork } from "../kind.js";

const POLL_MS = 15_000;

type Job = GroupJob<ManagedGroupInfo>;

export function report(ctx: RollContext, group: string, u: EksUpdate, type = String(u.type)): void {
  ctx.emit({
    type: "eks.update",
    group,
    updateId: u.id,
    updateType: type,
    status: u.status,
    errors: u.errors.map((e) => ({
      code: e.errorCode,
      message: e.errorMessage,
      resources: e.resourceIds,
    })),
  });
}

/** Follow an update until it ends, reporting each change of status. */
export async function waitForUpdate(
  ctx: RollContext,
  job: Job,
  update: EksUpdate,
  onPoll?: (u: EksUpdate) => Promise<void>,
  /** Report its changes of status as the roll's own (eks.update events). */
  reported = true,
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
      if (reported) report(ctx, job.plan.name, current);
    }
    await onPoll?.(current);
  }
  return current;
}

export function describeFailure(u: EksUpdate): string {
  return u.errors
    .map((e) => {
      const on = e.resourceIds.length ? ` (${e.resourceIds.slice(0, 10).join(", ")})` : "";
      if (e.errorCode === "PodEvictionFailure")
        return `PodEvictionFailure${on}: EKS could not evict pods within 15 minutes — a PodDisruptionBudget allows no disruption, several select one pod, or a workload tolerates every taint. Fix the PDB or set deleteAfterDrainTimeout (EKS's force). EKS said: ${e.errorMessage}`;
      if (e.errorCode === "NodeCreationFailure")
        return `NodeCreationFailure${on}: new nodes did not become Ready with the EKS labels — no capacity in a zone, an EC2 instance limit, user data that breaks bootstrap, or a node condition. EKS said: ${e.errorMessage}`;
      return `${e.errorCode}${on}: ${e.errorMessage}`;
    })
    .join("; ");
}

export function failureCode(u: EksUpdate): RollError["code"] {
  if (u.errors.some((e) => e.errorCode === "PodEvictionFailure")) return "PodEvictionFailure";
  if (u.errors.some((e) => e.errorCode === "NodeCreationFailure")) return "NodeCreationFailure";
  return "UpdateFailed";
}

/**
 * The update in progress on an UPDATING node group: every update id is described and the newest
 * in progress (by createdAt) is the one.
 */
export async function updateInProgress(
  eks: Eks,
  cluster: string,
  nodegroup: string,
): Promise<EksUpdate | undefined> {
  const scope = { name: cluster, nodegroupName: nodegroup };
  const ids = await eks.listUpdates(scope);
  const updates = await mapLimit(ids, CONCURRENCY, (id) =>
    eks.describeUpdate({ ...scope, updateId: id }),
  );
  return updates
    .filter((u) => u.status === "InProgress")
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
}

/** The update in progress on the node group, if any: only an UPDATING node group has one. */
export async function inProgress(
  ctx: RollContext,
  job: Job,
  seen?: (ng: Nodegroup) => void,
): Promise<EksUpdate | undefined> {
  const ng = await ctx.cloud.eks.describeNodegroup(job.cluster, job.plan.name);
  seen?.(ng);
  if (ng.status !== "UPDATING") return undefined;
  return updateInProgress(ctx.cloud.eks, job.cluster, job.plan.name);
}

/** What an update is, for the plan: its id, type, start and a version update's target. */
export function updateInfo(u: EksUpdate): UpdateInProgress {
  const param = (type: string) => u.params.find((p) => p.type === type)?.value;
  const lt = param("LaunchTemplateVersion");
  const version = param("Version");
  const release = param("ReleaseVersion");
  return {
    id: u.id,
    type: String(u.type),
    createdAt: u.createdAt,
    to: {
      ...(version && { kubernetesVersion: version }),
      ...(release && { releaseVersion: release }),
      ...(lt !== undefined && Number.isFinite(Number(lt)) && { launchTemplateVersion: Number(lt) }),
    },
  };
}

/**
 * Whether a version update takes the node group where the plan does: everything the plan's
 * target names, the update names alike. One that leaves any of it unsaid is not taken for the
 * plan's (it is waited for instead of followed, and the group read back after).
 */
export function takesToTarget(u: UpdateInProgress, target: Target): boolean {
  if (u.type !== "VersionUpdate") return false;
  const named = [target.kubernetesVersion, target.releaseVersion, target.launchTemplateVersion];
  if (named.every((x) => x === undefined)) return false;
  return (
    (target.kubernetesVersion === undefined ||
      u.to.kubernetesVersion === target.kubernetesVersion) &&
    (target.releaseVersion === undefined || u.to.releaseVersion === target.releaseVersion) &&
    (target.launchTemplateVersion === undefined ||
      u.to.launchTemplateVersion === target.launchTemplateVersion)
  );
}

/** What an update takes the node group to, in words. */
export function describeTarget(to: UpdateInProgress["to"]): string {
  const parts = [
    ...(to.kubernetesVersion ? [`Kubernetes ${to.kubernetesVersion}`] : []),
    ...(to.releaseVersion ? [`release ${to.releaseVersion}`] : []),
    ...(to.launchTemplateVersion !== undefined
      ? [`launch template version ${to.launchTemplateVersion}`]
      : []),
  ];
  return parts.join(", ") || "a target it does not name";
}

/** An update that must end well before the roll goes on (an updateConfig change). */
export async function awaitSuccess(ctx: RollContext, job: Job, u: EksUpdate): Promise<void> {
  const done = await waitForUpdate(ctx, job, u);
  if (done.status !== "Successful")
    throw new RollError(
      "UpdateFailed",
      `EKS update ${done.id} (${String(done.type)}) of ${job.plan.name} ended ${done.status}: ${describeFailure(done)}`,
    );
}

/**
 * An EKS update a run started goes on when the run stops (EKS has no "cancel" for a node group
 * update): the next run waits for it before rolling anything else, and the stopped run says how
 * to follow it.
 */
export const managedInFlight: InFlightWork = {
  async awaitEnd(ctx, cluster, work: InFlight, stopReason) {
    const known = work.id === PENDING ? await this.resolve(ctx.cloud, cluster, work) : work;
    if (!known) return;
    for (;;) {
      const u = await ctx.cloud.eks
        .describeUpdate({ name: cluster, nodegroupName: known.group, updateId: known.id })
        .catch(gone);
      if (!u || u.status !== "InProgress") return;
      const stop = stopReason();
      if (stop)
        throw new Stopped(
          stop,
          `while waiting for EKS update ${known.id} of ${known.group}; nothing was started`,
        );
      await ctx.clock.sleep(POLL_MS, ctx.signal);
    }
  },
  describe: (cluster, work) =>
    work.id === PENDING
      ? `an EKS update of ${work.group} this run asked for may go on (its answer never came): see \`aws eks list-updates --name ${cluster.name} --nodegroup-name ${work.group} --region ${cluster.region}\`; the next run waits for it before rolling anything else`
      : `EKS update ${work.id} of ${work.group} goes on: EKS does not stop it when noderoll stops. Follow it with \`aws eks describe-update --name ${cluster.name} --nodegroup-name ${work.group} --update-id ${work.id} --region ${cluster.region}\`; the next run waits for it before rolling anything else`,
  /** An update asked for and not answered: the one in progress on its group now, if any. */
  async resolve(cloud, cluster, work) {
    if (work.id !== PENDING) return work;
    const ng = await cloud.eks.describeNodegroup(cluster, work.group).catch(gone);
    if (ng?.status !== "UPDATING") return undefined;
    const u = await updateInProgress(cloud.eks, cluster, work.group);
    return u && { ...work, id: u.id };
  },
  ongoing: (live) =>
    "update" in live && live.update
      ? { kind: "managed", group: live.name, id: live.update.id }
      : undefined,
};

/** A node group or update that is gone: nothing goes on there. */
function gone(e: unknown): undefined {
  if (e instanceof AwsApiError && e.code === "ResourceNotFoundException") return undefined;
  throw e;
}
