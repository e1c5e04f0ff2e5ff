// A managed node group's health gates (roll/gates.ts) while EKS updates it and after: EKS runs
// the update and no API stops it midway (the EKS API has no call to cancel a node group
// update: https://docs.aws.amazon.com/eks/latest/APIReference/API_Operations.html), so a gate
// that stops the roll ends this run's part — no group after it starts — and says the update
// goes on by itself. Its replacements are the instances of its Auto Scaling group launched
// since the roll began.
import type { RollContext, RollError } from "../../roll/context.js";
import { GateFailed, gateFailure, GateWatch, pauseFor, type GateStop } from "../../roll/gates.js";
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
 * The gates' stop, as the group's error: an inconclusive gate the policy pauses on pauses the run
 * (as `noderoll pause`); else GateFailed. What goes on after it — EKS's update, which no call
 * stops — the run's last words say (engine/in-flight.ts stillGoing), once.
 */
export async function managedHalt(
  ctx: RollContext,
  job: GroupJob<ManagedGroupInfo>,
  stop: GateStop,
  when: "before" | "during" | "after",
): Promise<RollError> {
  const group = job.plan.name;
  const r = stop.reading;
  const after = {
    before: `nothing was started on ${group}`,
    during: `EKS's update cannot be stopped midway; no group after ${group} is started`,
    after: `EKS's update of ${group} is done; no group after it is started`,
  }[when];
  if (stop.verdict === "inconclusive" && job.plan.settings.gates.onInconclusive === "pause") {
    const why = `gate ${r.gate} was inconclusive — ${r.value}${r.detail ? `: ${r.detail}` : ""}`;
    return pauseFor(ctx, job.cluster, group, why, after);
  }
  const e = gateFailure(group, stop, []);
  return new GateFailed(
    group,
    e.gate,
    stop.verdict,
    `${e.message.replace(/\. The roll halted:.*$/, "")}. ${after[0]!.toUpperCase()}${after.slice(1)}.`,
  );
}
