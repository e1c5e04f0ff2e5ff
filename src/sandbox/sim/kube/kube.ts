// The Kubernetes side of the world: nodes, pods, workloads and their controllers, the
// scheduler, the kubelet's pod lifecycle, PodDisruptionBudgets, eviction, Leases and watches.
// Everything is indexed (pods by node, by workload, by namespace; PDBs by pod) so that a
// 1,000-node, 30,000-pod roll stays far from O(n²).
import type { Node, Pod, PodDisruptionBudget, Taint, WatchEvent } from "../../../ports/cluster.js";
import { KubeApiError } from "../../../ports/errors.js";
import type { VirtualClock } from "../../model/clock.js";
import { decideEviction, isPodReady, pdbStatus } from "./disruption.js";
import { formatCpu, formatMemory } from "../../model/quantities.js";
import type {
  LeaseRec,
  NodeRec,
  PdbRec,
  PodRec,
  PodTemplate,
  Resources,
  WorkloadRec,
} from "../../model/records.js";
import type { Availability, Timeline } from "../../model/observers.js";
import type { Random } from "../../model/random.js";
import { fits, score, tolerates, unfit, UNSCHEDULABLE_TAINT } from "./scheduler-rules.js";
import { matchesLabelSelector } from "../../ports/selectors.js";
import type { WatchStream } from "../../ports/watch-stream.js";

export interface KubeTimings {
  /** Node Ready this long after the kubelet registers. */
  nodeReadySeconds: number;
  /** The scheduler binds pending pods this long after they appear. */
  schedulerSeconds: number;
  /** Controllers react to a change after this long. */
  controllerSeconds: number;
  /** A terminating pod's containers stop this long after preStop (SIGTERM handling). */
  shutdownSeconds: number;
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

interface Watcher<T> {
  filter: (obj: T) => boolean;
  stream: WatchStream<T>;
}

export class KubeSim {
  rv = 1000;
  readonly nodes = new Map<string, NodeRec>();
  /** namespace/name → pod */
  readonly pods = new Map<string, PodRec>();
  readonly workloads = new Map<string, WorkloadRec>();
  #daemonSets: WorkloadRec[] = [];
  daemonSets(): WorkloadRec[] {
    return this.#daemonSets;
  }
  /** PDBs per workload whose pods all carry the template's labels (not StatefulSets). */
  #pdbCache = new Map<WorkloadRec, PdbRec[]>();
  /** namespace → PDBs */
  readonly pdbs = new Map<string, PdbRec[]>();
  readonly leases = new Map<string, LeaseRec>();
  /** Pods waiting for the scheduler, in arrival order. */
  readonly pending = new Set<PodRec>();
  /** workload key → zone → active pods, for spreading. */
  readonly #zoneCounts = new Map<string, Map<string, number>>();
  #schedulerQueued = false;
  #nodeOrder: NodeRec[] = [];
  #nodeOrderDirty = true;
  #nextStart = 0;
  #uid = 0;
  #reconcileQueued = new Set<WorkloadRec>();
  nodeWatchers: Watcher<Node>[] = [];
  podWatchers: Watcher<Pod>[] = [];

  constructor(readonly ctx: KubeContext) {}

  nextRv(): number {
    return ++this.rv;
  }
  uid(): string {
    return `${(++this.#uid).toString(16).padStart(8, "0")}-${this.ctx.random.hex(4)}-4${this.ctx.random.hex(3)}-a${this.ctx.random.hex(3)}-${this.ctx.random.hex(12)}`;
  }

  // ---------------------------------------------------------------- nodes

