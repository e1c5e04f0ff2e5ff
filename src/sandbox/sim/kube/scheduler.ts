// The scheduler actor: pending pods wait for a pass (schedulerSeconds after something changed);
// a pass binds each pod it can place. Placement follows kube-scheduler's shape: look at nodes
// from a rotating start, stop after enough feasible ones, take the best score (the rules are in
// scheduler-rules.ts). The scan reads the placement index (placement.ts), which gives the
// same answers as reading the node records, faster.
import type { NodeRec, PodRec, PodTemplate } from "../../model/records.js";
import type { Kubelet } from "./kubelet.js";
import { PlacementIndex, type Scan } from "./placement.js";
import { fits, score, unfit } from "./scheduler-rules.js";
import type { KubeContext, KubeState } from "./state.js";
import { clearUnschedulable, markUnschedulable, schedulingMessage } from "./unschedulable.js";
import { bindVolume, volumeZone } from "./volumes.js";

export class Scheduler {
  /**
   * false: scan the node records one by one — the reference the placement index is tested
   * against (test/sandbox/placement.test.ts); nothing else turns it off.
   */
  static indexed = true;
  #queued = false;
  #nextStart = 0;
  /** The position of the node the last scan picked, in the list it scanned. */
  #lastAt = -1;
  /** One index per list the scan may read: the open nodes, and all of them (pods with tolerations). */
  readonly #open: PlacementIndex;
  readonly #all: PlacementIndex;
  /** The FailedScheduling messages worked out at `version`, by template and volume zone. */
  #explained = {
    version: -1,
    messages: new Map<PodTemplate, Map<string | undefined, string>>(),
  };

  constructor(
    private readonly state: KubeState,
    private readonly ctx: KubeContext,
    private readonly kubelet: Kubelet,
  ) {
    this.#open = new PlacementIndex(state);
    this.#all = new PlacementIndex(state);
  }

  /** Bind, and let the index follow the one node that changed. */
  #bind(pod: PodRec, node: NodeRec, readyNow: boolean): void {
    clearUnschedulable(this.state.unschedulable, pod);
    bindVolume(this.state, pod, node, this.ctx.clock.nowMs());
    const before = this.state.version;
    this.kubelet.bind(pod, node, readyNow);
    // Where the last scan found it: the index checks it is that node before using it.
    this.#open.bound(pod, node, before, this.#lastAt);
    this.#all.bound(pod, node, before, this.#lastAt);
  }

  /** A pass soon, if pods are pending and none is queued yet. */
  wake(): void {
    if (this.#queued || this.state.pending.size === 0) return;
    this.#queued = true;
    this.ctx.clock.after(this.ctx.timings.schedulerSeconds * 1000, () => {
      this.#queued = false;
      this.run();
    });
  }

  /** A new pod: bound now when the scenario is being built and a node fits, else pending. */
  admit(pod: PodRec, readyNow: boolean): void {
    if (readyNow) {
      const node = this.pickNode(pod, true);
      if (node) return this.#bind(pod, node, true);
    }
    this.state.pending.add(pod);
    this.wake();
  }

  /** One scheduling pass over the pending pods. */
  run(): void {
    for (const pod of [...this.state.pending]) {
      if (pod.gone || pod.deletionAt !== undefined) {
        this.state.pending.delete(pod);
        continue;
      }
      const node = this.pickNode(pod);
      if (node) {
        this.state.pending.delete(pod);
        this.#bind(pod, node, false);
      } else if (markUnschedulable(this.state.unschedulable, pod, this.#explainer(pod))) {
        // Its PodScheduled condition turns Unschedulable: an update watchers see.
        pod.rv = this.state.nextRv();
        this.state.emitPod("MODIFIED", pod);
      }
    }
  }

  /**
   * The pod's FailedScheduling message, worked out when read: once per template and volume zone
   * while nothing placement reads changes (a workload's pending pods share it), not per pod.
   */
  #explainer(pod: PodRec): () => string {
    return () => {
      const cache = this.#explained;
      if (cache.version !== this.state.version) {
        cache.version = this.state.version;
        cache.messages = new Map();
      }
      const zone = volumeZone(this.state, pod);
      let byZone = cache.messages.get(pod.template);
      if (!byZone) cache.messages.set(pod.template, (byZone = new Map()));
      let message = byZone.get(zone);
      if (message === undefined) {
        message = schedulingMessage(this.state.nodeList().length, this.whyPending(pod));
        byZone.set(zone, message);
      }
      return message;
    };
  }

  /**
   * Like kube-scheduler, look at nodes from a rotating start and stop after enough feasible
   * ones (percentageOfNodesToScore's adaptive default), then take the best score.
   */
  pickNode(pod: PodRec, initial = false): NodeRec | undefined {
    const all = this.state.nodeList();
    const open = pod.template.tolerations.length === 0;
    const nodes = open ? this.state.openNodes() : all;
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
    const zone = volumeZone(this.state, pod);
    const scan = Scheduler.indexed
      ? (open ? this.#open : this.#all).scan(nodes, pod, this.#nextStart, want, zone)
      : scanRecords(nodes, pod, this.#nextStart, want, zone);
    this.#nextStart = (this.#nextStart + scan.scanned) % n;
    this.#lastAt = scan.at;
    return scan.best;
  }

  /** Why a pending pod does not fit anywhere (the FailedScheduling message's reasons). */
  whyPending(pod: PodRec): string[] {
    const reasons = new Map<string, number>();
    const zone = volumeZone(this.state, pod);
    for (const node of this.state.nodeList()) {
      const r = unfit(node, pod.template, zone);
      if (r) reasons.set(r, (reasons.get(r) ?? 0) + 1);
    }
    return [...reasons].map(([r, c]) => `${c} ${r}`);
  }
}

/** The scan over the records themselves: the first `want` nodes that fit, the best score. */
function scanRecords(
  nodes: readonly NodeRec[],
  pod: PodRec,
  start: number,
  want: number,
  zone: string | undefined,
): Scan {
  const n = nodes.length;
  const w = pod.workload;
  const zoneCounts = w?.zoneCounts;
  let best: NodeRec | undefined;
  let at = -1;
  let bestScore = Infinity;
  let found = 0;
  let i = 0;
  for (; i < n && found < want; i++) {
    const node = nodes[(start + i) % n] as NodeRec;
    if (!fits(node, pod.template, zone)) continue;
    found++;
    let sameWorkload = 0;
    if (w) for (const p of node.pods) if (p.workload === w) sameWorkload++;
    const s = score(node, pod.template, w && { sameWorkload, zoneCounts });
    if (s < bestScore) {
      bestScore = s;
      best = node;
      at = (start + i) % n;
    }
  }
  return { best, at, scanned: i };
}
