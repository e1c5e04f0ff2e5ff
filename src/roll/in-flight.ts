// Work a run starts that goes on without it, recorded on the cluster's Lease (lease.ts): an EKS
// update replaces nodes whether or not the run that started it is alive, and whoever holds the
// cluster next must know, to wait for it or follow it before rolling anything else.
import type { GroupKindId, Lease, ObjectMeta } from "../ports/index.js";

/**
 * Work a run started that goes on without it (an EKS update replaces nodes whether or not the
 * run that started it is alive): recorded on the Lease while it runs, so that a run that stops
 * — cancelled, killed — hands it to whoever holds the cluster next, who waits for it or follows
 * it before rolling anything else. Kept through a release and a takeover; cleared once over.
 */
export const IN_FLIGHT_ANNOTATION = "noderoll.io/in-flight";

/**
 * The id of work asked for whose answer has not come back (a run stopped, or killed, while its
 * request was on the wire): the kind finds what it became (InFlightWork.resolve).
 */
export const PENDING = "pending";

export interface InFlight {
  /** The kind of group whose work it is (it knows how to wait for it). */
  kind: GroupKindId;
  group: string;
  /** The work's own id (an EKS update id). */
  id: string;
}

/** The in-flight record of a Lease, as written; anything malformed in it is dropped. */
export function inFlightOf(lease: Lease | undefined): InFlight[] {
  const raw = lease?.metadata.annotations?.[IN_FLIGHT_ANNOTATION];
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const ok = (x: unknown) => typeof x === "string" && x.length > 0 && x.length <= 256;
  // A kind no kind knows is the engine's to drop (it cannot wait for it).
  return parsed.flatMap((w: Record<string, unknown>) =>
    w && ok(w.kind) && ok(w.group) && ok(w.id)
      ? [{ kind: w.kind as GroupKindId, group: w.group as string, id: w.id as string }]
      : [],
  );
}

export const sameWork = (a: InFlight, b: InFlight) =>
  a.kind === b.kind && a.group === b.group && a.id === b.id;

/** Metadata with the record set to `work` (none: the annotation removed). */
export function withRecord(meta: ObjectMeta, work: readonly InFlight[]): ObjectMeta {
  const { [IN_FLIGHT_ANNOTATION]: _old, ...rest } = meta.annotations ?? {};
  return {
    ...meta,
    annotations: work.length > 0 ? { ...rest, [IN_FLIGHT_ANNOTATION]: JSON.stringify(work) } : rest,
  };
}
