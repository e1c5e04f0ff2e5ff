// A record kept as one annotation on a Lease of its own in kube-system, beside the cluster's lock
// (lease.ts): what each group ran before a roll (before.ts), what a fleet rolled there
// (app/fleet-store.ts). A Lease because the role noderoll runs with may already write Leases in
// kube-system and nothing else there. Every write is a compare-and-swap on resourceVersion, from
// a fresh read each attempt, so another writer's change is kept (Kubernetes API conventions,
// "Concurrency control and consistency":
// https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency).
import { asNetworkError, KubeApiError, type Cluster, type Lease } from "../ports/index.js";
import { LEASE_NAMESPACE } from "./lease.js";

export type Leases = Pick<Cluster, "getLease" | "createLease" | "updateLease">;

const ATTEMPTS = 5;

const absent = (e: unknown) => e instanceof KubeApiError && e.status === 404;

/** A call whose answer never came: the connection broke, as the caller or the retry layer saw it. */
const lostAnswer = (e: unknown) =>
  asNetworkError(e) !== undefined ||
  asNetworkError((e as { cause?: unknown })?.cause) !== undefined;

/** The Lease, or undefined when there is none. */
export async function readLease(
  cluster: Pick<Cluster, "getLease">,
  name: string,
): Promise<Lease | undefined> {
  return cluster.getLease(LEASE_NAMESPACE, name).catch((e: unknown) => {
    if (absent(e)) return undefined;
    throw e;
  });
}

/**
 * Set `annotation` on Lease `name` to what `change` makes of the one standing (undefined: leave
 * it), creating the Lease when there is none. A lost race (409) or a lost answer (the write may
 * have landed) reads again: an annotation already as asked needs no write. Returns the Lease's
 * annotation as it stands after.
 */
export async function rewriteAnnotation(
  cluster: Leases,
  name: string,
  annotation: string,
  change: (current: string | undefined) => string | undefined,
): Promise<string | undefined> {
  for (let attempt = 1; ; attempt++) {
    const current = await readLease(cluster, name);
    const was = current?.metadata.annotations?.[annotation];
    const next = change(was);
    if (next === undefined || next === was) return was;
    const annotations = { ...current?.metadata.annotations, [annotation]: next };
    try {
      if (current)
        await cluster.updateLease(LEASE_NAMESPACE, {
          ...current,
          metadata: { ...current.metadata, annotations },
        });
      else
        await cluster.createLease(LEASE_NAMESPACE, {
          metadata: { name, namespace: LEASE_NAMESPACE, annotations },
          spec: {},
        });
      return next;
    } catch (e) {
      const again = (e instanceof KubeApiError && e.status === 409) || lostAnswer(e);
      if (!again || attempt >= ATTEMPTS) throw e;
    }
  }
}
