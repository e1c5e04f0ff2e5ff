// A managed node group's health gates (roll/gates.ts) while EKS updates it and after: EKS runs
// the update and no API stops it midway (the EKS API has no call to cancel a node group
// update: https://docs.aws.amazon.com/eks/latest/APIReference/API_Operations.html), so a gate
// that stops the roll ends this run's part — no group after it starts — and says the update
// goes on by itself. Its replacements are the instances of its Auto Scaling group launched
// since the roll began.
import type { RollContext, RollError } from "../../roll/context.js";
import { GateWatch, stopOnGate, watchFor, type GateStop } from "../../roll/gates.js";
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
 * The gates' stop, as the group's error (roll/gates.ts stopOnGate), saying what EKS's update does
 * — which no call stops; what goes on the run's last words say once (engine/in-flight.ts).
 */
export function managedHalt(
  ctx: RollContext,
  job: GroupJob<ManagedGroupInfo>,
  stop: GateStop,
  when: "before" | "during" | "after",
): Promise<RollError> {
  const group = job.plan.name;
  const where = {
    before: `nothing was started on ${group}`,
    during: `EKS's update cannot be stopped midway; no group after ${group} is started`,
    after: `EKS's update of ${group} is done; no group after it is started`,
  }[when];
  const after = `${where[0]!.toUpperCase()}${where.slice(1)}.`;
  const at = { cluster: job.cluster, group, settings: job.plan.settings.gates, stop };
  return stopOnGate(ctx, at, { wave: [], where, after });
}

/** The gates watched for the bake after EKS's update: a halt ends it early, and is said after. */
export async function managedBake(
  ctx: RollContext,
  job: GroupJob<ManagedGroupInfo>,
  gates: GateWatch,
): Promise<void> {
  const halting = { ...ctx, signal: AbortSignal.any([ctx.signal, gates.halted]) };
  await watchFor(halting, gates, job.plan.name, job.plan.settings.gates.bakeMs, "bake").catch(
    (e: unknown) => {
      if (ctx.signal.aborted || !gates.halted.aborted) throw e;
    },
  );
}
