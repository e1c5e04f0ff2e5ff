// The upgrade phase of a self-managed group: kOps' sliding window of maxSurge + maxUnavailable
// nodes in flight (https://kops.sigs.k8s.io/operations/rolling-update/). Each node is cordoned,
// excluded from external load balancers, drained, left postDrainDelay, terminated, and followed
// by interval; a new node starts only after a completion has been validated. Drained nodes
// terminate together (terminations.ts), so that such validations come often.
import { rollWindow } from "../../policy/index.js";
import { isDetached, type Replacement } from "../../plan/index.js";
import { abortError, isReady, isUnreachable } from "../../ports/index.js";
import { RollError, Stopped, type RollContext, type StopReason } from "../../roll/context.js";
import { drainNode } from "../../roll/drain.js";
import { awaitRescheduled, type MovedPod } from "../../roll/rescheduled.js";
import { cordon, EXCLUDE_LB_LABEL } from "../../roll/marks.js";
import type { Job } from "./job.js";
import {
  capacityRoom,
  creationFailure,
  groupWritten,
  leftGroup,
  protectNewNodes,
  waitForCapacity,
} from "./capacity.js";
import { noteTerminated } from "./down.js";
import { leftByOthers } from "./left.js";
import { checkpointRoom, inWaves, keepCheckpoint, watchFor, type Waves } from "./gates.js";
import { TerminationBatch } from "./terminations.js";
import { nodesValid, validateGroup, type GroupValidation } from "./validate.js";
import { leftNow, terminateConfirmed } from "./writes.js";

/** How often a free slot re-checks capacity when the node watch has nothing new. */
const POLL_MS = 10_000;

/**
 * Drained nodes held go once the last batch's replacements have had time to register: about an
 * instance's boot and its kubelet's registration (the sandbox models 60 ± 15 s, then 10 s), so
 * by then about half of the last batch has registered, the rest registers before this batch's
 * first can, and the NotReady spells of the two batches follow one another instead of running
 * into each other. Chosen on the bench's rolls of 100 and 1,000 nodes (seeds 2–4): 50 or 60 s
 * let the spells overlap, 80 s or more keeps drained nodes from their replacements too long.
 */
const BATCH_CADENCE_MS = 70_000;
/**
 * Whether held nodes wait for `booting` replacements to register: while they are fewer than
 * those boots and half again (rounded down, so one node held goes with one boot in progress).
 */
const worthHolding = (held: number, booting: number) => held < booting + Math.floor(booting / 2);

interface Flight {
  r: Replacement;
  done: Promise<void>;
  /** Set once the instance is terminated: its slot of the group is empty until replaced. */
  terminated: boolean;
}

/** Cordon and exclude from load balancers (one patch), drain and wait: everything before the
 * termination. The pods the drain moved go into `moved`. */
async function emptyNode(ctx: RollContext, job: Job, node: string, moved: MovedPod[]) {
  const group = job.plan.name;
  const s = job.plan.settings;
  const bastion = job.plan.role === "bastion";
  // A gate's halt since the node was started: no cordon after the verdict.
  if (ctx.signal.aborted) throw abortError(ctx.signal);
  await cordon(ctx, node, job.runId, { excludeLb: !bastion, known: job.nodes.byName.get(node) });
  ctx.emit({ type: "node.cordon", group, node });
  if (bastion) return;
  ctx.emit({ type: "node.label", group, node, label: `${EXCLUDE_LB_LABEL}=true` });
  const unreachable = () => {
    const n = job.nodes.byName.get(node);
    return n !== undefined && isUnreachable(n);
  };
  const drained = await drainNode(ctx, {
    group,
    node,
    timeoutMs: s.drainTimeoutMs,
    deleteAfterDrainTimeout: s.deleteAfterDrainTimeout,
    evictUnmanaged: s.unmanagedPods === "evict",
    unreachable,
  });
  moved.push(...drained.moved);
  await ctx.clock.sleep(s.postDrainDelayMs, ctx.signal);
}

/** The flight's instance is gone: its slot is empty, and its node not validation's concern. */
function ended(job: Job, flight: Flight, w: Window): void {
  flight.terminated = true;
  if (flight.r.node) {
    w.gone.add(flight.r.node);
    noteTerminated(job, flight.r.node);
  }
}

