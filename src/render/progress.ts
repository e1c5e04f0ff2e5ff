// Progress of a roll, folded from its events and seeded with the plan it carries out: per
// group, the state of each of the four phases, the nodes planned and done, whether it was
// blocked or never started; the run's start, end and estimate; a per-node timeline. Rendered
// into the check run, the PR comment, the job summary and the terminal, so a reader never needs
// to know which engine ran.
import { reachedGroups, type GroupPlan, type Plan } from "../plan/index.js";
import type {
  GateVerdict,
  GroupKindId,
  Phase,
  Result,
  RollEvent,
  StopReason,
} from "../ports/index.js";
import { nodeLine } from "./lines.js";

export type PhaseState = "pending" | "running" | Result;

/** A wave of the plan's schedule: how many nodes, and when in the group's roll it runs. */
export interface PlannedWave {
  nodes: number;
  startMs: number;
  durationMs: number;
}

export interface GroupProgress {
  name: string;
  kind?: GroupKindId | "missing";
  phases: Record<Phase, PhaseState>;
  nodes: number;
  toReplace: number;
  replaced: number;
  /** What the plan said of the group before the roll. */
  planned?: GroupPlan["status"];
  estimatedMs?: number;
  /** Set once apply has reached the group. */
  started?: boolean;
  /** When apply reached it (group.start). */
  startedAt?: string;
  /** The plan's waves (its schedule): what the ETA reads how far into the group a moment is. */
  waves?: PlannedWave[];
  /** Its drains' timeout, and what happens then (the plan's settings): what a wait runs until. */
  drainTimeoutMs?: number;
  deleteAfterDrainTimeout?: boolean;
  /** The plan's apply stops at this group or before it: its nodes are not among those planned. */
  beyondStop?: boolean;
  result?: Result;
  message?: string;
  /** Each gate's last verdict (gate.verdict), by gate, in the order first read. */
  gates?: Record<string, { verdict: GateVerdict; value: string; detail?: string; t: string }>;
}

export interface Progress {
  cluster?: string;
  policy?: string;
  reason?: string;
  /** What started the roll: "push", "dispatch", "schedule", "cli". */
  trigger?: string;
  /** kOps' --force: every node, whatever its version. */
  replaceAll: boolean;
  /** EKS's force: what a drain leaves at its timeout is deleted. */
  deleteAfterDrainTimeout: boolean;
  startedAt?: string;
  endedAt?: string;
  /** The plan's estimate for the whole roll. */
  estimatedMs?: number;
  result?: Result;
  message?: string;
  groups: GroupProgress[];
  /** The phase that last changed, "group/phase", so reporters can flush on phase changes. */
  lastPhaseChange?: string;
  /** Pods whose eviction a PodDisruptionBudget refused at least once, "ns/name (pdb)". */
  blocked: string[];
  /** Pods deleted past their PodDisruptionBudgets at the drain timeout ("ns/name"). */
  forced: string[];
  /** "HH:MM:SS line" per node-level event, for the check run's text. */
  timeline: string[];
  /** The node being drained per group, and since when. */
  draining: Record<string, { node: string; since: string }>;
  /** What EKS last said of each managed group's update ("VersionUpdate InProgress"). */
  eks: Record<string, string>;
  /** When each node's drain began, while it drains (drains run side by side). */
  drainStarts: Record<string, string>;
  /** The PodDisruptionBudget holding each group's drain now (eviction.blocked), and since when. */
  holding: Record<
    string,
    { node: string; pod: string; pdb: string; since: string; drainSince?: string }
  >;
  /** How the plan to apply differs from the reviewed one, when it does. */
  drift?: string[];
  /** Why the roll stopped before it was done (roll.end), when it did. */
  stop?: StopReason;
  /** What the run waits for outside it (wait.start), until it ends. */
  waiting?: { what: string; since: string };
  /** Another run holds the cluster and this one waits for its lock (lock.wait), until taken. */
  lockWait?: { holder: string; runUrl?: string; alive: boolean; freeBy?: string };
  /**
   * A rollback that followed the roll in the same log (onFailure: rollback, abort --rollback):
   * its own outcome, apart from the roll's — the roll's result stays what it was.
   */
  rollback?: { result?: Result; message?: string; startedAt: string; endedAt?: string };
}

