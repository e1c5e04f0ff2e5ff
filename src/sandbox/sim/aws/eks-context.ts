// What the parts of the EKS simulator share: the services it drives (EC2, Auto Scaling, the
// Kubernetes cluster), its timings, and the record of an update.
import type { EksUpdate } from "../../../ports/cloud.js";
import type { VirtualClock } from "../../model/clock.js";
import type { Timeline } from "../../model/observers.js";
import type { Random } from "../../model/random.js";
import type { KubeSim } from "../kube/kube.js";
import type { AutoScalingSim } from "./auto-scaling.js";
import type { Ec2Sim } from "./ec2.js";

export interface EksTimings {
  /** How long a drain may take before PodEvictionFailure (15 minutes). */
  drainTimeoutSeconds: number;
  /** The wait after a drain before terminating (60 s). */
  postDrainSeconds: number;
  /** How long scale-up waits for new nodes before NodeCreationFailure. */
  nodeCreationTimeoutSeconds: number;
  /** Between eviction retries. */
  evictionRetrySeconds: number;
  /** An UpdateNodegroupConfig takes this long. */
  configUpdateSeconds: number;
}

/** What EKS's documentation leaves open, chosen per scenario (docs/sandbox.md, `eks`). */
export interface EksBehaviour {
  /** When old nodes are cordoned: after each drain, or all once the new nodes are Ready. */
  cordon: "after-drain" | "when-new-nodes-ready";
  /** ListUpdates: in no promised order (the API promises none), pages of `pageSize` ids. */
  updates: { order: "arbitrary" | "newest-first"; pageSize: number };
}

export const DEFAULT_EKS_BEHAVIOUR: EksBehaviour = {
  cordon: "after-drain",
  updates: { order: "arbitrary", pageSize: 3 },
};

export interface EksContext {
  clock: VirtualClock;
  random: Random;
  timeline: Timeline;
  ec2: Ec2Sim;
  autoScaling: AutoScalingSim;
  kube: KubeSim;
  timings: EksTimings;
  clusterName: string;
  behaviour?: EksBehaviour;
}

export interface UpdateRec {
  update: EksUpdate;
  nodegroup?: string;
}

export const PHASES = ["setup", "scale-up", "upgrade", "scale-down"] as const;
export type Phase = (typeof PHASES)[number];
