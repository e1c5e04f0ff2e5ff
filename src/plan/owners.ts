// The owners behind the pods a plan reads: ReplicaSets (for the Deployment above each),
// StatefulSets and Deployments, and the replicas of the workload each stands for. Read one by
// one (GET, a 404 meaning the owner is gone) when the plan reads few nodes, or listed a kind at
// a time, in pages, when it reads a large share of the cluster (src/plan/read.ts decides which):
// then an owner missing from the list is gone, as a 404 would say. Either way each owner is read
// once per plan, and once per run when its UID is known.
import {
  eachPage,
  KubeApiError,
  pageOf,
  type Cluster,
  type Toleration,
  type Workload,
} from "../ports/index.js";
import { CONCURRENCY, mapLimit } from "./limit.js";
import { workloadReplicas, type PdbInfo, type WorkloadInfo } from "./snapshot.js";

const NO_WORKLOADS: readonly WorkloadInfo[] = Object.freeze([]);

/** The inner map under `key`, created empty the first time. */
export function inner<K, K2, V>(map: Map<K, Map<K2, V>>, key: K): Map<K2, V> {
  let m = map.get(key);
  if (!m) map.set(key, (m = new Map<K2, V>()));
  return m;
}

/** An owner worth looking up, and the workload found behind it ("Kind/namespace/name"). */
export interface OwnerRef {
  kind: Workload["kind"];
  ns: string;
  name: string;
  uid?: string;
  workload?: string;
}

const LOOKED_UP: ReadonlySet<string> = new Set(["ReplicaSet", "StatefulSet", "Deployment"]);

/**
 * A pod's controller as the plan keeps it: one `owner` object for all its pods, the labels and
 * tolerations its last pod had (a controller's pods share their template's, so equal ones are
 * kept once; src/plan/pod-store.ts), and the OwnerRef to look up when it is a ReplicaSet (for its
 * Deployment), a StatefulSet or a Deployment.
 */
export interface KnownOwner {
  owner: { kind: string; name: string };
  labels: Record<string, string> | undefined;
  tolerations: Toleration[] | undefined;
  ref: OwnerRef | undefined;
  /**
   * Its ref's workload, copied here once the owners are read (Owners.settle): a pod is placed
   * reading this one object, where reading `ref.workload` was a second object per pod, and a
   * miss of the processor's cache each (3 million of them on 100,000 nodes).
   */
  workload: string | undefined;
  /** That workload's replicas, where it was read (Owners.settle). */
  replicas: number | undefined;
  /**
   * The budgets selecting `labels`, once asked (src/plan/pod-store.ts), of the budgets its
   * store was last given: forgotten whenever the owners settle.
   */
  budgets: PdbInfo[] | undefined;
  /** Its place among the owners kept (0, 1, …): a mark in an array, not a set of owners. */
  seq: number;
}

/**
 * Values by an owner's kind, namespace and name, in maps nested by each: a 100,000-node plan
 * looks up ~500,000 owners several times, and a key spelled out per lookup ("kind/ns/name") was
 * a new string to build and hash each time.
 */
export class ByOwner<V> {
  readonly #byNamespace = new Map<string, Map<string, Map<string, V>>>();

  get(kind: string, ns: string, name: string): V | undefined {
    return this.#byNamespace.get(ns)?.get(kind)?.get(name);
  }

  set(kind: string, ns: string, name: string, value: V): void {
    this.names(kind, ns).set(name, value);
  }

