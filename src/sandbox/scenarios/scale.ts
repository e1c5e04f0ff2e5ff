// How large a world a scenario makes: the command line asks before it builds one, to give a
// large world the heap it needs (src/cli/heap.ts).
import type { Scenario } from "./schema.js";

export interface ScenarioScale {
  nodes: number;
  pods: number;
}

/**
 * Nodes: each group's desired size. Pods: each workload's replicas; a DaemonSet's, one per node;
 * a bare Pod's, one (src/sandbox/world/build.ts makes them so).
 */
export function scenarioScale(s: Scenario): ScenarioScale {
  let nodes = 0;
  for (const g of s.nodeGroups) nodes += g.size.desired;
  let pods = 0;
  for (const w of s.workloads)
    pods += w.kind === "DaemonSet" ? nodes : w.kind === "Pod" ? 1 : w.replicas;
  return { nodes, pods };
}
