// Auto Scaling writes whose answer may be lost. When no answer comes, whether the change was
// made is unknown, and these writes are not safe to repeat blindly (an instance detached or
// terminating is no longer the group's to detach or terminate: the repeat fails). So the group
// is read again: if the change shows, it was made; if not, it is made again.
import { ATTEMPTS, isLostAnswer, type AsgInstance } from "../../ports/index.js";
import type { RollContext } from "../../roll/context.js";

/** As many tries as resilient.ts gives any call that got no answer. */
const TRIES = ATTEMPTS.network;

/** The instance as the group sees it now, or undefined once it is no longer the group's. */
async function member(
  ctx: RollContext,
  group: string,
  instanceId: string,
): Promise<AsgInstance | undefined> {
  const [asg] = await ctx.cloud.autoScaling.describeAutoScalingGroups({
    AutoScalingGroupNames: [group],
  });
  return asg?.Instances.find((i) => i.InstanceId === instanceId);
}

async function confirmed(
  ctx: RollContext,
  write: () => Promise<unknown>,
  done: () => Promise<boolean>,
) {
  for (let n = 1; ; n++) {
    try {
      await write();
      return;
    } catch (e) {
      if (!isLostAnswer(e) || n >= TRIES) throw e;
      if (await done()) return;
      await ctx.clock.sleep(1000 * 2 ** n, ctx.signal);
    }
  }
}

/** Detach an instance (surge by detaching, kOps' way), however its answer went. */
export function detachConfirmed(ctx: RollContext, group: string, instanceId: string) {
  return confirmed(
    ctx,
    () =>
      ctx.cloud.autoScaling.detachInstances({
        AutoScalingGroupName: group,
        InstanceIds: [instanceId],
        ShouldDecrementDesiredCapacity: false,
      }),
    async () => {
      const i = await member(ctx, group, instanceId);
      return !i || i.LifecycleState.startsWith("Detach");
    },
  );
}

/** Terminate an instance through its group without a decrement, however its answer went. */
export function terminateConfirmed(ctx: RollContext, group: string, instanceId: string) {
  return confirmed(
    ctx,
    () =>
      ctx.cloud.autoScaling.terminateInstanceInAutoScalingGroup({
        InstanceId: instanceId,
        ShouldDecrementDesiredCapacity: false,
      }),
    async () => {
      const i = await member(ctx, group, instanceId);
      return !i || i.LifecycleState.startsWith("Terminat");
    },
  );
}