  /** The values of one kind and namespace, by name (made if there are none yet). */
  names(kind: string, ns: string): Map<string, V> {
    return inner(inner(this.#byNamespace, ns), kind);
  }
}

/** The controllers of the pods read, each once, by namespace, kind and name. */
export class Owners {
  readonly #known = new ByOwner<KnownOwner>();
  /**
   * The last one asked for: a list comes by namespace and name, and a controller names its pods
   * after itself (web-7d4b9-x2x7q), so its pods come one after another.
   */
  #last: { ns: string; kind: string; name: string; known: KnownOwner } | undefined;
  /** Every one kept, by `seq`. */
  readonly #all: KnownOwner[] = [];

  /** How many are kept. */
  get count(): number {
    return this.#all.length;
  }

  /**
   * Copy each one's ref's workload onto it, once the workloads are read (see `workload`), and
   * that workload's replicas where `workloads` has it.
   */
  settle(workloads: readonly WorkloadInfo[] = NO_WORKLOADS): void {
    const replicas = workloadReplicas(workloads);
    for (const known of this.#all) {
      known.workload = known.ref?.workload;
      known.replicas = known.workload === undefined ? undefined : replicas.get(known.workload);
      known.budgets = undefined;
    }
  }

  /** The one kept of that kind, namespace and name. */
  find(kind: string, ns: string, name: string): KnownOwner | undefined {
    return this.#known.get(kind, ns, name);
  }

  of(ns: string, o: { kind: string; name: string; uid?: string }): KnownOwner {
    const last = this.#last;
    if (last && last.name === o.name && last.ns === ns && last.kind === o.kind) return last.known;
    // One walk down the nested maps, for the lookup and, for a new owner, the insertion.
    const byName = this.#known.names(o.kind, ns);
    let known = byName.get(o.name);
    if (known) {
      this.#last = { ns, kind: o.kind, name: o.name, known };
      return known;
    }
    const ref = LOOKED_UP.has(o.kind)
      ? { kind: o.kind as Workload["kind"], ns, name: o.name, ...(o.uid && { uid: o.uid }) }
      : undefined;
    // Every field from the start: one layout for every owner (none added later).
    known = {
      owner: { kind: o.kind, name: o.name },
      labels: undefined,
      tolerations: undefined,
      ref,
      workload: undefined,
      replicas: undefined,
      budgets: undefined,
      seq: this.#all.length,
    };
    this.#all.push(known);
    byName.set(o.name, known);
    this.#last = { ns, kind: o.kind, name: o.name, known };
    return known;
  }
}

/** What a plan needs of an owner: its replicas and the Deployment above a ReplicaSet. */
interface OwnerFacts {
  replicas?: number;
  deployment?: { name: string; uid?: string };
}

/**
 * Owners already read, by kind and UID (namespace and name checked on each hit), for the plans
 * of one run (the engine re-plans each group just before rolling it): an owner's chain — a
 * ReplicaSet's Deployment — never changes while its UID stays, so a later plan reads only
 * owners it has not seen. An owner known by name only (no UID) is read again by each plan.
 * Replicas are as first read in the run; a plan uses them only to warn about single-replica
 * workloads.
 */
export class OwnerCache {
  readonly #byKind = new Map<
    string,
    Map<string, { ns: string; name: string; facts: OwnerFacts }>
  >();

  /**
   * `keeps`: false for a run that plans once (a plan alone), which no later plan reads again: on
   * 100,000 nodes its half a million entries took ~0.75 s of the read (profiled), and memory
   * until the run ended.
   */
  constructor(private readonly keeps = true) {}

  get(kind: string, ns: string, name: string, uid: string): OwnerFacts | undefined {
    const e = this.#byKind.get(kind)?.get(uid);
    return e && e.ns === ns && e.name === name ? e.facts : undefined;
  }

  set(kind: string, ns: string, name: string, uid: string, facts: OwnerFacts): void {
    if (!this.keeps) return;
    inner(this.#byKind, kind).set(uid, { ns, name, facts });
  }
}

/** The kind is the one asked for (a GET's path, a list's): a client may leave it out of a body. */
function factsOf(w: Workload, kind: Workload["kind"]): OwnerFacts {
  // Built field by field, not with conditional spreads: a list gives ~500,000 of these.
  const facts: OwnerFacts = {};
  if (w.spec.replicas !== undefined) facts.replicas = w.spec.replicas;
  const refs = kind === "ReplicaSet" ? w.metadata.ownerReferences : undefined;
  for (let i = 0; refs && i < refs.length; i++) {
    const r = refs[i] as { kind: string; name: string; uid?: string };
    if (r.kind !== "Deployment") continue;
    facts.deployment = r.uid ? { name: r.name, uid: r.uid } : { name: r.name };
    break;
  }
  return facts;
}

/** Read an owner; undefined when it is gone (404). Every other failure is the read's failure. */
async function readOwner(
  cluster: Cluster,
  kind: Workload["kind"],
  ns: string,
  name: string,
): Promise<OwnerFacts | undefined> {
  try {
    return factsOf(await cluster.getWorkload(kind, ns, name), kind);
  } catch (e) {
    // Deleted since its pods were listed: the pods stand for themselves.
    if (e instanceof KubeApiError && e.status === 404) return undefined;
    throw e;
  }
}

/** Where an owner is in a list of owners to read, by its kind, namespace and name. */
export type OwnerIndex = (kind: string, ns: string, name: string) => number | undefined;

/** A Deployment above listed ReplicaSets: its facts once found, in the run's cache or its list. */
interface Parent {
  uid: string | undefined;
  facts: OwnerFacts | undefined;
}

/**
 * The facts of the owners not in the run's cache, listed a kind at a time across the cluster in
 * pages (https://kubernetes.io/docs/reference/using-api/api-concepts/#retrieving-large-results-sets-in-chunks),
 * ReplicaSets and StatefulSets first, then the Deployments named directly or above those
 * ReplicaSets; each given to `found`. Only the facts of owners wanted are kept, page by page,
 * in arrays by the owner's place in `owners`: a listed item costs one lookup by its name, in
 * `index` where the caller has one (the pod store's own map of owners: on 100,000 nodes a second
 * map of ~500,000 took ~0.8 s to build, profiled), else in a map made here.
 */
async function listedWorkloads(
  cluster: Cluster,
  owners: readonly OwnerRef[],
  cache: OwnerCache,
  found: Found,
  progress: () => void,
  index: OwnerIndex | undefined,
): Promise<void> {
  const facts = new Array<OwnerFacts | undefined>(owners.length);
  const made = index ? undefined : new ByOwner<number>();
  const kinds = new Set<Workload["kind"]>();
  for (let i = 0; i < owners.length; i++) {
    const o = owners[i] as OwnerRef;
    facts[i] = o.uid ? cache.get(o.kind, o.ns, o.name, o.uid) : undefined;
    if (facts[i]) continue;
    made?.set(o.kind, o.ns, o.name, i);
    kinds.add(o.kind);
  }
  const placeOf: OwnerIndex = index ?? ((kind, ns, name) => made?.get(kind, ns, name));
  const list = async (kind: Workload["kind"], onItem: (ns: string, w: Workload) => void) => {
    if (!kinds.has(kind)) return;
    await eachPage(
      (cont) => cluster.listWorkloads(kind, undefined, pageOf(cont)),
      (items) => {
        for (let i = 0; i < items.length; i++) {
          const w = items[i] as Workload;
          onItem(w.metadata.namespace ?? "default", w);
        }
      },
    );
  };
  // An owner the cache answered is not read again.
  const wantedOf = (kind: Workload["kind"]) => (ns: string, w: Workload) => {
    const i = placeOf(kind, ns, w.metadata.name);
    if (i === undefined || facts[i]) return;
    const uid = (owners[i] as OwnerRef).uid;
    facts[i] = factsOf(w, kind);
    if (uid) cache.set(kind, ns, w.metadata.name, uid, facts[i]);
  };
  await Promise.all([
    list("ReplicaSet", wantedOf("ReplicaSet")),
    list("StatefulSet", wantedOf("StatefulSet")),
  ]);
  const { parentOf, parents } = parentsOf(owners, facts, cache);
  if (parents.missing) kinds.add("Deployment");
  const direct = wantedOf("Deployment");
  await list("Deployment", (ns, w) => {
    direct(ns, w);
    const p = parents.byName.get("Deployment", ns, w.metadata.name);
    if (!p || p.facts) return;
    p.facts = factsOf(w, "Deployment");
    if (p.uid) cache.set("Deployment", ns, w.metadata.name, p.uid, p.facts);
  });
  for (let i = 0; i < owners.length; i++) {
    progress();
    const parent = parentOf[i];
    found.add(owners[i] as OwnerRef, facts[i], parent ? parent.facts : facts[i]);
  }
}

/** The Deployment above each ReplicaSet whose facts are known, each Deployment once. */
function parentsOf(
  owners: readonly OwnerRef[],
  facts: readonly (OwnerFacts | undefined)[],
  cache: OwnerCache,
) {
  const parentOf = new Array<Parent | undefined>(owners.length);
  const parents = { byName: new ByOwner<Parent>(), missing: false };
  for (let i = 0; i < owners.length; i++) {
    const d = facts[i]?.deployment;
    if (!d) continue;
    const ns = (owners[i] as OwnerRef).ns;
    let p = parents.byName.get("Deployment", ns, d.name);
    if (!p) {
      p = { uid: d.uid, facts: d.uid ? cache.get("Deployment", ns, d.name, d.uid) : undefined };
      parents.byName.set("Deployment", ns, d.name, p);
      if (!p.facts) parents.missing = true;
    }
    parentOf[i] = p;
  }
  return { parentOf, parents };
}

type Facts<R> = (kind: Workload["kind"], ns: string, name: string, uid: string | undefined) => R;

/** Facts through the run's cache (owners with a UID), `read` for the rest, kept once read. */
function cached<R extends OwnerFacts | undefined | Promise<OwnerFacts | undefined>>(
  cache: OwnerCache,
  read: Facts<R>,
): Facts<OwnerFacts | R> {
  return (kind, ns, name, uid) => {
    const known = uid ? cache.get(kind, ns, name, uid) : undefined;
    if (known) return known;
    const got = read(kind, ns, name, uid);
    if (!(got instanceof Promise)) {
      if (got && uid) cache.set(kind, ns, name, uid, got);
      return got;
    }
    return got.then((f) => {
      if (f && uid) cache.set(kind, ns, name, uid, f);
      return f;
    }) as R;
  };
}

/** Replicas by workload, and each owner's `workload` set, as its facts and its top's say. */
class Found {
  readonly replicas = new Map<string, number>();

  add(o: OwnerRef, w: OwnerFacts | undefined, top: OwnerFacts | undefined): void {
    if (!w) return;
    const parent = w.deployment;
    const id = top && parent ? `Deployment/${o.ns}/${parent.name}` : `${o.kind}/${o.ns}/${o.name}`;
    o.workload = id;
    this.replicas.set(id, top?.replicas ?? w.replicas ?? 1);
  }

  /** The workloads in the order of `owners`, each once. */
  inOrder(owners: readonly OwnerRef[]): WorkloadInfo[] {
    const out: WorkloadInfo[] = [];
    for (const o of owners) {
      const n = o.workload === undefined ? undefined : this.replicas.get(o.workload);
      if (n === undefined) continue;
      out.push({ id: o.workload as string, replicas: n });
      this.replicas.delete(o.workload as string);
    }
    return out;
  }
}

/**
 * The workloads behind the owners — a ReplicaSet's Deployment, a StatefulSet — and the
 * replicas of each, in the order of `owners` (the order of their pods), whichever way they are
 * read; each owner's `workload` set to the one it stands for. Listed, the owners are looked up
 * in what the lists kept, with no promise per owner (a 100,000-node plan has ~250,000 owners).
 */
export async function readWorkloads(
  cluster: Cluster,
  owners: readonly OwnerRef[],
  how: {
    /** Listed a kind at a time (else read one by one). */
    listed: boolean;
    onProgress?: (done: number, total: number) => void;
    cache?: OwnerCache;
    /** Each of `owners`' place among them, where the caller has it (a listed read uses it). */
    index?: OwnerIndex;
  },
): Promise<WorkloadInfo[]> {
  const { listed, onProgress, cache = new OwnerCache(false), index } = how;
  const found = new Found();
  let done = 0;
  if (listed) {
    const progress = () => onProgress?.(++done, owners.length);
    await listedWorkloads(cluster, owners, cache, found, progress, index);
    return found.inOrder(owners);
  }
  // Each owner is read once per plan (a Deployment however many of its ReplicaSets have pods
  // here), and once per run when its UID is known.
  const reads = new ByOwner<Promise<OwnerFacts | undefined>>();
  const facts = cached(cache, (kind, ns, name) => {
    let read = reads.get(kind, ns, name);
    if (!read) reads.set(kind, ns, name, (read = readOwner(cluster, kind, ns, name)));
    return read;
  });
  await mapLimit(owners, CONCURRENCY, async (o) => {
    const w = await facts(o.kind, o.ns, o.name, o.uid);
    onProgress?.(++done, owners.length);
    const parent = w?.deployment;
    found.add(o, w, parent ? await facts("Deployment", o.ns, parent.name, parent.uid) : w);
  });
  return found.inOrder(owners);
}
