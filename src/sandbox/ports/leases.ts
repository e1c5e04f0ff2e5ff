// The sandbox's coordination.k8s.io Leases, as the API server keeps them: a resourceVersion per
// write, 409 AlreadyExists on a second create, 409 Conflict on an update from a stale version
// (the compare-and-swap the cluster lock rests on), 404 NotFound; each write in the timeline.
import type { Lease } from "../../ports/cluster.js";
import { KubeApiError } from "../../ports/errors.js";
import type { VirtualClock } from "../model/clock.js";
import type { Timeline } from "../model/observers.js";
import type { LeaseRec } from "../model/records.js";
import type { KubeSim } from "../sim/kube/kube.js";

interface LeaseView {
  kube: Pick<KubeSim, "leases" | "uid" | "nextRv">;
  clock: VirtualClock;
  timeline: Timeline;
}

function leaseOf(l: LeaseRec): Lease {
  return {
    metadata: {
      name: l.name,
      namespace: l.namespace,
      uid: l.uid,
      resourceVersion: String(l.rv),
      creationTimestamp: new Date(l.createdAt).toISOString(),
      labels: { ...l.labels },
      annotations: { ...l.annotations },
    },
    spec: { ...l.spec },
  };
}

export function getLease(view: LeaseView, namespace: string, name: string): Lease {
  const l = view.kube.leases.get(`${namespace}/${name}`);
  if (!l) throw new KubeApiError(404, "NotFound", `leases.coordination.k8s.io "${name}" not found`);
  return leaseOf(l);
}

export function createLease(view: LeaseView, namespace: string, lease: Lease): Lease {
  const k = view.kube;
  const key = `${namespace}/${lease.metadata.name}`;
  if (k.leases.has(key))
    throw new KubeApiError(
      409,
      "AlreadyExists",
      `leases.coordination.k8s.io "${lease.metadata.name}" already exists`,
    );
  const rec: LeaseRec = {
    namespace,
    name: lease.metadata.name,
    uid: k.uid(),
    rv: k.nextRv(),
    spec: { ...lease.spec },
    createdAt: view.clock.nowMs(),
    labels: { ...(lease.metadata.labels ?? {}) },
    annotations: { ...(lease.metadata.annotations ?? {}) },
  };
  k.leases.set(key, rec);
  view.timeline.record("lease.create", { lease: key, holder: rec.spec.holderIdentity });
  return leaseOf(rec);
}

export function updateLease(view: LeaseView, namespace: string, lease: Lease): Lease {
  const k = view.kube;
  const key = `${namespace}/${lease.metadata.name}`;
  const rec = k.leases.get(key);
  if (!rec)
    throw new KubeApiError(
      404,
      "NotFound",
      `leases.coordination.k8s.io "${lease.metadata.name}" not found`,
    );
  if (
    lease.metadata.resourceVersion !== undefined &&
    lease.metadata.resourceVersion !== String(rec.rv)
  )
    throw new KubeApiError(
      409,
      "Conflict",
      `Operation cannot be fulfilled on leases.coordination.k8s.io "${lease.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`,
    );
  rec.spec = { ...lease.spec };
  rec.labels = { ...(lease.metadata.labels ?? rec.labels) };
  rec.annotations = { ...(lease.metadata.annotations ?? rec.annotations) };
  rec.rv = k.nextRv();
  view.timeline.record("lease.update", { lease: key, holder: rec.spec.holderIdentity });
  return leaseOf(rec);
}

export function deleteLease(view: LeaseView, namespace: string, name: string): void {
  const key = `${namespace}/${name}`;
  if (!view.kube.leases.delete(key))
    throw new KubeApiError(404, "NotFound", `leases.coordination.k8s.io "${name}" not found`);
  view.timeline.record("lease.delete", { lease: key });
}
