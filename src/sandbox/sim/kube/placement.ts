// What the scheduler's scan reads of each node, kept in flat arrays beside the node list: used
// and allocatable CPU, memory and pods, the zone, and whether the node is "plain" (Ready,
// schedulable, no NoSchedule/NoExecute taint). Reading a NodeRec costs several scattered
// objects (the record, its `used` and `capacity`, its taints, its pods); on a cluster of
// thousands of nodes each of those is a cache miss, so the scan — 64 nodes per pod when a world
// is built, far more during a roll — cost ~1 µs per node. The arrays give the same answers (the
// same numbers, the same arithmetic, the same order of nodes) at a fraction of it. The spread
// term (the workload's pods on each node) is counted from the workload's side.
//
// The arrays are rebuilt when the scheduler scans another list or the node order changed;
// otherwise, when anything placement reads has changed (KubeState.version), only the entries of
// the nodes the state's log names are reloaded (capacity and zone never change); after a bind
// the scheduler made itself, only that node's entry is updated. Anything the arrays do not hold
// (a nodeSelector or node affinity, the zone a pod's volume pins, a node that is not plain, a
// PreferNoSchedule taint) is decided on the record itself, by the same rules the record scan
// uses (scheduler-rules.ts).
import { derived } from "../../../ports/derived.js";
import type { NodeRec, PodRec, PodTemplate } from "../../model/records.js";
import { fits, loadOf, preferPenalty } from "./scheduler-rules.js";
import type { KubeState } from "./state.js";

export interface Scan {
  best: NodeRec | undefined;
  /** Its position in the list scanned (-1 when none fits). */
  at: number;
  /** Nodes looked at, from the start (the scheduler's rotation moves on by this many). */
  scanned: number;
}

/** Per node, one run of STRIDE numbers (one cache line): usage, allocatable, load term, zone. */
const STRIDE = 8;
const [CPU, MEM, PODS, CAP_CPU, CAP_MEM, CAP_PODS, LOAD, ZONE] = [0, 1, 2, 3, 4, 5, 6, 7];

export class PlacementIndex {
  #list: readonly NodeRec[] | undefined;
  #version = -1;
  #pos = new Map<NodeRec, number>();
  #zones: string[] = [];
  /** The spread term's zone part for the pod being placed, per zone index. */
  #perZone: number[] = [];
  #node = new Float64Array(0);
  readonly #scanned: Scan = { best: undefined, at: -1, scanned: 0 };
  /** 1: Ready, schedulable, not deleted, only PreferNoSchedule taints; 2: also has one of those. */
  #plain = new Uint8Array(0);
  /** Pods of one workload per node position (zero elsewhere), valid at `version`. */
  #workload: { key: string; version: number } | undefined;
  #count = new Int32Array(0);
  #counted: number[] = [];

  constructor(private readonly state: KubeState) {}

  /** The arrays for `list`, rebuilt if the list or anything placement reads has changed. */
  #sync(list: readonly NodeRec[]): void {
    if (list === this.#list && (this.#version === this.state.version || this.#replay())) return;
    const n = list.length;
    if (this.#plain.length < n) this.#allocate(Math.max(n, this.#plain.length * 2, 64));
    this.#pos.clear();
    this.#zones = [];
    const zoneIndex = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const node = list[i] as NodeRec;
      this.#pos.set(node, i);
      let z = zoneIndex.get(node.zone);
      if (z === undefined) {
        z = this.#zones.push(node.zone) - 1;
        zoneIndex.set(node.zone, z);
      }
      const at = i * STRIDE;
      this.#node[at + ZONE] = z;
      this.#node[at + CAP_CPU] = node.capacity.cpu;
      this.#node[at + CAP_MEM] = node.capacity.memory;
      this.#node[at + CAP_PODS] = node.capacity.pods;
      this.#plain[i] = plainness(node);
      this.#load(node, i);
    }
    this.#list = list;
    this.#version = this.state.version;
    this.#workload = undefined;
  }

  /**
   * Bring the arrays up to date by reloading only the nodes changed since they were built, as
   * the state's log tells; false (rebuild them) when the node order changed or the log no
   * longer reaches back. A usage change of this workload's pods drops its counts.
   */
  #replay(): boolean {
    const from = this.state.changesAfter(this.#version);
    if (from < 0) return false;
    const nodes = this.state.changedNodes;
    const pods = this.state.changedPods;
    for (let j = from; j < nodes.length; j++) if (nodes[j] === undefined) return false;
    const w = this.#workload;
    let counted = w !== undefined && w.version === this.#version;
    for (let j = from; j < nodes.length; j++) {
      const node = nodes[j] as NodeRec;
      const i = this.#pos.get(node);
      if (i === undefined) continue;
      this.#plain[i] = plainness(node);
      this.#load(node, i);
      if (counted && pods[j]?.workload?.key === w?.key) counted = false;
    }
    this.#version = this.state.version;
    if (w && counted) w.version = this.#version;
    return true;
  }

