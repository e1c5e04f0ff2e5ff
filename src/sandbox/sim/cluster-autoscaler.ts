// A cluster-autoscaler a scenario can switch on: every scan interval, when pods have been
// pending for a while and nothing fits them, it raises the desired capacity of a group whose
// nodes would fit them (up to its max). It is "another actor" for the invariant that changes
// made by others during a roll are respected, and for EKS's early exit in scale-down. With
// `scaleDown` it also removes nodes it finds unneeded (scale-down.ts).
import type { AsgRec, NodeRec } from "../model/records.js";
import type { AutoscalerView } from "./autoscaler-view.js";
import { unfit } from "./kube/scheduler-rules.js";
import { ScaleDown, type ScaleDownOptions } from "./scale-down.js";

export class ClusterAutoscaler {
  enabled = true;
  readonly #down?: ScaleDown;
  constructor(
    private readonly view: AutoscalerView,
    private readonly scanSeconds: number,
    private readonly pendingSeconds: number,
    scaleDown?: ScaleDownOptions,
  ) {
    if (scaleDown?.enabled) this.#down = new ScaleDown(view, scaleDown);
    this.#schedule();
  }

  #schedule(): void {
    this.view.clock.after(this.scanSeconds * 1000, () => {
      if (this.enabled && !this.scan()) this.#down?.scan();
      this.#schedule();
    });
  }

  /** Scale up for pods pending too long; whether it did (or found pods to scale up for). */
  scan(): boolean {
    const { kube, autoScaling, clock } = this.view;
    const now = clock.nowMs();
    const stale = [...kube.pending].filter(
      (p) => !p.gone && now - p.createdAt >= this.pendingSeconds * 1000,
    );
    if (stale.length === 0) return false;
    for (const g of autoScaling.groups.values()) {
      if (g.desired >= g.max) continue;
      if (autoScaling.active(g).length < g.desired) continue; // still launching what it asked for
      const template = this.#templateNode(g);
      if (!stale.some((p) => unfit(template, p.template) === undefined)) continue;
      autoScaling.setCapacity(g, { desired: g.desired + 1 }, "cluster-autoscaler");
      this.#down?.scaledUp(now);
      return true;
    }
    // Pods wait that no group fits: no scale-down either (the autoscaler's loop does not
    // scale down while it has pods to scale up for).
    return true;
  }

  /** Scale the group now, as the autoscaler would (for tests of "other actors win"). */
  scale(group: string, desired: number): void {
    this.view.autoScaling.setCapacity(this.view.groupOf(group), { desired }, "cluster-autoscaler");
  }

  #templateNode(g: AsgRec): NodeRec {
    return {
      name: `template-${g.name}`,
      uid: "",
      rv: 0,
      instanceId: "",
      zone: g.zones[0] ?? "",
      group: g.nodegroup ?? g.name,
      labels: { ...g.labels },
      annotations: {},
      taints: g.taints,
      unschedulable: false,
      ready: true,
      createdAt: 0,
      kubeletVersion: "",
      capacity: g.capacity,
      used: { cpu: 0, memory: 0, pods: 0 },
      pods: [],
      deleted: false,
      unreachable: false,
    };
  }
}
