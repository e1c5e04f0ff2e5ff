// What the parts of the Kubernetes simulator share: the object stores (nodes, pods, workloads,
// PDBs, Leases), the indexes that keep a 1,000-node, 30,000-pod roll far from O(n²) (nodes in
// name order, the nodes open to any pod; a workload keeps its pods per node and zone itself),
// resourceVersions and uids, and the watchers that see every change.
import type { Node, Pod, WatchEvent } from "../../../ports/cluster.js";
import type { VirtualClock } from "../../model/clock.js";
import type { Availability, Timeline } from "../../model/observers.js";
import type { Random } from "../../model/random.js";
import { PodTable } from "../../model/pod-table.js";
import type {
  ClaimRec,
  LeaseRec,
  NodeRec,
  PdbRec,
  PodRec,
  WorkloadRec,
} from "../../model/records.js";
import { UID_DRAWS, uidOf } from "../../model/uid.js";
import { IsoStamps, toNode, toPod } from "./convert.js";
import type { UnschedulablePods } from "./unschedulable.js";
import type { CrashLoops } from "./crash-loop.js";

export interface KubeTimings {
  /** Node Ready this long after the kubelet registers. */
  nodeReadySeconds: number;
  /** The scheduler binds pending pods this long after they appear. */
  schedulerSeconds: number;
  /** Controllers react to a change after this long. */
  controllerSeconds: number;
  /** A terminating pod's containers stop this long after preStop (SIGTERM handling). */
  shutdownSeconds: number;
  /** The Retry-After the API server sends with a budget's refusal of an eviction. */
  pdbRetryAfterSeconds: number;
}

export interface KubeContext {
  clock: VirtualClock;
  random: Random;
  timeline: Timeline;
  availability: Availability;
  timings: KubeTimings;
  region: string;
  /** Record pod-level events (create, bind, evict, delete) in the timeline. */
  podEvents: boolean;
}

/** Where watch events go: a port's watch stream, or the wire's watch hub. */
export interface WatchSink<T> {
  push(event: WatchEvent<T>): void;
}

export interface Watcher<T> {
  filter: (obj: T) => boolean;
  stream: WatchSink<T>;
  /** Pods only: the node its field selector names, so other nodes' pods skip the filter. */
  node?: string;
}

export class KubeState {
  rv = 1000;
  /**
   * Moves whenever something the scheduler's scan reads changes: a node added, removed, Ready
   * or not, patched (taints, cordon, labels), or a pod bound to or released from one. The
   * placement index (placement.ts) is rebuilt when it has moved.
   */
  version = 0;
  readonly nodes = new Map<string, NodeRec>();
  /** namespace/name → pod */
  readonly pods = new PodTable();
  readonly workloads = new Map<string, WorkloadRec>();
  /** namespace → PDBs */
  readonly pdbs = new Map<string, PdbRec[]>();
  readonly leases = new Map<string, LeaseRec>();
  /** Zonal workloads' claims by namespace/name, and those bound by their volume's name (volumes.ts). */
  readonly claims = new Map<string, ClaimRec>();
  readonly volumes = new Map<string, ClaimRec>();
  /** Pods waiting for the scheduler, in arrival order. */
  readonly pending = new Set<PodRec>();
  /** Pending pods the scheduler tried and could not place (unschedulable.ts). */
  readonly unschedulable: UnschedulablePods = new WeakMap();
  /** Pods crash-looping on a bad release's node (crash-loop.ts). */
  readonly crashLoops: CrashLoops = new WeakMap();
  /** The text of the times the objects this state shows carry (convert.ts). */
  readonly stamps = new IsoStamps();
  nodeWatchers: Watcher<Node>[] = [];
  podWatchers: Watcher<Pod>[] = [];
  /** Told of every pod event with the record itself: no conversion to a Pod object for them. */
  readonly podListeners: ((type: WatchEvent<Pod>["type"], p: PodRec) => void)[] = [];
  #uid = 0;
  #nodeOrder: NodeRec[] = [];
  #nodeOrderDirty = true;
  #open: NodeRec[] = [];
  #openDirty = true;
  /**
   * What each step of `version` changed, oldest first: entry i took it to changedBase + i + 1.
   * The node (undefined when one was added or removed: the node order changed) and, for a
   * usage change, the pod bound or released. The placement index replays these to update only
   * the nodes that changed.
   */
  readonly changedNodes: (NodeRec | undefined)[] = [];
  readonly changedPods: (PodRec | undefined)[] = [];
  #changedBase = 0;

  constructor(private readonly random: Random) {}

