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

/** A workload's pods not being deleted, and of those the ready, as of pod change `at`. */
interface PodCounts {
  at: number;
  active: number;
  ready: number;
}

/**
 * The entries by "kind/namespace/name" and, per kind, in list order; rebuilt when records are
 * added. Serves them as objects (`serve`), their pods counted once per record for as long as no
 * pod changes: a Deployment and its ReplicaSet are one record, listed one kind after the other,
 * and counting walked every pod of the world twice (~0.2 s of a 20,000-node plan).
 */
export class WorkloadTable {
  #built?: {
    size: number;
    byKey: Map<string, WorkloadEntry>;
    byKind: Map<Workload["kind"], WorkloadEntry[]>;
  };

  readonly #counts = new WeakMap<WorkloadRec, PodCounts>();

  /** `podChange()`: a number that is new after every pod event (created, changed, gone). */
  constructor(
    private readonly records: ReadonlyMap<string, WorkloadRec>,
    private readonly podChange: () => number,
  ) {}

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

  /** The entry as the API serves it now. */
  readonly serve = (e: WorkloadEntry): Workload => toWorkload(e, this.#countsOf(e.rec));

  #countsOf(w: WorkloadRec): PodCounts {
    const at = this.podChange();
    let counts = this.#counts.get(w);
    if (counts?.at === at) return counts;
    counts = { at, active: 0, ready: 0 };
    for (const p of w.pods) {
      if (p.deletionAt !== undefined) continue;
      counts.active++;
      if (p.ready) counts.ready++;
    }
    this.#counts.set(w, counts);
    return counts;
  }
}

/** The object as the API serves it: a ReplicaSet names its Deployment as its controller. */
function toWorkload(
  { rec: w, kind, namespace, name }: WorkloadEntry,
  { active, ready }: PodCounts,
): Workload {
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