/**
 * A member's node the plan saw is gone while the instance still runs in the group: nothing says
 * what runs there now, and an instance with no node is terminated undrained only where the plan
 * named it so (down: no-node). Refused; the next run plans it afresh.
 */
function nodeGone(job: Job, r: Replacement): RollError {
  return new RollError(
    "StalePlan",
    `${job.plan.name}: node ${r.node} of instance ${r.instance} is gone from the cluster since the plan, while the instance still runs in the group: not terminating it without a drain. Run apply again: its plan takes the instance as one with no node`,
  );
}

/**
 * One node's replacement; `flight.terminated` tells the window when its slot is empty. An
 * instance that left the group by someone else's hand, before its turn or while it drained,
 * is theirs: nothing to drain or terminate (left.ts).
 */
async function replaceOne(ctx: RollContext, job: Job, flight: Flight, w: Window): Promise<void> {
  const { r } = flight;
  const before = isDetached(r) ? undefined : leftGroup(job, r.instance);
  if (before) {
    ended(job, flight, w);
    return leftByOthers(ctx, job, r, before, "before its turn");
  }
  if (r.node && !job.nodes.byName.has(r.node) && !isDetached(r)) {
    // Its node went with its instance (a scale-in the last read of the group did not show yet),
    // or the node alone: refused.
    const gone = await leftNow(ctx, job.plan.name, r.instance);
    if (!gone) throw nodeGone(job, r);
    ended(job, flight, w);
    return leftByOthers(ctx, job, r, gone, "before its turn");
  }
  // Planned with no node, one registered since (it was slow to join): drained like any other.
  const node = r.node ?? job.nodes.byInstance(r.instance)?.metadata.name;
  if (node && job.nodes.byName.has(node)) await emptyNode(ctx, job, node, w.moved);
  if (isDetached(r)) await ctx.cloud.ec2.terminateInstances({ InstanceIds: [r.instance] });
  else {
    // Its replacement will boot: with the others of its batch (terminations.ts).
    await w.batch.wait(ctx.clock.now().getTime());
    // Halted while it waited for its batch: not terminated (its replacement would launch from
    // the release the gate found bad); the halt makes it schedulable again.
    if (ctx.signal.aborted) throw abortError(ctx.signal);
    const done = await terminateConfirmed(ctx, job.plan.name, r.instance);
    groupWritten(job);
    if (done !== "done") {
      ended(job, flight, w);
      return leftByOthers(ctx, job, r, done, "before the roll terminated it");
    }
  }
  ended(job, flight, w);
  ctx.emit({
    type: "instance.terminate",
    group: job.plan.name,
    instance: r.instance,
    decrement: false,
  });
  await ctx.clock.sleep(job.plan.settings.intervalMs, ctx.signal);
}

function stopped(job: Job, stop: StopReason, left: number): Stopped {
  return new Stopped(
    stop,
    `${left} node${left === 1 ? "" : "s"} of ${job.plan.name} left for the next run`,
  );
}

/** The window's state: what is in flight, and the nodes whose instances it has terminated. */
interface Window extends Waves {
  inFlight: Map<string, Flight>;
  /** Nodes of instances this roll terminated: gone by our hand, not failing validation. */
  gone: Set<string>;
  /** Drained nodes waiting to be terminated together. */
  batch: TerminationBatch;
  completed: number;
  /** The first flight's failure: the window stops starting nodes. */
  failure?: unknown;
  /** The last count of replacements booting unregistered, and what it was read at. */
  booting?: { key: string; at: number; count: number };
  /** The pods the drains moved: the group is done once they have a node again. */
  moved: MovedPod[];
  /** The canary's replacement is not proven yet (betweenNodes says what that changes). */
  proving: boolean;
  /** A checkpoint's pause: the window stops for it as for any stop. */
  paused?: StopReason;
}

/** What is in flight: nodes by name, and instances by id (one with no node has only that). */
const busyNodes = (w: Window) =>
  new Set(
    [...w.inFlight.values()].flatMap((f) => (f.r.node ? [f.r.node, f.r.instance] : [f.r.instance])),
  );

