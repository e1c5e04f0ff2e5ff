// The Cluster port (src/ports/cluster.ts), and the sandbox's own additions to it (api.ts), served by
// the sandbox: Kubernetes-shaped objects,
// scoped and paginated lists, watches, eviction, Leases with resourceVersion conflicts, and
// API priority-and-fairness throttling (429 + Retry-After) when a scenario asks for it.
import type {
  ApiEndpoint,
  EvictionOutcome,
  Lease,
  List,
  ListOptions,
  Node,
  NodePatch,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodDisruptionBudget,
  WatchEvent,
  WatchOptions,
  Workload,
} from "../../ports/cluster.js";
import { KubeApiError } from "../../ports/errors.js";
import type { SandboxClusterApi } from "./api.js";
import type { VirtualClock } from "../model/clock.js";
import type { Timeline } from "../model/observers.js";
import type { NodeRec, PdbRec, PodRec } from "../model/records.js";
import { toNode, toPdb, toPod } from "../sim/kube/convert.js";
import { toClaim, toVolume } from "../sim/kube/volumes.js";
import type { KubeSim } from "../sim/kube/kube.js";
import type { ApiGate } from "./api-gate.js";
import { byKey, PodOrder } from "./pod-order.js";
import { parseFieldSelector, parseLabelSelector } from "./selectors.js";
import { serveWatch } from "./watch-stream.js";
import { createLease, deleteLease, getLease, updateLease } from "./leases.js";
import { WatchHub, type KubeObject } from "../wire/kube-watch.js";
import { WorkloadTable, type WorkloadEntry } from "./workloads.js";

/** What the Cluster face needs of the world. */
export interface ClusterView {
  kube: KubeSim;
  /** Where this API is, as a kubeconfig would say. */
  endpoint: ApiEndpoint;
  clock: VirtualClock;
  timeline: Timeline;
  gate: ApiGate;
}

const POD_FIELDS = ["spec.nodeName", "metadata.name", "metadata.namespace", "status.phase"];
const NODE_FIELDS = ["metadata.name", "spec.unschedulable"];

/** One predicate that holds when all of `checks` do (none: always). */
function all<R>(checks: ((r: R) => boolean)[]): (r: R) => boolean {
  if (checks.length === 0) return () => true;
  if (checks.length === 1) return checks[0] as (r: R) => boolean;
  return (r) => {
    for (const c of checks) if (!c(r)) return false;
    return true;
  };
}

function podField(p: Pod, field: string): string {
  if (field === "spec.nodeName") return p.spec.nodeName ?? "";
  if (field === "metadata.name") return p.metadata.name;
  if (field === "metadata.namespace") return p.metadata.namespace ?? "";
  return p.status.phase;
}
function nodeField(n: Node, field: string): string {
  return field === "metadata.name" ? n.metadata.name : String(n.spec.unschedulable ?? false);
}

export class SandboxCluster implements SandboxClusterApi {
  /**
   * The resourceVersion of the last node and pod event before the port kept a history (#hub).
   */
  readonly #lastChange = { nodes: 0, pods: 0 };
  /**
   * Recent node and pod events, kept from the first watch on (before it nobody could ask for
   * them): a watch from a version the history reaches replays what happened since, one older
   * answers 410 Gone — what the API server's watch cache does, so a client that watches again
   * after the server ended its watch need not list again.
   */
  #hub?: { hub: WatchHub; from: number };
  readonly #order: PodOrder;
  readonly #workloads: WorkloadTable;
  #pdbs: { count: number; list: PdbRec[] } | undefined;

  get endpoint(): ApiEndpoint {
    return this.view.endpoint;
  }

  constructor(private readonly view: ClusterView) {
    const k = view.kube;
    this.#order = new PodOrder(k.pods);
    this.#workloads = new WorkloadTable(k.workloads, () => this.#lastChange.pods);
    // A deletion keeps the object's last version: each event takes a version of its own.
    k.addNodeWatcher({
      filter: () => true,
      stream: { push: () => void (this.#lastChange.nodes = k.nextRv()) },
    });
    k.onPodEvent((type, p) => {
      this.#lastChange.pods = k.nextRv();
      if (type !== "MODIFIED") this.#order.changed(p.key);
    });
  }

  /** What a watch from opts.resourceVersion replays first; 410 Gone when the history does not
   * reach that far back. */
  #fromVersion<T extends Node | Pod>(
    kind: "nodes" | "pods",
    opts: WatchOptions | undefined,
    filter: (o: T) => boolean,
  ): () => WatchEvent<T>[] {
    // Budget watches replay from the simulator's own record (pdbsSince): no history of them here.
    if (!this.#hub)
      this.#hub = {
        hub: new WatchHub(this.view.kube, undefined, ["nodes", "pods"]),
        from: this.view.kube.rv,
      };
    const { hub, from } = this.#hub;
    const rv = opts?.resourceVersion;
    if (rv === undefined || rv === "" || rv === "0") return () => [];
    const since = hub.since(Number(rv), kind, filter as (o: KubeObject) => boolean);
    if (since) return () => since as unknown as WatchEvent<T>[];
    // Older than the history: only a version after the kind's last event before the history
    // began (and nothing dropped from it since) has nothing to replay.
    const last = this.#lastChange[kind];
    if (Number(rv) < last || hub.floor !== from)
      throw new KubeApiError(410, "Expired", `too old resource version: ${rv} (${hub.floor})`);
    return () => [];
  }

  /** Count the call; answer 429 with Retry-After when a throttling fault turns it away. */
  #gate(name: string): void {
    const t = this.view.gate.admit(name, "kubernetes");
    if (!t) return;
    this.view.timeline.record("api.throttled", { api: "kubernetes", call: name });
    throw new KubeApiError(
      429,
      "TooManyRequests",
      "Too many requests, please try again later.",
      t.retryAfter,
    );
  }

