// The least time any executor needs to roll a self-managed group with kOps' semantics and the
// invariants' budgets (maxUnavailable 0: Ready, schedulable nodes never below desired; at most
// maxSurge detached for surge). Drains and API latency aside, what cannot be avoided:
//  - surge: maxSurge replacements boot before the first drain (with a canary, one boots and is
//    validated before the others launch);
//  - waves: `window` nodes at a time. Each wave's pods must shut down (each pod as the sandbox
//    models it: min(preStop + podShutdown, terminationGracePeriodSeconds); a wave lasts as long
//    as its slowest pod, and the best grouping puts the slowest nodes together), then
//    postDrainDelay;
//  - validations: count in a row, 10 s apart (count − 1 periods: the first is instant), once
//    the surge is up and after every wave;
//  - after a wave's terminations its replacements boot before the next wave may take capacity
//    away; the interval runs meanwhile (both start at the termination), so a wave waits the
//    longer of the two. The last wave is the surge's own nodes: no replacement, the interval
//    only.
// A replacement's boot is the timings' boot + register + nodeReady, its jitter taken as zero.
import { VALIDATION_PERIOD_MS } from "../../src/roll/validate.js";
import type { World } from "../../src/sandbox/world/world.js";

export interface BoundInput {
  /** Each node's slowest pod shutdown, ms (pods a drain moves). */
  shutdownMs: number[];
  window: number;
  canary: boolean;
  postDrainDelayMs: number;
  intervalMs: number;
  count: number;
  bootMs: number;
}

export interface Bound {
  totalMs: number;
  /** The terms, ms: they add up to the total. */
  terms: {
    surgeBoot: number;
    canary: number;
    podShutdown: number;
    postDrainDelay: number;
    validation: number;
    replacementBoots: number;
    lastInterval: number;
  };
  waves: number;
}

export function lowerBound(i: BoundInput): Bound {
  const waves = Math.max(1, Math.ceil(i.shutdownMs.length / i.window));
  const slowestFirst = [...i.shutdownMs].sort((a, b) => b - a);
  let podShutdown = 0;
  for (let k = 0; k < waves; k++) podShutdown += slowestFirst[k * i.window] ?? 0;
  const period = (i.count - 1) * VALIDATION_PERIOD_MS;
  const terms = {
    surgeBoot: i.bootMs,
    canary: i.canary ? i.bootMs + period : 0,
    podShutdown,
    postDrainDelay: waves * i.postDrainDelayMs,
    validation: (1 + waves) * period,
    replacementBoots: (waves - 1) * Math.max(i.intervalMs, i.bootMs),
    lastInterval: i.intervalMs,
  };
  const totalMs = Object.values(terms).reduce((a, b) => a + b, 0);
  return { totalMs, terms, waves };
}

/** Each node's slowest pod shutdown, as the sandbox's kubelet times a graceful deletion. */
export function shutdownOf(world: World, nodes: string[]): number[] {
  const shutdown = world.scenario.timings.podShutdown;
  return nodes.map((name) => {
    let slowest = 0;
    for (const p of world.kube.nodes.get(name)?.pods ?? []) {
      if (p.workload?.kind === "DaemonSet") continue;
      const t = p.template;
      slowest = Math.max(
        slowest,
        Math.min(t.preStopSeconds + shutdown, t.terminationGracePeriodSeconds),
      );
    }
    return slowest * 1000;
  });
}

/** A replacement's boot: boot + register + nodeReady, ms. */
export function bootOf(world: World): number {
  const t = world.scenario.timings;
  return (t.boot + t.register + t.nodeReady) * 1000;
}
