// EKS updates of a managed node group as the engine sees them: reported as events, followed
// until they end, explained when they fail, and found again when an earlier run started one.
// The API promises no order for ListUpdates (EKS API reference), so an update in progress is
// found from the node group's status (UPDATING) and every page of update ids, each described
// for its status and createdAt — never by trusting the first ids listed.
import { CONCURRENCY, mapLimit, type ManagedGroupInfo } from "../../plan/index.js";
import type { EksUpdate, Nodegroup } from "../../ports/index.js";
import { RollError, type RollContext } from "../../roll/context.js";
import type { GroupJob } from "../kind.js";

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

export function describeFailure(u: EksUpdate): string {
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

export function failureCode(u: EksUpdate): RollError["code"] {
  if (u.errors.some((e) => e.errorCode === "PodEvictionFailure")) return "PodEvictionFailure";
  if (u.errors.some((e) => e.errorCode === "NodeCreationFailure")) return "NodeCreationFailure";
  return "UpdateFailed";
}

/**
 * The update in progress on the node group, if any: only an UPDATING node group has one; then
 * every update id is described and the newest in progress (by createdAt) is the one.
 */
export async function inProgress(
  ctx: RollContext,
  job: Job,
  seen?: (ng: Nodegroup) => void,
): Promise<EksUpdate | undefined> {
  const ng = await ctx.cloud.eks.describeNodegroup(job.cluster, job.plan.name);
  seen?.(ng);
  if (ng.status !== "UPDATING") return undefined;
  const scope = { name: job.cluster, nodegroupName: job.plan.name };
  const ids = await ctx.cloud.eks.listUpdates(scope);
  const updates = await mapLimit(ids, CONCURRENCY, (id) =>
    ctx.cloud.eks.describeUpdate({ ...scope, updateId: id }),
  );
  return updates
    .filter((u) => u.status === "InProgress")
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
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
