// The group's capacity as the roll sees it: how many Ready nodes back its instances, waiting
// (by the node watch, not by polling the API server) until enough do, and keeping the cluster
// autoscaler off the new nodes while the roll still needs them.
import {
  instanceIdOf,
  isReady,
  listAll,
  monotonicMs,
  pageOf,
  type Node,
} from "../../ports/index.js";
import { RollError, type RollContext } from "../../roll/context.js";
import type { ValidationFailure } from "../../roll/validate.js";
import {
  DETACHED_LABEL,
  SCALE_DOWN_BY_US,
  SCALE_DOWN_DISABLED,
  updateNode,
} from "../../roll/marks.js";
import { isDownReplacement, isNoNode } from "./down.js";
import type { GroupRead, Job } from "./job.js";

/** How often a wait re-reads the group when the node watch has nothing new. */
const POLL_MS = 10_000;
/**
 * How long a read of the group may stand for an answer that only waits, while nothing says
 * the group changed: what the roll learns of someone else's change to it (a new desired
 * capacity, an instance detached or terminated by hand, or by Auto Scaling itself) comes at the
 * latest this much later — and no later than a poll period before it acts (`decide`).
 */
const STALE_MS = 60_000;

/** The roll changed the group's members (detached or terminated one): read it again next. */
export function groupWritten(job: Job): void {
  job.roll.writes++;
}

/**
 * Whether the last read still answers what the roll asks of the group — its members and
 * desired capacity. Those change by a write: ours (then read again at once) or someone else's.
 * The window asks on every node change (each registration, each Ready), so a read is reused
 * for a poll period whatever happens — all an answer that acts may rest on. Past it, an answer
 * that waits may rest on it for up to STALE_MS as long as every node that joined the cluster
 * since is one of its members (the Auto Scaling group usually shows a replacement before its
 * node registers): a node it does not know, a replacement launched after the read, is what
 * makes it read again. ~1.6 reads a replaced node on the bench's 100-node roll with the poll
 * period alone. Which members have a Ready node is always the node watch's answer of the moment.
 */
function stillGood(job: Job, last: GroupRead, now: number, toAct: boolean): boolean {
  if (last.writes !== job.roll.writes) return false;
  const age = now - last.at;
  if (age < POLL_MS) return true;
  if (toAct || age >= STALE_MS) return false;
  return job.nodes.joinedSince(last.joins).every((n) => last.members.has(instanceIdOf(n) ?? ""));
}

async function readGroup(ctx: RollContext, job: Job, toAct: boolean): Promise<GroupRead> {
  const now = monotonicMs(ctx.clock);
  const last = job.roll.lastRead;
  if (last && stillGood(job, last, now, toAct)) return last;
  const writes = job.roll.writes;
  const joins = job.nodes.joins;
  const asgName = job.plan.name;
  const [asg] = await ctx.cloud.autoScaling.describeAutoScalingGroups({
    AutoScalingGroupNames: [asgName],
  });
  if (!asg) throw new RollError("NodeCreationFailure", `Auto Scaling group ${asgName} is gone`);
  const members = new Set(asg.Instances.map((i) => i.InstanceId));
  const read = { at: now, writes, joins, members, asg };
  job.roll.lastRead = read;
  return read;
}

/** The group's instances as last read, read again once that read no longer stands (a wait's
 * answer: the gates ask it every period). */
export async function groupInstances(ctx: RollContext, job: Job) {
  return (await readGroup(ctx, job, false)).asg.Instances;
}

/**
 * How `instance`, a member of the group when the roll began, has left it by someone else's
 * hand, as the last read of the group shows: "terminating" (a scale-in: a person's lower
 * desired capacity, the cluster autoscaler's termination with a decrement; a lifecycle hook may
 * keep it running a while), "detaching", "absent" (no longer listed: terminated, or detached),
 * or undefined while it is a member. A read that shows it gone stays right: an instance that
 * left never comes back.
 */
export function leftGroup(job: Job, instance: string): Left | undefined {
  const read = job.roll.lastRead;
  if (!read) return undefined;
  if (!read.members.has(instance)) return "absent";
  const i = read.asg.Instances.find((x) => x.InstanceId === instance);
  return i && leftState(i.LifecycleState);
}

export type Left = "terminating" | "detaching" | "absent";

/** What a member's lifecycle state says of its leaving the group. */
export function leftState(state: string): Left | undefined {
  if (state.startsWith("Terminat")) return "terminating";
  return state.startsWith("Detach") ? "detaching" : undefined;
}

