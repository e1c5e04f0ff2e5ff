// A self-managed group's roll under its health gates (roll/gates.ts): its replacements are the
// instances launched into the group since the roll began; a gate that stops the roll ends its
// waits and drains at once (the roll runs on a signal the halt aborts), and what the halt
// interrupted is undone: the group's nodes not terminated are made schedulable again, without
// the roll's taint steering pods to the replacements the gate found bad.
import { abortError } from "../../ports/index.js";
import { isAbort, RollError, type RollContext, type StopReason } from "../../roll/context.js";
import {
  GateWatch,
  pauseFor,
  stopOnGate,
  watchFor as watchGatesFor,
  type GateStop,
} from "../../roll/gates.js";
import { clearMarks, CORDONED_ANNOTATION } from "../../roll/marks.js";
import { groupInstances, inService } from "./capacity.js";
import type { Job } from "./job.js";

/** The group's gates, their replacements read from the group (a read reused within a period). */
export function watchGates(ctx: RollContext, job: Job): GateWatch {
  const before = new Set(job.live.instances.map((i) => i.id));
  return new GateWatch(ctx, {
    group: job.plan.name,
    settings: job.plan.settings.gates,
    replacements: async () =>
      (await groupInstances(ctx, job))
        .filter((i) => !before.has(i.InstanceId) && inService(i.LifecycleState))
        .map((i) => ({ instance: i.InstanceId, node: job.nodes.byInstance(i.InstanceId) })),
  });
}

/**
 * The group's phases under its gates: each runs on a context whose signal a stopping verdict
 * aborts too, and a stop becomes the gate's error (after the halt's undoing) — also when the
 * phase got to its end before noticing. Anything else passes as it is.
 */
export class GatedRoll {
  readonly gates: GateWatch;
  private readonly gctx: RollContext;

  constructor(
    private readonly ctx: RollContext,
    private readonly job: Job,
  ) {
    this.gates = watchGates(ctx, job);
    job.roll.gates = this.gates;
    this.gctx = { ...ctx, signal: AbortSignal.any([ctx.signal, this.gates.halted]) };
    this.first = this.gates.start();
  }

  /** The first reading of the gates, which every phase waits for before it writes. */
  private readonly first: Promise<unknown>;

  async run<T>(body: (gctx: RollContext) => Promise<T>): Promise<T> {
    let result: T;
    try {
      await this.first;
      if (this.gctx.signal.aborted) throw abortError(this.gctx.signal);
      result = await body(this.gctx);
    } catch (e) {
      if (this.ctx.signal.aborted || !this.gates.stopped || !halted(e)) throw e;
      throw await this.halt();
    }
    if (this.gates.stopped && !this.ctx.signal.aborted) throw await this.halt();
    return result;
  }

  close(): Promise<void> {
    return this.gates.close();
  }

  /** The halt undone where it interrupted, then what the stop comes to (roll/gates.ts). */
  private async halt(): Promise<RollError> {
    const { job } = this;
    await undoHalted(this.ctx, job);
    const stop = this.gates.stopped as GateStop;
    const at = { cluster: job.cluster, group: job.plan.name, settings: job.plan.settings.gates };
    return stopOnGate(this.ctx, { ...at, stop }, { wave: job.roll.wave, where: left(job) });
  }
}

/** What the halt's abort ends a wait or a drain with. */
const halted = (e: unknown) => isAbort(e) || (e instanceof RollError && e.code === "Cancelled");

/**
 * The plan's nodes the roll has not terminated: our cordon, load-balancer exclusion and taint
 * undone (someone else's cordon stays). A detached surge instance's node keeps its surge mark:
 * the next run finds it by it.
 */
