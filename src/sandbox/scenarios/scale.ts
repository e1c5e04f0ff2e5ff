// How large a world a scenario makes (nodes and pods), read from its text without validating or
// building it: the command line asks before it builds a world, to give a large one the heap it
// needs (src/cli/heap.ts). Only the sizes are read; a scenario that is not valid gets its errors
// when it is loaded, as before.
import { parse } from "yaml";
import { jsonBody } from "./schema.js";

export interface ScenarioScale {
  nodes: number;
  pods: number;
}

/**
 * Above this, a scenario that is not JSON is not read ahead: the YAML parser takes seconds on
 * megabytes, and large scenarios are the generator's JSON anyway.
 */
const YAML_READ_AHEAD_BYTES = 2 * 1024 * 1024;

/** The nodes and pods a scenario's text makes; undefined when it cannot tell. */
export function scenarioScale(text: string): ScenarioScale | undefined {
  const body = jsonBody(text);
  let value: unknown;
  try {
    if (body !== undefined) value = JSON.parse(body);
    else if (text.length <= YAML_READ_AHEAD_BYTES) value = parse(text, { maxAliasCount: 1000 });
  } catch {
    return undefined;
  }
  return scaleOf(value);
}

const record = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const count = (v: unknown, fallback: number): number =>
  typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : fallback;

/**
 * Nodes: each group's desired size. Pods: each workload's replicas (1 where unset, as the
 * scenario's default), a DaemonSet's one per node.
 */
function scaleOf(value: unknown): ScenarioScale | undefined {
  const s = record(value);
  if (!s) return undefined;
  let nodes = 0;
  for (const g of list(s.nodeGroups)) nodes += count(record(record(g)?.size)?.desired, 0);
  let pods = 0;
  for (const w of list(s.workloads)) {
    const r = record(w);
    if (r) pods += r.kind === "DaemonSet" ? nodes : count(r.replicas, 1);
  }
  return { nodes, pods };
}