interface Readiness {
  desired: number;
  /** The InService and Pending members with a Ready node, and those without one yet. */
  ready: string[];
  waiting: string[];
  /** Of `waiting`, those whose nodes the roll is to replace, out of service already (down.ts). */
  down: string[];
  /** Every member of the group, whatever its lifecycle state. */
  members: ReadonlySet<string>;
}

/** A member that serves, or is on its way to (launched, not yet InService). */
export const inService = (state: string) => state === "InService" || state.startsWith("Pending");

/** Ready nodes of the group's InService instances, with the instance ids that have none yet. */
function readiness(job: Job, { asg, members }: GroupRead): Readiness {
  const serving = asg.Instances.filter((i) => inService(i.LifecycleState));
  const ready: string[] = [];
  const waiting: string[] = [];
  const down: string[] = [];
  for (const i of serving) {
    const n = job.nodes.byInstance(i.InstanceId);
    // Cordoned counts: a node an earlier run cordoned still backs its instance until terminated.
    if (n && isReady(n)) ready.push(i.InstanceId);
    else waiting.push(i.InstanceId);
    if (n ? isDownReplacement(job, n) : isNoNode(job, i.InstanceId)) down.push(i.InstanceId);
  }
  return { desired: asg.DesiredCapacity, ready, waiting, down, members };
}

/** Whether the group's capacity is back to `want`: a member whose node the roll is to replace
 * and is down already is not waited for (it is replaced first). */
const capacityBack = (r: Readiness, want: number) => r.ready.length + r.down.length >= want;

/**
 * An answer about the group: from the read that stands when it says wait, and when it says
 * act (`acts`), from one at most a poll period old — read again if need be. A read that has
 * stood longer has missed at most someone else's change, and only acting on it could cost.
 */
async function decide<T>(
  ctx: RollContext,
  job: Job,
  judge: (r: Readiness) => T,
  acts: (answer: T) => boolean,
): Promise<T> {
  const read = await readGroup(ctx, job, false);
  const answer = judge(readiness(job, read));
  if (!acts(answer) || stillGood(job, read, monotonicMs(ctx.clock), true)) return answer;
  return judge(readiness(job, await readGroup(ctx, job, true)));
}

/**
 * The group's part of validation, as kOps' `validate cluster` judges an instance group
 * (pkg/validation, validateNodes): fewer members than its desired capacity ("did not have enough
 * nodes"), and a member with no node ("machine … has not yet joined cluster") — a replacement
 * still booting, or one that will never join (a bad AMI, a bootstrap that fails). The members in
 * service or on their way in count, as the capacity budget counts them (`readiness`): not those
 * leaving (kOps ignores Terminating ones) nor those in Standby; nor is an instance the plan
 * replaces: one it found with no node is the roll's to replace (down.ts), one whose node went
 * since is refused when its turn comes (window.ts, StalePlan). From the read that stands for an
 * answer that waits: a node that joins and no read knows makes it read again.
 */
export async function machineFailures(ctx: RollContext, job: Job): Promise<ValidationFailure[]> {
  // A bastion is not expected to join the cluster (kOps: "bastion nodes don't join").
  if (job.plan.role === "bastion") return [];
  const { asg } = await readGroup(ctx, job, false);
  const group = job.plan.name;
  const staying = asg.Instances.filter((i) => inService(i.LifecycleState));
  const failures: ValidationFailure[] = [];
  if (staying.length < asg.DesiredCapacity)
    failures.push({
      message: `group ${group} has ${staying.length} of ${asg.DesiredCapacity} instances`,
      group,
    });
  for (const i of staying)
    if (!job.nodes.byInstance(i.InstanceId) && !job.roll.planned.has(i.InstanceId))
      failures.push({
        message: `machine ${i.InstanceId} of ${group} has not yet joined the cluster`,
        group,
      });
  return failures;
}

/**
 * Wait until at least `want` Ready, schedulable nodes back the group's instances (replacements
 * booted and registered). Past the validation timeout: NodeCreationFailure with the instances.
 */
export async function waitForCapacity(
  ctx: RollContext,
  job: Job,
  want: (desired: number) => number,
): Promise<string[]> {
  const timeoutMs = job.plan.settings.validation.timeoutMs;
  const deadline = ctx.clock.now().getTime() + timeoutMs;
  for (;;) {
    const late = ctx.clock.now().getTime() > deadline;
    // Done, or failed, is an answer that acts.
    const r = await decide(
      ctx,
      job,
      (x) => x,
      (x) => late || capacityBack(x, want(x.desired)),
    );
    if (capacityBack(r, want(r.desired))) return r.ready;
    if (late) throw creationFailure(job, r, want(r.desired));
    await job.nodes.changed(POLL_MS);
    if (ctx.signal.aborted)
      throw new RollError("Cancelled", "cancelled while waiting for new nodes");
  }
}

