// The generated cluster each plan part of the bench measures, and how a size's runs are summed
// up: one home for both, so the parts measure the same clusters the same way.
import type { GenerateOptions } from "../../src/sandbox/scenarios/generate.js";

/** A generated cluster of `nodes` nodes: 250 nodes a group (at least 4 groups), 30 pods a node. */
export const generatedCluster = (nodes: number): GenerateOptions => ({
  nodes,
  groups: Math.max(4, Math.round(nodes / 250)),
  podsPerNode: 30,
  seed: 1,
});

/** The run whose `ms` is the median of `runs` (the lower middle one of an even count). */
export function medianRun<T>(runs: readonly T[], ms: (run: T) => number): T {
  const sorted = [...runs].sort((a, b) => ms(a) - ms(b));
  return sorted[Math.floor((sorted.length - 1) / 2)] as T;
}
