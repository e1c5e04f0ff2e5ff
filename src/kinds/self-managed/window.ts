// The upgrade phase of a self-managed group: kOps' sliding window of maxSurge + maxUnavailable
// nodes in flight (https://kops.sigs.k8s.io/operations/rolling-update/). Each node is cordoned,
// excluded from external load balancers, drained, left postDrainDelay, terminated, and followed
// by interval; a new node starts only after a completion has been validated.
import { rollWindow } from "../../policy/index.js";
import { isDetached, type Replacement, type SelfManagedGroupInfo } from "../../plan/index.js";
import { RollError, type RollContext } from "../../roll/context.js";
import { drainNode } from "../../roll/drain.js";
import { cordon, EXCLUDE_LB_LABEL, updateNode } from "../../roll/marks.js";
import type { GroupJob } from "../kind.js";
import { hasCapacity, protectNewNodes, waitForCapacity } from "./capacity.js";
import { validateGroup } from "./validate.js";
import { terminateConfirmed } from "./writes.js";

type Job = GroupJob<SelfManagedGroupInfo>;

interface Flight {
  r: Replacement;
  done: Promise<void>;
  /** Set once the instance is terminated: its slot of the group is empty until replaced. */
  terminated: boolean;
}

/** Cordon, exclude from load balancers, drain and wait: everything before the termination. */
async function emptyNode(ctx: RollContext, job: Job, node: string): Promise<void> {
  const group = job.plan.name;
  const s = job.plan.settings;
  await cordon(ctx, node, job.runId);
  ctx.emit({ type: "node.cordon", group, node });
  if (job.plan.role === "bastion") return;
  await updateNode(ctx, node, (n) =>
    n.metadata.labels?.[EXCLUDE_LB_LABEL] === "true"
      ? undefined
      : { labels: { [EXCLUDE_LB_LABEL]: "true" } },
  );
  ctx.emit({ type: "node.label", group, node, label: `${EXCLUDE_LB_LABEL}=true` });
  await drainNode(ctx, { group, node, timeoutMs: s.drainTimeoutMs, force: s.force });
  await ctx.clock.sleep(s.postDrainDelayMs, ctx.signal);
}

/** One node's replacement; `flight.terminated` tells the window when its slot is empty. */
async function replaceOne(ctx: RollContext, job: Job, flight: Flight): Promise<void> {
  const { r } = flight;
  if (r.node && job.nodes.byName.has(r.node)) await emptyNode(ctx, job, r.node);
  if (isDetached(r)) await ctx.cloud.ec2.terminateInstances({ InstanceIds: [r.instance] });
  else await terminateConfirmed(ctx, job.plan.name, r.instance);
  flight.terminated = true;
  ctx.emit({
    type: "instance.terminate",
    group: job.plan.name,
    instance: r.instance,
    decrement: false,
  });
  await ctx.clock.sleep(job.plan.settings.intervalMs, ctx.signal);
}

function stopped(ctx: RollContext, job: Job, stop: string, left: number): RollError {
  return new RollError(
    ctx.signal.aborted ? "Cancelled" : "Deadline",
    `${stop}; ${left} node${left === 1 ? "" : "s"} of ${job.plan.name} left for the next run`,
  );
}

/**
 * After a completion: every slot of the group must be backed by a Ready node again, but for
 * those whose instance another task in flight has already terminated; then validate. A task
 * still in flight may terminate its instance while the cluster validates, leaving a slot
 * empty that no task holds any more: so capacity is checked again after validating, and the
 * wait repeated until it holds — else the window would start new nodes on an empty slot.
 */
async function settle(
  ctx: RollContext,
  job: Job,
  inFlight: Map<string, Flight>,
  old: Set<string>,
): Promise<void> {
  const want = (d: number) => {
    const emptied = [...inFlight.values()].filter((x) => !isDetached(x.r) && x.terminated).length;
    return Math.max(0, d - emptied);
  };
  do {
    const ready = await waitForCapacity(ctx, job, want);
    await protectNewNodes(ctx, job, ready, old);
    await validateGroup(ctx, job, job.plan.settings.validation.count);
  } while (!(await hasCapacity(ctx, job, want)));
}

/** The sliding window: up to maxSurge + maxUnavailable nodes in flight. */
export async function upgrade(
  ctx: RollContext,
  job: Job,
  queue: Replacement[],
  canary: boolean,
): Promise<void> {
  const window = rollWindow(job.plan.budgets);
  const old = new Set(queue.map((r) => r.instance));
  let limit = canary ? 1 : window;
  const inFlight = new Map<string, Flight>();
  let failure: unknown;
  while ((queue.length > 0 || inFlight.size > 0) && failure === undefined) {
    const stop = job.stopReason();
    while (!stop && inFlight.size < limit && queue.length > 0) {
      const flight: Flight = {
        r: queue.shift() as Replacement,
        done: Promise.resolve(),
        terminated: false,
      };
      flight.done = replaceOne(ctx, job, flight).then(
        () => void inFlight.delete(flight.r.instance),
        (e: unknown) => {
          inFlight.delete(flight.r.instance);
          failure ??= e;
        },
      );
      inFlight.set(flight.r.instance, flight);
    }
    if (inFlight.size === 0) {
      if (stop) throw stopped(ctx, job, stop, queue.length);
      break;
    }
    await Promise.race([...inFlight.values()].map((x) => x.done));
    if (failure !== undefined) break;
    await settle(ctx, job, inFlight, old);
    limit = window;
  }
  await Promise.allSettled([...inFlight.values()].map((x) => x.done));
  if (failure !== undefined) throw failure;
}
