// How large a world a scenario makes: the command line asks before it builds one, to give a
// large world the heap it needs (src/cli/heap.ts).
import type { Scenario } from "./schema.js";

type Workload = Scenario["workloads"][number];

export interface ScenarioScale {
  nodes: number;
  pods: number;
}

/** A workload's replicas as the world keeps them: a bare Pod is one, whatever it says. */
export function replicasOf(w: Workload): number {
  return w.kind === "Pod" ? 1 : w.replicas;
}

/** Nodes: each group's desired size. Pods: each workload's replicas, a DaemonSet's one per node. */
export function scenarioScale(s: Scenario): ScenarioScale {
  let nodes = 0;
  for (const g of s.nodeGroups) nodes += g.size.desired;
  let pods = 0;
  for (const w of s.workloads) pods += w.kind === "DaemonSet" ? nodes : replicasOf(w);
  return { nodes, pods };
}
