// Auto Scaling writes whose answer may be lost. When no answer comes, whether the change was
// made is unknown, and these writes are not safe to repeat blindly (an instance detached or
// terminating is no longer the group's to detach or terminate: the repeat fails). So the group
// is read again: if the change shows, it was made; if not, it is made again.
import { ATTEMPTS, AwsApiError, isLostAnswer, type AsgInstance } from "../../ports/index.js";
import type { RollContext } from "../../roll/context.js";
import { leftState, type Left } from "./capacity.js";

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

/** How the instance has left the group, from a fresh read; undefined while still a member. */
export async function leftNow(
  ctx: RollContext,
  group: string,
  instanceId: string,
): Promise<Left | undefined> {
  const i = await member(ctx, group, instanceId);
  return i ? leftState(i.LifecycleState) : "absent";
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

/**
 * A write Auto Scaling refused (ValidationError: "not part of", "not found") because the instance
 * had already left the group by someone else's hand: how it left, from a fresh read. Any other
 * refusal, or one for an instance still a member, is the caller's error.
 */
async function refusedAsGone(
  ctx: RollContext,
  group: string,
  instanceId: string,
  e: unknown,
): Promise<Left> {
  if (!(e instanceof AwsApiError) || e.code !== "ValidationError") throw e;
  const left = await leftNow(ctx, group, instanceId);
  if (!left) throw e;
  return left;
}

/**
 * A write that takes an instance out of its group, however its answer went: "done" (a lost
 * answer settled by the group showing the instance in `state`), or how it had left the group
 * already, by someone else's hand.
 */
async function takeOut(
  ctx: RollContext,
  group: string,
  instanceId: string,
  send: () => Promise<unknown>,
  state: "Detach" | "Terminat",
): Promise<"done" | Left> {
  try {
    await confirmed(ctx, send, async () => {
      const i = await member(ctx, group, instanceId);
      return !i || i.LifecycleState.startsWith(state);
    });
    return "done";
  } catch (e) {
    return refusedAsGone(ctx, group, instanceId, e);
  }
}

/** Detach an instance (surge by detaching, kOps' way): "done", or how it had left already. */
export function detachConfirmed(ctx: RollContext, group: string, instanceId: string) {
  const send = () =>
    ctx.cloud.autoScaling.detachInstances({
      AutoScalingGroupName: group,
      InstanceIds: [instanceId],
      ShouldDecrementDesiredCapacity: false,
    });
  return takeOut(ctx, group, instanceId, send, "Detach");
}

/**
 * Terminate an instance through its group without a decrement: "done", or how it had left the
 * group already (a scale-in by someone else).
 */
export function terminateConfirmed(ctx: RollContext, group: string, instanceId: string) {
  const send = () =>
    ctx.cloud.autoScaling.terminateInstanceInAutoScalingGroup({
      InstanceId: instanceId,
      ShouldDecrementDesiredCapacity: false,
    });
  return takeOut(ctx, group, instanceId, send, "Terminat");
}
