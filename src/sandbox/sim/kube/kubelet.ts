// A pod's life on its node: bound (its requests counted against the node), started, Ready once
// its probe passes on a Ready node, deleted gracefully (not ready at once, preStop, then the
// containers stop within the grace period) and finally gone. Availability per workload follows
// every change.
import {
  NO_TIMERS,
  type NodeRec,
  type PdbRec,
  type PodRec,
  type WorkloadRec,
} from "../../model/records.js";
import { crashBackoffMs } from "./crash-loop.js";
import { isPodReady } from "./disruption.js";
import type { KubeContext, KubeState } from "./state.js";

/** What the kubelet tells the other parts (late-bound: they are built after it). */
export interface KubeletHooks {
  /** Pending pods may fit now (capacity was freed). */
  wakeScheduler(): void;
  /** A workload lost a pod: its controller should look again. */
  queueReconcile(w: WorkloadRec): void;
}

export class Kubelet {
  constructor(
    private readonly state: KubeState,
    private readonly ctx: KubeContext,
    private readonly hooks: KubeletHooks,
  ) {}

  /** The pod goes to the node; its kubelet starts it (at once when `readyNow`). */
  bind(pod: PodRec, node: NodeRec, readyNow: boolean): void {
    pod.nodeName = node.name;
    pod.rv = this.state.nextRv();
    node.pods.push(pod);
    node.used.cpu += pod.template.requests.cpu;
    node.used.memory += pod.template.requests.memory;
    node.used.pods += 1;
    this.state.usageChanged(node, pod);
    const z = pod.workload?.zoneCounts;
    if (z) z.set(node.zone, (z.get(node.zone) ?? 0) + 1);
    if (this.ctx.podEvents)
      this.ctx.timeline.record("pod.bind", {
        pod: `${pod.namespace}/${pod.name}`,
        node: node.name,
      });
    this.state.emitPod("MODIFIED", pod);
    if (readyNow) {
      pod.phase = "Running";
      pod.startedAt = this.ctx.clock.nowMs();
      this.setReady(pod, true);
      return;
    }
    this.#start(pod, node);
  }

