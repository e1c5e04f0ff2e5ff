// The cluster autoscaler's scale-down, reduced (its FAQ, "How does scale-down work?", and
// cluster-autoscaler/core/scaledown): a node is unneeded while the pods on it request less than
// `utilization` of its CPU and of its memory; one unneeded for `unneededFor` goes — unless it is
// annotated scale-down-disabled, already being deleted (the ToBeDeletedByClusterAutoscaler
// taint), or its group is at its minimum size, and not within `delayAfterAdd` of a scale-up. The
// autoscaler taints it, evicts its pods but DaemonSet pods (PodDisruptionBudgets honoured, for at
// most two minutes; refused longer, it gives up and untaints the node), waits for them to go,
// and terminates its instance through the group with a decrement. One node at a time. Cordoned
// nodes are candidates like any other: the autoscaler does not skip them.
import type { NodeRec, PodRec } from "../model/records.js";
import type { AutoscalerView } from "./autoscaler-view.js";

export interface ScaleDownOptions {
  enabled: boolean;
  unneededFor: number;
  utilization: number;
  delayAfterAdd: number;
}

const DISABLED = "cluster-autoscaler.kubernetes.io/scale-down-disabled";
const TO_BE_DELETED = "ToBeDeletedByClusterAutoscaler";
/** How long evictions are retried (MaxPodEvictionTime) and pods awaited (MaxGracefulTerminationSec). */
const EVICT_FOR_MS = 2 * 60_000;
const AWAIT_FOR_MS = 10 * 60_000;
const RETRY_MS = 5_000;

export class ScaleDown {
  readonly #since = new Map<string, number>();
  #lastScaleUp = -Infinity;
  #busy = false;

  constructor(
    private readonly view: AutoscalerView,
    private readonly o: ScaleDownOptions,
  ) {}

  scaledUp(now: number): void {
    this.#lastScaleUp = now;
  }

  /** Note the unneeded nodes; remove the first unneeded long enough, if none is going. */
  scan(): void {
    const now = this.view.clock.nowMs();
    if (this.#busy || now - this.#lastScaleUp < this.o.delayAfterAdd * 1000) return;
    const unneeded = this.view.kube.nodeList().filter((n) => this.#unneeded(n));
    const names = new Set(unneeded.map((n) => n.name));
    for (const name of this.#since.keys()) if (!names.has(name)) this.#since.delete(name);
    for (const n of unneeded) if (!this.#since.has(n.name)) this.#since.set(n.name, now);
    const due = unneeded.find(
      (n) => now - (this.#since.get(n.name) ?? now) >= this.o.unneededFor * 1000,
    );
    if (due) {
      this.#busy = true;
      void this.#remove(due).finally(() => (this.#busy = false));
      // Async work started from a timer's callback: the clock lets it run before going on.
      this.view.clock.notify();
    }
  }

  #unneeded(n: NodeRec): boolean {
    if (n.deleted || !n.ready || n.annotations[DISABLED] !== undefined) return false;
    if (n.taints.some((t) => t.key === TO_BE_DELETED)) return false;
    const inst = this.view.autoScaling.ctx.ec2.instances.get(n.instanceId);
    const g = inst?.asg ? this.view.autoScaling.groups.get(inst.asg) : undefined;
    if (!inst || !g || inst.lifecycle !== "InService" || g.desired <= g.min) return false;
    const cpu = n.used.cpu / Math.max(1, n.capacity.cpu);
    const memory = n.used.memory / Math.max(1, n.capacity.memory);
    return Math.max(cpu, memory) < this.o.utilization;
  }

  async #remove(n: NodeRec): Promise<void> {
    const { kube, clock, timeline, autoScaling } = this.view;
    this.#since.delete(n.name);
    const taint = {
      key: TO_BE_DELETED,
      value: String(Math.floor(clock.nowMs() / 1000)),
      effect: "NoSchedule" as const,
    };
    kube.patchNode(n.name, { taints: [...n.taints, taint] }, "cluster-autoscaler");
    timeline.record("autoscaler.scale-down", { group: n.group, node: n.name });
    const movable = () => n.pods.filter((p: PodRec) => !p.gone && p.workload?.kind !== "DaemonSet");
    const evictUntil = clock.nowMs() + EVICT_FOR_MS;
    while (movable().some((p) => p.deletionAt === undefined)) {
      for (const p of movable())
        if (p.deletionAt === undefined)
          kube.evict(p.namespace, p.name, { by: "cluster-autoscaler" });
      if (!movable().some((p) => p.deletionAt === undefined)) break;
      if (clock.nowMs() >= evictUntil || n.deleted) return this.#giveUp(n);
      await clock.sleep(RETRY_MS);
    }
    const awaitUntil = clock.nowMs() + AWAIT_FOR_MS;
    while (movable().length > 0 && clock.nowMs() < awaitUntil && !n.deleted)
      await clock.sleep(RETRY_MS);
    const inst = autoScaling.ctx.ec2.instances.get(n.instanceId);
    const g = inst?.asg ? autoScaling.groups.get(inst.asg) : undefined;
    // Gone meanwhile (someone else terminated or detached it), or its group at its minimum.
    if (!inst || !g || inst.lifecycle !== "InService" || g.desired <= g.min) return this.#giveUp(n);
    autoScaling.terminateInGroup(inst.id, true, "cluster-autoscaler");
  }

  #giveUp(n: NodeRec): void {
    if (n.deleted) return;
    this.view.kube.patchNode(
      n.name,
      { taints: n.taints.filter((t) => t.key !== TO_BE_DELETED) },
      "cluster-autoscaler",
    );
  }
}
