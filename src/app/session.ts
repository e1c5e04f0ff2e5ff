// What the application layer works on — one cluster, connected (its ports, the run's signal,
// how its tasks are driven in time) — and its first step, shared by plan and apply: read the
// policy's live state and plan it, saying how far a long read has got.
import { Planner, type PlanOptions } from "../engine/index.js";
import type { OnProgress, Plan, Snapshot } from "../plan/index.js";
import type { Policy } from "../policy/index.js";
import type { Clock, Cloud, Cluster, Metrics, RollEvent } from "../ports/index.js";
import type { LiveCluster } from "../rehearsal/index.js";
import { withReadProgress } from "./read-progress.js";

/** Runs a task in the ports' time: a sandbox's virtual time; a live cluster's is the wall's. */
export type Drive = <T>(task: Promise<T>) => Promise<T>;

/** One cluster, connected: the ports a run reads and writes through, and how it runs. */
export interface Session {
  ports: { cloud: Cloud; cluster: Cluster; clock: Clock; metrics?: Metrics };
  /** A cancelled run: every read and the roll stop at once. */
  signal?: AbortSignal;
  /** A sandbox's `world.run`; live, the identity. */
  drive?: Drive;
  /** Lines that say how far a long read has got (src/app/read-progress.ts). */
  progress?: (line: string) => void;
  /** A sandbox's own physics, which a rehearsal of the sandbox itself takes as given. */
  physics?: LiveCluster["physics"];
}

export interface RehearseRequest {
  /** Always, or only for a cluster small enough to rehearse quickly (REHEARSE_AUTO_MAX_NODES). */
  when: "always" | "small-cluster";
  /** `k=duration` pairs (`boot=90s,podStart=20s`), over the policy's timings. */
  timings?: Record<string, string>;
  /** A rehearsal that cannot run leaves the plan as it is instead of failing the plan. */
  optional?: boolean;
  /** Told when the rehearsal starts (it takes a while on a big cluster). */
  onStart?: () => void;
}

export interface PlanRequest {
  policy: Policy;
  file: string;
  options: PlanOptions;
  rehearse?: RehearseRequest;
  /** The run's planner, when the caller made it (a test choosing how pods are read). */
  planner?: Planner;
}

export interface Planned {
  plan: Plan;
  snapshot: Snapshot;
  /** The planner that made the plan: apply plans each group again with it (settings once). */
  planner: Planner;
  /** The twin's event log, or why the rehearsal could not run (an optional one). */
  rehearsal?: { events: RollEvent[] } | { failed: string };
}

const now: Drive = (task) => task;

/** `session.drive`, or the identity: a live cluster's tasks run in the wall's time. */
export function driveOf(session: Session): Drive {
  return session.drive ?? now;
}

/** Read live state and plan it; `replans`: apply will plan again (pod owners are kept). */
export async function readAndPlan(
  session: Session,
  req: PlanRequest,
  replans = false,
): Promise<Planned> {
  const planner = req.planner ?? new Planner(req.policy, req.file, req.options, undefined, replans);
  const drive = driveOf(session);
  const ports = { ...session.ports, ...(session.signal && { signal: session.signal }) };
  const read = (onProgress?: OnProgress) => drive(planner.observe(ports, undefined, onProgress));
  const planned = session.progress ? await withReadProgress(session.progress, read) : await read();
  return { ...planned, planner };
}
