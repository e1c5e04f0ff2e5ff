// The roll in one line, for a terminal: on a TTY a live status line redrawn in place
// ("workers upgrade 5/8 · 4m12s · ETA ~3m"), off a TTY (CI logs, pipes) a heartbeat every
// half minute or so saying what the group, or EKS, is doing. Pure: the caller says what time it
// is (the roll's clock) and writes the line.
import { noBudgetHeld, PHASES } from "../ports/index.js";
import { formatDuration } from "../policy/index.js";
import { nodeCounts, type GroupProgress, type PlannedWave, type Progress } from "./progress.js";
import { roughly } from "./time.js";

function current(p: Progress): GroupProgress | undefined {
  return p.groups.find((g) => g.started && !g.result);
}

function elapsedMs(p: Progress, now: Date): number {
  return p.startedAt ? Math.max(0, now.getTime() - new Date(p.startedAt).getTime()) : 0;
}

/** The least the ETA says of a group still rolling: one past its estimate is not done yet. */
const FLOOR_MS = 60_000;

/** The plan's waves of the group; without them, one per node, evenly over its estimate. */
function wavesOf(g: GroupProgress, estimateMs: number): PlannedWave[] {
  if (g.waves && g.waves.length > 0) return g.waves;
  const n = Math.max(1, g.toReplace);
  return Array.from({ length: n }, (_, i) => ({
    nodes: 1,
    startMs: (i * estimateMs) / n,
    durationMs: estimateMs / n,
  }));
}

/**
 * With `done` nodes replaced, in the plan's order: the wave of the next node to replace, and where
 * in the group's schedule the waves done in full end (0 before any is).
 */
function waveOf(waves: PlannedWave[], done: number): { wave?: PlannedWave; doneMs: number } {
  let through = 0;
  let doneMs = 0;
  for (const w of waves) {
    through += w.nodes;
    if (through > done) return { wave: w, doneMs };
    doneMs = w.startMs + w.durationMs;
  }
  return { doneMs };
}

/**
 * What is left of the group under way, by the plan's schedule: its estimate less how far into it
 * the roll is — where the waves it has replaced in full end, or the time since the group started
 * if further, though never past the end of the wave under way (its nodes are not done yet). In an
 * EKS update, which says nothing per node for minutes, the time alone counts. A drain held to its
 * timeout under deleteAfterDrainTimeout replaces the wave's predicted drain (the plan counts the
 * timeout for a drain it knows will be held): the wait left, then what the plan has after it.
 */
function currentLeftMs(p: Progress, g: GroupProgress, now: Date): number {
  const estimateMs = g.estimatedMs ?? 0;
  const { wave, doneMs } = waveOf(wavesOf(g, estimateMs), g.replaced);
  const wait = heldWait(p, g, now);
  if (wait?.forced && wave && g.drainTimeoutMs) {
    const drainMs = Math.min(wave.durationMs, g.drainTimeoutMs);
    return Math.max(FLOOR_MS, wait.leftMs + estimateMs - wave.startMs - drainMs);
  }
  const sinceStart = g.startedAt ? Math.max(0, now.getTime() - Date.parse(g.startedAt)) : 0;
  const waveEnd = wave ? wave.startMs + wave.durationMs : estimateMs;
  const byTime = p.eks[g.name] ? sinceStart : Math.min(sinceStart, waveEnd);
  return Math.max(FLOOR_MS, estimateMs - Math.max(doneMs, byTime));
}

/**
 * What is left by the plan's estimates of what apply will do: the groups before the one it stops
 * at (plan/summary.ts), those not started in full, and the rest of the one under way.
 */
export function remainingMs(p: Progress, now: Date): number | undefined {
  if (!p.estimatedMs) return undefined;
  return p.groups.reduce((left, g) => {
    if (g.result || !g.estimatedMs || (g.beyondStop && !g.started)) return left;
    return left + (g.started ? currentLeftMs(p, g, now) : g.estimatedMs);
  }, 0);
}

/**
 * The drain a PodDisruptionBudget holds now, and how long until its timeout. Forced
 * (deleteAfterDrainTimeout), the roll goes on then; otherwise it goes on when the budget allows,
 * or stops at the timeout (PodEvictionFailure).
 */
function heldWait(
  p: Progress,
  g: GroupProgress | undefined,
  now: Date,
): { pdb: string; leftMs: number; forced: boolean } | undefined {
  const held = g && p.holding[g.name];
  if (!g || !held?.drainSince || !g.drainTimeoutMs || noBudgetHeld(held.pdb)) return undefined;
  const leftMs = Math.max(0, Date.parse(held.drainSince) + g.drainTimeoutMs - now.getTime());
  return {
    pdb: held.pdb,
    leftMs,
    forced: Boolean(g.deleteAfterDrainTimeout || p.deleteAfterDrainTimeout),
  };
}