  nextRv(): number {
    return ++this.rv;
  }
  uid(): string {
    const seq = ++this.#uid;
    const state = this.random.state;
    this.random.skip(UID_DRAWS);
    return uidOf(seq, state);
  }
  /**
   * The next uid, not spelled out (uid.ts): its number and the stream's state its digits are
   * drawn from — as int32, which V8 keeps in the record without a box.
   */
  podUid(pod: PodRec): void {
    pod.uidSeq = ++this.#uid;
    pod.uidState = this.random.state | 0;
    this.random.skip(UID_DRAWS);
  }

  // ---------------------------------------------------------------- node indexes

  /** One step of `version`, logged; the log keeps the last 32,768 to 65,536 steps. */
  #step(node: NodeRec | undefined, pod: PodRec | undefined): void {
    this.version++;
    this.changedNodes.push(node);
    this.changedPods.push(pod);
    if (this.changedNodes.length > 65_536) {
      this.changedNodes.splice(0, 32_768);
      this.changedPods.splice(0, 32_768);
      this.#changedBase += 32_768;
    }
  }

  /** Where the log holds the step after version `since`, or -1 when it no longer does. */
  changesAfter(since: number): number {
    return since >= this.#changedBase && since <= this.version ? since - this.#changedBase : -1;
  }

  /** A new node: stored, and placed in name order in place (binary search), not by re-sorting. */
  addNode(node: NodeRec): void {
    this.#step(undefined, undefined);
    this.nodes.set(node.name, node);
    this.#openDirty = true;
    if (this.#nodeOrderDirty) return;
    const list = this.#nodeOrder;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((list[mid] as NodeRec).name < node.name) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, node);
  }

  /** A node object went away. */
  removeNode(node: NodeRec): void {
    this.#step(undefined, undefined);
    this.#openDirty = true;
    this.nodes.delete(node.name);
    if (!this.#nodeOrderDirty) {
      const i = this.#nodeOrder.indexOf(node);
      if (i >= 0) this.#nodeOrder.splice(i, 1);
    }
  }

  /** A node's readiness, taints or schedulability changed: which nodes are open may too. */
  nodeChanged(node: NodeRec): void {
    this.#step(node, undefined);
    this.#openDirty = true;
  }

  /** A pod was bound to a node or released from it: the node's usage changed. */
  usageChanged(node: NodeRec, pod: PodRec): void {
    this.#step(node, pod);
  }

  /** Nodes in a stable order (by name) for listing and for the scheduler's rotation. */
  nodeList(): NodeRec[] {
    if (this.#nodeOrderDirty) {
      this.#nodeOrder = [...this.nodes.values()].sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      );
      this.#nodeOrderDirty = false;
    }
    return this.#nodeOrder;
  }

  /**
   * Nodes a pod without tolerations could use at all (Ready, schedulable, no NoSchedule or
   * NoExecute taint): most pods only need to look at these, which keeps a big roll — with
   * every old node tainted — from scanning the whole cluster for every pod.
   */
  openNodes(): NodeRec[] {
    if (this.#openDirty) {
      this.#open = this.nodeList().filter(
        (n) =>
          n.ready &&
          !n.unschedulable &&
          !n.deleted &&
          n.taints.every((t) => t.effect === "PreferNoSchedule"),
      );
      this.#openDirty = false;
    }
    return this.#open;
  }

  // ---------------------------------------------------------------- watchers

  addNodeWatcher(w: Watcher<Node>): void {
    this.nodeWatchers.push(w);
  }
  removeNodeWatcher(w: Watcher<Node>): void {
    this.nodeWatchers = this.nodeWatchers.filter((x) => x !== w);
  }
  addPodWatcher(w: Watcher<Pod>): void {
    this.podWatchers.push(w);
  }
  removePodWatcher(w: Watcher<Pod>): void {
    this.podWatchers = this.podWatchers.filter((x) => x !== w);
  }

  emitNode(type: WatchEvent<Node>["type"], n: NodeRec): void {
    if (this.nodeWatchers.length === 0) return;
    const obj = toNode(n, this.stamps);
    for (const w of this.nodeWatchers) if (w.filter(obj)) w.stream.push({ type, object: obj });
  }
  emitPod(type: WatchEvent<Pod>["type"], p: PodRec): void {
    for (const l of this.podListeners) l(type, p);
    let obj: Pod | undefined;
    for (const w of this.podWatchers) {
      if (w.node !== undefined && w.node !== p.nodeName) continue;
      obj ??= toPod(p, this.stamps, this.unschedulable, this.crashLoops);
      if (w.filter(obj)) w.stream.push({ type, object: obj });
    }
  }
}