  /** The kubelet registers a node (NotReady); it turns Ready after nodeReadySeconds. */
  registerNode(input: {
    name: string;
    instanceId: string;
    zone: string;
    group: string;
    instanceType: string;
    labels: Record<string, string>;
    taints: Taint[];
    capacity: Resources;
    kubeletVersion: string;
    neverReady: boolean;
    readyNow?: boolean;
  }): NodeRec {
    const now = this.ctx.clock.nowMs();
    const node: NodeRec = {
      name: input.name,
      uid: this.uid(),
      rv: this.nextRv(),
      instanceId: input.instanceId,
      zone: input.zone,
      group: input.group,
      labels: {
        "kubernetes.io/hostname": input.name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "node.kubernetes.io/instance-type": input.instanceType,
        "topology.kubernetes.io/region": this.ctx.region,
        "topology.kubernetes.io/zone": input.zone,
        ...input.labels,
      },
      annotations: {},
      taints: input.taints.map((t) => ({ ...t })),
      unschedulable: false,
      ready: false,
      createdAt: now,
      kubeletVersion: input.kubeletVersion,
      capacity: { ...input.capacity },
      used: { cpu: 0, memory: 0, pods: 0 },
      pods: new Set(),
      byWorkload: new Map(),
      deleted: false,
    };
    this.nodes.set(node.name, node);
    this.#openDirty = true;
    if (!this.#nodeOrderDirty) {
      // Keep the sorted order by inserting in place (binary search), not by re-sorting.
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
    this.ctx.timeline.record("node.register", {
      node: node.name,
      instance: node.instanceId,
      group: node.group,
      zone: node.zone,
    });
    this.#emitNode("ADDED", node);
    // DaemonSet pods go to every node as soon as it exists (they tolerate not-ready).
    for (const w of this.daemonSets())
      this.ctx.clock.after(this.ctx.timings.controllerSeconds * 1000, () => {
        if (!node.deleted && this.#daemonFits(w.template, node)) {
          for (const p of node.pods) if (p.workload === w && p.deletionAt === undefined) return;
          this.#createPod(w, { node, readyNow: false });
        }
      });
    if (input.readyNow) this.setNodeReady(node, true);
    else if (!input.neverReady)
      this.ctx.clock.after(this.ctx.timings.nodeReadySeconds * 1000, () => {
        if (!node.deleted) this.setNodeReady(node, true);
      });
    return node;
  }

  setNodeReady(node: NodeRec, ready: boolean): void {
    if (node.ready === ready || node.deleted) return;
    node.ready = ready;
    node.rv = this.nextRv();
    this.#openDirty = true;
    this.ctx.timeline.record(ready ? "node.ready" : "node.notready", {
      node: node.name,
      group: node.group,
    });
    this.#emitNode("MODIFIED", node);
    if (ready) this.#wakeScheduler();
    else {
      // The kubelet is gone: its pods stop being ready (their endpoints go away).
      for (const p of node.pods) if (p.ready) this.#setReady(p, false);
    }
  }

  /** The node object goes away (the instance is terminated); pod GC deletes its pods. */
  deleteNode(name: string): void {
    const node = this.nodes.get(name);
    if (!node || node.deleted) return;
    for (const p of [...node.pods]) this.removePod(p);
    node.deleted = true;
    node.ready = false;
    this.#openDirty = true;
    this.nodes.delete(name);
    if (!this.#nodeOrderDirty) {
      const i = this.#nodeOrder.indexOf(node);
      if (i >= 0) this.#nodeOrder.splice(i, 1);
    }
    this.ctx.timeline.record("node.delete", { node: name, group: node.group });
    this.#emitNode("DELETED", node);
  }

  /** Patch labels, annotations, taints, unschedulable; the Cluster port's patchNode. */
  patchNode(
    name: string,
    patch: {
      labels?: Record<string, string | null>;
      annotations?: Record<string, string | null>;
      taints?: Taint[];
      unschedulable?: boolean;
      resourceVersion?: string;
    },
    by = "client",
  ): NodeRec {
    const node = this.nodes.get(name);
    if (!node) throw new KubeApiError(404, "NotFound", `nodes "${name}" not found`);
    if (patch.resourceVersion !== undefined && patch.resourceVersion !== String(node.rv))
      throw new KubeApiError(
        409,
        "Conflict",
        `Operation cannot be fulfilled on nodes "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    const group = node.group;
    for (const [k, v] of Object.entries(patch.labels ?? {})) {
      if (v === null) delete node.labels[k];
      else {
        node.labels[k] = v;
        this.ctx.timeline.record("node.label", { node: name, group, label: `${k}=${v}`, by });
      }
    }
    for (const [k, v] of Object.entries(patch.annotations ?? {})) {
      if (v === null) delete node.annotations[k];
      else node.annotations[k] = v;
    }
    if (patch.taints) {
      const before = new Set(node.taints.map((t) => `${t.key}=${t.value ?? ""}:${t.effect}`));
      node.taints = patch.taints.map((t) => ({ ...t }));
      for (const t of node.taints) {
        const id = `${t.key}=${t.value ?? ""}:${t.effect}`;
        if (!before.has(id))
          this.ctx.timeline.record("node.taint", { node: name, group, taint: id, by });
      }
    }
    if (patch.unschedulable !== undefined && patch.unschedulable !== node.unschedulable) {
      node.unschedulable = patch.unschedulable;
      this.ctx.timeline.record(patch.unschedulable ? "node.cordon" : "node.uncordon", {
        node: name,
        group,
        by,
      });
    }
    node.rv = this.nextRv();
    this.#openDirty = true;
    this.#emitNode("MODIFIED", node);
    this.#wakeScheduler();
    return node;
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

  // ---------------------------------------------------------------- workloads and pods

  addWorkload(w: WorkloadRec, initial: { readyNow: boolean }): void {
    this.workloads.set(w.key, w);
    if (w.kind === "DaemonSet") this.#daemonSets.push(w);
    this.#zoneCounts.set(w.key, new Map());
    this.ctx.availability.track(w.key, w.kind === "DaemonSet" ? 1 : w.replicas, 0);
    this.reconcile(w, initial.readyNow);
  }

  addPdb(pdb: PdbRec): void {
    this.#pdbCache.clear();
    const list = this.pdbs.get(pdb.namespace) ?? [];
    list.push(pdb);
    this.pdbs.set(pdb.namespace, list);
    for (const p of this.pods.values())
      if (p.namespace === pdb.namespace && matchesLabelSelector(pdb.selector, p.labels)) {
        pdb.pods.add(p);
        p.pdbs.push(pdb);
      }
    pdb.dirty = true;
  }

  /** Create the pods a workload lacks (ReplicaSet, StatefulSet, DaemonSet controllers). */
  reconcile(w: WorkloadRec, readyNow = false): void {
    if (w.kind === "DaemonSet") {
      const covered = new Set<string>();
      for (const p of w.pods) if (p.nodeName && p.deletionAt === undefined) covered.add(p.nodeName);
      for (const node of this.nodeList()) {
        if (covered.has(node.name) || node.deleted) continue;
        if (!this.#daemonFits(w.template, node)) continue;
        this.#createPod(w, { node, readyNow });
      }
      return;
    }
    if (w.kind === "StatefulSet") {
      // Pods keep their ordinal names; a replacement waits until the old pod is gone.
      const have = new Set<number>();
      for (const p of w.pods) if (p.ordinal !== undefined) have.add(p.ordinal);
      for (let i = 0; i < w.replicas; i++)
        if (!have.has(i)) this.#createPod(w, { ordinal: i, readyNow });
      return;
    }
    if (w.kind === "Pod") {
      if (w.pods.size === 0 && w.podSeq === 0) this.#createPod(w, { readyNow });
      return;
    }
    // ReplicaSet: terminating pods do not count; replacements are created at once.
    let active = 0;
    for (const p of w.pods) if (p.deletionAt === undefined) active++;
    for (let i = active; i < w.replicas; i++) this.#createPod(w, { readyNow });
  }

  #daemonFits(t: PodTemplate, node: NodeRec): boolean {
    for (const [k, v] of Object.entries(t.nodeSelector)) if (node.labels[k] !== v) return false;
    // DaemonSet pods tolerate unschedulable / not-ready automatically; other taints must be tolerated.
    return node.taints.every(
      (taint) =>
        taint.effect === "PreferNoSchedule" || t.tolerations.some((tol) => tolerates(tol, taint)),
    );
  }

  #queueReconcile(w: WorkloadRec): void {
    if (this.#reconcileQueued.has(w)) return;
    this.#reconcileQueued.add(w);
    this.ctx.clock.after(this.ctx.timings.controllerSeconds * 1000, () => {
      this.#reconcileQueued.delete(w);
      this.reconcile(w);
    });
  }

  #createPod(
    w: WorkloadRec,
    opts: { ordinal?: number; node?: NodeRec; readyNow: boolean },
  ): PodRec {
    const now = this.ctx.clock.nowMs();
    let name: string;
    if (w.kind === "StatefulSet") name = `${w.name}-${opts.ordinal}`;
    else if (w.kind === "Pod") name = w.name;
    else {
      w.podSeq++;
      // Generated names retry on a clash, as the API server's generateName does.
      const base = w.kind === "Deployment" ? w.replicaSet : w.name;
      do name = `${base}-${this.ctx.random.hex(5)}`;
      while (this.pods.has(`${w.namespace}/${name}`));
    }
    const pod: PodRec = {
      namespace: w.namespace,
      name,
      uid: this.uid(),
      rv: this.nextRv(),
      labels: { ...w.template.labels },
      workload: w,
      phase: "Pending",
      ready: false,
      createdAt: now,
      template: w.template,
      pdbs: [],
      timers: [],
      gone: false,
      ...(opts.ordinal !== undefined ? { ordinal: opts.ordinal } : {}),
    };
    if (w.kind === "StatefulSet") pod.labels["statefulset.kubernetes.io/pod-name"] = name;
    if (w.kind === "Pod") w.podSeq++;
    const key = `${pod.namespace}/${pod.name}`;
    this.pods.set(key, pod);
    w.pods.add(pod);
    let budgets = w.kind === "StatefulSet" ? undefined : this.#pdbCache.get(w);
    if (!budgets) {
      budgets = (this.pdbs.get(pod.namespace) ?? []).filter((b) =>
        matchesLabelSelector(b.selector, pod.labels),
      );
      if (w.kind !== "StatefulSet") this.#pdbCache.set(w, budgets);
    }
    for (const pdb of budgets) {
      pdb.pods.add(pod);
      pod.pdbs.push(pdb);
      pdb.dirty = true;
    }
    if (this.ctx.podEvents) this.ctx.timeline.record("pod.create", { pod: key });
    this.#emitPod("ADDED", pod);
    if (opts.node) this.#bind(pod, opts.node, opts.readyNow);
    else if (opts.readyNow) {
      const node = this.#pickNode(pod, true);
      if (node) this.#bind(pod, node, true);
      else {
        this.pending.add(pod);
        this.#wakeScheduler();
      }
    } else {
      this.pending.add(pod);
      this.#wakeScheduler();
    }
    return pod;
  }

  #wakeScheduler(): void {
    if (this.#schedulerQueued || this.pending.size === 0) return;
    this.#schedulerQueued = true;
    this.ctx.clock.after(this.ctx.timings.schedulerSeconds * 1000, () => {
      this.#schedulerQueued = false;
      this.runScheduler();
    });
  }

  /** One scheduling pass over the pending pods. */
  runScheduler(): void {
    for (const pod of [...this.pending]) {
      if (pod.gone || pod.deletionAt !== undefined) {
        this.pending.delete(pod);
        continue;
      }
      const node = this.#pickNode(pod);
      if (node) {
        this.pending.delete(pod);
        this.#bind(pod, node, false);
      }
    }
  }

  /**
   * Like kube-scheduler, look at nodes from a rotating start and stop after enough feasible
   * ones (percentageOfNodesToScore's adaptive default), then take the best score.
   */
  /**
   * Nodes a pod without tolerations could use at all (Ready, schedulable, no NoSchedule or
   * NoExecute taint): most pods only need to look at these, which keeps a big roll — with
   * every old node tainted — from scanning the whole cluster for every pod.
   */
  #open: NodeRec[] = [];
  #openDirty = true;
  #openNodes(): NodeRec[] {
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

  #pickNode(pod: PodRec, initial = false): NodeRec | undefined {
    const all = this.nodeList();
    const nodes = pod.template.tolerations.length === 0 ? this.#openNodes() : all;
    const n = nodes.length;
    if (n === 0) return undefined;
    const pct = Math.max(5, 50 - Math.floor(all.length / 125));
    // Building a scenario's initial state is not a scheduling decision worth simulating in
    // full: a smaller sample spreads the pods just as well, much faster.
    const want = initial
      ? Math.min(n, 64)
      : n < 100
        ? n
        : Math.max(100, Math.floor((n * pct) / 100));
    const wkey = pod.workload?.key;
    const zones = wkey ? this.#zoneCounts.get(wkey) : undefined;
    let best: NodeRec | undefined;
    let bestScore = Infinity;
    let found = 0;
    let i = 0;
    for (; i < n && found < want; i++) {
      const node = nodes[(this.#nextStart + i) % n] as NodeRec;
      if (!fits(node, pod.template)) continue;
      found++;
      const s = score(node, pod.template, wkey, zones);
      if (s < bestScore) {
        bestScore = s;
        best = node;
      }
    }
    this.#nextStart = (this.#nextStart + i) % n;
    return best;
  }

  /** Why a pending pod does not fit anywhere (the FailedScheduling message's reasons). */
  whyPending(pod: PodRec): string[] {
    const reasons = new Map<string, number>();
    for (const node of this.nodeList()) {
      const r = unfit(node, pod.template);
      if (r) reasons.set(r, (reasons.get(r) ?? 0) + 1);
    }
    return [...reasons].map(([r, c]) => `${c} ${r}`);
  }

  #bind(pod: PodRec, node: NodeRec, readyNow: boolean): void {
    pod.nodeName = node.name;
    pod.rv = this.nextRv();
    node.pods.add(pod);
    node.used.cpu += pod.template.requests.cpu;
    node.used.memory += pod.template.requests.memory;
    node.used.pods += 1;
    const wkey = pod.workload?.key;
    if (wkey) {
      node.byWorkload.set(wkey, (node.byWorkload.get(wkey) ?? 0) + 1);
      const z = this.#zoneCounts.get(wkey);
      if (z) z.set(node.zone, (z.get(node.zone) ?? 0) + 1);
    }
    if (this.ctx.podEvents)
      this.ctx.timeline.record("pod.bind", {
        pod: `${pod.namespace}/${pod.name}`,
        node: node.name,
      });
    this.#emitPod("MODIFIED", pod);
    if (readyNow) {
      pod.phase = "Running";
      pod.startedAt = this.ctx.clock.nowMs();
      this.#setReady(pod, true);
      return;
    }
    const t = pod.template;
    pod.timers.push(
      this.ctx.clock.after(t.startSeconds * 1000, () => {
        if (pod.gone || pod.deletionAt !== undefined) return;
        pod.phase = "Running";
        pod.startedAt = this.ctx.clock.nowMs();
        pod.rv = this.nextRv();
        this.#emitPod("MODIFIED", pod);
        // Readiness needs a Ready node: a DaemonSet pod on a node that is still joining
        // turns Ready once the node does.
        const probe = () => {
          if (pod.gone || pod.deletionAt !== undefined || node.deleted) return;
          if (!node.ready) return void pod.timers.push(this.ctx.clock.after(5_000, probe));
          this.#setReady(pod, true);
        };
        pod.timers.push(this.ctx.clock.after(t.readySeconds * 1000, probe));
      }),
    );
  }

  #setReady(pod: PodRec, ready: boolean): void {
    if (pod.ready === ready) return;
    const wasAvailable = isPodReady(pod);
    pod.ready = ready;
    pod.rv = this.nextRv();
    for (const pdb of pod.pdbs) pdb.dirty = true;
    const isAvailable = isPodReady(pod);
    if (pod.workload && wasAvailable !== isAvailable)
      this.ctx.availability.change(pod.workload.key, isAvailable ? 1 : -1);
    this.#emitPod("MODIFIED", pod);
  }

  /**
   * Delete a pod gracefully: it stops being ready at once, runs preStop, then its containers
   * stop; the object goes away after min(preStop + shutdown, grace). Grace 0 removes it now.
   */
  deletePod(pod: PodRec, graceSeconds?: number, by = "client"): void {
    if (pod.gone) return;
    const grace = graceSeconds ?? pod.template.terminationGracePeriodSeconds;
    if (pod.deletionAt !== undefined && grace !== 0) return;
    const key = `${pod.namespace}/${pod.name}`;
    if (this.ctx.podEvents) this.ctx.timeline.record("pod.delete", { pod: key, by, grace });
    if (pod.deletionAt === undefined) {
      const wasAvailable = isPodReady(pod);
      pod.deletionAt = this.ctx.clock.nowMs();
      pod.rv = this.nextRv();
      for (const pdb of pod.pdbs) pdb.dirty = true;
      if (pod.workload && wasAvailable) this.ctx.availability.change(pod.workload.key, -1);
      this.#emitPod("MODIFIED", pod);
      if (pod.workload) this.#queueReconcile(pod.workload);
    }
    const unbound = !pod.nodeName;
    if (grace === 0 || unbound) return this.removePod(pod);
    if (pod.workload?.stuckTerminating) return; // a finalizer that never clears
    const stopAfter = Math.min(
      pod.template.preStopSeconds + this.ctx.timings.shutdownSeconds,
      grace,
    );
    pod.timers.push(this.ctx.clock.after(stopAfter * 1000, () => this.removePod(pod)));
  }

  /** The pod object is gone (containers stopped, or garbage-collected with its node). */
  removePod(pod: PodRec): void {
    if (pod.gone) return;
    if (isPodReady(pod) && pod.workload) this.ctx.availability.change(pod.workload.key, -1);
    pod.gone = true;
    for (const t of pod.timers) t.cancel();
    pod.timers = [];
    this.pending.delete(pod);
    const key = `${pod.namespace}/${pod.name}`;
    if (this.pods.get(key) === pod) this.pods.delete(key);
    const node = pod.nodeName ? this.nodes.get(pod.nodeName) : undefined;
    if (node && node.pods.delete(pod)) {
      node.used.cpu -= pod.template.requests.cpu;
      node.used.memory -= pod.template.requests.memory;
      node.used.pods -= 1;
      const wkey = pod.workload?.key;
      if (wkey) {
        node.byWorkload.set(wkey, (node.byWorkload.get(wkey) ?? 1) - 1);
        const z = this.#zoneCounts.get(wkey);
        if (z) z.set(node.zone, (z.get(node.zone) ?? 1) - 1);
      }
    }
    for (const pdb of pod.pdbs) {
      pdb.pods.delete(pod);
      pdb.disrupted.delete(pod.name);
      pdb.dirty = true;
    }
    if (this.ctx.podEvents) this.ctx.timeline.record("pod.gone", { pod: key });
    this.#emitPod("DELETED", pod);
    if (pod.workload) {
      pod.workload.pods.delete(pod);
      if (pod.workload.kind !== "Pod") this.#queueReconcile(pod.workload);
    }
    this.#wakeScheduler();
  }

  /** The eviction subresource: decide as the API server does, then delete. */
  evict(namespace: string, name: string, opts: { dryRun?: boolean; by?: string } = {}) {
    const pod = this.pods.get(`${namespace}/${name}`);
    const now = this.ctx.clock.nowMs();
    const d = decideEviction(pod, name, now);
    if (d.outcome.status === 429 && pod)
      this.ctx.timeline.record("eviction.blocked", {
        pod: `${namespace}/${name}`,
        node: pod.nodeName,
        pdb: d.outcome.pdb,
        by: opts.by ?? "client",
      });
    if (d.delete && pod && !opts.dryRun) {
      if (d.decrement && d.pdb) {
        d.pdb.status.disruptionsAllowed -= 1;
        d.pdb.disrupted.set(pod.name, now);
      }
      if (this.ctx.podEvents)
        this.ctx.timeline.record("pod.evict", { pod: `${namespace}/${name}`, node: pod.nodeName });
      this.deletePod(pod, undefined, opts.by ?? "eviction");
    }
    return d.outcome;
  }

  pdbStatus(pdb: PdbRec): PdbRec["status"] {
    return pdbStatus(pdb, this.ctx.clock.nowMs());
  }

  // ---------------------------------------------------------------- objects for the port

  toNode(n: NodeRec): Node {
    const taints = n.taints.map((t) => ({ ...t }));
    return {
      metadata: {
        name: n.name,
        uid: n.uid,
        resourceVersion: String(n.rv),
        creationTimestamp: new Date(n.createdAt).toISOString(),
        labels: { ...n.labels },
        annotations: { ...n.annotations },
      },
      spec: {
        providerID: `aws:///${n.zone}/${n.instanceId}`,
        ...(n.unschedulable ? { unschedulable: true } : {}),
        ...(taints.length || n.unschedulable
          ? {
              taints:
                n.unschedulable && !taints.some((t) => t.key === UNSCHEDULABLE_TAINT)
                  ? [...taints, { key: UNSCHEDULABLE_TAINT, effect: "NoSchedule" as const }]
                  : taints,
            }
          : {}),
      },
      status: {
        capacity: {
          cpu: formatCpu(n.capacity.cpu),
          memory: formatMemory(n.capacity.memory),
          pods: String(n.capacity.pods),
        },
        allocatable: {
          cpu: formatCpu(n.capacity.cpu),
          memory: formatMemory(n.capacity.memory),
          pods: String(n.capacity.pods),
        },
        conditions: [
          {
            type: "Ready",
            status: n.ready ? "True" : n.deleted ? "Unknown" : "False",
            reason: n.ready ? "KubeletReady" : "KubeletNotReady",
          },
        ],
        nodeInfo: { kubeletVersion: n.kubeletVersion },
      },
    };
  }

