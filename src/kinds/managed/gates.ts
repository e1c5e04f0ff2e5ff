// A managed node group's health gates (roll/gates.ts) while EKS updates it and after: EKS runs
// the update and no API stops it midway (the EKS API has no call to cancel a node group
// update: https://docs.aws.amazon.com/eks/latest/APIReference/API_Operations.html), so a gate
// that stops the roll ends this run's part — no group after it starts — and says the update
// goes on by itself. Its replacements are the instances of its Auto Scaling group launched
// since the roll began.
import type { EksUpdate } from "../../ports/index.js";
import type { RollContext } from "../../roll/context.js";
import { GateFailed, gateFailure, GateWatch, type GateStop } from "../../roll/gates.js";
import type { GroupJob } from "../kind.js";
import type { ManagedGroupInfo } from "../../plan/index.js";

export function managedGates(
  ctx: RollContext,
  job: GroupJob<ManagedGroupInfo>,
  asgName: string | undefined,
): GateWatch {
  const before = new Set(job.live.instances.map((i) => i.id));
  const gates = new GateWatch(ctx, {
    group: job.plan.name,
    settings: job.plan.settings.gates,
    replacements: async () => {
      if (!asgName) return [];
      const [asg] = await ctx.cloud.autoScaling.describeAutoScalingGroups({
        AutoScalingGroupNames: [asgName],
      });
      return (asg?.Instances ?? [])
        .filter((i) => !before.has(i.InstanceId) && !i.LifecycleState.startsWith("Terminat"))
        .map((i) => ({ instance: i.InstanceId, node: job.nodes.byInstance(i.InstanceId) }));
    },
  });
  gates.start();
  return gates;
}

/**
 * The gates' stop, as the group's error. What goes on after it — EKS's update, which no call stops
 * — the run's last words say (engine/in-flight.ts stillGoing), once.
 */
export function managedHalt(group: string, stop: GateStop, update?: EksUpdate): GateFailed {
  const e = gateFailure(group, stop, []);
  const still = update
    ? ` EKS's update cannot be stopped midway; no group after ${group} is started.`
    : ` No group after ${group} is started.`;
  return new GateFailed(
    group,
    e.gate,
    `${e.message.replace(/\. The roll halted:.*$/, "")}.${still}`,
  );
}
