// Instances that leave the group by someone else's hand while it rolls: a scale-in — a person
// lowering desired capacity, the cluster autoscaler terminating a node with a decrement — or a
// detach. Other actors win (docs/design.md): such an instance is not the roll's to drain,
// detach or terminate any more, and its going is not an error. The roll notes who took it,
// leaves the capacity budget to the group's new desired capacity (capacity.ts reads it), and
// takes its marks off a node that lives on outside the group.
import { DETACHED_LABEL, type Replacement } from "../../plan/index.js";
import { AwsApiError } from "../../ports/index.js";
import type { RollContext } from "../../roll/context.js";
import { clearMarks } from "../../roll/marks.js";
import { groupWritten, type Left } from "./capacity.js";
import type { Job } from "./job.js";

const RUNS: ReadonlySet<string> = new Set(["pending", "running", "stopping", "stopped"]);

/** Whether the roll found the instance gone: the upgrade does not come back to it. */
export const hasLeft = (job: Job, instance: string): boolean => job.roll.left.has(instance);

/** Whether the instance still runs, by EC2 (not found: terminated long ago). */
async function stillRuns(ctx: RollContext, instance: string): Promise<boolean> {
  try {
    const [i] = await ctx.cloud.ec2.describeInstances({ InstanceIds: [instance] });
    return i !== undefined && RUNS.has(i.State.Name);
  } catch (e) {
    if (e instanceof AwsApiError && e.code === "InvalidInstanceID.NotFound") return false;
    throw e;
  }
}

/**
 * `r`'s instance has left the group (`left`, capacity.ts) by someone else's hand, found
 * `when` the roll came to it. Detached and running on, it is someone else's: noderoll's marks
 * come off its node (uncordoned, if the roll had cordoned it) and its surge tag off the
 * instance. Terminating, its node goes with it. The group is read afresh: the note says the
 * desired capacity that the person or the autoscaler set, and the roll goes on from it.
 */
export async function leftByOthers(
  ctx: RollContext,
  job: Job,
  r: Replacement,
  left: Left,
  when: string,
): Promise<void> {
  job.roll.left.add(r.instance);
  const detached =
    left === "detaching" || (left === "absent" && (await stillRuns(ctx, r.instance)));
  if (detached) {
    if (r.node) await clearMarks(ctx, r.node, true);
    await ctx.cloud.ec2
      .deleteTags({ Resources: [r.instance], Tags: [{ Key: DETACHED_LABEL }] })
      .catch(() => undefined);
  }
  groupWritten(job);
  const [asg] = await ctx.cloud.autoScaling.describeAutoScalingGroups({
    AutoScalingGroupNames: [job.plan.name],
  });
  ctx.emit({
    type: "note",
    group: job.plan.name,
    message: `${job.plan.name}: ${r.instance}${r.node ? ` (${r.node})` : ""} left the group ${when}, by someone else's hand — ${
      detached
        ? "detached and running on: no longer the group's, its node unmarked"
        : `a scale-in (the group's desired capacity is ${asg?.DesiredCapacity ?? "unknown"} now)`
    }; not the roll's to replace any more`,
  });
}
