// How large a world a scenario makes: the command line asks before it builds one, to give a
// large world the heap it needs (src/cli/heap.ts), and of a JSON scenario before it is checked.
import { DEFAULT_REPLICAS } from "./schema.js";

export interface ScenarioScale {
  nodes: number;
  pods: number;
}

/** What the count reads of a scenario, checked or not. */
interface Counted {
  nodeGroups: readonly { size: { desired: number } }[];
  workloads: readonly { kind: string; replicas?: number }[];
}

/** A workload's replicas as the world keeps them: a bare Pod is one, whatever it says. */
export function replicasOf(w: { kind: string; replicas?: number }): number {
  return w.kind === "Pod" ? 1 : (w.replicas ?? DEFAULT_REPLICAS);
}

/** Nodes: each group's desired size. Pods: each workload's replicas, a DaemonSet's one per node. */
export function scenarioScale(s: Counted): ScenarioScale {
  let nodes = 0;
  for (const g of s.nodeGroups) nodes += g.size.desired;
  let pods = 0;
  for (const w of s.workloads) pods += w.kind === "DaemonSet" ? nodes : replicasOf(w);
  return { nodes, pods };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/**
 * The scale of a scenario's JSON value before it is checked, so that a command whose world needs
 * a larger heap runs again before it checks the file: the check (zod over every workload: ~2.9 s
 * of a 100,000-node file, against 0.75 s for JSON.parse) is the child's to do, and was done twice.
 * Undefined where the value has not a scenario's shape where the count reads it: the check then
 * says what is wrong.
 */
export function uncheckedScale(value: unknown): ScenarioScale | undefined {
  if (!isRecord(value)) return undefined;
  const { nodeGroups, workloads = [] } = value;
  if (!Array.isArray(nodeGroups) || !Array.isArray(workloads)) return undefined;
  for (const g of nodeGroups as unknown[])
    if (!isRecord(g) || !isRecord(g.size) || !isCount(g.size.desired)) return undefined;
  for (const w of workloads as unknown[]) {
    if (!isRecord(w) || typeof w.kind !== "string") return undefined;
    if (w.replicas !== undefined && !isCount(w.replicas)) return undefined;
  }
  return scenarioScale({ nodeGroups, workloads } as Counted);
}
