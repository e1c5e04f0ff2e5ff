// Rehearsing a plan: read the whole cluster, build its twin, run apply on it in virtual time, and
// return the plan with what the rehearsal found (docs/rehearsal.md). The command line
// (`plan --rehearse`) and the action (`rehearse`) call this; nothing here writes to the cluster.
import type { PlanOptions } from "../engine/index.js";
import { withRehearsal, type Plan, type Snapshot } from "../plan/index.js";
import type { Policy } from "../policy/index.js";
import type { Clock, Cloud, Cluster, RollEvent } from "../ports/index.js";
import { readLiveCluster, type LiveCluster } from "./live.js";
import { rehearse } from "./rehearse.js";
import { parseDuration } from "../policy/index.js";
import { givenTimings, REHEARSAL_TIMINGS } from "./timings.js";

export { physicsOf, readLiveCluster, type LiveCluster } from "./live.js";
export { REHEARSAL_TIMINGS };

/** The action rehearses a pull request's plan on its own only up to this many nodes. */
export const REHEARSE_AUTO_MAX_NODES = 300;

export interface RehearseOptions {
  /** `k=duration` pairs from a flag (`boot=90s,podStart=20s`), over the policy's timings. */
  timings?: Record<string, string>;
  /** A sandbox cluster's own physics (its timings and seed). */
  physics?: LiveCluster["physics"];
  /** The whole cluster, already read (a sandbox is read in its own virtual time). */
  live?: LiveCluster;
  /** A cancelled run: the read and the twin's roll stop at once. */
  signal?: AbortSignal;
}

export async function rehearsePlan(
  ports: { cloud: Cloud; cluster: Cluster; clock: Clock },
  input: { policy: Policy; file: string; plan: Plan; snapshot: Snapshot; options: PlanOptions },
  o: RehearseOptions = {},
): Promise<{ plan: Plan; events: RollEvent[] }> {
  const instances = new Set(input.snapshot.groups.flatMap((g) => g.instances.map((i) => i.id)));
  const read = o.live ?? (await readLiveCluster(ports, o.signal, instances));
  const live = { ...read, ...(o.physics && { physics: o.physics }) };
  const timings = {
    ...givenTimings(input.policy.rehearsal?.timings),
    ...givenTimings(o.timings),
  };
  const { rehearsal, events } = await rehearse({
    ...input,
    live,
    timings,
    ...(o.signal && { signal: o.signal }),
  });
  return { plan: withRehearsal(input.plan, rehearsal), events };
}

/** `boot=90s,podStart=20s` → `{ boot: "90s", podStart: "20s" }`, or why not. */
export function parseTimingFlag(text: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z]+)=(\S+)$/.exec(part);
    if (!m) return `"${part}" is not name=duration (such as boot=90s)`;
    const [, name, value] = m as unknown as [string, string, string];
    if (!(name in REHEARSAL_TIMINGS))
      return `"${name}" is not a rehearsal timing; they are ${Object.keys(REHEARSAL_TIMINGS).join(", ")}`;
    if (parseDuration(value) === undefined) return `"${value}" is not a duration (such as 90s)`;
    out[name] = value;
  }
  return out;
}
