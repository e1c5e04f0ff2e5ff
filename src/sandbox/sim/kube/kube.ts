// The Kubernetes simulator: nodes, pods, workloads and their controllers, the scheduler, the
// kubelet's pod lifecycle, PodDisruptionBudgets and eviction, Leases and watches. This class is
// the face the rest of the sandbox uses; the work is done by its parts, which share one
// KubeState (state.ts): NodeLifecycle (nodes.ts), Controllers (controllers.ts), Scheduler
// (scheduler.ts), Kubelet (kubelet.ts) and Budgets (budgets.ts).
import type {
  EvictionOutcome,
  Node,
  Pod,
  PodDisruptionBudget,
  WatchEvent,
} from "../../../ports/cluster.js";
import type { PodTable } from "../../model/pod-table.js";
import type {
  ClaimRec,
  LeaseRec,
  NodeRec,
  PdbRec,
  PodRec,
  WorkloadRec,
} from "../../model/records.js";
import { Budgets } from "./budgets.js";
import { Controllers } from "./controllers.js";
import { Kubelet } from "./kubelet.js";
import { PdbEvents } from "./pdb-events.js";
import { NodeLifecycle, type NodePatchInput, type NodeRegistration } from "./nodes.js";
import { Scheduler } from "./scheduler.js";
import { KubeState, type KubeContext, type Watcher } from "./state.js";
import type { UnschedulablePods } from "./unschedulable.js";
import type { IsoStamps } from "./convert.js";
import type { CrashLoops } from "./crash-loop.js";

export type { KubeContext, KubeTimings, Watcher, WatchSink } from "./state.js";

export class KubeSim {
  readonly nodes: Map<string, NodeRec>;
  /** namespace/name → pod */
  readonly pods: PodTable;
  readonly workloads: Map<string, WorkloadRec>;
  /** namespace → PDBs */
  readonly pdbs: Map<string, PdbRec[]>;
  readonly leases: Map<string, LeaseRec>;
  /** Zonal volumes' claims (namespace/name), and the bound ones by volume name (volumes.ts). */
  readonly claims: Map<string, ClaimRec>;
  readonly volumes: Map<string, ClaimRec>;
  /** Pods waiting for the scheduler, in arrival order. */
  readonly pending: Set<PodRec>;
  /** Pending pods the scheduler tried and could not place (unschedulable.ts). */
  readonly unschedulable: UnschedulablePods;
  /** Pods crash-looping on a bad release's node (crash-loop.ts). */
  readonly crashLoops: CrashLoops;
  /** The text of the times the objects it shows carry (convert.ts). */
  readonly stamps: IsoStamps;
  readonly #state: KubeState;
  readonly #nodes: NodeLifecycle;
  readonly #controllers: Controllers;
  readonly #scheduler: Scheduler;
  readonly #kubelet: Kubelet;
  readonly #budgets: Budgets;
  readonly #pdbEvents: PdbEvents;

