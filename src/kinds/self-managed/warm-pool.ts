// A warm pool's out-of-date instances go before the group rolls, as kOps deletes them
// (pkg/instancegroups, rollingUpdateInstanceGroup: "deleting warm pool instance"): waiting in
// the pool they run no pods, need no drain and cost no capacity, and the pool refills from the
// group's launch template as it now is — left alone, a scale-out would bring the old template
// back into service. EC2's TerminateInstances ends them: TerminateInstanceInAutoScalingGroup
// does not take a warm pool's instance (EC2 Auto Scaling API reference). EC2 has no conditional
// terminate: an instance a scale-out takes from the pool between the re-read and the call would
// go while Pending into service, before it runs anything; Auto Scaling then launches another.
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
  // A pool kept Running whose instances registered as nodes (no lifecycle hook keeps the kubelet
  // off) may run pods: not terminated undrained here; said, and left to a later roll.
  const joined = planned.filter((id) => still.has(id) && job.nodes.byInstance(id));
  if (joined.length > 0)
    ctx.emit({
      type: "note",
      group,
      message: `${group}: warm-pool instance${joined.length === 1 ? "" : "s"} ${joined.join(", ")} registered as node${joined.length === 1 ? "" : "s"} while in the pool: not terminated without a drain; keep the pool's kubelets from joining (a lifecycle hook) or replace them by hand`,
    });
  const ids = planned.filter((id) => still.has(id) && !job.nodes.byInstance(id));
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
