// What each group ran before a roll, recorded on the cluster when the roll begins, so that a
// rollback — by this run after a failed gate, or by any later process on any machine, after a
// crash too — knows where to go back to (engine/rollback.ts). It lives on a Lease of its own
// beside the cluster's lock (lease.ts): the lock's Lease is rewritten by every renewal, this
// record is written once per roll and read by whoever rolls back (lease-record.ts: a Lease
// annotation, written by compare-and-swap).
import type { Cluster, GroupKindId, Lease } from "../ports/index.js";
import { leaseName } from "./lease.js";
import { readLease, rewriteAnnotation, type Leases } from "./lease-record.js";

/** A group's versions, in the policy target's terms. */
export interface Versions {
  kubernetesVersion?: string;
  releaseVersion?: string;
  launchTemplateVersion?: number;
}

/** What a group ran before a roll (`from`), where the roll takes it (`to`), and which run said so. */
export interface GroupBefore {
  kind: GroupKindId;
  from: Versions;
  to: Versions;
  runId: string;
  at: string;
  /**
   * The roll reached `to` (by the run named): the record is history then — a rollback of a later
   * roll's halt does not take the group back by it, and the next roll records afresh.
   */
  done?: { runId: string; at: string };
}

export type BeforeRecord = Record<string, GroupBefore>;

const KINDS: readonly GroupKindId[] = ["managed", "self-managed"];

export const BEFORE_ANNOTATION = "noderoll.io/before";

/** The record's Lease, beside the cluster's lock. */
export const beforeLeaseName = (cluster: string) => `${leaseName(cluster)}-rollback`;

const versions = (v: unknown): Versions | undefined => {
  if (!v || typeof v !== "object") return undefined;
  const o = v as Record<string, unknown>;
  const s = (x: unknown) => (typeof x === "string" && x.length <= 64 ? x : undefined);
  const lt = typeof o.launchTemplateVersion === "number" ? o.launchTemplateVersion : undefined;
  return {
    ...(s(o.kubernetesVersion) && { kubernetesVersion: s(o.kubernetesVersion) }),
    ...(s(o.releaseVersion) && { releaseVersion: s(o.releaseVersion) }),
    ...(lt !== undefined && Number.isInteger(lt) && lt >= 1 && { launchTemplateVersion: lt }),
  };
};

/** The record on `lease`; entries that do not parse are left out (nothing to go back to). */
export function beforeOf(lease: Lease | undefined): BeforeRecord {
  return parseBefore(lease?.metadata.annotations?.[BEFORE_ANNOTATION]);
}

/** The record's annotation text read; entries that do not parse are left out. */
function parseBefore(raw: string | undefined): BeforeRecord {
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {};
  }
  const out: BeforeRecord = {};
  for (const [group, v] of Object.entries((parsed ?? {}) as Record<string, unknown>)) {
    const e = v as Record<string, unknown>;
    const from = versions(e?.from);
    const to = versions(e?.to);
    const kind = KINDS.find((k) => k === e?.kind);
    if (!from || !to || !kind || Object.keys(from).length === 0) continue;
    const done = e.done as Record<string, unknown> | undefined;
    out[group] = {
      kind,
      from,
      to,
      runId: String(e.runId ?? ""),
      at: String(e.at ?? ""),
      ...(done && { done: { runId: String(done.runId ?? ""), at: String(done.at ?? "") } }),
    };
  }
  return out;
}

/** The cluster's record (empty when none was ever written). */
export async function readBefore(cluster: Pick<Cluster, "getLease">, name: string) {
  return beforeOf(await readLease(cluster, beforeLeaseName(name)));
}

/**
 * Change the record with `change` (given the one standing; undefined: nothing to write), from a
 * fresh read each attempt: another writer's change (a rollback elsewhere) is kept.
 */
export async function updateBefore(
  cluster: Leases,
  name: string,
  change: (current: BeforeRecord) => BeforeRecord | undefined,
): Promise<BeforeRecord> {
  const after = await rewriteAnnotation(
    cluster,
    beforeLeaseName(name),
    BEFORE_ANNOTATION,
    (raw) => {
      const next = change(parseBefore(raw));
      return next && JSON.stringify(next);
    },
  );
  return parseBefore(after);
}