  /** Containers start after startSeconds; the readiness probe passes readySeconds later. */
  #start(pod: PodRec, node: NodeRec): void {
    const t = pod.template;
    this.#timer(
      pod,
      this.ctx.clock.after(t.startSeconds * 1000, () => {
        if (pod.gone || pod.deletionAt !== undefined || node.unreachable) return;
        pod.phase = "Running";
        pod.startedAt = this.ctx.clock.nowMs();
        pod.rv = this.state.nextRv();
        // A bad release's node: its containers crash, all but a DaemonSet's (the node's own
        // agents run, so the node looks healthy: only what it runs for others fails).
        const crashes = node.crashLoop === true && pod.workload?.kind !== "DaemonSet";
        if (crashes) this.state.crashLoops.set(pod, { restarts: 0 });
        this.state.emitPod("MODIFIED", pod);
        if (crashes) return this.#crashLoop(pod, node);
        // Readiness needs a Ready node: a DaemonSet pod on a node that is still joining
        // turns Ready once the node does.
        const probe = () => {
          if (pod.gone || pod.deletionAt !== undefined || node.deleted || node.unreachable) return;
          if (!node.ready) return this.#timer(pod, this.ctx.clock.after(5_000, probe));
          this.setReady(pod, true);
        };
        this.#timer(pod, this.ctx.clock.after(t.readySeconds * 1000, probe));
      }),
    );
  }

  /**
   * The container exits as soon as it starts; the kubelet restarts it after each back-off
   * (crash-loop.ts), and every restart is a status update: a new resourceVersion, a MODIFIED
   * event. Never Ready; it stops when the pod is deleted or its node goes.
   */
  #crashLoop(pod: PodRec, node: NodeRec): void {
    const loop = this.state.crashLoops.get(pod);
    if (!loop) return;
    if (this.ctx.podEvents)
      this.ctx.timeline.record("pod.crashloop", { pod: pod.key, node: node.name });
    // One handle with the pod's timers, whichever restart is due: a long loop adds none.
    let timer: { cancel(): void } | undefined;
    this.#timer(pod, { cancel: () => timer?.cancel() });
    const restart = () => {
      if (pod.gone || pod.deletionAt !== undefined || node.deleted || node.unreachable) return;
      loop.restarts++;
      pod.rv = this.state.nextRv();
      this.state.emitPod("MODIFIED", pod);
      timer = this.ctx.clock.after(crashBackoffMs(loop.restarts), restart);
    };
    timer = this.ctx.clock.after(crashBackoffMs(0), restart);
  }

  setReady(pod: PodRec, ready: boolean): void {
    if (pod.ready === ready) return;
    const wasAvailable = isPodReady(pod);
    pod.ready = ready;
    pod.rv = this.state.nextRv();
    markDirty(pod.pdbs);
    const isAvailable = isPodReady(pod);
    if (pod.workload && wasAvailable !== isAvailable)
      this.ctx.availability.change(pod.workload.key, isAvailable ? 1 : -1);
    this.state.emitPod("MODIFIED", pod);
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
      pod.deletionAt = this.ctx.clock.nowMs() + grace * 1000;
      pod.rv = this.state.nextRv();
      markDirty(pod.pdbs);
      if (pod.workload && wasAvailable) this.ctx.availability.change(pod.workload.key, -1);
      this.state.emitPod("MODIFIED", pod);
      if (pod.workload) this.hooks.queueReconcile(pod.workload);
    }
    const unbound = !pod.nodeName;
    if (grace === 0 || unbound) return this.removePod(pod);
    if (pod.workload?.stuckTerminating) return; // a finalizer that never clears
    const stopAfter = Math.min(
      pod.template.preStopSeconds + this.ctx.timings.shutdownSeconds,
      grace,
    );
    // The kubelet confirms the containers stopped; one that stopped reporting never does, and
    // the object stays until its node goes (pod GC) or a deletion with grace 0.
    this.#timer(
      pod,
      this.ctx.clock.after(stopAfter * 1000, () => {
        if (!this.state.nodes.get(pod.nodeName ?? "")?.unreachable) this.removePod(pod);
      }),
    );
  }

  /** Keep a timer with its pod (most pods of a big world never have one). */
  #timer(pod: PodRec, timer: { cancel(): void }): void {
    if (pod.timers === NO_TIMERS) pod.timers = [timer];
    else pod.timers.push(timer);
  }

  /** The pod object is gone (containers stopped, or garbage-collected with its node). */
  removePod(pod: PodRec): void {
    if (pod.gone) return;
    if (isPodReady(pod) && pod.workload) this.ctx.availability.change(pod.workload.key, -1);
    pod.gone = true;
    for (const t of pod.timers) t.cancel();
    pod.timers = NO_TIMERS;
    this.state.pending.delete(pod);
    const key = pod.key;
    if (this.state.pods.get(key) === pod) this.state.pods.delete(key);
    this.#release(pod);
    for (const pdb of pod.pdbs) {
      pdb.pods.delete(pod);
      pdb.disrupted.delete(pod.name);
      pdb.dirty = true;
    }
    if (this.ctx.podEvents) this.ctx.timeline.record("pod.gone", { pod: key });
    this.state.emitPod("DELETED", pod);
    if (pod.workload) {
      pod.workload.pods.delete(pod);
      if (pod.workload.kind !== "Pod") this.hooks.queueReconcile(pod.workload);
    }
    this.hooks.wakeScheduler();
  }

  /** Give the pod's requests back to its node. */
  #release(pod: PodRec): void {
    const node = pod.nodeName ? this.state.nodes.get(pod.nodeName) : undefined;
    const at = node ? node.pods.indexOf(pod) : -1;
    if (!node || at < 0) return;
    node.pods.splice(at, 1);
    node.used.cpu -= pod.template.requests.cpu;
    node.used.memory -= pod.template.requests.memory;
    node.used.pods -= 1;
    this.state.usageChanged(node, pod);
    const z = pod.workload?.zoneCounts;
    if (z) z.set(node.zone, (z.get(node.zone) ?? 1) - 1);
  }
}

/**
 * The budgets' status is to be computed again. An indexed loop: a pod's budget list is frozen
 * (shared by its workload's pods), and for-of over a frozen array made an iterator per pod in V8.
 */
function markDirty(pdbs: readonly PdbRec[]): void {
  for (let i = 0; i < pdbs.length; i++) (pdbs[i] as PdbRec).dirty = true;
}
