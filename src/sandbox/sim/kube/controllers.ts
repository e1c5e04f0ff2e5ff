// The workload controllers: ReplicaSet (a Deployment's pods, replaced at once), StatefulSet
// (stable ordinal names, a replacement only once the old pod is gone), DaemonSet (one pod per
// node that fits, bound directly) and bare Pods. They create the pods a workload lacks; the
// scheduler and the kubelets take it from there.
import { flat } from "../../model/random.js";
import {
  NO_PDBS,
  NO_TIMERS,
  type NodeRec,
  type PodRec,
  type PodTemplate,
  type WorkloadRec,
} from "../../model/records.js";
import type { Budgets } from "./budgets.js";
import type { Kubelet } from "./kubelet.js";
import type { Scheduler } from "./scheduler.js";
import { meetsAffinity, tolerates } from "./scheduler-rules.js";
import type { KubeContext, KubeState } from "./state.js";
import { claimFor } from "./volumes.js";

export class Controllers {
  readonly daemonSets: WorkloadRec[] = [];
  #queued = new Set<WorkloadRec>();
  #prefixOf: WorkloadRec | undefined;
  #prefix: number[] = [];

  constructor(
    private readonly state: KubeState,
    private readonly ctx: KubeContext,
    private readonly parts: { kubelet: Kubelet; scheduler: Scheduler; budgets: Budgets },
  ) {}

  addWorkload(w: WorkloadRec, initial: { readyNow: boolean }): void {
    this.state.workloads.set(w.key, w);
    if (w.kind === "DaemonSet") this.daemonSets.push(w);
    // A world being built tracks its workloads once their pods are placed (build.ts): a
    // sample per pod started, thrown away then, was a million objects in a large world.
    if (!initial.readyNow)
      this.ctx.availability.track(w.key, w.kind === "DaemonSet" ? 1 : w.replicas, 0);
    this.reconcile(w, initial.readyNow);
  }

  /** Create the pods a workload lacks (ReplicaSet, StatefulSet, DaemonSet controllers). */
  reconcile(w: WorkloadRec, readyNow = false): void {
    if (w.kind === "DaemonSet") {
      const covered = new Set<string>();
      for (const p of w.pods) if (p.nodeName && p.deletionAt === undefined) covered.add(p.nodeName);
      for (const node of this.state.nodeList()) {
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

  /** Reconcile `w` after the controllers' reaction time (once, however many changes). */
  queueReconcile(w: WorkloadRec): void {
    if (this.#queued.has(w)) return;
    this.#queued.add(w);
    this.ctx.clock.after(this.ctx.timings.controllerSeconds * 1000, () => {
      this.#queued.delete(w);
      this.reconcile(w);
    });
  }

  /** A node just registered: each DaemonSet puts its pod there (they tolerate not-ready). */
  nodeAdded(node: NodeRec): void {
    for (const w of this.daemonSets)
      this.ctx.clock.after(this.ctx.timings.controllerSeconds * 1000, () => {
        if (!node.deleted && this.#daemonFits(w.template, node)) {
          for (const p of node.pods) if (p.workload === w && p.deletionAt === undefined) return;
          this.#createPod(w, { node, readyNow: false });
        }
      });
  }

  #daemonFits(t: PodTemplate, node: NodeRec): boolean {
    for (const [k, v] of Object.entries(t.nodeSelector)) if (node.labels[k] !== v) return false;
    if (t.nodeAffinity && !meetsAffinity(t.nodeAffinity, node.labels)) return false;
    // DaemonSet pods tolerate unschedulable / not-ready automatically; other taints must be tolerated.
    return node.taints.every(
      (taint) =>
        taint.effect === "PreferNoSchedule" || t.tolerations.some((tol) => tolerates(tol, taint)),
    );
  }

  /**
   * The new pod's key in the pod store (namespace/name); its name is the key's tail, which V8
   * keeps as a slice of the key rather than a second copy of the characters. A generated name
   * is made in one go from the workload's prefix and the random suffix: a world makes
   * millions, and the parts and joins of each were most of what it allocated per pod. None
   * where the pod's fixed name (a StatefulSet's pod, a bare Pod) is another pod's.
   */
  #podKey(w: WorkloadRec, ordinal: number | undefined): string | undefined {
    if (w.kind === "StatefulSet" || w.kind === "Pod") {
      const key =
        w.kind === "Pod"
          ? flat(w.namespace, "/", w.name)
          : flat(w.namespace, "/", w.name, "-", String(ordinal));
      // A name another pod has: the API server refuses the create (AlreadyExists) and the
      // controller tries again at its next sync; the pod that has it is left as it is.
      return this.state.pods.has(key) ? undefined : key;
    }
    w.podSeq++;
    const codes = this.#keyPrefix(w);
    const prefix = codes.length;
    // Generated names retry on a clash, as the API server's generateName does.
    let key: string;
    do {
      codes.length = prefix;
      this.ctx.random.hexCodes(codes, 5);
      key = String.fromCharCode.apply(null, codes);
    } while (this.state.pods.has(key));
    codes.length = prefix;
    return key;
  }

  /** The character codes of "namespace/base-" for `w`'s generated pod names (the last asked). */
  #keyPrefix(w: WorkloadRec): number[] {
    if (this.#prefixOf === w) return this.#prefix;
    const base = w.kind === "Deployment" ? (w.replicaSet as string) : w.name;
    const text = flat(w.namespace, "/", base, "-");
    this.#prefix = [];
    for (let i = 0; i < text.length; i++) this.#prefix.push(text.charCodeAt(i));
    this.#prefixOf = w;
    return this.#prefix;
  }

  #createPod(
    w: WorkloadRec,
    opts: { ordinal?: number; node?: NodeRec; readyNow: boolean },
  ): PodRec | undefined {
    const { kubelet, scheduler, budgets } = this.parts;
    const now = this.ctx.clock.nowMs();
    const key = this.#podKey(w, opts.ordinal);
    if (key === undefined) return undefined;
    const name = key.slice(w.namespace.length + 1);
    // Every field named here, those set later too: the record is laid out once, with no
    // out-of-object property store (a world keeps millions of these).
    const pod: PodRec = {
      namespace: w.namespace,
      name,
      key,
      uidSeq: 0,
      uidState: 0,
      rv: this.state.nextRv(),
      // Shared with the template (a world keeps millions of pods); a StatefulSet's pods each
      // get a copy, for their own name.
      labels: w.kind === "StatefulSet" ? { ...w.template.labels } : w.template.labels,
      workload: w,
      ordinal: opts.ordinal,
      nodeName: undefined,
      phase: "Pending",
      ready: false,
      deletionAt: undefined,
      createdAt: now,
      startedAt: undefined,
      template: w.template,
      pdbs: NO_PDBS,
      timers: NO_TIMERS,
      gone: false,
    };
    this.state.podUid(pod);
    if (w.kind === "StatefulSet") pod.labels["statefulset.kubernetes.io/pod-name"] = name;
    if (w.volumes) claimFor(this.state, pod, now);
    if (w.kind === "Pod") w.podSeq++;
    this.state.pods.set(pod);
    w.pods.add(pod);
    budgets.attach(w, pod);
    if (this.ctx.podEvents) this.ctx.timeline.record("pod.create", { pod: key });
    this.state.emitPod("ADDED", pod);
    if (opts.node) kubelet.bind(pod, opts.node, opts.readyNow);
    else scheduler.admit(pod, opts.readyNow);
    return pod;
  }
}