/**
 * How many nodes may start now (at most `free`): as many as the capacity budget allows, after
 * a validation when a completion happened since the last one (kOps validates after every
 * termination before the next node goes). Validation waits on the node watch: it runs as soon
 * as the cache shows every node Ready, not on the next tick of a period. 0 when it must wait.
 */
async function startable(
  ctx: RollContext,
  job: Job,
  w: Window,
  old: Set<string>,
  next: Replacement[],
  validate: GroupValidation | undefined,
): Promise<number> {
  // Validation would fail on the nodes (the cache shows one not Ready): nothing can start,
  // and the group need not be read to know it.
  if (validate && !(await nodesValid(ctx, job, validate))) return 0;
  // Starting a node that costs the budget acts on the room: from a fresh read of the group.
  const room = await capacityRoom(ctx, job, busyNodes(w), (x) => fit(job, next, x.room).costly);
  await protectNewNodes(ctx, job, room.ready, old);
  const { n } = fit(job, next, room.room);
  if (n === 0) return n;
  if (validate) await validateGroup(ctx, job, job.plan.settings.validation.count, validate);
  return n;
}

/**
 * What starting a node costs the capacity budget: one for a Ready, schedulable node; nothing
 * for a node already out of service (one an earlier run cordoned, one NotReady), nor for one
 * whose instance has left the group (a scale-in by someone else: it is skipped), nor for one
 * whose node is gone since the plan (a surge instance's, or a member's, which is refused). One for
 * a member the plan found with no node: nothing shows it is out of service (capacity.ts counts it
 * available).
 */
function costOf(job: Job, r: Replacement): number {
  // Gone from the group already: out of its capacity, whatever its node shows.
  if (!isDetached(r) && leftGroup(job, r.instance)) return 0;
  const node = r.node ? job.nodes.byName.get(r.node) : undefined;
  // A surge instance that lost its node gives the group nothing (setup ends such ones); a
  // member whose node vanished since the plan goes first, to be refused (nodeGone). One the
  // plan found with no node may be serving where the run cannot see.
  if (!node) return isDetached(r) || r.node ? 0 : 1;
  return isReady(node) && !node.spec.unschedulable ? 1 : 0;
}

/**
 * The queue's nodes that cost nothing now go first, in their order: a node that went down
 * since the plan was made (the plan already puts those down then first) gives the group its
 * capacity back by being replaced, and would otherwise wait behind nodes the budget holds.
 */
function downFirst(job: Job, queue: Replacement[]): void {
  const free = queue.filter((r) => costOf(job, r) === 0);
  if (free.length === 0 || free.length === queue.length) return;
  const rest = queue.filter((r) => costOf(job, r) !== 0);
  queue.splice(0, queue.length, ...free, ...rest);
}

/** How many of `next` may start within `room`, and whether any of those costs the budget. */
function fit(job: Job, next: Replacement[], room: number): { n: number; costly: boolean } {
  let n = 0;
  let left = room;
  for (const r of next) {
    const cost = costOf(job, r);
    // A node that costs nothing starts whatever the room, below zero too (more nodes down
    // than maxUnavailable): replacing it is how the group gets its capacity back.
    if (cost > 0 && cost > left) break;
    left -= cost;
    n++;
  }
  return { n, costly: left < room };
}

/**
 * How many of the group's instances boot without a registered node (or are yet to be launched
 * for a termination). The group is read again only when that can have changed — a node
 * registered or went, the window terminated an instance — or a poll period passed: the window
 * asks on every node change while nodes are held.
 */
async function bootingUnregistered(
  ctx: RollContext,
  job: Job,
  w: Window,
  now: number,
): Promise<number> {
  const key = `${job.nodes.byName.size}/${w.gone.size}`;
  const last = w.booting;
  if (last && last.key === key && now - last.at < POLL_MS) return last.count;
  const r = await capacityRoom(ctx, job, busyNodes(w));
  const unlaunched = Math.max(0, r.desired - r.ready.length - r.waiting.length);
  const count = unlaunched + r.waiting.filter((id) => !job.nodes.byInstance(id)).length;
  w.booting = { key, at: now, count };
  return count;
}

/**
 * Let the held drained nodes go (terminations.ts) when no replacement boots unregistered (every
 * instance terminated so far replaced and its node registered), when holding them is not worth
 * it, or BATCH_CADENCE_MS after the last batch; when no node is left to start (no validation
 * to wait for), or when the window stops; each at the latest after a boot's estimate.
 */