  #allocate(size: number): void {
    this.#node = new Float64Array(size * STRIDE);
    this.#plain = new Uint8Array(size);
    this.#count = new Int32Array(size);
    this.#counted = [];
  }

  /**
   * Node `i`'s usage from its record, and the score's load term (as `score` computes it) from
   * that and the allocatable the arrays hold: the record's `capacity` is another object, a cache
   * miss after each bind.
   */
  #load(node: NodeRec, i: number): void {
    const at = i * STRIDE;
    const v = this.#node;
    const { cpu, memory, pods } = node.used;
    v[at + CPU] = cpu;
    v[at + MEM] = memory;
    v[at + PODS] = pods;
    v[at + LOAD] = loadOf(cpu, v[at + CAP_CPU] as number, memory, v[at + CAP_MEM] as number);
  }

  /** Count this workload's pods per node position: those bound to a node and not yet released. */
  #countFor(pod: PodRec): boolean {
    const w = pod.workload;
    if (!w) return false;
    const cached = this.#workload;
    if (cached && cached.key === w.key && cached.version === this.#version) return true;
    for (const i of this.#counted) this.#count[i] = 0;
    this.#counted = [];
    // A pod of the workload counts on its node while that node has it in its pods: from the
    // kubelet's bind until the pod is removed, which also takes it out of `w.pods`. Node names
    // are never used twice (ec2.ts), so the node its name finds now is the one it was bound to;
    // a node deleted since is in no list scanned.
    const nodes = this.state.nodes;
    for (const p of w.pods) {
      if (p.nodeName === undefined) continue;
      const node = nodes.get(p.nodeName);
      const i = node && this.#pos.get(node);
      if (i === undefined) continue;
      if (this.#count[i] === 0) this.#counted.push(i);
      this.#count[i] = (this.#count[i] as number) + 1;
    }
    this.#workload = { key: w.key, version: this.#version };
    return true;
  }

  /**
   * The scheduler's scan over `list` from `start`: the first `want` nodes the pod fits, the
   * best (lowest, first) score among them — exactly what scanning the records gives. The answer
   * is one object, filled again by each scan (read it before the next): a new one per pod was
   * ~5% of what building a large world allocated.
   */
  scan(list: readonly NodeRec[], pod: PodRec, start: number, want: number, zone?: string): Scan {
    this.#sync(list);
    const t = pod.template;
    const n = list.length;
    const spread = this.#countFor(pod);
    const zoneCounts = pod.workload?.zoneCounts;
    const perZone = this.#perZone;
    for (let i = 0; i < this.#zones.length; i++)
      perZone[i] = 1_000 * (zoneCounts?.get(this.#zones[i] as string) ?? 0);
    const selectorFree = withoutSelector(t) && zone === undefined;
    const { cpu: reqCpu, memory: reqMem } = t.requests;
    const v = this.#node;
    const plainOf = this.#plain;
    const count = this.#count;
    let best = -1;
    let bestScore = Infinity;
    let found = 0;
    let i = 0;
    for (let k = start % n; i < n && found < want; i++, k = k + 1 === n ? 0 : k + 1) {
      const plain = plainOf[k] as number;
      const at = k * STRIDE;
      if (plain !== 0 && selectorFree) {
        if ((v[at + PODS] as number) + 1 > (v[at + CAP_PODS] as number)) continue;
        if ((v[at + CPU] as number) + reqCpu > (v[at + CAP_CPU] as number)) continue;
        if ((v[at + MEM] as number) + reqMem > (v[at + CAP_MEM] as number)) continue;
      } else if (!fits(list[k] as NodeRec, t, zone)) continue;
      found++;
      // The terms of `score` (scheduler-rules.ts), in its order: taints, spread, load.
      let s = plain === 1 ? 0 : preferPenalty(list[k] as NodeRec, t);
      if (spread) {
        s += 10_000 * (count[k] as number);
        s += perZone[v[at + ZONE] as number] as number;
      }
      s += v[at + LOAD] as number;
      if (s < bestScore) {
        bestScore = s;
        best = k;
      }
    }
    const out = this.#scanned;
    out.best = best < 0 ? undefined : list[best];
    out.at = best;
    out.scanned = i;
    return out;
  }

  /**
   * The scheduler bound `pod` to `node` (KubeState.version moved from `before` to `before + 1`),
   * at position `at` of the list it scanned if it says: update that node's entry instead of
   * rebuilding them all. Any other change in between
   * leaves the arrays stale, to be rebuilt on the next scan.
   */
  bound(pod: PodRec, node: NodeRec, before: number, at?: number): void {
    const i = at !== undefined && this.#list?.[at] === node ? at : this.#pos.get(node);
    if (this.#version !== before || this.state.version !== before + 1 || i === undefined) return;
    this.#load(node, i);
    this.#version = this.state.version;
    const w = this.#workload;
    if (w && w.version === before && pod.workload?.key === w.key) {
      if (this.#count[i] === 0) this.#counted.push(i);
      this.#count[i] = (this.#count[i] as number) + 1;
      w.version = this.#version;
    }
  }
}

const SELECTORLESS = Symbol("selectorless");

/** The template has no nodeSelector or node affinity (asked once per template, not per pod). */
function withoutSelector(t: PodTemplate): boolean {
  return derived(
    t,
    SELECTORLESS,
    (x) => Object.keys(x.nodeSelector).length === 0 && x.nodeAffinity === undefined,
  );
}

/** 0: the record must be asked; 1: plain; 2: plain but with a PreferNoSchedule taint. */
function plainness(node: NodeRec): number {
  if (node.deleted || !node.ready || node.unschedulable) return 0;
  let prefer = false;
  for (const t of node.taints) {
    if (t.effect !== "PreferNoSchedule") return 0;
    prefer = true;
  }
  return prefer ? 2 : 1;
}
