// noderoll's surge mark on an instance itself: an EC2 tag named as the node label
// (DETACHED_LABEL), set before the instance is detached, so that a later run finds a detached
// instance even when its node object is gone (kinds/self-managed/observe.ts), and taken off a
// member the mark stayed on when a run died before detaching it.
import { DETACHED_LABEL, type Replacement } from "../../plan/index.js";
import { isDenied } from "../../ports/index.js";
import type { RollContext } from "../../roll/context.js";
import type { Job } from "./job.js";

/**
 * Without ec2:CreateTags or ec2:DeleteTags (a policy granted before the tag existed) the roll
 * goes on with the node's label alone, and says once what that costs.
 */
function denied(ctx: RollContext, job: Job, e: unknown): void {
  if (!isDenied(e)) throw e;
  if (job.roll.untagged) return;
  job.roll.untagged = true;
  ctx.emit({
    type: "note",
    group: job.plan.name,
    message: `${job.plan.name}: could not tag instances detached for surge (${e.code}: grant ec2:CreateTags and ec2:DeleteTags, see the IAM policies in noderoll's docs/action.md); marked by their nodes' label only, a detached instance whose node object is deleted first will not be found again`,
  });
}

/** The surge mark on the instance itself (an EC2 tag), before it is detached. */
export async function tagForSurge(ctx: RollContext, job: Job, instance: string): Promise<void> {
  if (job.roll.untagged) return;
  const tag = { Key: DETACHED_LABEL, Value: job.plan.name };
  await ctx.cloud.ec2.createTags({ Resources: [instance], Tags: [tag] }).catch((e: unknown) => {
    denied(ctx, job, e);
  });
}

/** Members that carry our surge tag but are not replaced now (a run died before detaching
 * them) lose it, so that detaching one by hand later does not make it ours. */
export async function untagStale(ctx: RollContext, job: Job, todo: Replacement[]): Promise<void> {
  const replaced = new Set(todo.map((r) => r.instance));
  const stale = job.live.instances.filter((i) => i.markedForSurge && !replaced.has(i.id));
  if (stale.length > 0)
    await untag(
      ctx,
      job,
      stale.map((i) => i.id),
    );
}

/** The surge tag off an instance whose detach was refused: it stays a member, not ours. */
export async function untagSurge(ctx: RollContext, job: Job, instance: string): Promise<void> {
  if (!job.roll.untagged) await untag(ctx, job, [instance]);
}

async function untag(ctx: RollContext, job: Job, ids: string[]): Promise<void> {
  await ctx.cloud.ec2
    .deleteTags({ Resources: ids, Tags: [{ Key: DETACHED_LABEL }] })
    .catch((e: unknown) => {
      denied(ctx, job, e);
    });
}