async function releaseHeld(
  ctx: RollContext,
  job: Job,
  w: Window,
  stop: boolean,
  left: number,
): Promise<void> {
  if (w.batch.size === 0) return;
  const now = ctx.clock.now().getTime();
  if (stop || left === 0) return w.batch.releaseAll(now);
  w.batch.releaseOverdue(now);
  if (w.batch.size === 0) return;
  if (w.batch.sinceRelease(now) >= BATCH_CADENCE_MS) return w.batch.releaseAll(now);
  const booting = await bootingUnregistered(ctx, job, w, now);
  if (booting === 0 || !worthHolding(w.batch.size, booting)) w.batch.releaseAll(now);
}

/** Start the first `n` of the queue. */
function launch(ctx: RollContext, job: Job, w: Window, queue: Replacement[], n: number): void {
  for (let i = 0; i < n; i++) {
    const flight: Flight = {
      r: queue.shift() as Replacement,
      done: Promise.resolve(),
      terminated: false,
    };
    job.roll.wave.push(flight.r.node ?? flight.r.instance);
    w.started++;
    flight.done = replaceOne(ctx, job, flight, w).then(
      () => {
        w.inFlight.delete(flight.r.instance);
        w.completed++;
      },
      (e: unknown) => {
        w.inFlight.delete(flight.r.instance);
        w.failure ??= e;
      },
    );
    w.inFlight.set(flight.r.instance, flight);
  }
}

/**
 * The validation between nodes. While the canary's replacement is not proven, it counts the
 * group's machines, as kOps' does after every node (pkg/validation: "machine … has not yet
 * joined cluster"), so nothing more starts until a node of the new configuration has joined and turned Ready. Once
 * one has, the window validates the cluster alone between nodes: a replacement still booting is
 * one the capacity budget already counts unavailable, and waiting for every boot before each
 * start turned the sliding window into waves (48.3 virtual minutes instead of 31.2 at the
 * bench's 100 nodes). One that never joins still stops the roll: capacity does not come back
 * (NodeCreationFailure naming it), and the group's last validation counts machines again.
 */
function betweenNodes(w: Window): GroupValidation {
  return { gone: w.gone, machines: w.proving };
}

/**
 * A free slot has waited past the validation timeout: NodeCreationFailure when capacity is not
 * there (from a fresh read: giving up acts on the room), else the validation that names what
 * is not Ready, its timeout counted from when the wait began.
 */
async function waitedTooLong(
  ctx: RollContext,
  job: Job,
  w: Window,
  check: GroupValidation,
): Promise<void> {
  const r = await capacityRoom(ctx, job, busyNodes(w), (x) => x.room <= 0);
  if (r.room <= 0) throw creationFailure(job, r, r.desired);
  await validateGroup(ctx, job, job.plan.settings.validation.count, check);
}

