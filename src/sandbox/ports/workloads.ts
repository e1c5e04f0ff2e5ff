// The owner objects the Cluster face serves (Deployments, their ReplicaSets, StatefulSets,
// DaemonSets), made from the simulator's workload records: looked up by kind, namespace and
// name, and listed by kind in the API server's order (by "namespace/name", the key it stores
// objects under) so that a list in pages of 500 resumes where the last page ended. Each
// Deployment has the one ReplicaSet its pods belong to (the sandbox keeps no old revisions).
import type { Workload } from "../../ports/cluster.js";
import type { WorkloadRec } from "../model/records.js";

/** An object of one kind: the record behind it and the name it goes by. */
export interface WorkloadEntry {
  rec: WorkloadRec;
  kind: Workload["kind"];
  namespace: string;
  name: string;
}

const listOrder = (a: WorkloadEntry, b: WorkloadEntry) =>
  a.namespace < b.namespace
    ? -1
    : a.namespace > b.namespace
      ? 1
      : a.name < b.name
        ? -1
        : a.name > b.name
          ? 1
          : 0;

/** The entries by "kind/namespace/name" and, per kind, in list order; rebuilt when records are added. */
export class WorkloadTable {
  #built?: {
    size: number;
    byKey: Map<string, WorkloadEntry>;
    byKind: Map<Workload["kind"], WorkloadEntry[]>;
  };

  constructor(private readonly records: ReadonlyMap<string, WorkloadRec>) {}

  #index() {
    const all = this.records;
    if (this.#built?.size === all.size) return this.#built;
    const byKey = new Map<string, WorkloadEntry>();
    const byKind = new Map<Workload["kind"], WorkloadEntry[]>();
    const add = (e: WorkloadEntry) => {
      byKey.set(`${e.kind}/${e.namespace}/${e.name}`, e);
      let list = byKind.get(e.kind);
      if (!list) byKind.set(e.kind, (list = []));
      list.push(e);
    };
    for (const rec of all.values()) {
      if (rec.kind === "Pod") continue;
      add({ rec, kind: rec.kind, namespace: rec.namespace, name: rec.name });
      if (rec.replicaSet)
        add({ rec, kind: "ReplicaSet", namespace: rec.namespace, name: rec.replicaSet });
    }
    for (const list of byKind.values()) list.sort(listOrder);
    return (this.#built = { size: all.size, byKey, byKind });
  }

  get(kind: Workload["kind"], namespace: string, name: string): WorkloadEntry | undefined {
    return this.#index().byKey.get(`${kind}/${namespace}/${name}`);
  }

  /** Every object of the kind, by "namespace/name". */
  ofKind(kind: Workload["kind"]): readonly WorkloadEntry[] {
    return this.#index().byKind.get(kind) ?? [];
  }
}

/** The object as the API serves it: a ReplicaSet names its Deployment as its controller. */
export function toWorkload({ rec: w, kind, namespace, name }: WorkloadEntry): Workload {
  let ready = 0;
  let active = 0;
  for (const p of w.pods) {
    if (p.deletionAt === undefined) active++;
    if (p.ready && p.deletionAt === undefined) ready++;
  }
  const replicas = w.kind === "DaemonSet" ? active : w.replicas;
  const owner = { apiVersion: "apps/v1", kind: "Deployment", name: w.name, uid: w.uid };
  return {
    apiVersion: "apps/v1",
    kind,
    metadata: {
      name,
      namespace,
      uid: w.uid,
      ...(kind === "ReplicaSet" && { ownerReferences: [{ ...owner, controller: true }] }),
    },
    spec: { replicas, selector: { matchLabels: { ...w.template.labels } } },
    status: { replicas: active, readyReplicas: ready, availableReplicas: ready },
  };
}
