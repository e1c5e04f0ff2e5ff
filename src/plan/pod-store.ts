// The pods a plan reads, kept as they are read and placed node by node once read. Each pod's
// fields go in a row of a chunk of rows, not an object of its own: a cluster-wide read meets the
// pods in list order (namespace, name), and the plan walks them node by node, so each pod used to
// be made twice (once as read, once in node order), 6 million objects on 100,000 nodes, all of
// them kept long enough to be copied by the garbage collector. Now the rows hold the fields (one
// set of chunks per range of nodes, see Bucket), placed node by node by a counting sort once all
// are read, and a node's PodInfo are made from its rows when the plan asks for its pods, whole
// (the workload included: one added later gives each pod its own out-of-object property store),
// together in memory where the plan's passes over them find them (made as read, the plan took
// twice as long). The plan asks group by group and lets a group's go with it: kept for the whole
// snapshot, they lived through read and plan, copied, faulted in and marked (see NodePods). Parts
// that repeat from pod to pod (containers, tolerations, owners, labels) are kept once, and what
// follows from an owner's is found once per owner: its pods' budgets, its workload's replicas.
import {
  controllerOf,
  hasReadyCondition,
  isMirrorPod,
  type Pod,
  type Toleration,
} from "../ports/index.js";
import { inner, Owners, type KnownOwner, type OwnerIndex, type OwnerRef } from "./owners.js";
import { pdbIndexOf, type PdbIndex } from "./pdb-index.js";
import { placementOf } from "./placement.js";
import {
  Bucket,
  CONTAINERS,
  LABELS,
  MIRROR,
  NAME,
  OWNER,
  READY,
  REFS,
  chunkOf,
  rowIn,
  TOLERATIONS,
  type Placed,
} from "./pod-rows.js";
import type { ContainerInfo, NodePods, PdbInfo, PodInfo, WorkloadInfo } from "./snapshot.js";

/** A `sleep N` in an exec hook (one RegExp for every pod: a literal in the function made one each). */
const SLEEP = /\bsleep\s+(\d+)/;

function preStopSeconds(c: Pod["spec"]["containers"][number]): number | undefined {
  const hook = c.lifecycle?.preStop;
  if (hook?.sleep) return hook.sleep.seconds;
  if (!hook?.exec) return undefined;
  const m = SLEEP.exec(hook.exec.command.join(" "));
  return m ? Number(m[1]) : undefined;
}

function containerInfo(name: string, readinessProbe: boolean, sleep: number | undefined) {
  return { name, readinessProbe, ...(sleep !== undefined && { preStopSleepSeconds: sleep }) };
}

const NO_TOLERATIONS: Toleration[] = Object.freeze([]) as never;

/** The value already under `key`, or `value`, kept there from now on. */
function keepFirst<K, V>(map: Map<K, V>, key: K, value: V): V {
  const known = map.get(key);
  if (known !== undefined) return known;
  map.set(key, value);
  return value;
}

/**
 * PodInfo parts that repeat from pod to pod — containers, tolerations (and, through Owners,
 * owners and labels) — kept once: a plan of 100,000 nodes holds 3 million pods, and each pod its
 * own copy of what its workload's other pods have too would be most of its memory. Snapshot
 * parts are never changed in place. Looked up through maps of maps, so a pod costs no key string.
 */
class Shared {
  readonly #single = new Map<string, Map<boolean, Map<number | undefined, ContainerInfo[]>>>();
  readonly #containers = new Map<string, ContainerInfo[]>();
  readonly #tolerations = new Map<string, Toleration[]>();

