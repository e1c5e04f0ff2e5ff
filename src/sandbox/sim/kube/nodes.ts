// A node's life: the kubelet registers it (NotReady, with the well-known labels), it turns Ready
// after nodeReadySeconds (or never, as a fault), it loses readiness when its instance stops,
// clients patch it (labels, annotations, taints, cordon) with resourceVersion checks, and the
// object goes away with its pods when the instance is gone.
import type { Taint } from "../../../ports/cluster.js";
import { KubeApiError } from "../../../ports/errors.js";
import type { NodeRec, PodRec, Resources } from "../../model/records.js";
import type { Controllers } from "./controllers.js";
import type { Kubelet } from "./kubelet.js";
import type { Scheduler } from "./scheduler.js";
import { tolerates } from "./scheduler-rules.js";
import type { KubeContext, KubeState } from "./state.js";

export const UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";
const UNREACHABLE_EFFECTS = ["NoSchedule", "NoExecute"] as const;
/** What DefaultTolerationSeconds gives a pod without a toleration of its own for the taint. */
const DEFAULT_TOLERATION_SECONDS = 300;

/** How long `pod` tolerates the unreachable NoExecute taint; undefined: for good. */
function noExecuteToleration(pod: PodRec): number | undefined {
  if (pod.workload?.kind === "DaemonSet") return undefined;
  const taint = { key: UNREACHABLE_TAINT, effect: "NoExecute" as const };
  const own = pod.template.tolerations.find((t) => tolerates(t, taint));
  return own ? own.tolerationSeconds : DEFAULT_TOLERATION_SECONDS;
}

export interface NodeRegistration {
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
  /** A bad release's node whose workload pods crash-loop (kubelet.ts). */
  crashLoop?: boolean;
  readyNow?: boolean;
}

export interface NodePatchInput {
  labels?: Record<string, string | null>;
  annotations?: Record<string, string | null>;
  taints?: Taint[];
  unschedulable?: boolean;
  resourceVersion?: string;
}

export class NodeLifecycle {
  constructor(
    private readonly state: KubeState,
    private readonly ctx: KubeContext,
    private readonly parts: { kubelet: Kubelet; scheduler: Scheduler; controllers: Controllers },
  ) {}

  /** The kubelet registers a node (NotReady); it turns Ready after nodeReadySeconds. */
  register(input: NodeRegistration): NodeRec {
    const node = this.#record(input);
    this.state.addNode(node);
    this.ctx.timeline.record("node.register", {
      node: node.name,
      instance: node.instanceId,
      group: node.group,
      zone: node.zone,
    });
    this.state.emitNode("ADDED", node);
    this.parts.controllers.nodeAdded(node);
    if (input.readyNow) this.setReady(node, true);
    else if (!input.neverReady)
      this.ctx.clock.after(this.ctx.timings.nodeReadySeconds * 1000, () => {
        if (!node.deleted) this.setReady(node, true);
      });
    return node;
  }

  #record(input: NodeRegistration): NodeRec {
    return {
      name: input.name,
      uid: this.state.uid(),
      rv: this.state.nextRv(),
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
      createdAt: this.ctx.clock.nowMs(),
      kubeletVersion: input.kubeletVersion,
      capacity: { ...input.capacity },
      used: { cpu: 0, memory: 0, pods: 0 },
      pods: [],
      deleted: false,
      unreachable: false,
      crashLoop: input.crashLoop === true,
    };
  }

  setReady(node: NodeRec, ready: boolean): void {
    if (node.ready === ready || node.deleted) return;
    node.ready = ready;
    node.rv = this.state.nextRv();
    this.state.nodeChanged(node);
    this.ctx.timeline.record(ready ? "node.ready" : "node.notready", {
      node: node.name,
      group: node.group,
    });
    this.state.emitNode("MODIFIED", node);
    if (ready) this.parts.scheduler.wake();
    else {
      // The kubelet is gone: its pods stop being ready (their endpoints go away).
      for (const p of node.pods) if (p.ready) this.parts.kubelet.setReady(p, false);
    }
  }

  /**
   * The kubelet stops reporting while its instance runs on. The node controller shows the Ready
   * condition Unknown (after its grace period, 40 s by default: here at once), turns the node's
   * pods NotReady and taints it node.kubernetes.io/unreachable, NoSchedule and NoExecute; the
   * NoExecute taint deletes each pod that does not tolerate it for good once its toleration
   * runs out — 300 s, the one the DefaultTolerationSeconds admission plugin gives a pod that
   * names none; a DaemonSet's pods tolerate it
   * (https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions).
   * What is deleted stays Terminating: no kubelet confirms it (kubelet.ts).
   */
  loseKubelet(node: NodeRec): void {
    if (node.deleted || node.unreachable) return;
    node.unreachable = true;
    this.ctx.timeline.record("node.unreachable", { node: node.name, group: node.group });
    this.setReady(node, false);
    const taints = UNREACHABLE_EFFECTS.map((effect) => ({ key: UNREACHABLE_TAINT, effect }));
    this.patch(node.name, { taints: [...node.taints, ...taints] }, "node-controller");
    for (const pod of node.pods) {
      const seconds = noExecuteToleration(pod);
      if (seconds === undefined) continue;
      this.ctx.clock.after(seconds * 1000, () => {
        if (!pod.gone && pod.nodeName === node.name && !node.deleted)
          this.parts.kubelet.deletePod(pod, undefined, "taint-manager");
      });
    }
  }

  /** The node object goes away (the instance is terminated); pod GC deletes its pods. */
  delete(name: string): void {
    const node = this.state.nodes.get(name);
    if (!node || node.deleted) return;
    for (const p of [...node.pods]) this.parts.kubelet.removePod(p);
    node.deleted = true;
    node.ready = false;
    this.state.removeNode(node);
    this.ctx.timeline.record("node.delete", { node: name, group: node.group });
    this.state.emitNode("DELETED", node);
  }

  /** Patch labels, annotations, taints, unschedulable; the Cluster port's patchNode. */
  patch(name: string, patch: NodePatchInput, by = "client"): NodeRec {
    const node = this.state.nodes.get(name);
    if (!node) throw new KubeApiError(404, "NotFound", `nodes "${name}" not found`);
    if (patch.resourceVersion !== undefined && patch.resourceVersion !== String(node.rv))
      throw new KubeApiError(
        409,
        "Conflict",
        `Operation cannot be fulfilled on nodes "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    this.#patchMetadata(node, patch, by);
    this.#patchSpec(node, patch, by);
    node.rv = this.state.nextRv();
    this.state.nodeChanged(node);
    this.state.emitNode("MODIFIED", node);
    this.parts.scheduler.wake();
    return node;
  }

  #patchMetadata(node: NodeRec, patch: NodePatchInput, by: string): void {
    for (const [k, v] of Object.entries(patch.labels ?? {})) {
      if (v === null) delete node.labels[k];
      else {
        node.labels[k] = v;
        this.ctx.timeline.record("node.label", {
          node: node.name,
          group: node.group,
          label: `${k}=${v}`,
          by,
        });
      }
    }
    for (const [k, v] of Object.entries(patch.annotations ?? {})) {
      if (v === null) delete node.annotations[k];
      else node.annotations[k] = v;
    }
  }

  #patchSpec(node: NodeRec, patch: NodePatchInput, by: string): void {
    const { name, group } = node;
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
  }
}