  constructor(readonly ctx: KubeContext) {
    const state = new KubeState(ctx.random);
    this.#state = state;
    this.nodes = state.nodes;
    this.pods = state.pods;
    this.workloads = state.workloads;
    this.pdbs = state.pdbs;
    this.leases = state.leases;
    this.claims = state.claims;
    this.volumes = state.volumes;
    this.pending = state.pending;
    this.unschedulable = state.unschedulable;
    this.crashLoops = state.crashLoops;
    this.stamps = state.stamps;
    this.#kubelet = new Kubelet(state, ctx, {
      wakeScheduler: () => this.#scheduler.wake(),
      queueReconcile: (w) => this.#controllers.queueReconcile(w),
    });
    const kubelet = this.#kubelet;
    this.#scheduler = new Scheduler(state, ctx, kubelet);
    this.#budgets = new Budgets(state, ctx, kubelet);
    this.#pdbEvents = new PdbEvents(state, ctx.clock);
    const scheduler = this.#scheduler;
    this.#controllers = new Controllers(state, ctx, { kubelet, scheduler, budgets: this.#budgets });
    const controllers = this.#controllers;
    this.#nodes = new NodeLifecycle(state, ctx, { kubelet, scheduler, controllers });
  }

  get rv(): number {
    return this.#state.rv;
  }
  nextRv(): number {
    return this.#state.nextRv();
  }
  uid(): string {
    return this.#state.uid();
  }
  daemonSets(): WorkloadRec[] {
    return this.#controllers.daemonSets;
  }

  // ---------------------------------------------------------------- nodes

  registerNode(input: NodeRegistration): NodeRec {
    return this.#nodes.register(input);
  }
  setNodeReady(node: NodeRec, ready: boolean): void {
    this.#nodes.setReady(node, ready);
  }
  deleteNode(name: string): void {
    this.#nodes.delete(name);
  }
  /** Fault: the node's kubelet stops reporting; its instance runs on (nodes.ts). */
  loseKubelet(node: NodeRec): void {
    this.#nodes.loseKubelet(node);
  }
  patchNode(name: string, patch: NodePatchInput, by = "client"): NodeRec {
    return this.#nodes.patch(name, patch, by);
  }
  /** Nodes in a stable order (by name) for listing and for the scheduler's rotation. */
  nodeList(): NodeRec[] {
    return this.#state.nodeList();
  }

  // ---------------------------------------------------------------- workloads and pods

  addWorkload(w: WorkloadRec, initial: { readyNow: boolean }): void {
    this.#controllers.addWorkload(w, initial);
  }
  addPdb(pdb: PdbRec): void {
    this.#budgets.add(pdb);
  }
  /** Create the pods a workload lacks (ReplicaSet, StatefulSet, DaemonSet controllers). */
  reconcile(w: WorkloadRec, readyNow = false): void {
    this.#controllers.reconcile(w, readyNow);
  }
  /** One scheduling pass over the pending pods. */
  runScheduler(): void {
    this.#scheduler.run();
  }
  /** Why a pending pod does not fit anywhere (the FailedScheduling message's reasons). */
  whyPending(pod: PodRec): string[] {
    return this.#scheduler.whyPending(pod);
  }
  /** Delete a pod gracefully (grace 0: at once). */
  /** A pod's readiness set from outside (a twin copying a pod that is not Ready live). */
  setPodReady(pod: PodRec, ready: boolean): void {
    this.#kubelet.setReady(pod, ready);
  }
  deletePod(pod: PodRec, graceSeconds?: number, by = "client"): void {
    this.#kubelet.deletePod(pod, graceSeconds, by);
  }
  /** The pod object is gone (containers stopped, or garbage-collected with its node). */
  removePod(pod: PodRec): void {
    this.#kubelet.removePod(pod);
  }
  /** The eviction subresource: decide as the API server does, then delete. */
  evict(
    namespace: string,
    name: string,
    opts: { dryRun?: boolean; by?: string } = {},
  ): EvictionOutcome {
    return this.#budgets.evict(namespace, name, opts);
  }
  pdbStatus(pdb: PdbRec): PdbRec["status"] {
    return this.#budgets.status(pdb);
  }

  // ---------------------------------------------------------------- watches

  addNodeWatcher(w: Watcher<Node>): void {
    this.#state.addNodeWatcher(w);
  }
  removeNodeWatcher(w: Watcher<Node>): void {
    this.#state.removeNodeWatcher(w);
  }
  /** Every pod event, with the record (for the port's own bookkeeping). */
  onPodEvent(l: (type: WatchEvent<Pod>["type"], p: PodRec) => void): void {
    this.#state.podListeners.push(l);
  }
  addPodWatcher(w: Watcher<Pod>): void {
    this.#state.addPodWatcher(w);
  }
  removePodWatcher(w: Watcher<Pod>): void {
    this.#state.removePodWatcher(w);
  }
  /** Budgets whose status changed (MODIFIED; the sandbox's budgets are never added or removed
   * while it runs). */
  addPdbWatcher(w: Watcher<PodDisruptionBudget>): void {
    this.#pdbEvents.add(w);
  }
  removePdbWatcher(w: Watcher<PodDisruptionBudget>): void {
    this.#pdbEvents.remove(w);
  }
  /** The budgets whose status changed after resourceVersion `rv`, as they are now. */
  pdbsSince(rv: number): PodDisruptionBudget[] {
    return this.#pdbEvents.since(rv);
  }
}