  toPod(p: PodRec): Pod {
    const w = p.workload;
    const t = p.template;
    const owner =
      w && w.kind !== "Pod"
        ? [
            {
              apiVersion: "apps/v1",
              kind: w.kind === "Deployment" ? "ReplicaSet" : w.kind,
              name: w.kind === "Deployment" ? (w.replicaSet as string) : w.name,
              uid: w.uid,
              controller: true,
            },
          ]
        : undefined;
    return {
      metadata: {
        name: p.name,
        namespace: p.namespace,
        uid: p.uid,
        resourceVersion: String(p.rv),
        creationTimestamp: new Date(p.createdAt).toISOString(),
        ...(p.deletionAt !== undefined
          ? { deletionTimestamp: new Date(p.deletionAt).toISOString() }
          : {}),
        labels: { ...p.labels },
        ...(owner ? { ownerReferences: owner } : {}),
      },
      spec: {
        ...(p.nodeName ? { nodeName: p.nodeName } : {}),
        containers: [
          {
            name: "main",
            image: "public.ecr.aws/docker/library/busybox:stable",
            resources: {
              requests: { cpu: formatCpu(t.requests.cpu), memory: formatMemory(t.requests.memory) },
            },
            ...(t.readinessProbe
              ? { readinessProbe: { httpGet: { path: "/healthz", port: 8080 } } }
              : {}),
            ...(t.preStopSeconds > 0
              ? { lifecycle: { preStop: { sleep: { seconds: t.preStopSeconds } } } }
              : {}),
          },
        ],
        tolerations: t.tolerations.map((x) => ({ ...x })),
        ...(Object.keys(t.nodeSelector).length ? { nodeSelector: { ...t.nodeSelector } } : {}),
        terminationGracePeriodSeconds: t.terminationGracePeriodSeconds,
        ...(t.priorityClassName ? { priorityClassName: t.priorityClassName } : {}),
      },
      status: {
        phase: p.phase,
        conditions: [
          { type: "PodScheduled", status: p.nodeName ? "True" : "False" },
          { type: "Ready", status: p.ready ? "True" : "False" },
        ],
        ...(p.startedAt !== undefined ? { startTime: new Date(p.startedAt).toISOString() } : {}),
      },
    };
  }

