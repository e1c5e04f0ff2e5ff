// What each group ran before a roll, recorded on the cluster when the roll begins, so that a
// rollback — by this run after a failed gate, or by any later process on any machine, after a
// crash too — knows where to go back to (engine/rollback.ts). It lives on a Lease of its own
// beside the cluster's lock (lease.ts): the lock's Lease is rewritten by every renewal, this
// record is written once per roll and read by whoever rolls back; a Lease because the role
// noderoll runs with may already write Leases in kube-system and nothing else there. The write
// is a compare-and-swap on resourceVersion, read again on a conflict (Kubernetes API
// conventions, "Concurrency control and consistency":
// https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency).
import {
  asNetworkError,
  KubeApiError,
  type Cluster,
  type GroupKindId,
  type Lease,
} from "../ports/index.js";
import { LEASE_NAMESPACE, leaseName } from "./lease.js";

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

type Leases = Pick<Cluster, "getLease" | "createLease" | "updateLease">;

const ATTEMPTS = 5;

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
  const raw = lease?.metadata.annotations?.[BEFORE_ANNOTATION];
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

const absent = (e: unknown) => e instanceof KubeApiError && e.status === 404;

/** A call whose answer never came: the connection broke, as the caller or the retry layer saw it. */
const lostAnswer = (e: unknown) =>
  asNetworkError(e) !== undefined ||
  asNetworkError((e as { cause?: unknown })?.cause) !== undefined;

/** The cluster's record (empty when none was ever written). */
export async function readBefore(cluster: Pick<Cluster, "getLease">, name: string) {
  const lease = await cluster
    .getLease(LEASE_NAMESPACE, beforeLeaseName(name))
    .catch((e: unknown) => {
      if (absent(e)) return undefined;
      throw e;
    });
  return beforeOf(lease);
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
  const lease = beforeLeaseName(name);
  for (let attempt = 1; ; attempt++) {
    const current = await cluster.getLease(LEASE_NAMESPACE, lease).catch((e: unknown) => {
      if (absent(e)) return undefined;
      throw e;
    });
    const next = change(beforeOf(current));
    if (!next) return beforeOf(current);
    const annotations = {
      ...current?.metadata.annotations,
      [BEFORE_ANNOTATION]: JSON.stringify(next),
    };
    try {
      if (current)
        await cluster.updateLease(LEASE_NAMESPACE, {
          ...current,
          metadata: { ...current.metadata, annotations },
        });
      else
        await cluster.createLease(LEASE_NAMESPACE, {
          metadata: { name: lease, namespace: LEASE_NAMESPACE, annotations },
          spec: {},
        });
      return next;
    } catch (e) {
      // Lost a race (409), or the answer was lost (the write may have landed): read again — a
      // record already as asked needs no write.
      const again = (e instanceof KubeApiError && e.status === 409) || lostAnswer(e);
      if (!again || attempt >= ATTEMPTS) throw e;
    }
  }
}
