// Pause, abort and resume: what `noderoll pause|abort|resume` and the action's `mode:
// pause|abort|resume` do, on one cluster (the policy's). A pause or an abort is a request written
// on the cluster's Lease (src/roll/lease-request.ts) — from any machine, while a run holds it or
// none does; the holder stops at its next node boundary and ends paused (exit 3) or aborted
// (exit 1), and every apply refuses to start while it stands. Resume clears it, then is an apply.
// Nothing here prints: the entry points say what these return.
import { applyPolicy, type ApplyRequest } from "./apply.js";
import { rollContext } from "../engine/context.js";
import { verifyBeforeLock, type ApplyResult } from "../engine/apply.js";
import type { Plan } from "../plan/index.js";
import type { Policy } from "../policy/index.js";
import type { Lease } from "../ports/index.js";
import { LEASE_NAMESPACE, leaseName, RENEW_EVERY_MS, RUN_URL_ANNOTATION } from "../roll/lease.js";
import {
  describeRequest,
  requestOf,
  setRequest,
  type LeaseRequest,
  type RequestAction,
} from "../roll/lease-request.js";
import { driveOf, type Session } from "./session.js";

export interface StopAsk {
  action: RequestAction;
  /** Who asks: a person at a host, a workflow run. */
  by: string;
  reason?: string;
  /** An abort that asks for a rollback once the roll has stopped (app/rollback.ts). */
  rollback?: boolean;
}

/** The run the Lease names as its holder, if any (a run, not a person: it stops itself). */
export interface Holder {
  holder: string;
  runUrl?: string;
}

export interface Asked {
  /** The request standing now: this one, or the same action someone asked before. */
  request: LeaseRequest;
  /** The same action stood already (asked by `request.by`): nothing was written. */
  already: boolean;
  holder?: Holder;
  lease: string;
  message: string;
}

export interface Cleared {
  /** The pause or abort cleared; absent: none stood, nothing was written. */
  cleared?: LeaseRequest;
  holder?: Holder;
  lease: string;
  message: string;
}

function holderOf(lease: Lease | undefined): Holder | undefined {
  const holder = lease?.spec.holderIdentity;
  if (!holder) return undefined;
  const runUrl = lease.metadata.annotations?.[RUN_URL_ANNOTATION];
  return { holder, ...(runUrl && { runUrl }) };
}

const named = (h: Holder) => `${h.holder}${h.runUrl ? ` (${h.runUrl})` : ""}`;

/**
 * The policy's cluster, proven as apply proves it before its first write (the Lease is one), and
 * the Lease API through the run's retrying ports; `write` is done in the session's time.
 */
async function onLease<T>(
  session: Session,
  policy: Policy,
  write: (cluster: ReturnType<typeof rollContext>["cluster"], name: string) => Promise<T>,
): Promise<T> {
  const signal = session.signal ?? new AbortController().signal;
  const ctx = rollContext(session.ports, { emit: () => undefined }, {}, signal);
  return driveOf(session)(
    (async () => {
      await verifyBeforeLock(policy, ctx);
      return write(ctx.cluster, leaseName(policy.cluster.name));
    })(),
  );
}

/**
 * Ask the run that holds the policy's cluster to pause (or abort) at its next node boundary, and
 * every later apply to refuse until resumed: the request is written on the Lease, the holder
 * untouched. Says whether a run holds the cluster now.
 */
export async function requestStop(
  session: Session,
  policy: Policy,
  file: string,
  ask: StopAsk,
): Promise<Asked> {
  const mine: LeaseRequest = {
    action: ask.action,
    by: ask.by,
    ...(ask.reason && { reason: ask.reason }),
    at: session.ports.clock.now().toISOString(),
    ...(ask.action === "abort" && ask.rollback && { rollback: true as const }),
  };
  const written = await onLease(session, policy, (cluster, name) =>
    setRequest(cluster, LEASE_NAMESPACE, name, mine),
  );
  const request = requestOf(written.lease) ?? mine;
  const holder = holderOf(written.lease);
  const lease = `${LEASE_NAMESPACE}/${leaseName(policy.cluster.name)}`;
  const stands = written.changed
    ? `${describeRequest(request)} is on Lease ${lease}`
    : `${describeRequest(request)} stood on Lease ${lease} already; left as it is`;
  const what = request.action === "pause" ? "paused" : "aborted";
  const then = request.rollback ? ", then rolls the groups back to what they ran before" : "";
  const run = holder
    ? `${named(holder)} holds the cluster: it sees the request within ${RENEW_EVERY_MS / 1000} s (it reads the Lease as it renews it) and stops at its next node boundary — no new node starts, the nodes in flight finish, their drains included — and ends ${what}${then}`
    : "No run holds the cluster now";
  const after = request.rollback
    ? holder
      ? "The rollback clears the abort."
      : "The rollback starts here, and clears the abort."
    : `Every apply of ${policy.cluster.name} refuses to start until \`noderoll resume --policy ${file}\` (the action: \`mode: resume\`) clears it.`;
  return {
    request,
    already: !written.changed,
    ...(holder && { holder }),
    lease,
    message: `${stands}. ${run}. ${after}`,
  };
}

/** Clear a pause or an abort standing on the policy's cluster's Lease (only that changed). */
export async function clearStop(session: Session, policy: Policy): Promise<Cleared> {
  const written = await onLease(session, policy, (cluster, name) =>
    setRequest(cluster, LEASE_NAMESPACE, name, undefined),
  );
  const holder = holderOf(written.lease);
  const lease = `${LEASE_NAMESPACE}/${leaseName(policy.cluster.name)}`;
  // A run still winding down from the pause goes on when it sees it cleared: this apply then
  // finds the cluster held (its --lock-wait waits for it).
  const still = holder
    ? ` ${named(holder)} holds the cluster: if it has not stopped yet, it goes on, and apply waits for it as for any holder (--lock-wait)`
    : "";
  return {
    ...(written.before && { cleared: written.before }),
    ...(holder && { holder }),
    lease,
    message: written.before
      ? `cleared ${describeRequest(written.before)} from Lease ${lease}.${still}`
      : `no pause or abort stood on Lease ${lease}: nothing to clear.${still}`,
  };
}

/**
 * Resume: the pause or abort cleared (`onCleared` says what was), then an apply like any other —
 * it plans afresh and picks up where the stopped run left off.
 */
export async function resumePolicy(
  session: Session,
  req: ApplyRequest,
  onCleared?: (c: Cleared) => void,
): Promise<ApplyResult & { plan: Plan }> {
  // Not `onCleared?.(await …)`: without a listener that would skip the clearing itself.
  const cleared = await clearStop(session, req.policy);
  onCleared?.(cleared);
  return applyPolicy(session, req);
}