/** Timeline entries kept: the newest, so a long roll's text stays readable and bounded. */
export const TIMELINE_LIMIT = 2000;

const emptyPhases = (): Record<Phase, PhaseState> => ({
  setup: "pending",
  "scale-up": "pending",
  upgrade: "pending",
  "scale-down": "pending",
});

export function emptyProgress(): Progress {
  return {
    replaceAll: false,
    deleteAfterDrainTimeout: false,
    groups: [],
    blocked: [],
    forced: [],
    timeline: [],
    draining: {},
    eks: {},
    holding: {},
    drainStarts: {},
  };
}

function group(p: Progress, name: string): GroupProgress {
  let g = p.groups.find((x) => x.name === name);
  if (!g) {
    g = { name, phases: emptyPhases(), nodes: 0, toReplace: 0, replaced: 0 };
    p.groups.push(g);
  }
  return g;
}

/** Seed the groups with what the plan says, so pending groups show their planned counts. */
export function seedFromPlan(p: Progress, plan: Plan): Progress {
  // The nodes apply will replace: none of the group it stops at, nor of those after it.
  const reached = new Set(reachedGroups(plan.groups).map((g) => g.name));
  for (const g of plan.groups)
    Object.assign(group(p, g.name), {
      kind: g.kind,
      nodes: g.nodes,
      toReplace: g.replacements.length,
      ...(!reached.has(g.name) && { beyondStop: true }),
      planned: g.status,
      estimatedMs: g.schedule.estimatedMs,
      waves: g.schedule.waves.map((w) => ({
        nodes: w.nodes.length,
        startMs: w.startMs,
        durationMs: w.durationMs,
      })),
      ...(g.settings && {
        drainTimeoutMs: g.settings.drainTimeoutMs,
        deleteAfterDrainTimeout: g.settings.deleteAfterDrainTimeout,
      }),
    });
  p.estimatedMs = plan.summary.estimatedMs;
  return p;
}

function record(p: Progress, e: RollEvent): void {
  const line = nodeLine(e);
  if (!line) return;
  p.timeline.push(`${e.t.slice(11, 19)} ${line}`);
  if (p.timeline.length > TIMELINE_LIMIT) p.timeline.splice(0, p.timeline.length - TIMELINE_LIMIT);
}

function onNode(p: Progress, e: RollEvent): void {
  if (e.type === "node.drain.start") {
    p.draining[e.group] = { node: e.node, since: e.t };
    p.drainStarts[e.node] = e.t;
  }
  if (e.type === "eviction.blocked" && !e.final && !p.holding[e.group]) {
    const drainSince = p.drainStarts[e.node];
    p.holding[e.group] = {
      node: e.node,
      pod: e.pod,
      pdb: e.pdb,
      since: e.t,
      ...(drainSince && { drainSince }),
    };
  }
  if (e.type === "node.drain.end") {
    delete p.drainStarts[e.node];
    if (p.holding[e.group]?.node === e.node) delete p.holding[e.group];
    delete p.draining[e.group];
    for (const pod of e.deleted ?? []) if (!p.forced.includes(pod)) p.forced.push(pod);
  }
  if (e.type === "instance.terminate" && !e.warmPool) group(p, e.group).replaced += 1;
  if (e.type === "eks.update") p.eks[e.group] = `${e.updateType} ${e.status}`;
  if (e.type === "gate.verdict") {
    const g = group(p, e.group);
    g.gates ??= {};
    g.gates[e.gate] = {
      verdict: e.verdict,
      value: e.value,
      t: e.t,
      ...(e.detail && { detail: e.detail }),
    };
  }
  if (e.type === "eviction.blocked" && !p.blocked.includes(`${e.pod} (${e.pdb})`))
    p.blocked.push(`${e.pod} (${e.pdb})`);
}