export interface Room {
  /** How many more of the group's nodes may go out of service now without the Ready,
   * schedulable nodes falling below desired − maxUnavailable. */
  room: number;
  /** The instances (members of the group) with a Ready node. */
  ready: string[];
  /** The members without a Ready node yet. */
  waiting: string[];
  desired: number;
}

/**
 * The capacity budget from one read of the group and the watched node cache: Ready,
 * schedulable nodes of its members and of the instances detached from it for surge, and the
 * members to replace that have no node, less what is `busy` (in flight — nodes by name, members
 * with no node by instance id: cordoned or about to be, whatever the cache shows yet), against
 * desired − maxUnavailable — the invariant itself, so a node starts the moment it holds. With
 * `acts` (what the caller will do with the room: start nodes, give up), the read is fresh
 * enough to act on.
 */
export function capacityRoom(
  ctx: RollContext,
  job: Job,
  busy: ReadonlySet<string>,
  acts: (room: Room) => boolean = () => false,
): Promise<Room> {
  return decide(ctx, job, (r) => roomOf(job, r, busy), acts);
}

function roomOf(job: Job, r: Readiness, busy: ReadonlySet<string>): Room {
  const schedulable = (n: Node | undefined): n is Node =>
    n !== undefined &&
    isReady(n) &&
    !n.spec.unschedulable &&
    !n.metadata.deletionTimestamp &&
    !busy.has(n.metadata.name);
  let count = 0;
  for (const id of r.ready) if (schedulable(job.nodes.byInstance(id))) count++;
  // A member the plan found with no node may be serving where the run cannot see (down.ts):
  // counted as available until the roll takes it out.
  for (const id of r.waiting) if (isNoNode(job, id) && !busy.has(id)) count++;
  // Instances detached for surge: a node labelled so whose instance is still a member (a run
  // that died between the label and the detach) is counted once, above.
  for (const n of job.nodes.byName.values())
    if (
      n.metadata.labels?.[DETACHED_LABEL] === job.plan.name &&
      !r.members.has(instanceIdOf(n) ?? "") &&
      schedulable(n)
    )
      count++;
  const floor = r.desired - job.plan.budgets.maxUnavailable - job.roll.surgeGivenUp;
  return { room: count - floor, ready: r.ready, waiting: r.waiting, desired: r.desired };
}

/** NodeCreationFailure: the group's capacity did not come back within the validation timeout. */
export function creationFailure(job: Job, r: { ready: string[]; waiting: string[] }, want: number) {
  const timeoutMs = job.plan.settings.validation.timeoutMs;
  return new RollError(
    "NodeCreationFailure",
    `${job.plan.name}: ${r.ready.length} of ${want} nodes Ready after ${Math.round(timeoutMs / 60_000)} min; instances without a Ready node: ${r.waiting.join(", ") || "none launched (check the group's scaling activities)"}`,
  );
}

/** New nodes must outlive the roll: ask the cluster autoscaler to leave them while we work. */
export async function protectNewNodes(
  ctx: RollContext,
  job: Job,
  instanceIds: string[],
  old: Set<string>,
): Promise<void> {
  for (const id of instanceIds) {
    if (old.has(id)) continue;
    const n = job.nodes.byInstance(id);
    if (n && n.metadata.annotations?.[SCALE_DOWN_DISABLED] === undefined) {
      await updateNode(
        ctx,
        n.metadata.name,
        (x) =>
          x.metadata.annotations?.[SCALE_DOWN_DISABLED] !== undefined
            ? undefined
            : { annotations: { [SCALE_DOWN_DISABLED]: "true", [SCALE_DOWN_BY_US]: job.runId } },
        n,
      );
    }
  }
}

/**
 * The roll is done with this group: the autoscaler may have our new nodes back. Read from the
 * API, not the watched cache: a cache behind a stalled watch must not leave a mark behind.
 */
export async function releaseNewNodes(ctx: RollContext, _job: Job): Promise<void> {
  const { items } = await listAll((cont) => ctx.cluster.listNodes(pageOf(cont)));
  for (const n of items) {
    if (n.metadata.annotations?.[SCALE_DOWN_BY_US] === undefined) continue;
    // From the list just read: its resourceVersion guards the write.
    await updateNode(
      ctx,
      n.metadata.name,
      (x) =>
        x.metadata.annotations?.[SCALE_DOWN_BY_US] === undefined
          ? undefined
          : { annotations: { [SCALE_DOWN_DISABLED]: null, [SCALE_DOWN_BY_US]: null } },
      n,
    );
  }
}
