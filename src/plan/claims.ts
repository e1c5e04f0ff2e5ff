// The PersistentVolumeClaims the pods to move name, and the node affinity of the volumes they
// are bound to: what pins a pod with a zonal disk (an EBS volume) to that disk's zone. Read one
// by one, only those the pods name (a GET each, CONCURRENCY at a time; each volume once), never
// the cluster's claims or volumes. A claim or volume gone (404) says nothing; a read refused
// (403: a role without get on persistentvolumeclaims or persistentvolumes) leaves the volumes'
// zones unknown, and the plan says so rather than fail.
import { KubeApiError, type Cluster } from "../ports/index.js";
import { CONCURRENCY, mapLimit } from "./limit.js";
import type { ClaimInfo } from "./snapshot.js";

/** The answer, or undefined for a 404; a 403 is noted in `denied`. */
async function found<T>(read: Promise<T>, denied: Set<string>, what: string) {
  try {
    return await read;
  } catch (e) {
    if (e instanceof KubeApiError && e.status === 404) return undefined;
    if (e instanceof KubeApiError && e.status === 403) {
      denied.add(what);
      return undefined;
    }
    throw e;
  }
}

export async function readClaims(
  cluster: Cluster,
  refs: readonly { namespace: string; name: string }[],
): Promise<{ claims: ClaimInfo[]; unread?: string }> {
  const denied = new Set<string>();
  const got = await mapLimit(refs, CONCURRENCY, (r) =>
    found(cluster.getPersistentVolumeClaim(r.namespace, r.name), denied, "persistentvolumeclaims"),
  );
  const names = [...new Set(got.flatMap((c) => (c?.spec.volumeName ? [c.spec.volumeName] : [])))];
  const volumes = await mapLimit(names, CONCURRENCY, (name) =>
    found(cluster.getPersistentVolume(name), denied, "persistentvolumes"),
  );
  const affinity = new Map(
    volumes.flatMap((v) => {
      const terms = v?.spec.nodeAffinity?.required?.nodeSelectorTerms;
      return v && terms && terms.length > 0 ? [[v.metadata.name, terms] as const] : [];
    }),
  );
  const claims = refs.flatMap((r, i): ClaimInfo[] => {
    const c = got[i];
    if (!c) return [];
    const volume = c.spec.volumeName;
    const nodeAffinity = volume === undefined ? undefined : affinity.get(volume);
    return [{ ...r, ...(volume && { volume }), ...(nodeAffinity && { nodeAffinity }) }];
  });
  if (denied.size === 0) return { claims };
  return { claims, unread: `get on ${[...denied].sort().join(" and ")} is forbidden` };
}