/** Apply one event (mutates and returns the same object: reporters fold long logs). */
export function applyEvent(p: Progress, e: RollEvent): Progress {
  record(p, e);
  // A rollback's own groups and nodes are its timeline's, not the roll's counts and states.
  if (p.rollback && e.type !== "roll.end") return p;
  switch (e.type) {
    case "roll.start":
      // A rollback after the roll ended, in the same log: followed apart.
      if (e.rollback && p.result) {
        p.rollback = { startedAt: e.t };
        break;
      }
      Object.assign(p, {
        cluster: e.cluster,
        policy: e.policy,
        replaceAll: e.replaceAll,
        deleteAfterDrainTimeout: e.deleteAfterDrainTimeout,
        startedAt: e.t,
        ...(e.reason && { reason: e.reason }),
      });
      for (const name of e.groups) group(p, name);
      break;
    case "roll.end":
      if (p.rollback) {
        Object.assign(p.rollback, { result: e.result, endedAt: e.t, message: e.message });
        break;
      }
      Object.assign(p, {
        result: e.result,
        message: e.message,
        endedAt: e.t,
        ...(e.stop && { stop: e.stop }),
      });
      delete p.lockWait;
      break;
    case "lock.wait": {
      const { type: _t, t: _at, ...wait } = e;
      p.lockWait = wait;
      break;
    }
    case "lock.acquire":
      delete p.lockWait;
      break;
    case "wait.start":
      p.waiting = { what: e.what, since: e.t };
      break;
    case "wait.end":
      delete p.waiting;
      break;
    case "group.start":
      Object.assign(group(p, e.group), {
        kind: e.kind,
        nodes: e.nodes,
        toReplace: e.replace,
        started: true,
        startedAt: e.t,
      });
      break;
    case "group.end":
      Object.assign(group(p, e.group), { result: e.result, message: e.message });
      delete p.draining[e.group];
      delete p.holding[e.group];
      break;
    case "phase.start":
      group(p, e.group).phases[e.phase] = "running";
      p.lastPhaseChange = `${e.group}/${e.phase}/start`;
      break;
    case "phase.end":
      group(p, e.group).phases[e.phase] = e.result;
      p.lastPhaseChange = `${e.group}/${e.phase}/${e.result}`;
      break;
    default:
      onNode(p, e);
  }
  return p;
}

export function foldEvents(events: readonly RollEvent[], plan?: Plan): Progress {
  const start = emptyProgress();
  if (plan) seedFromPlan(start, plan);
  return events.reduce(applyEvent, start);
}

/** Whether apply refused to start the group (its plan was blocked when it got there). */
export function wasBlocked(g: GroupProgress): boolean {
  return g.result === "failure" && (g.message?.includes("not started") ?? false);
}

/**
 * The groups apply never started that had work to do — as the plan names them (plan/summary.ts,
 * notStartedAfter): one with nothing to change is not among them.
 */
export function notStartedGroups(p: Progress): GroupProgress[] {
  return p.groups.filter((g) => !g.started && g.planned !== "no-change");
}

/**
 * The nodes replaced, of those the plan said apply would replace (plan/summary.ts: the groups
 * before the one it stops at) — never fewer than were replaced, should a group the plan found
 * blocked roll after all.
 */
export function nodeCounts(p: Progress): { done: number; total: number } {
  const done = p.groups.reduce((n, g) => n + g.replaced, 0);
  const planned = p.groups.reduce((n, g) => n + (g.beyondStop ? 0 : g.toReplace), 0);
  return { done, total: Math.max(done, planned) };
}