  containers(p: Pod): ContainerInfo[] {
    const c = p.spec.containers[0];
    // One container (most pods): looked up before anything is made for it.
    if (c && p.spec.containers.length === 1) {
      const sleep = preStopSeconds(c);
      const probe = c.readinessProbe !== undefined;
      const bySleep = inner(inner(this.#single, c.name), probe);
      return bySleep.get(sleep) ?? keepFirst(bySleep, sleep, [containerInfo(c.name, probe, sleep)]);
    }
    const list = p.spec.containers.map((c) =>
      containerInfo(c.name, c.readinessProbe !== undefined, preStopSeconds(c)),
    );
    const key = list
      .map((c) => `${c.name}\u0000${c.readinessProbe}\u0000${c.preStopSleepSeconds}`)
      .join("\u0001");
    return keepFirst(this.#containers, key, list);
  }

  /** The pod's tolerations: its owner's last pod's when equal (no key string made), kept once. */
  tolerations(list: Toleration[] | undefined, known: KnownOwner | undefined): Toleration[] {
    if (!list || list.length === 0) return NO_TOLERATIONS;
    if (known?.tolerations && sameTolerations(known.tolerations, list)) return known.tolerations;
    const kept = keepFirst(this.#tolerations, JSON.stringify(list), list);
    if (known) known.tolerations = kept;
    return kept;
  }
}

/** The same tolerations, field by field, in the same order. */
function sameTolerations(a: readonly Toleration[], b: readonly Toleration[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Toleration;
    const y = b[i] as Toleration;
    if (x.key !== y.key || x.operator !== y.operator || x.value !== y.value) return false;
    if (x.effect !== y.effect || x.tolerationSeconds !== y.tolerationSeconds) return false;
  }
  return true;
}

/** The same keys and values (no array of keys made: this runs for every pod read). */
function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  let n = 0;
  for (const k in b) {
    if (!Object.hasOwn(a, k) || a[k] !== b[k]) return false;
    n++;
  }
  for (const _ in a) n--;
  return n === 0;
}

/** The pod's labels: its owner's last pod's when equal, kept once (see KnownOwner). */
function labelsOf(p: Pod, known: KnownOwner | undefined): Record<string, string> {
  const labels = p.metadata.labels ?? {};
  if (!known) return labels;
  if (known.labels && sameLabels(known.labels, labels)) return known.labels;
  return (known.labels = labels);
}

/**
 * The budgets selecting a pod's labels: its owner's, asked once per owner, when they are its
 * owner's labels (an owner's pods share their template's: most pods) or agree with them on every
 * key the namespace's budgets read (a StatefulSet's pods each add their own name label, which
 * budgets seldom read) and the owner's are one budget or none (with more, their order is that of
 * the pod's own labels); else asked for its own. Each plan pass looked every pod's labels up in
 * a map of half a million of them instead (~1 µs a pod on 3 million, a miss of the processor's
 * cache each); the owner is read for the pod anyway.
 */
function budgetsOf(
  index: PdbIndex,
  known: KnownOwner | undefined,
  namespace: string,
  labels: Record<string, string>,
): PdbInfo[] {
  const owners = known?.labels;
  if (!known || !owners) return index.selects(namespace, labels);
  if (labels === owners) return (known.budgets ??= index.selects(namespace, labels));
  if (!index.alike(namespace, labels, owners)) return index.selects(namespace, labels);
  const budgets = (known.budgets ??= index.selects(namespace, owners));
  return budgets.length <= 1 ? budgets : index.selects(namespace, labels);
}

/**
 * Strings that repeat from pod to pod (namespaces, phases) as numbers, each string kept once: a
 * string parsed from an API response is a new one in every pod (V8 shares only short ones); 3
 * million copies of a few dozen names weigh ~90 MB, and the collector marks each of them again
 * every cycle.
 */
class Strings {
  readonly list: string[] = [];
  readonly #index = new Map<string, number>();

  of(text: string): number {
    let i = this.#index.get(text);
    if (i === undefined) this.#index.set(text, (i = this.list.push(text) - 1));
    return i;
  }
}

/** The pods read, in rows by range of nodes; `owners` and `byNode` give them node by node. */
export class PodStore {
  readonly #shared = new Shared();
  readonly #owners = new Owners();
  /** Each namespace read, by itself: one string kept for all its pods, not one per pod. */
  readonly #namespaces = new Strings();
  readonly #phases = new Strings();
  readonly #buckets: Bucket[];
  #placed: Placed[] | undefined;
  readonly #index: Map<string, number>;
  /** The index of the budgets byNode was given, which says which select each pod. */
  #budgets: PdbIndex | undefined;
  /** The claims the pods' volumes name, "namespace/name", each once. */
  readonly #claims = new Set<string>();

  /**
   * `nodeNames`: the nodes read; a pod is added with its node's index among them. `shift`:
   * 2^shift nodes to a range (512: about a megabyte of rows at 30 pods a node).
   */
  constructor(
    private readonly nodeNames: readonly string[],
    private readonly shift = 9,
  ) {
    const count = Math.ceil(nodeNames.length / (1 << shift));
    this.#index = new Map(nodeNames.map((n, i) => [n, i]));
    this.#buckets = Array.from({ length: count }, () => new Bucket());
  }

  /** Node `name`'s index among the nodes read (undefined for another node). */
  indexOf(name: string): number | undefined {
    return this.#index.get(name);
  }

  add(node: number, p: Pod): void {
    if (this.#placed) throw new Error("PodStore: a pod added after the pods were placed");
    const bucket = this.#buckets[node >> this.shift] as Bucket;
    const k = bucket.count++;
    const chunk = bucket.chunk(k);
    const row = rowIn(k);
    const at = row * REFS;
    const nsIndex = this.#namespaces.of(p.metadata.namespace ?? "default");
    const ns = this.#namespaces.list[nsIndex] as string;
    const o = controllerOf(p);
    const known = o && this.#owners.of(ns, o);
    chunk.refs[at + NAME] = p.metadata.name;
    chunk.refs[at + LABELS] = labelsOf(p, known);
    chunk.refs[at + OWNER] = known;
    chunk.refs[at + TOLERATIONS] = this.#shared.tolerations(p.spec.tolerations, known);
    chunk.refs[at + CONTAINERS] = this.#shared.containers(p);
    chunk.ns[row] = nsIndex;
    chunk.node[row] = node;
    chunk.phase[row] = this.#phases.of(p.status.phase);
    chunk.grace[row] = p.spec.terminationGracePeriodSeconds ?? 30;
    chunk.flags[row] =
      (hasReadyCondition(p.status.conditions) ? READY : 0) | (isMirrorPod(p) ? MIRROR : 0);
    const deletion = p.metadata.deletionTimestamp;
    if (deletion !== undefined) bucket.deleting.set(k, deletion);
    const placement =
      p.spec.nodeSelector || p.spec.affinity || p.spec.volumes ? placementOf(p) : undefined;
    if (placement === undefined) return;
    bucket.placements.set(k, placement);
    for (const claim of placement.claims ?? []) this.#claims.add(`${ns}/${claim}`);
  }

  /** The claims the pods read name, to read with their volumes (claims.ts). */
  get claims(): { namespace: string; name: string }[] {
    return [...this.#claims].sort().map((key) => {
      const at = key.indexOf("/");
      return { namespace: key.slice(0, at), name: key.slice(at + 1) };
    });
  }

  /** The namespaces of the pods read. */
  get namespaces(): ReadonlySet<string> {
    return new Set(this.#namespaces.list);
  }

  /** Each range's rows placed node by node, once all are read (see Bucket.place). */
  #place(): Placed[] {
    if (this.#placed) return this.#placed;
    const size = 1 << this.shift;
    this.#placed = this.#buckets.map((bucket, b) =>
      bucket.place(b * size, Math.min(size, this.nodeNames.length - b * size)),
    );
    return this.#placed;
  }

  /**
   * The owners to look up (ReplicaSets, StatefulSets, Deployments), in the order of their pods,
   * once every pod is read, and each one's place among them by kind, namespace and name.
   */
  ownersToRead(): { refs: OwnerRef[]; index: OwnerIndex } {
    const refs: OwnerRef[] = [];
    const at = new Int32Array(this.#owners.count).fill(-1);
    for (const { chunks, size } of this.#place()) {
      for (let r = 0; r < size; r++) {
        const known = chunkOf(chunks, r).refs[rowIn(r) * REFS + OWNER] as KnownOwner | undefined;
        if (!known?.ref || (at[known.seq] as number) >= 0) continue;
        at[known.seq] = refs.length;
        refs.push(known.ref);
      }
    }
    const index: OwnerIndex = (kind, ns, name) => {
      const known = this.#owners.find(kind, ns, name);
      const i = known ? (at[known.seq] as number) : -1;
      return i >= 0 ? i : undefined;
    };
    return { refs, index };
  }

  /**
   * The pods, once all and their owners are read, as NodePods: a node's PodInfo are made from
   * its rows when asked, each with its owner's workload and that workload's replicas (where
   * `workloads` has it) and the budgets of `pdbs` that select it (where `pdbs` are given), and
   * none is kept here.
   */
  byNode(pdbs?: PdbInfo[], workloads?: readonly WorkloadInfo[]): NodePods {
    this.#owners.settle(workloads);
    this.#budgets = pdbs && pdbIndexOf(pdbs);
    const placed = this.#place();
    return {
      on: (node) => {
        const i = this.indexOf(node);
        return i === undefined ? [] : this.#onNode(placed, i);
      },
      all: () => this.nodeNames.flatMap((_, i) => this.#onNode(placed, i)),
    };
  }

  /** The PodInfo of node `i`'s rows, in the order read. */
  #onNode(placed: Placed[], i: number): PodInfo[] {
    const range = placed[i >> this.shift] as Placed;
    const j = i & ((1 << this.shift) - 1);
    const from = j === 0 ? 0 : (range.ends[j - 1] as number);
    const to = range.ends[j] as number;
    const out = new Array<PodInfo>(to - from);
    const nodeName = this.nodeNames[i] as string;
    for (let r = from; r < to; r++) out[r - from] = this.#info(range, r, nodeName);
    return out;
  }

  /**
   * Row `row` of a placed range, on node `nodeName`, as PodInfo, its fields in the order the
   * snapshot has always given them. Plain literals, one per common shape: a literal with
   * conditional spreads is built key by key through a temporary object each, the largest part of
   * the read's own time on 3 million pods. A mirror pod, a pod being deleted and one something
   * may bind to a zone (all rare) take the general path.
   */
  #info(range: Placed, r: number, nodeName: string): PodInfo {
    const chunk = chunkOf(range.chunks, r);
    const row = rowIn(r);
    const at = row * REFS;
    const known = chunk.refs[at + OWNER] as KnownOwner | undefined;
    const workload = known?.workload;
    const namespace = this.#namespaces.list[chunk.ns[row] as number] as string;
    const name = chunk.refs[at + NAME] as string;
    const labels = chunk.refs[at + LABELS] as Record<string, string>;
    const phase = this.#phases.list[chunk.phase[row] as number] as string;
    const flags = chunk.flags[row] as number;
    const ready = (flags & READY) !== 0;
    const tolerations = chunk.refs[at + TOLERATIONS] as Toleration[];
    const terminationGracePeriodSeconds = chunk.grace[row] as number;
    const containers = chunk.refs[at + CONTAINERS] as ContainerInfo[];
    const mirror = (flags & MIRROR) !== 0;
    const deletionTimestamp = range.deleting.size > 0 ? range.deleting.get(r) : undefined;
    const placement = range.placements.size > 0 ? range.placements.get(r) : undefined;
    const budgets = this.#budgets && budgetsOf(this.#budgets, known, namespace, labels);
    const replicas = known?.replicas;
    if (mirror || deletionTimestamp !== undefined || placement !== undefined)
      return {
        ...{ namespace, name, nodeName, labels },
        ...(known && { owner: known.owner }),
        ...{ phase, ready, tolerations, terminationGracePeriodSeconds, containers },
        ...(mirror && { mirror: true }),
        ...(workload && { workload }),
        ...(deletionTimestamp !== undefined && { deletionTimestamp }),
        budgets,
        replicas,
        ...(placement && { placement }),
      };
    if (!known)
      return {
        namespace,
        name,
        nodeName,
        labels,
        phase,
        ready,
        tolerations,
        terminationGracePeriodSeconds,
        containers,
        budgets,
        replicas,
      };
    const owner = known.owner;
    if (workload === undefined)
      return {
        namespace,
        name,
        nodeName,
        labels,
        owner,
        phase,
        ready,
        tolerations,
        terminationGracePeriodSeconds,
        containers,
        budgets,
        replicas,
      };
    return {
      namespace,
      name,
      nodeName,
      labels,
      owner,
      phase,
      ready,
      tolerations,
      terminationGracePeriodSeconds,
      containers,
      workload,
      budgets,
      replicas,
    };
  }
}