const newWindow = (canary: boolean): Window => ({
  inFlight: new Map(),
  gone: new Set(),
  batch: new TerminationBatch(),
  completed: 0,
  moved: [],
  proving: canary,
  started: 0,
});

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
  const w = newWindow(canary);
  const { inFlight } = w;
  /** A completion happened since the last validation. */
  let unvalidated = false;
  /** Since when a free slot has waited for capacity or validation. */
  let waitingSince: number | undefined;
  const timeoutMs = job.plan.settings.validation.timeoutMs;
  try {
    while ((queue.length > 0 || inFlight.size > 0) && w.failure === undefined) {
      const stop = w.paused ?? job.stopReason();
      // A gate's halt aborts this roll's signal (gates.ts): nothing more starts.
      const halted = ctx.signal.aborted;
      const room = checkpointRoom(job, w, inFlight.size, queue.length);
      const hold = inWaves(job, w) && inFlight.size > 0;
      const free = stop || halted || hold ? 0 : Math.min(limit - inFlight.size, queue.length, room);
      await releaseHeld(ctx, job, w, stop !== undefined || halted, queue.length);
      let blocked = false;
      if (!stop && !halted && unvalidated && inWaves(job, w) && inFlight.size === 0) {
        // Between waves: validated, baked or the checkpoint kept; then what may start, afresh.
        unvalidated = await betweenWaves(ctx, job, w);
        continue;
      }
      if (free > 0) {
        downFirst(job, queue);
        const check = unvalidated ? betweenNodes(w) : undefined;
        const n = await startable(ctx, job, w, old, queue.slice(0, free), check);
        if (n > 0 && unvalidated) [unvalidated, w.proving, job.roll.wave] = [false, false, []];
        launch(ctx, job, w, queue, n);
        blocked = n < free;
        const now = ctx.clock.now().getTime();
        if (n > 0 || !blocked) waitingSince = undefined;
        if (blocked && waitingSince === undefined) waitingSince = now;
        else if (blocked && now - (waitingSince ?? now) > timeoutMs)
          await waitedTooLong(ctx, job, w, { ...betweenNodes(w), startedAt: waitingSince });
      }
      if (inFlight.size === 0) {
        if (halted && !stop) throw abortError(ctx.signal);
        if (stop) {
          // Between nodes, as after the last: capacity back and the cluster valid first.
          await settled(ctx, job, old);
          throw stopped(job, stop, queue.length);
        }
        if (queue.length === 0) break;
      }
      const before = w.completed;
      // Wake on a completion or a drained node waiting; with a slot free and waiting, or drained
      // nodes held, also on a change of the nodes.
      await Promise.race([
        ...[...inFlight.values()].map((x) => x.done),
        w.batch.added(),
        ...(blocked || w.batch.size > 0 ? [job.nodes.changed(POLL_MS)] : []),
      ]);
      if (w.completed > before) {
        unvalidated = true;
        limit = window;
      }
    }
  } finally {
    // Whatever ends the window, a drained node goes on to its termination.
    w.batch.releaseAll(ctx.clock.now().getTime());
  }
  await Promise.allSettled([...inFlight.values()].map((x) => x.done));
  if (w.failure !== undefined) throw w.failure;
  await finished(ctx, job, old, w.moved);
}

/**
 * Between waves, the wave done: validated, then a checkpoint reached is kept (its delay, gates
 * watched; or a pause), else the bake. False: the completions are validated.
 */
async function betweenWaves(ctx: RollContext, job: Job, w: Window): Promise<false> {
  await validateGroup(ctx, job, job.plan.settings.validation.count, betweenNodes(w));
  [w.proving, job.roll.wave] = [false, []];
  const { bakeMs } = job.plan.settings.gates;
  const at = w.checkpoint;
  w.checkpoint = undefined;
  if (at === undefined) await watchFor(ctx, job, bakeMs, "bake");
  else w.paused = await keepCheckpoint(ctx, job, at);
  return false;
}

/** The window done: settled (and baked), and the pods its drains moved on a node again
 * (rescheduled.ts). */
async function finished(ctx: RollContext, job: Job, old: Set<string>, moved: MovedPod[]) {
  await settled(ctx, job, old);
  await watchFor(ctx, job, job.plan.settings.gates.bakeMs, "bake");
  await awaitRescheduled(ctx, {
    group: job.plan.name,
    moved,
    timeoutMs: job.plan.settings.validation.timeoutMs,
    nodes: job.nodes.byName.values(),
  });
}

/** Every slot backed by a Ready node again, and the cluster valid — the terminated nodes gone
 * from it too: how the window leaves the group, done or stopped. */
async function settled(ctx: RollContext, job: Job, old: Set<string>): Promise<void> {
  const ready = await waitForCapacity(ctx, job, (d) => d);
  await protectNewNodes(ctx, job, ready, old);
  // The nodes terminated last go some time after their instances: validate once the node watch
  // shows every node Ready, not on the next tick of a validation period.
  // One validation timeout for the wait and the validation together: past it, validation runs
  // once, for the failure's message (cancelled: its own wait ends it).
  const start = ctx.clock.now().getTime();
  const deadline = start + job.plan.settings.validation.timeoutMs;
  while (
    !(await nodesValid(ctx, job)) &&
    ctx.clock.now().getTime() < deadline &&
    !ctx.signal.aborted
  )
    await job.nodes.changed(POLL_MS, ctx.signal);
  await validateGroup(ctx, job, job.plan.settings.validation.count, { startedAt: start });
}
