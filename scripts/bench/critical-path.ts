// Where a roll's time goes: every instant of the roll attributed to the one thing that kept it
// from starting another node, or to "idle" when nothing did.
//
// The budgets are the invariants' (docs/design.md, test/roll/invariants.ts): at most `window`
// (maxSurge + maxUnavailable) of the group's nodes in flight — out of service (cordoned, not
// yet gone), or terminated less than `interval` ago (kOps' wait before the slot is used again)
// — and at least `floor` (desired − maxUnavailable) Ready, schedulable ones. At an instant when
// nodes are left to start:
//  - both budgets have room: the roll could start another node now. If the engine is sleeping
//    between validations that is "validation"; otherwise "idle": fewer than `window` nodes in
//    flight although the budgets allowed more.
//  - the window is full: the roll waits for a node in flight to go; the one that goes first
//    says what: "drain" (cordoned, pods leaving), "waits" (drained, the postDrainDelay before
//    termination; or the interval after it), "terminate" (instance shutting down, node object
//    not deleted yet).
//  - capacity is at the floor: the roll waits for a replacement to be Ready; the one Ready first
//    says what: "boot" (launched, node not registered) or "registerReady" (registered, not Ready).
//  - both: the one that clears later binds.
// Once every node has started, the roll waits for whatever finishes last within it (a node
// going, a replacement turning Ready, a validation or an interval). The state is piecewise constant
// between the timestamps of the trace, so the split is exact, and its parts add up to the
// roll's duration.

export const CATEGORIES = [
  "boot",
  "registerReady",
  "drain",
  "waits",
  "terminate",
  "validation",
  "idle",
  "other",
] as const;
export type Category = (typeof CATEGORIES)[number];
export type Split = Record<Category, number>;

/** One node of the group over the roll, times in ms (undefined: did not happen). */
export interface NodeSpan {
  name: string;
  /** Its instance launched (undefined for a node that was there before the roll). */
  launched?: number;
  registered?: number;
  /** Ready (−Infinity: Ready before the roll). */
  ready?: number;
  /** No longer Ready after having been (its instance stopping). */
  notReady?: number;
  cordoned?: number;
  drainEnd?: number;
  terminated?: number;
  /** terminated + interval: the slot is not used again before. */
  intervalEnd?: number;
  deleted?: number;
  /** One of the nodes the roll replaces. */
  replaced: boolean;
}

export interface RollTrace {
  start: number;
  end: number;
  /** maxSurge + maxUnavailable (at least 1). */
  window: number;
  /** desired − maxUnavailable. */
  floor: number;
  nodes: NodeSpan[];
  /** When the engine slept between two validations. */
  validationGaps: [number, number][];
}

interface Blocker {
  category: Category;
  /** When it clears. */
  clears: number;
}

const before = (x: number | undefined, t: number) => x !== undefined && x <= t;
const notYet = (x: number | undefined, t: number) => x === undefined || x > t;
const within = (spans: [number, number][], t: number) => spans.find(([a, b]) => a <= t && t < b);

function isOut(n: NodeSpan, t: number): boolean {
  return before(n.cordoned, t) && notYet(n.deleted, t);
}
/** Gone, but within the interval after its termination: its slot is still taken. */
function inInterval(n: NodeSpan, t: number): boolean {
  return intervalRunning(n, t) && !isOut(n, t);
}
function intervalRunning(n: NodeSpan, t: number): boolean {
  return before(n.terminated, t) && n.intervalEnd !== undefined && t < n.intervalEnd;
}
function isReadySchedulable(n: NodeSpan, t: number): boolean {
  return (
    before(n.ready, t) && notYet(n.notReady, t) && notYet(n.cordoned, t) && notYet(n.deleted, t)
  );
}
function isLaunching(n: NodeSpan, t: number): boolean {
  return before(n.launched, t) && notYet(n.ready, t) && notYet(n.terminated, t);
}

/** An out-of-service node's stage, clearing when its node object is deleted. */
function outStage(n: NodeSpan, t: number): Blocker {
  const clears = n.deleted ?? Infinity;
  if (notYet(n.drainEnd, t) && notYet(n.terminated, t)) return { category: "drain", clears };
  if (notYet(n.terminated, t)) return { category: "waits", clears };
  return { category: "terminate", clears };
}
/** A replacement's stage, clearing when it is Ready. */
function launchStage(n: NodeSpan, t: number): Blocker {
  const clears = n.ready ?? Infinity;
  return { category: notYet(n.registered, t) ? "boot" : "registerReady", clears };
}

/** First (earliest clearing) or last of some blockers. */
function pick(list: Blocker[], last: boolean): Blocker | undefined {
  let out: Blocker | undefined;
  for (const b of list) if (!out || (last ? b.clears > out.clears : b.clears < out.clears)) out = b;
  return out;
}

function validating(trace: RollTrace, t: number): Blocker | undefined {
  const gap = within(trace.validationGaps, t);
  return gap && { category: "validation", clears: gap[1] };
}

/** What the roll waits for at instant `t` (the state holds until the next timestamp). */
export function classify(trace: RollTrace, t: number): Category {
  const toStart = trace.nodes.filter((n) => n.replaced && notYet(n.cordoned, t)).length;
  const leaving = [
    ...trace.nodes.filter((n) => isOut(n, t)).map((n) => outStage(n, t)),
    ...trace.nodes
      .filter((n) => inInterval(n, t))
      .map((n): Blocker => ({ category: "waits", clears: n.intervalEnd as number })),
  ];
  const windowFull = leaving.length >= trace.window;
  const atFloor = trace.nodes.filter((n) => isReadySchedulable(n, t)).length <= trace.floor;
  const wait = validating(trace, t);
  const launching = trace.nodes.filter((n) => isLaunching(n, t)).map((n) => launchStage(n, t));
  if (toStart > 0) {
    if (!windowFull && !atFloor) return wait?.category ?? "idle";
    const blockers = [
      ...(windowFull ? [pick(leaving, false)] : []),
      ...(atFloor ? [pick(launching, false)] : []),
    ].filter((b): b is Blocker => b !== undefined);
    return pick(blockers, true)?.category ?? wait?.category ?? "other";
  }
  // Every node has started: the roll ends when the last of these that ends within it does
  // (a node deleted after the roll's end did not hold it up; the engine's interval did).
  const intervals = trace.nodes
    .filter((n) => intervalRunning(n, t))
    .map((n): Blocker => ({ category: "waits", clears: n.intervalEnd as number }));
  const all = [...leaving, ...intervals, ...launching, ...(wait ? [wait] : [])];
  const inside = all.filter((x) => x.clears <= trace.end);
  const last = inside.length > 0 ? pick(inside, true) : pick(all, false);
  return last?.category ?? "other";
}

/** The roll's duration split by what it waited for, in ms; the parts add up to end − start. */
export function criticalPath(trace: RollTrace): Split {
  const split = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Split;
  const times = new Set<number>([trace.start, trace.end]);
  const add = (x: number | undefined) => {
    if (x !== undefined && x > trace.start && x < trace.end) times.add(x);
  };
  for (const n of trace.nodes)
    for (const x of [
      n.launched,
      n.registered,
      n.ready,
      n.notReady,
      n.cordoned,
      n.drainEnd,
      n.terminated,
      n.intervalEnd,
      n.deleted,
    ])
      add(x);
  for (const [a, b] of trace.validationGaps) {
    add(a);
    add(b);
  }
  const sorted = [...times].sort((a, b) => a - b);
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i] as number;
    const b = sorted[i + 1] as number;
    split[classify(trace, a)] += b - a;
  }
  return split;
}
