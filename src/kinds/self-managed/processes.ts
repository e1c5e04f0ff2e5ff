// AZRebalance, held while noderoll rolls a self-managed group. Detaching an instance or
// terminating one can leave the group's zones uneven, and a launch that fails in one zone goes
// to another; AZRebalance then evens them out by launching in the short zone and terminating
// in the long one — an instance it picks, not drained (the EC2 Auto Scaling user guide,
// "Suspend and resume Amazon EC2 Auto Scaling processes", its "Considerations", and "Rebalancing
// activities"). So the roll suspends it for its duration, as eks-rolling-update does ("Suspends
// AWS Autoscaling actions while update is in progress", its README), and resumes it after.
// kOps' rolling update (pkg/instancegroups) does not; like it, a roll without the permission
// goes on without the suspension, and says so.
//
// Only a process the group runs is suspended: one already suspended is someone else's setting and
// stays as it is. What noderoll suspended is marked on the group itself, a tag written before
// the suspension and removed after the resumption, so that a run killed in between leaves the
// mark, and a later run — whether or not the group has anything left to replace — resumes what
// the mark names (kinds/self-managed/observe.ts reads it into `suspendedByNoderoll`).
import type { SelfManagedGroupInfo } from "../../plan/index.js";
import { isDenied, type AutoScalingGroup } from "../../ports/index.js";
import type { RollContext } from "../../roll/context.js";

/** The mark: the processes noderoll suspended on the group, comma-separated. */
export const SUSPENDED_TAG = "noderoll.io/suspended-processes";
/** What a roll holds. */
export const HELD = ["AZRebalance"];

/** The processes the mark on `asg` names, when it has one. */
export function markedSuspended(asg: AutoScalingGroup): string[] | undefined {
  const value = asg.Tags.find((t) => t.Key === SUSPENDED_TAG)?.Value;
  if (value === undefined) return undefined;
  return value.split(",").filter((p) => p.length > 0);
}

const tag = (group: string) =>
  ({ Key: SUSPENDED_TAG, ResourceId: group, ResourceType: "auto-scaling-group" }) as const;

function note(ctx: RollContext, group: string, message: string): void {
  ctx.emit({ type: "note", group, message: `${group}: ${message}` });
}

/**
 * Before the roll changes the group: suspend what it holds that the group runs, the mark first.
 * Returns the processes the mark names once done (ours to resume), none when denied.
 */
export async function holdProcesses(
  ctx: RollContext,
  live: SelfManagedGroupInfo,
): Promise<string[]> {
  const group = live.name;
  const suspended = new Set(live.suspended?.processes.map((p) => p.name));
  const ours = live.suspendedByNoderoll ?? [];
  const more = HELD.filter((p) => !suspended.has(p));
  if (more.length === 0) return ours.filter((p) => suspended.has(p));
  const marked = [...new Set([...ours, ...more])];
  try {
    await ctx.cloud.autoScaling.createOrUpdateTags({
      Tags: [{ ...tag(group), Value: marked.join(","), PropagateAtLaunch: false }],
    });
    await ctx.cloud.autoScaling.suspendProcesses({
      AutoScalingGroupName: group,
      ScalingProcesses: more,
    });
  } catch (e) {
    if (!isDenied(e)) throw e;
    // Unmarked, a suspension could outlive the roll: no mark, no suspension.
    await ctx.cloud.autoScaling.deleteTags({ Tags: [tag(group)] }).catch(() => undefined);
    note(
      ctx,
      group,
      `${more.join(", ")} not suspended (${e.code}: grant autoscaling:SuspendProcesses, ResumeProcesses, CreateOrUpdateTags and DeleteTags, see the IAM policies in noderoll's docs/action.md); the roll goes on as kOps' does, and Auto Scaling may terminate an instance to even out zones meanwhile`,
    );
    return ours.filter((p) => suspended.has(p));
  }
  note(
    ctx,
    group,
    `${more.join(", ")} suspended while the group rolls, so that Auto Scaling terminates nothing to even out zones (tagged ${SUSPENDED_TAG} until resumed)`,
  );
  return marked;
}

/**
 * Resume what noderoll suspended on the group (`processes`, as its mark names them), then remove
 * the mark. Denied or failing, the mark stays for the next run, and the log says what to run.
 */
export async function restoreProcesses(
  ctx: RollContext,
  group: string,
  processes: string[],
): Promise<void> {
  if (processes.length === 0) return;
  const names = processes.join(", ");
  const why = (e: unknown) => (isDenied(e) ? e.code : (e as Error).message);
  try {
    await ctx.cloud.autoScaling.resumeProcesses({
      AutoScalingGroupName: group,
      ScalingProcesses: processes,
    });
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    const by = `aws autoscaling resume-processes --auto-scaling-group-name ${group} --scaling-processes ${processes.join(" ")}`;
    note(
      ctx,
      group,
      `could not resume ${names}, suspended for the roll (${why(e)}); the next run tries again, or: ${by}, and remove the tag ${SUSPENDED_TAG}`,
    );
    return;
  }
  try {
    await ctx.cloud.autoScaling.deleteTags({ Tags: [tag(group)] });
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    note(
      ctx,
      group,
      `${names} resumed, but its mark stays (${why(e)}): the next run resumes it again; remove the tag ${SUSPENDED_TAG} to stop it`,
    );
    return;
  }
  note(
    ctx,
    group,
    `${processes.join(", ")} resumed, as the group had ${processes.length === 1 ? "it" : "them"} before the roll`,
  );
}