  /**
   * One page of a list: the records `keep` accepts, in order, from the position the continue
   * token names, converted to objects — only those of the page, so listing a large cluster a
   * page at a time costs each page its own size, not the cluster's. The token is a position
   * in `records` (the next item's, found by looking ahead, so the last page is never empty).
   */
  #page<R, T>(
    records: readonly R[],
    keep: (r: R) => boolean,
    convert: (r: R) => T,
    opts: ListOptions | undefined,
  ): List<T> {
    const rv = String(this.view.kube.rv);
    const limit = opts?.resourceVersion === "0" ? 0 : (opts?.limit ?? 0);
    let at = 0;
    if (opts?.continue) {
      const m = /^o(\d+)$/.exec(Buffer.from(opts.continue, "base64url").toString());
      if (!m) throw new KubeApiError(400, "BadRequest", "continue key is not valid");
      at = Number(m[1]);
    }
    const items: T[] = [];
    for (; at < records.length; at++) {
      const r = records[at] as R;
      if (!keep(r)) continue;
      if (limit > 0 && items.length === limit) {
        const next = Buffer.from(`o${at}`).toString("base64url");
        return { items, metadata: { resourceVersion: rv, continue: next } };
      }
      items.push(convert(r));
    }
    return { items, metadata: { resourceVersion: rv } };
  }

  /** The list's filter, asked of the records (the same answers as #nodeFilter on the objects). */
  #nodeRecordFilter(opts: ListOptions | undefined): (n: NodeRec) => boolean {
    const checks: ((n: NodeRec) => boolean)[] = [];
    if (opts?.labelSelector?.trim()) {
      const labels = parseLabelSelector(opts.labelSelector);
      checks.push((n) => labels(n.labels));
    }
    for (const f of parseFieldSelector(opts?.fieldSelector, NODE_FIELDS)) {
      const is = f.op === "=";
      if (f.field === "metadata.name") checks.push((n) => (n.name === f.value) === is);
      else checks.push((n) => (String(n.unschedulable) === f.value) === is);
    }
    return all(checks);
  }
  #podRecordFilter(namespace: string | undefined, opts: ListOptions | undefined) {
    const checks: ((p: PodRec) => boolean)[] = [];
    if (namespace !== undefined) checks.push((p) => p.namespace === namespace);
    if (opts?.labelSelector?.trim()) {
      const labels = parseLabelSelector(opts.labelSelector);
      checks.push((p) => labels(p.labels));
    }
    const fieldOf: Record<string, (p: PodRec) => string> = {
      "spec.nodeName": (p) => p.nodeName ?? "",
      "metadata.name": (p) => p.name,
      "metadata.namespace": (p) => p.namespace,
      "status.phase": (p) => p.phase,
    };
    for (const f of parseFieldSelector(opts?.fieldSelector, POD_FIELDS)) {
      const is = f.op === "=";
      const get = fieldOf[f.field] as (p: PodRec) => string;
      checks.push((p) => (get(p) === f.value) === is);
    }
    return all(checks);
  }

  #nodeFilter(
    opts: { labelSelector?: string; fieldSelector?: string } | undefined,
  ): (n: Node) => boolean {
    const labels = parseLabelSelector(opts?.labelSelector);
    const fields = parseFieldSelector(opts?.fieldSelector, NODE_FIELDS);
    return (n) =>
      labels(n.metadata.labels ?? {}) &&
      fields.every((f) => (nodeField(n, f.field) === f.value) === (f.op === "="));
  }
  #podFilter(
    namespace: string | undefined,
    opts: { labelSelector?: string; fieldSelector?: string } | undefined,
  ): (p: Pod) => boolean {
    const labels = parseLabelSelector(opts?.labelSelector);
    const fields = parseFieldSelector(opts?.fieldSelector, POD_FIELDS);
    return (p) =>
      (namespace === undefined || p.metadata.namespace === namespace) &&
      labels(p.metadata.labels ?? {}) &&
      fields.every((f) => (podField(p, f.field) === f.value) === (f.op === "="));
  }

  async listNodes(opts?: ListOptions): Promise<List<Node>> {
    this.#gate("core.listNodes");
    const keep = this.#nodeRecordFilter(opts);
    const k = this.view.kube;
    return this.#page(k.nodeList(), keep, (n) => toNode(n, k.stamps), opts);
  }

  async getNode(name: string): Promise<Node> {
    this.#gate("core.getNode");
    const n = this.view.kube.nodes.get(name);
    if (!n) throw new KubeApiError(404, "NotFound", `nodes "${name}" not found`);
    return toNode(n, this.view.kube.stamps);
  }

  watchNodes(opts?: WatchOptions): AsyncIterable<WatchEvent<Node>> {
    this.#gate("core.watchNodes");
    const filter = this.#nodeFilter(opts);
    const replay = this.#fromVersion("nodes", opts, filter);
    const k = this.view.kube;
    return serveWatch(this.view.clock, opts, filter, {
      replay,
      add: (w) => k.addNodeWatcher(w),
      remove: (w) => k.removeNodeWatcher(w),
      rv: () => String(k.rv),
      current: () => k.nodeList().map((n) => toNode(n, k.stamps)),
    });
  }

  async patchNode(name: string, patch: NodePatch): Promise<Node> {
    this.#gate("core.patchNode");
    const k = this.view.kube;
    return toNode(k.patchNode(name, patch) as NodeRec, k.stamps);
  }

  /**
   * The pods a list or watch may return, in the order the API server lists them (by
   * "namespace/name"): from the node index when the field selector names a node, as the watch
   * cache would, else from the kept order (no sort per call, so a list in pages costs each page
   * its own size, not the cluster's).
   */
  #podRecords(namespace: string | undefined, opts: ListOptions | undefined): readonly PodRec[] {
    const k = this.view.kube;
    const node = this.#nodeOf(opts);
    if (node !== undefined) return [...(k.nodes.get(node)?.pods ?? [])].sort(byKey);
    return namespace === undefined ? this.#order.all() : this.#order.inNamespace(namespace);
  }

  /** The node a field selector names (spec.nodeName=…), if it names one. */
  #nodeOf(opts: ListOptions | undefined): string | undefined {
    return /(?:^|,)\s*spec\.nodeName\s*==?\s*([^,\s]+)/.exec(opts?.fieldSelector ?? "")?.[1];
  }

  async listPods(namespace: string | undefined, opts?: ListOptions): Promise<List<Pod>> {
    this.#gate("core.listPods");
    const keep = this.#podRecordFilter(namespace, opts);
    const k = this.view.kube;
    return this.#page(
      this.#podRecords(namespace, opts),
      keep,
      (p) => toPod(p, k.stamps, k.unschedulable, k.crashLoops),
      opts,
    );
  }

  async getPod(namespace: string, name: string): Promise<Pod> {
    this.#gate("core.getPod");
    const p = this.view.kube.pods.get(`${namespace}/${name}`);
    if (!p) throw new KubeApiError(404, "NotFound", `pods "${name}" not found`);
    return toPod(p, this.view.kube.stamps, this.view.kube.unschedulable, this.view.kube.crashLoops);
  }

  async deletePod(
    namespace: string,
    name: string,
    opts?: { gracePeriodSeconds?: number },
  ): Promise<void> {
    this.#gate("core.deletePod");
    const p = this.view.kube.pods.get(`${namespace}/${name}`);
    if (!p) throw new KubeApiError(404, "NotFound", `pods "${name}" not found`);
    this.view.kube.deletePod(p, opts?.gracePeriodSeconds);
  }

  async evictPod(
    namespace: string,
    name: string,
    opts?: { dryRun?: boolean },
  ): Promise<EvictionOutcome> {
    this.#gate("policy.evictPod");
    return this.view.kube.evict(namespace, name, { ...(opts?.dryRun ? { dryRun: true } : {}) });
  }

  watchPods(namespace: string | undefined, opts?: WatchOptions): AsyncIterable<WatchEvent<Pod>> {
    this.#gate("core.watchPods");
    const filter = this.#podFilter(namespace, opts);
    const replay = this.#fromVersion("pods", opts, filter);
    const k = this.view.kube;
    const node = this.#nodeOf(opts);
    return serveWatch(this.view.clock, opts, filter, {
      replay,
      add: (w) => k.addPodWatcher(w),
      remove: (w) => k.removePodWatcher(w),
      rv: () => String(k.rv),
      current: () =>
        this.#podRecords(namespace, opts).map((p) =>
          toPod(p, k.stamps, k.unschedulable, k.crashLoops),
        ),
      ...(node !== undefined && { node }),
    });
  }

  async listPodDisruptionBudgets(
    namespace: string | undefined,
    opts?: ListOptions,
  ): Promise<List<PodDisruptionBudget>> {
    this.#gate("policy.listPodDisruptionBudgets");
    const labels = parseLabelSelector(opts?.labelSelector);
    // The sandbox's PDBs carry no labels: a label selector keeps all of them or none.
    const keep = labels({});
    const now = this.view.clock.nowMs();
    const records = this.#pdbRecords(namespace);
    return this.#page(
      records,
      () => keep,
      (b) => toPdb(b, now),
      opts,
    );
  }

  /**
   * The PDBs a list returns (namespace by namespace, each as added), kept from one page to the
   * next: made per page, listing 160,000 budgets in pages of 500 copied all of them 325 times.
   * PDBs are only ever added, to the end of their namespace's list, so an unchanged count is an
   * unchanged list.
   */
  #pdbRecords(namespace: string | undefined): readonly PdbRec[] {
    const k = this.view.kube;
    if (namespace !== undefined) return k.pdbs.get(namespace) ?? [];
    let count = 0;
    for (const list of k.pdbs.values()) count += list.length;
    if (this.#pdbs?.count !== count) this.#pdbs = { count, list: [...k.pdbs.values()].flat() };
    return this.#pdbs.list;
  }

  watchPodDisruptionBudgets(
    namespace: string | undefined,
    opts?: WatchOptions,
  ): AsyncIterable<WatchEvent<PodDisruptionBudget>> {
    this.#gate("policy.watchPodDisruptionBudgets");
    const k = this.view.kube;
    // Budgets keep what changed since any version (pdb-events.ts): never 410 Gone.
    const rv = Number(opts?.resourceVersion || 0);
    const filter = (b: PodDisruptionBudget) =>
      namespace === undefined || b.metadata.namespace === namespace;
    return serveWatch(this.view.clock, opts, filter, {
      add: (w) => k.addPdbWatcher(w),
      remove: (w) => k.removePdbWatcher(w),
      rv: () => String(k.rv),
      current: () => [...k.pdbs.values()].flat().map((b) => toPdb(b, this.view.clock.nowMs())),
      replay: () =>
        (rv > 0 ? k.pdbsSince(rv) : []).map((object) => ({ type: "MODIFIED" as const, object })),
    });
  }

  async getWorkload(kind: Workload["kind"], namespace: string, name: string): Promise<Workload> {
    this.#gate("apps.getWorkload");
    const hit = this.#workloads.get(kind, namespace, name);
    if (hit) return this.#workloads.serve(hit);
    const resource = kind.toLowerCase() + "s";
    throw new KubeApiError(404, "NotFound", `${resource}.apps "${name}" not found`);
  }

  async listWorkloads(
    kind: Workload["kind"],
    namespace: string | undefined,
    opts?: ListOptions,
  ): Promise<List<Workload>> {
    this.#gate("apps.listWorkloads");
    // The objects carry no labels (as the PDBs): a label selector keeps all of them or none.
    const labelled = parseLabelSelector(opts?.labelSelector)({});
    const keep = (e: WorkloadEntry) =>
      labelled && (namespace === undefined || e.namespace === namespace);
    return this.#page(this.#workloads.ofKind(kind), keep, this.#workloads.serve, opts);
  }

  async getPersistentVolumeClaim(namespace: string, name: string): Promise<PersistentVolumeClaim> {
    this.#gate("core.getPersistentVolumeClaim");
    const c = this.view.kube.claims.get(`${namespace}/${name}`);
    if (!c) throw new KubeApiError(404, "NotFound", `persistentvolumeclaims "${name}" not found`);
    return toClaim(c);
  }

  async getPersistentVolume(name: string): Promise<PersistentVolume> {
    this.#gate("core.getPersistentVolume");
    const c = this.view.kube.volumes.get(name);
    if (!c?.volume)
      throw new KubeApiError(404, "NotFound", `persistentvolumes "${name}" not found`);
    return toVolume({ ...c, volume: c.volume });
  }

  async getLease(namespace: string, name: string): Promise<Lease> {
    this.#gate("coordination.getLease");
    return getLease(this.view, namespace, name);
  }

  async createLease(namespace: string, lease: Lease): Promise<Lease> {
    this.#gate("coordination.createLease");
    return createLease(this.view, namespace, lease);
  }

  async updateLease(namespace: string, lease: Lease): Promise<Lease> {
    this.#gate("coordination.updateLease");
    return updateLease(this.view, namespace, lease);
  }

  async deleteLease(namespace: string, name: string): Promise<void> {
    this.#gate("coordination.deleteLease");
    deleteLease(this.view, namespace, name);
  }
}
