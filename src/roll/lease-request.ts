// A request to whichever run holds a cluster — pause, or abort — written on the cluster's Lease
// (lease.ts) by `noderoll pause|abort` or the action's `mode: pause|abort`, from any machine. The
// run holding the Lease reads it with its renewals and stops at its next safe point (between
// nodes); a run that starts while one stands refuses to; `noderoll resume` clears it.
//
// The Lease is the one object every run already reads and writes, under optimistic concurrency:
// every write carries the resourceVersion it read, so a request never clobbers a holder's renewal
// or takeover, and a holder's renewal never erases a request — whoever loses the race gets a 409
// Conflict and reads again ("Concurrency control and consistency", Kubernetes API conventions:
// https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency;
// the Lease object: https://kubernetes.io/docs/concepts/architecture/leases/). An annotation, not
// a field of the spec: the Lease's spec has no place for it, and annotations are where a
// client's own non-identifying data goes.
import { KubeApiError, type Cluster, type Lease, type ObjectMeta } from "../ports/index.js";
import { Stopped, type StopReason } from "./context.js";

/** The request on the Lease, as JSON: `{action, by, reason?, at}`. */
export const REQUEST_ANNOTATION = "noderoll.io/request";

export type RequestAction = "pause" | "abort";

export interface LeaseRequest {
  action: RequestAction;
  /** Who asked: a person at a host, or a workflow run. */
  by: string;
  reason?: string;
  /** When it was asked (ISO-8601, the asker's clock). */
  at: string;
  /** An abort that asks for the groups to go back to what they ran before (app/rollback.ts). */
  rollback?: true;
}

/** How many times a request is written again after losing a race for the Lease. */
const ATTEMPTS = 5;

const text = (x: unknown, max: number) =>
  typeof x === "string" && x.length > 0 && x.length <= max ? x : undefined;

/** The request on `lease`, if one stands; one that does not parse stands as a pause by nobody. */
export function requestOf(lease: Lease | undefined): LeaseRequest | undefined {
  const raw = lease?.metadata.annotations?.[REQUEST_ANNOTATION];
  if (raw === undefined) return undefined;
  let parsed: Record<string, unknown> = {};
  try {
    const v: unknown = JSON.parse(raw);
    if (v && typeof v === "object") parsed = v as Record<string, unknown>;
  } catch {
    // Someone wrote the annotation by hand: still a request to stop, not to be ignored.
  }
  const reason = text(parsed.reason, 1024);
  const action = parsed.action === "abort" ? "abort" : "pause";
  return {
    action,
    by: text(parsed.by, 256) ?? "(unknown)",
    ...(reason && { reason }),
    at: text(parsed.at, 64) ?? "(unknown time)",
    ...(action === "abort" && parsed.rollback === true && { rollback: true as const }),
  };
}

/** Metadata with the request set to `request` (none: the annotation removed), the rest kept. */
export function withRequest(meta: ObjectMeta, request: LeaseRequest | undefined): ObjectMeta {
  const { [REQUEST_ANNOTATION]: _old, ...rest } = meta.annotations ?? {};
  return {
    ...meta,
    annotations: request ? { ...rest, [REQUEST_ANNOTATION]: JSON.stringify(request) } : rest,
  };
}

/**
 * `annotations` (a holder's own) with the request `from` carries, as written: a holder's
 * renewal keeps a request it did not make, whatever else it rewrites.
 */
export function keepRequest(
  from: Lease | undefined,
  annotations: Record<string, string> = {},
): Record<string, string> {
  const raw = from?.metadata.annotations?.[REQUEST_ANNOTATION];
  return raw === undefined ? annotations : { ...annotations, [REQUEST_ANNOTATION]: raw };
}

/** The stop a request comes to. */
export function stopOf(r: LeaseRequest): StopReason {
  if (r.action === "abort")
    return {
      kind: "aborted",
      by: r.by,
      at: r.at,
      ...(r.reason && { reason: r.reason }),
      ...(r.rollback && { rollback: true }),
    };
  return { kind: "paused", by: r.by, at: r.at, ...(r.reason && { reason: r.reason }) };
}

/** "a pause requested by alice@laptop at … (reason: …)" */
export function describeRequest(r: LeaseRequest): string {
  const what = r.action === "abort" ? (r.rollback ? "n abort with rollback" : "n abort") : " pause";
  return `a${what} requested by ${r.by} at ${r.at}${r.reason ? ` (reason: ${r.reason})` : ""}`;
}

/** What a holder says when the request on its Lease changes; undefined: it did not. */
export function requestChange(
  was: LeaseRequest | undefined,
  now: LeaseRequest | undefined,
): string | undefined {
  if (JSON.stringify(was) === JSON.stringify(now)) return undefined;
  if (now)
    return `${describeRequest(now)}: no new node starts; the roll stops once the nodes in flight are done`;
  return `${describeRequest(was as LeaseRequest)} was cleared (resume): the roll goes on`;
}

/** A run that finds a request standing as it takes the Lease: it starts nothing, writes nothing. */
export function requestStands(r: LeaseRequest, namespace: string, name: string): Stopped {
  return new Stopped(
    stopOf(r),
    `nothing was started or changed (the request stands on Lease ${namespace}/${name})`,
  );
}

export interface RequestWritten {
  /** The Lease after the write (or as it was, when nothing needed writing); absent: none. */
  lease?: Lease;
  /** The request that stood before. */
  before?: LeaseRequest;
  /** Whether the Lease was written. */
  changed: boolean;
}

/** `b` asks nothing `a` does not: the same action, and a rollback only if `a` asks one too. */
const sameAction = (a: LeaseRequest | undefined, b: LeaseRequest | undefined) =>
  a?.action === b?.action && (!b?.rollback || a?.rollback === true);

/**
 * Set `request` on the Lease (undefined: clear the one standing), nothing else of it changed: a
 * read, then a write from what was read (its resourceVersion the precondition); a conflict — the
 * holder renewed, another run took the Lease, another request landed — is read again and the
 * change made on the fresh copy. No Lease yet: one is created with the request and no holder (a
 * pause before any run). The same action standing already is left as it is (the first asker
 * named); a clear of nothing writes nothing.
 */
export async function setRequest(
  cluster: Pick<Cluster, "getLease" | "createLease" | "updateLease">,
  namespace: string,
  name: string,
  request: LeaseRequest | undefined,
  /** Write only when what stands (read afresh each attempt) passes: no blind overwrite. */
  onlyIf?: (standing: LeaseRequest | undefined) => boolean,
): Promise<RequestWritten> {
  for (let attempt = 1; ; attempt++) {
    const current = await cluster.getLease(namespace, name).catch((e: unknown) => {
      if (e instanceof KubeApiError && e.status === 404) return undefined;
      throw e;
    });
    const before = requestOf(current);
    if (sameAction(before, request) || (onlyIf && !onlyIf(before)))
      return { ...(current && { lease: current }), ...(before && { before }), changed: false };
    try {
      const lease = current
        ? await cluster.updateLease(namespace, {
            ...current,
            metadata: withRequest(current.metadata, request),
          })
        : await cluster.createLease(namespace, {
            metadata: withRequest({ name, namespace }, request),
            spec: {},
          });
      return { lease, ...(before && { before }), changed: true };
    } catch (e) {
      // Lost a race (409 Conflict, or AlreadyExists on a create): read again, change again.
      if (!(e instanceof KubeApiError && e.status === 409) || attempt >= ATTEMPTS) throw e;
    }
  }
}