  toPdb(b: PdbRec): PodDisruptionBudget {
    const s = this.pdbStatus(b);
    const disrupted: Record<string, string> = {};
    for (const [name, at] of b.disrupted) disrupted[name] = new Date(at).toISOString();
    return {
      metadata: {
        name: b.name,
        namespace: b.namespace,
        uid: b.uid,
        resourceVersion: String(b.rv),
        generation: b.generation,
      },
      spec: {
        selector: b.selector,
        ...(b.minAvailable !== undefined ? { minAvailable: b.minAvailable } : {}),
        ...(b.maxUnavailable !== undefined ? { maxUnavailable: b.maxUnavailable } : {}),
        ...(b.unhealthyPodEvictionPolicy
          ? { unhealthyPodEvictionPolicy: b.unhealthyPodEvictionPolicy }
          : {}),
      },
      status: {
        observedGeneration: b.generation,
        disruptionsAllowed: s.disruptionsAllowed,
        currentHealthy: s.currentHealthy,
        desiredHealthy: s.desiredHealthy,
        expectedPods: s.expectedPods,
        disruptedPods: disrupted,
        conditions: [
          {
            type: "DisruptionAllowed",
            status: s.disruptionsAllowed > 0 ? "True" : "False",
            reason: s.disruptionsAllowed > 0 ? "SufficientPods" : "InsufficientPods",
          },
        ],
      },
    };
  }

  #emitNode(type: WatchEvent<Node>["type"], n: NodeRec): void {
    if (this.nodeWatchers.length === 0) return;
    const obj = this.toNode(n);
    for (const w of this.nodeWatchers) if (w.filter(obj)) w.stream.push({ type, object: obj });
  }
  #emitPod(type: WatchEvent<Pod>["type"], p: PodRec): void {
    if (this.podWatchers.length === 0) return;
    const obj = this.toPod(p);
    for (const w of this.podWatchers) if (w.filter(obj)) w.stream.push({ type, object: obj });
  }
}
