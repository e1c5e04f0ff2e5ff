// Rollback in the application layer: the groups a roll changed, back to what they ran before it
// (engine/rollback.ts), as an ordinary apply of the policy with those targets — planned, shown,
// carried out with the same budgets, drain rules and gates (minus the one that failed), resumable,
// one roll at a time under the cluster's Lease. Asked for on its own (`noderoll rollback`, the
// action's `mode: rollback`), or by a policy's `onFailure: rollback` after a gate fails.
import type { ApplyResult } from "../engine/apply.js";
import { rollbackPolicy } from "../engine/rollback.js";
import type { Plan } from "../plan/index.js";
import { resilient, type Cluster } from "../ports/index.js";

type Leases = Pick<Cluster, "getLease" | "createLease" | "updateLease">;
import { beforeLeaseName, readBefore } from "../roll/before.js";
import { LEASE_NAMESPACE, leaseName } from "../roll/lease.js";
import { setRequest } from "../roll/lease-request.js";
import { carryOut, type ApplyRequest } from "./carry-out.js";
import { driveOf, type Session } from "./session.js";

export interface RollbackRequest extends ApplyRequest {
  /** Only these groups (default: every group of the policy the record names). */
  only?: readonly string[];
  /** The gate that failed: left out of the rollback's own gates. */
  withoutGate?: string;
  /** A rollback following this run: only the groups its roll has not done, or this run did. */
  ofRun?: string;
}

/** The abort that asked for this rollback, cleared — only it: the clear is conditional on it
 * standing, read afresh on every attempt, so a pause that lands meanwhile stays. */
async function clearRollbackRequest(cluster: Leases, name: string): Promise<void> {
  await setRequest(
    cluster,
    LEASE_NAMESPACE,
    leaseName(name),
    undefined,
    (standing) => standing?.rollback === true,
  );
}

/** Roll the recorded groups back; what cannot be taken back is said, and nothing done to it. */
export async function rollBack(
  session: Session,
  req: RollbackRequest,
): Promise<ApplyResult & { plan?: Plan }> {
  const { ports } = session;
  const cluster = resilient(ports.cluster, ports.clock, {
    ...(session.signal && { signal: session.signal }),
  });
  const record = await driveOf(session)(readBefore(cluster, req.policy.cluster.name));
  const { policy, refused } = rollbackPolicy(req.policy, record, {
    ...(req.only && { only: req.only }),
    ...(req.withoutGate && { withoutGate: req.withoutGate }),
    ...(req.ofRun !== undefined && { ofRun: req.ofRun }),
  });
  for (const r of refused)
    req.log.emit({
      type: "note",
      group: r.group,
      message: `${r.group}: not rolled back: ${r.why}`,
    });
  const refusedText = refused.map((r) => `${r.group} (${r.why})`).join("; ");
  if (policy.groups.length === 0)
    return {
      result: "failure",
      message: refused.length
        ? `Nothing rolled back: ${refusedText}.`
        : `Nothing to roll back: no roll of ${req.only?.join(", ") ?? "the policy's groups"} is recorded on the cluster (Lease ${LEASE_NAMESPACE}/${beforeLeaseName(req.policy.cluster.name)}).`,
    };
  // The abort that asked for this rollback has stopped the roll: it is done with. Any other
  // request standing (a pause, a plain abort) holds the rollback too: apply refuses under it.
  await driveOf(session)(clearRollbackRequest(cluster, req.policy.cluster.name));
  const back = await carryOut(session, {
    ...req,
    policy,
    apply: { ...req.apply, rollback: true },
  });
  return refused.length
    ? { ...back, message: `${back.message} Not rolled back: ${refusedText}.` }
    : back;
}
