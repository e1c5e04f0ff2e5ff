// The application layer's plan, for the command line and the action alike: read the live state
// of the policy's cluster (src/app/session.ts), plan it, and — when asked — rehearse the roll on
// a twin of the cluster (docs/rehearsal.md). Nothing here prints or writes a file: the entry
// points show what it returns, each in its own way.
import type { Snapshot } from "../plan/index.js";
import { describeFailure } from "../ports/index.js";
import { readLiveCluster, REHEARSE_AUTO_MAX_NODES } from "../rehearsal/index.js";
import { rehearsePlan } from "./rehearse.js";
import {
  driveOf,
  readAndPlan,
  type Planned,
  type PlanRequest,
  type RehearseRequest,
  type Session,
} from "./session.js";

export type { Planned, PlanRequest, RehearseRequest, Session } from "./session.js";

/** Read live state and plan it, rehearsed when the request asks. */
export async function planPolicy(session: Session, req: PlanRequest): Promise<Planned> {
  return rehearseIfAsked(session, req, await readAndPlan(session, req));
}

function wanted(r: RehearseRequest | undefined, snapshot: Snapshot): r is RehearseRequest {
  if (!r) return false;
  return r.when === "always" || snapshot.clusterNodeCount <= REHEARSE_AUTO_MAX_NODES;
}

async function rehearseIfAsked(
  session: Session,
  req: PlanRequest,
  planned: Planned,
): Promise<Planned> {
  const r = req.rehearse;
  if (!wanted(r, planned.snapshot)) return planned;
  const drive = driveOf(session);
  try {
    r.onStart?.();
    // The twin's boots are timed from the launches of the instances the groups listed.
    const instances = new Set(planned.snapshot.groups.flatMap((g) => g.instances.map((i) => i.id)));
    const read = await drive(readLiveCluster(session.ports, session.signal, instances));
    const live = { ...read, ...(session.physics && { physics: session.physics }) };
    // The live cluster is read in its own time (a sandbox's, virtual); the twin runs in its own.
    const { plan, events } = await rehearsePlan(
      { ...req, plan: planned.plan, snapshot: planned.snapshot },
      {
        live,
        ...(r.timings && { timings: r.timings }),
        ...(session.signal && { signal: session.signal }),
      },
    );
    return { ...planned, plan, rehearsal: { events } };
  } catch (e) {
    if (!r.optional) throw e;
    return { ...planned, rehearsal: { failed: describeFailure(e) } };
  }
}
