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
// PodDisruptionBudgets bound it from another side: a budget's pods on the nodes to replace can
// leave at most `disruptionsAllowed` at a time, and each must wait until a pod that left is
// replaced by a Ready one (scheduled, started, ready). After the surge is up, the slowest budget
// needs ceil(pods / allowed) such turns; the roll takes at least that, whatever the waves do.
import { VALIDATION_PERIOD_MS } from "../../src/roll/validate.js";
import type { PdbRec } from "../../src/sandbox/model/records.js";
import { pdbStatus } from "../../src/sandbox/sim/kube/disruption.js";
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
  /** The slowest PodDisruptionBudget's turns, ms (pdbSerialOf). */
  pdbSerialMs: number;
}

export interface Bound {
  totalMs: number;
  /** What binds: the waves' sum, or the slowest PodDisruptionBudget after the surge boot. */
  binding: "waves" | "pdb";
  /** The terms of the waves' sum, ms; with `pdb` binding, the total is surgeBoot + canary + pdbSerial. */
  pdbSerial: number;
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
  const wavesMs = Object.values(terms).reduce((a, b) => a + b, 0);
  const pdbMs = terms.surgeBoot + terms.canary + i.pdbSerialMs;
  const binding = pdbMs > wavesMs ? "pdb" : "waves";
  return { totalMs: Math.max(wavesMs, pdbMs), binding, pdbSerial: i.pdbSerialMs, terms, waves };
}

/**
 * The longest any PodDisruptionBudget holds the roll: its pods on `nodes` leave at most
 * `disruptionsAllowed` at a time (as at rest, every pod healthy), each turn lasting until a
 * replacement pod is scheduled, started and Ready. A budget that allows nothing is left out
 * (only force gets past it).
 */
export function pdbSerialOf(world: World, nodes: string[]): number {
  const t = world.scenario.timings;
  const moving = new Map<PdbRec, { pods: number; turnS: number }>();
  for (const name of nodes)
    for (const p of world.kube.nodes.get(name)?.pods ?? []) {
      if (p.workload?.kind === "DaemonSet") continue;
      const turnS = t.scheduler + p.template.startSeconds + p.template.readySeconds;
      for (const pdb of p.pdbs) {
        const m = moving.get(pdb) ?? { pods: 0, turnS: 0 };
        moving.set(pdb, { pods: m.pods + 1, turnS: Math.max(m.turnS, turnS) });
      }
    }
  let longest = 0;
  for (const [pdb, m] of moving) {
    const allowed = pdbStatus(pdb, world.clock.nowMs()).disruptionsAllowed;
    if (allowed > 0) longest = Math.max(longest, Math.ceil(m.pods / allowed) * m.turnS * 1000);
  }
  return longest;
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
