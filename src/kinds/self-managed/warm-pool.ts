// A warm pool's out-of-date instances go before the group rolls, as kOps deletes them
// (pkg/instancegroups, rollingUpdateInstanceGroup: "deleting warm pool instance"): stopped and
// running no pods, they need no drain and cost no capacity, and the pool refills from the
// group's launch template as it now is — left alone, a scale-out would bring the old template
// back into service. EC2's TerminateInstances ends them: TerminateInstanceInAutoScalingGroup
// does not take a warm pool's instance (EC2 Auto Scaling API reference).
import type { RollContext } from "../../roll/context.js";
import type { Job } from "./job.js";

/** Whether a listed instance is still waiting in the pool (not gone into service, not going). */
const waiting = (state: string) => state.startsWith("Warmed:") && !/Terminat/.test(state);

export async function refreshWarmPool(ctx: RollContext, job: Job): Promise<void> {
  const planned = job.plan.warmPool?.replace ?? [];
  // drainAndTerminate false terminates nothing, the pool's instances neither.
  if (planned.length === 0 || !job.plan.settings.drainAndTerminate) return;
  const group = job.plan.name;
  // Proven before the write: each still in this group's warm pool. One that entered service
  // since is a member now, and the plan of the next run replaces it like any other.
  const listed = await ctx.cloud.autoScaling.describeWarmPool({ AutoScalingGroupName: group });
  const still = new Set(listed.filter((i) => waiting(i.LifecycleState)).map((i) => i.InstanceId));
  const ids = planned.filter((id) => still.has(id));
  if (ids.length === 0) return;
  await ctx.cloud.ec2.terminateInstances({ InstanceIds: ids });
  for (const instance of ids)
    ctx.emit({ type: "instance.terminate", group, instance, decrement: false, warmPool: true });
  ctx.emit({
    type: "note",
    group,
    message: `${group}: ${ids.length} warm-pool instance${ids.length === 1 ? "" : "s"} from an older launch template terminated; the pool refills from the group's template`,
  });
}
