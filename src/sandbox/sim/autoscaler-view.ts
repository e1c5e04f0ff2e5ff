// What the cluster autoscaler sees of the world: its scale-up (cluster-autoscaler.ts) and its
// scale-down (scale-down.ts) alike, in a module of its own so that neither imports the other's.
import type { VirtualClock } from "../model/clock.js";
import type { Timeline } from "../model/observers.js";
import type { AsgRec } from "../model/records.js";
import type { AutoScalingSim } from "./aws/auto-scaling.js";
import type { KubeSim } from "./kube/kube.js";

/** What the autoscaler sees of the world. */
export interface AutoscalerView {
  clock: VirtualClock;
  timeline: Timeline;
  kube: Pick<KubeSim, "pending" | "nodeList" | "evict" | "patchNode">;
  autoScaling: AutoScalingSim;
  /** A group by its Auto Scaling group name or its EKS node group name. */
  groupOf(name: string): AsgRec;
}