/**
 * "ETA ~19m": what is left by the plan, the wait under way in place of the drain it predicted —
 * so it moves while a drain is held, rather than standing still until the next node is done.
 */
function etaText(p: Progress, g: GroupProgress | undefined, now: Date, brief: boolean): string {
  const left = remainingMs(p, now);
  if (left === undefined || left <= 0) return "";
  const wait = heldWait(p, g, now);
  if (!wait) return ` · ETA ${roughly(left)}`;
  // The heartbeat says what holds the drain and until when (holdingLine): the ETA alone here.
  if (brief) return ` · ETA ${roughly(left)}${wait.forced ? "" : ` once ${wait.pdb} allows`}`;
  const timeout = roughly(wait.leftMs).replace(/^~/, "");
  return wait.forced
    ? ` · ETA ${roughly(left)} · PodDisruptionBudget ${wait.pdb} holds a drain: what is left is deleted at its timeout in ${timeout}`
    : ` · ETA ${roughly(left)} once PodDisruptionBudget ${wait.pdb} allows; the drain times out in ${timeout}`;
}

const whole = (ms: number) => formatDuration(Math.round(ms / 1000) * 1000);

/**
 * "workers upgrade 5/8 · 4m12s · ETA ~3m"; `brief`: the ETA without the wait it counts in, which
 * the heartbeat says in full.
 */
export function statusLine(p: Progress, now: Date, brief = false): string {
  const g = current(p);
  const phase = g ? PHASES.find((ph) => g.phases[ph] === "running") : undefined;
  const { done, total } = nodeCounts(p);
  const where = g
    ? `${g.name} ${phase ?? "between phases"} ${g.replaced}/${g.toReplace}`
    : `${done}/${total} nodes`;
  return `${where} · ${whole(elapsedMs(p, now))}${etaText(p, g, now, brief)}`;
}

/** A line for a log nobody watches live: where the roll is and what it waits for. */
export function heartbeatLine(p: Progress, now: Date): string {
  const w = p.lockWait;
  if (w)
    return `waiting for the cluster lock · held by ${w.holder}${w.runUrl ? ` (${w.runUrl})` : ""} · ${w.alive ? "it renews it" : `it stopped renewing it; free by ${w.freeBy?.slice(11, 19) ?? "?"}`} · ${whole(now.getTime() - new Date(p.startedAt ?? now).getTime())}`;
  if (p.waiting)
    return `waiting · ${whole(now.getTime() - new Date(p.waiting.since).getTime())} · ${p.waiting.what}`;
  const g = current(p);
  const { done, total } = nodeCounts(p);
  const doing: string[] = [];
  if (g) {
    const drain = p.draining[g.name];
    if (drain)
      doing.push(
        `draining ${drain.node} for ${whole(now.getTime() - new Date(drain.since).getTime())}`,
      );
    const held = holdingLine(p, g);
    if (held) doing.push(held);
    if (p.eks[g.name]) doing.push(`EKS ${p.eks[g.name]}`);
  }
  const what = doing.length > 0 ? `: ${doing.join("; ")}` : "";
  return `still rolling · ${statusLine(p, now, true)} · ${done}/${total} nodes in all${what}`;
}

/**
 * Which PodDisruptionBudget holds the group's drain, since when, and until when: the drain's
 * timeout, and what happens then (the roll stops, or the pods left are deleted).
 */
function holdingLine(p: Progress, g: GroupProgress): string | undefined {
  const held = p.holding[g.name];
  if (!held) return undefined;
  const by = noBudgetHeld(held.pdb)
    ? `${held.pod} holds the drain of ${held.node}`
    : `PodDisruptionBudget ${held.pdb} holds ${held.pod} on ${held.node}`;
  const until =
    held.drainSince && g.drainTimeoutMs
      ? `; at ${new Date(Date.parse(held.drainSince) + g.drainTimeoutMs).toISOString().slice(11, 19)} its drain times out and ${g.deleteAfterDrainTimeout ? "what is left is deleted (deleteAfterDrainTimeout)" : "the roll stops (PodEvictionFailure)"}`
      : "";
  return `${by} since ${held.since.slice(11, 19)}${until}`;
}

/**
 * A log nobody watches live gets a heartbeat when nothing was written to it for this long: a wait
 * says at least this often what holds it.
 */
export const HEARTBEAT_MS = 30_000;

/**
 * The heartbeat due `now`, or undefined: none before the roll starts or after it ends, none
 * within HEARTBEAT_MS of the last line written (`lastWritten`, ms on the clock of `now`).
 */
export function heartbeatDue(
  p: Progress,
  now: Date,
  lastWritten: number | undefined,
): string | undefined {
  if (p.result || !p.startedAt) return undefined;
  if (lastWritten !== undefined && now.getTime() - lastWritten < HEARTBEAT_MS) return undefined;
  return `${now.toISOString().slice(11, 19)} ${heartbeatLine(p, now)}`;
}
