// What the scheduler's scan reads of each node, kept in flat arrays beside the node list: used
// and allocatable CPU, memory and pods, the zone, and whether the node is "plain" (Ready,
// schedulable, no NoSchedule/NoExecute taint). Reading a NodeRec costs several scattered
// objects (the record, its `used` and `capacity`, its taints, its per-workload Map); on a
// cluster of thousands of nodes each of those is a cache miss, so the scan — 64 nodes per pod
// when a world is built, far more during a roll — cost ~1 µs per node. The arrays give the same
// answers (the same numbers, the same arithmetic, the same order of nodes) at a fraction of it.
//
// The arrays are rebuilt whenever anything placement reads has changed (KubeState.version) or
// the scheduler scans another list; after a bind the scheduler made itself, only that node's
// entry is updated. Anything the arrays do not hold (a nodeSelector, a node that is not plain,
// a PreferNoSchedule taint) is decided on the record itself, by the same rules the record scan
// uses (scheduler-rules.ts).
import type { NodeRec, PodRec } from "../../model/records.js";
import { fits, preferPenalty } from "./scheduler-rules.js";
import type { KubeState } from "./state.js";

export interface Scan {
  best: NodeRec | undefined;
  /** Nodes looked at, from the start (the scheduler's rotation moves on by this many). */
  scanned: number;
}

export class PlacementIndex {
  #list: readonly NodeRec[] | undefined;
  #version = -1;
  #pos = new Map<NodeRec, number>();
  #zones: string[] = [];
  #zone = new Uint16Array(0);
  /** 1: Ready, schedulable, not deleted, only PreferNoSchedule taints; 2: also has one of those. */
  #plain = new Uint8Array(0);
  #cpu = new Float64Array(0);
  #mem = new Float64Array(0);
  #pods = new Float64Array(0);
  #capCpu = new Float64Array(0);
  #capMem = new Float64Array(0);
  #capPods = new Float64Array(0);
  /** Pods of one workload per node position (zero elsewhere), valid at `version`. */
  #workload: { key: string; version: number } | undefined;
  #count = new Int32Array(0);
  #counted: number[] = [];

  constructor(private readonly state: KubeState) {}

  /** The arrays for `list`, rebuilt if the list or anything placement reads has changed. */
  #sync(list: readonly NodeRec[]): void {
    if (list === this.#list && this.#version === this.state.version) return;
    const n = list.length;
    if (this.#cpu.length < n) this.#allocate(Math.max(n, this.#cpu.length * 2, 64));
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
      this.#zone[i] = z;
      this.#plain[i] = plainness(node);
      this.#capCpu[i] = node.capacity.cpu;
      this.#capMem[i] = node.capacity.memory;
      this.#capPods[i] = node.capacity.pods;
      this.#load(node, i);
    }
    this.#list = list;
    this.#version = this.state.version;
    this.#workload = undefined;
  }

  #allocate(size: number): void {
    this.#zone = new Uint16Array(size);
    this.#plain = new Uint8Array(size);
    this.#cpu = new Float64Array(size);
    this.#mem = new Float64Array(size);
    this.#pods = new Float64Array(size);
    this.#capCpu = new Float64Array(size);
    this.#capMem = new Float64Array(size);
    this.#capPods = new Float64Array(size);
    this.#count = new Int32Array(size);
    this.#counted = [];
  }

  #load(node: NodeRec, i: number): void {
    this.#cpu[i] = node.used.cpu;
    this.#mem[i] = node.used.memory;
    this.#pods[i] = node.used.pods;
  }

  /** Count this workload's pods per node position (what node.byWorkload holds, seen from the workload). */
  #countFor(pod: PodRec): boolean {
    const w = pod.workload;
    if (!w) return false;
    const cached = this.#workload;
    if (cached && cached.key === w.key && cached.version === this.#version) return true;
    for (const i of this.#counted) this.#count[i] = 0;
    this.#counted = [];
    for (const p of w.pods) {
      const node = p.nodeName ? this.state.nodes.get(p.nodeName) : undefined;
      if (!node || !node.pods.has(p)) continue;
      const i = this.#pos.get(node);
      if (i === undefined) continue;
      if (this.#count[i] === 0) this.#counted.push(i);
      this.#count[i] = (this.#count[i] as number) + 1;
    }
    this.#workload = { key: w.key, version: this.#version };
    return true;
  }

  /**
   * The scheduler's scan over `list` from `start`: the first `want` nodes the pod fits, the
   * best (lowest, first) score among them — exactly what scanning the records gives.
   */
  scan(list: readonly NodeRec[], pod: PodRec, start: number, want: number): Scan {
    this.#sync(list);
    const t = pod.template;
    const n = list.length;
    const spread = this.#countFor(pod);
    const zoneCounts = pod.workload ? this.state.zoneCounts.get(pod.workload.key) : undefined;
    const perZone = this.#zones.map((z) => zoneCounts?.get(z) ?? 0);
    const selectorFree = Object.keys(t.nodeSelector).length === 0;
    const { cpu: reqCpu, memory: reqMem } = t.requests;
    const [cpu, mem, pods, capCpu, capMem, capPods] = [
      this.#cpu,
      this.#mem,
      this.#pods,
      this.#capCpu,
      this.#capMem,
      this.#capPods,
    ];
    let best = -1;
    let bestScore = Infinity;
    let found = 0;
    let i = 0;
    for (let k = start % n; i < n && found < want; i++, k = k + 1 === n ? 0 : k + 1) {
      const plain = this.#plain[k] as number;
      if (plain !== 0 && selectorFree) {
        if ((pods[k] as number) + 1 > (capPods[k] as number)) continue;
        if ((cpu[k] as number) + reqCpu > (capCpu[k] as number)) continue;
        if ((mem[k] as number) + reqMem > (capMem[k] as number)) continue;
      } else if (!fits(list[k] as NodeRec, t)) continue;
      found++;
      let s = plain === 1 ? 0 : preferPenalty(list[k] as NodeRec, t);
      if (spread) {
        s += 10_000 * (this.#count[k] as number);
        s += 1_000 * (perZone[this.#zone[k] as number] as number);
      }
      const c = capCpu[k] ? (cpu[k] as number) / (capCpu[k] as number) : 0;
      const m = capMem[k] ? (mem[k] as number) / (capMem[k] as number) : 0;
      s += Math.round(((c + m) / 2) * 100);
      if (s < bestScore) {
        bestScore = s;
        best = k;
      }
    }
    return { best: best < 0 ? undefined : list[best], scanned: i };
  }

  /**
   * The scheduler bound `pod` to `node` (KubeState.version moved from `before` to `before + 1`):
   * update that node's entry instead of rebuilding them all. Any other change in between
   * leaves the arrays stale, to be rebuilt on the next scan.
   */
  bound(pod: PodRec, node: NodeRec, before: number): void {
    const i = this.#pos.get(node);
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