async function undoHalted(ctx: RollContext, job: Job): Promise<void> {
  // Membership from a fresh read: an instance this run detached for surge keeps its mark.
  const members = new Set((await groupInstances(ctx, job)).map((i) => i.InstanceId));
  const cordoned: string[] = [];
  let tainted = 0;
  for (const r of job.plan.replacements) {
    const node = r.node && job.nodes.byName.get(r.node);
    if (!node || job.roll.terminated.has(node.metadata.name)) continue;
    const ours = node.metadata.annotations?.[CORDONED_ANNOTATION] !== undefined;
    if (!(await clearMarks(ctx, node.metadata.name, members.has(r.instance)))) continue;
    if (ours) cordoned.push(node.metadata.name);
    else tainted++;
  }
  const said = [
    ...(cordoned.length > 0 ? [`made schedulable again: ${cordoned.join(", ")}`] : []),
    ...(tainted > 0
      ? [`the PreferNoSchedule taint taken off ${tainted} node${tainted === 1 ? "" : "s"}`]
      : []),
  ];
  if (said.length > 0)
    ctx.emit({
      type: "note",
      group: job.plan.name,
      message: `${job.plan.name}: the gate halted the roll; ${said.join("; ")}`,
    });
}

/** Watch the gates for `ms` before going on (a bake, a checkpoint's delay): a halt ends it. */
export const watchFor = (ctx: RollContext, job: Job, ms: number, why: string) =>
  watchGatesFor(ctx, job.roll.gates, job.plan.name, ms, why);

/**
 * A checkpoint reached, the wave before it done: with a delay, the gates are watched for it (or
 * the bake, if longer) and the roll goes on; without, the roll pauses until resumed — the pause
 * it returns is the window's to stop for, as for any stop between nodes.
 */
export async function keepCheckpoint(
  ctx: RollContext,
  job: Job,
  at: number,
): Promise<StopReason | undefined> {
  const { bakeMs, checkpointDelayMs } = job.plan.settings.gates;
  const share = `${Math.round(at * 100)}%`;
  if (checkpointDelayMs !== undefined) {
    await watchFor(ctx, job, Math.max(bakeMs, checkpointDelayMs), `checkpoint ${share}`);
    return undefined;
  }
  await watchFor(ctx, job, bakeMs, "bake");
  const reason = `checkpoint ${share} of ${job.plan.name} reached`;
  return (await pauseFor(ctx, job.cluster, job.plan.name, reason, left(job))).stop;
}

/** How much of the group a pause leaves. */
function left(job: Job): string {
  const n = job.plan.replacements.length - job.roll.terminated.size;
  return `${n} node${n === 1 ? "" : "s"} of ${job.plan.name} left`;
}

/**
 * The next checkpoint this run has not kept, as the count of the plan's nodes replaced by then
 * (a share of the group's nodes, those up to date when the roll began counted): the window starts
 * no node past it, and keeps it once those are done. One reached only with the group's last node
 * is not kept: nothing is left to hold back.
 */
export function nextCheckpoint(job: Job): { share: number; count: number } | undefined {
  const total = job.plan.nodes;
  const todo = job.plan.replacements.length;
  const base = total - todo;
  for (const share of job.plan.settings.gates.checkpoints) {
    if (job.roll.checkpointsPassed.has(share)) continue;
    const count = Math.ceil(share * total - 1e-9) - base;
    if (count > 0 && count < todo) return { share, count };
  }
  return undefined;
}

/** What the window keeps of its waves for the bake and the checkpoints. */
export interface Waves {
  /** A checkpoint reached: nothing starts until the wave in flight is done and it is kept. */
  checkpoint?: number;
  /** Nodes the window has started: what the next checkpoint is counted against. */
  started: number;
}

/** With a bake or a checkpoint to keep, the wave in flight ends before the next starts. */
export const inWaves = (job: Job, w: Waves) =>
  job.plan.settings.gates.bakeMs > 0 || w.checkpoint !== undefined;

/**
 * How many nodes may start before the next checkpoint (no limit without one); once the nodes up
 * to it are done, the checkpoint is reached — kept between waves, before anything more starts.
 */
export function checkpointRoom(job: Job, w: Waves, inFlight: number, queued: number): number {
  const next = nextCheckpoint(job);
  if (!next) return Infinity;
  const room = next.count - w.started;
  if (room <= 0 && inFlight === 0 && queued > 0 && w.checkpoint === undefined) {
    w.checkpoint = next.share;
    job.roll.checkpointsPassed.add(next.share);
  }
  return Math.max(0, room);
}
