// Health gates as a group's settings: what the policy writes under `gates:` (defaults <
// the group's rollingUpdate, key by key, `replacements` too), resolved into the plain record the
// roll reads (roll/gates.ts). The signals follow EC2 Auto Scaling's instance refresh (alarm
// specification, checkpoints, bake time:
// https://docs.aws.amazon.com/autoscaling/ec2/userguide/instance-refresh-overview.html) and Argo
// Rollouts' analysis verdicts (successful, failed, inconclusive:
// https://argo-rollouts.readthedocs.io/en/stable/features/analysis/).
import { parseDuration } from "./duration.js";
import type { Gates, OnFailure, OnInconclusive, Policy } from "./schema.js";

/** A Prometheus gate: its query's value must not cross `fail`. */
export interface PrometheusGate {
  name: string;
  address: string;
  query: string;
  fail: { above: number } | { below: number };
}

/** A group's gates, resolved: what the roll watches during every wave and bake. */
export interface GateSettings {
  /** How long the gates are watched after each wave before the next starts (0: not at all). */
  bakeMs: number;
  /** Shares of the group's nodes (0..1, ascending) after which the roll pauses or waits. */
  checkpoints: number[];
  /** At a checkpoint, wait this long and go on; absent: pause until resumed. */
  checkpointDelayMs?: number;
  alarms: string[];
  prometheus: PrometheusGate[];
  replacements: { readyWithinMs: number; crashLoopingPods: number };
  onFailure: OnFailure;
  onInconclusive: OnInconclusive;
}

export const GATE_DEFAULTS = {
  bake: "0s",
  readyWithin: "10m",
  crashLoopingPods: 1,
  onFailure: "halt",
  onInconclusive: "pause",
} as const;

/** Defaults < the group's own, key by key; `replacements` merged the same way. */
export function mergeGates(defaults: Gates | undefined, own: Gates | undefined): Gates {
  return {
    ...defaults,
    ...own,
    replacements: { ...defaults?.replacements, ...own?.replacements },
  };
}

const percent = (p: string) => Number(p.slice(0, -1)) / 100;

export function gateSettings(g: Gates): GateSettings {
  const checkpoints = [...new Set((g.checkpoints ?? []).map(percent))].sort((a, b) => a - b);
  return {
    bakeMs: parseDuration(g.bake ?? GATE_DEFAULTS.bake) as number,
    checkpoints,
    ...(g.checkpointDelay !== undefined && {
      checkpointDelayMs: parseDuration(g.checkpointDelay) as number,
    }),
    alarms: [...new Set(g.alarms ?? [])],
    prometheus: (g.prometheus ?? []).flatMap((p) => {
      const fail =
        p.failAbove !== undefined
          ? { above: p.failAbove }
          : p.failBelow !== undefined
            ? { below: p.failBelow }
            : undefined;
      return fail ? [{ name: p.name, address: p.address, query: p.query, fail }] : [];
    }),
    replacements: {
      readyWithinMs: parseDuration(
        g.replacements?.readyWithin ?? GATE_DEFAULTS.readyWithin,
      ) as number,
      crashLoopingPods: g.replacements?.crashLoopingPods ?? GATE_DEFAULTS.crashLoopingPods,
    },
    onFailure: g.onFailure ?? GATE_DEFAULTS.onFailure,
    onInconclusive: g.onInconclusive ?? GATE_DEFAULTS.onInconclusive,
  };
}

/** A rule that spans a gate's keys, broken: where (a path under `gates`), the key, and why. */
export interface GateProblem {
  path: readonly PropertyKey[];
  key?: string;
  message: string;
}

/**
 * The rules zod cannot say key by key: one threshold per Prometheus gate, unique names, a
 * checkpointDelay only with checkpoints — `checkpoints` says whether the block's groups have
 * any, merged (defaults < a group's own: either may hold the delay or the checkpoints).
 */
export function gateProblems(g: Gates | undefined, checkpoints: boolean): GateProblem[] {
  if (!g) return [];
  const problems: GateProblem[] = [];
  const seen = new Set<string>();
  (g.prometheus ?? []).forEach((p, i) => {
    if (!p) return;
    const both = p.failAbove !== undefined && p.failBelow !== undefined;
    if (both || (p.failAbove === undefined && p.failBelow === undefined))
      problems.push({
        path: ["prometheus", i],
        message: `Prometheus gate "${p.name}" needs exactly one threshold: failAbove or failBelow`,
        ...(both && { key: "failBelow" }),
      });
    if (seen.has(p.name))
      problems.push({
        path: ["prometheus", i],
        key: "name",
        message: `Prometheus gate "${p.name}" is listed twice; give each gate its own name`,
      });
    seen.add(p.name);
  });
  if (g.checkpointDelay !== undefined && !checkpoints)
    problems.push({
      path: [],
      key: "checkpointDelay",
      message: "checkpointDelay is set but there are no checkpoints; add checkpoints or remove it",
    });
  return problems;
}

/**
 * The signals a policy's groups are judged by beyond their replacements — every alarm and
 * Prometheus threshold of any group, once each — what a fleet's soak reads on the cluster.
 */
export function policySignals(policy: Policy): Pick<GateSettings, "alarms" | "prometheus"> {
  const all = policy.groups.map((g) =>
    gateSettings(mergeGates(policy.defaults?.gates, g.rollingUpdate?.gates)),
  );
  const prometheus = new Map(all.flatMap((s) => s.prometheus).map((p) => [p.name, p]));
  return {
    alarms: [...new Set(all.flatMap((s) => s.alarms))],
    prometheus: [...prometheus.values()],
  };
}
