// What a plan says, per group and in total. This is also the JSON the CLI prints with
// `--format json` (documented in docs/plan-json.md): keep it stable, add rather than change.
import type { Role, RollSettings } from "../policy/index.js";
import type { GroupKindId, UpdateConfig } from "../ports/index.js";
import type { ClusterInfo } from "./snapshot.js";

export type ReplaceReason =
  | {
      kind: "launch-template";
      from: number | undefined;
      to: number;
      /** Set when the instance was launched from another launch template (its id) than the
       * group's now: version numbers of two templates say nothing of each other. */
      fromTemplate?: string;
      toTemplate?: string;
    }
  | { kind: "kubernetes-version"; from: string; to: string }
  | { kind: "release-version"; from: string; to: string }
  | { kind: "max-node-age"; ageMs: number; maxMs: number }
  | { kind: "annotated"; annotation: string }
  | { kind: "detached-for-surge" }
  | { kind: "group-update" }
  | { kind: "replace-all" };

/**
 * What a run asks beyond the policy (the CLI's flags, a dispatch's inputs): each of the things
 * "force" used to mean has its own name (kubectl's --force is the policy's unmanagedPods).
 */
export interface RunOptions {
  /** kOps' --force: replace every node of the selected groups, whatever its version. */
  replaceAll: boolean;
  /** EKS's force for this run: every group as with the policy's deleteAfterDrainTimeout. */
  deleteAfterDrainTimeout: boolean;
  /** Only these groups (names). */
  groups?: string[];
}

export interface Replacement {
  instance: string;
  node?: string;
  zone: string;
  reasons: ReplaceReason[];
  /**
   * Its node is out of service already: NotReady, or unreachable (its kubelet stopped
   * reporting). Such a node costs no budget, goes first, and holds no validation back.
   * `no-node`: the instance has no node in the cluster (it never joined, or its node was
   * deleted). It goes first and without a drain, but it costs the budget like a Ready node: it
   * may be serving where noderoll cannot see, so no more than maxUnavailable are out at once.
   */
  down?: NodeDown;
}

export type NodeDown = "not-ready" | "unreachable" | "no-node";

export interface ConfigChange {
  field: string;
  from: string;
  to: string;
}

export type FindingCode =
  | "pdb-blocks"
  | "pdb-closed-now"
  | "multiple-pdbs"
  | "single-replica"
  | "tolerates-everything"
  | "prestop-exceeds-grace"
  | "no-readiness-probe"
  | "surge-burst"
  | "nodegroup-size-limit"
  | "group-degraded"
  | "update-in-progress"
  | "unmanaged-pods"
  | "stuck-terminating"
  | "unreachable-nodes"
  | "no-node"
  | "zone-disrupted"
  | "custom-ami-version"
  | "grace-exceeds-drain-timeout"
  | "zone-pinned-pods"
  | "processes-suspended"
  | "minimal-strategy"
  | "no-version-change"
  /** onFailure: rollback where the cloud would refuse to go back (an earlier Kubernetes minor). */
  | "rollback-refused"
  /** Checkpoints on a managed node group: EKS's update cannot be held midway. */
  | "checkpoints-ignored";

export interface Finding {
  code: FindingCode;
  severity: "blocker" | "warning" | "info";
  message: string;
  /** The Kubernetes objects concerned, "namespace/name" or "Kind/namespace/name". */
  objects: string[];
}

export interface Wave {
  /** Nodes started together (a sliding window in practice; waves are how the plan shows it). */
  nodes: string[];
  canary: boolean;
  startMs: number;
  durationMs: number;
}

export interface Schedule {
  waves: Wave[];
  zoneOrder: string[];
  /** Nodes launched before any is drained: maxSurge, or EKS's scale-up. */
  surge: number;
  estimatedMs: number;
}

/**
 * `cleanup`: nothing to replace or configure, but noderoll's own marks left by an earlier run
 * (marks.ts) to clear.
 */
export type GroupStatus = "roll" | "config-only" | "cleanup" | "no-change" | "blocked" | "error";

/** noderoll's marks an earlier run left on a group, which apply clears (plan/marks.ts). */
export interface Cleanup {
  mark: "scale-down-disabled" | "cordon" | "scheduled-taint" | "surge-mark" | "suspended-process";
  /**
   * The nodes (or, for a surge mark on an instance, instance ids; for a suspended process, the
   * processes noderoll suspended on the group) that carry it.
   */
  objects: string[];
}

/** What a group is rolled to, resolved against live state ("latest", "$Latest" → versions). */
export interface Target {
  kubernetesVersion?: string;
  releaseVersion?: string;
  /** The launch template (its id) a self-managed group's instances must come from. */
  launchTemplate?: string;
  launchTemplateVersion?: number;
}

export interface Budgets {
  maxUnavailable: number;
  /** Nodes launched before any is drained: maxSurge, or for a managed group EKS's scale-up. */
  maxSurge: number;
  derivation: { maxUnavailable: string; maxSurge: string };
  /**
   * The budgets as asked for — the policy's values ("25%", 2), a default, or a managed group's
   * live updateConfig kept: a decision of the plan (resolved counts follow the group's size and
   * the roll's progress; these do not). Absent in a plan an older noderoll made.
   */
  spec?: { maxUnavailable: string; maxSurge: string };
}

/**
 * One group's plan: the contract between plan and apply. Everything apply does to the group is
 * decided here — settings, budgets, target, the replacements and their order — so the engine
 * re-derives nothing.
 */
export interface GroupPlan {
  name: string;
  kind: GroupKindId | "missing";
  role: Role;
  status: GroupStatus;
  nodes: number;
  configChanges: ConfigChange[];
  replacements: Replacement[];
  /** Marks an earlier run left on nodes this plan does not replace: apply clears them. */
  cleanup: Cleanup[];
  budgets: Budgets;
  schedule: Schedule;
  findings: Finding[];
  notes: string[];
  errors: string[];
  /** The resolved roll settings (deleteAfterDrainTimeout already includes the run's); absent for a missing group. */
  settings?: RollSettings;
  /** What the group is rolled to; absent for a missing group. */
  target?: Target;
  /** Managed groups: the EKS updateConfig the policy asks for. */
  updateConfig?: UpdateConfig;
  /** Self-managed groups: the launch template version apply sets on the group first, as written. */
  launchTemplate?: { id: string; version: string };
  /**
   * Self-managed groups: warm-pool instances launched from another template than the target's,
   * which apply terminates first — they run no pods — so that the pool refills from the target
   * (kOps deletes them the same way: pkg/instancegroups, rollingUpdateInstanceGroup).
   */
  warmPool?: { replace: string[] };
}

/**
 * What apply will do: the counts and the estimate are of the groups it reaches — those before the
 * first group blocked or in error, where it stops (`stopsAt`); `blocked` and `errors` count every
 * group, so a reader sees them all.
 */
export interface PlanSummary {
  groupsToRoll: number;
  nodesToReplace: number;
  configChanges: number;
  /** Groups whose only work is clearing marks an earlier run left (status "cleanup"). */
  cleanups: number;
  blocked: number;
  errors: number;
  estimatedMs: number;
  /** The group apply stops at, and the groups with work after it that it will not start. */
  stopsAt?: {
    group: string;
    /** 0-based, in the plan's order. */
    index: number;
    status: "blocked" | "error";
    notStarted: string[];
  };
}

/**
 * The policy's maintenance window, and where the plan's moment falls in it, so a reader can see
 * whether a merge now would start anything and whether the estimate fits.
 */
export interface PlanWindow {
  days: string[];
  start: string;
  end: string;
  timeZone: string;
  /** Whether the window was open when live state was read (`takenAt`). */
  openAtPlan: boolean;
  /** When open: the end of this opening (ISO). */
  closesAt?: string;
  /** When closed: the next opening (ISO); absent when it never opens within 15 days. */
  nextOpening?: string;
  /** The length of one opening, ms. */
  openingMs: number;
}

export interface Plan {
  /** Bumped only on an incompatible change of this shape. */
  schemaVersion: 1;
  policy: { name: string; file: string };
  /** The cluster, and how the Kubernetes API read was proven to be its own (identity.ts). */
  cluster: ClusterInfo;
  takenAt: string;
  options: RunOptions;
  /** The maintenance window, when the policy has one. */
  window?: PlanWindow;
  summary: PlanSummary;
  groups: GroupPlan[];
  /** What the roll did on a twin of the cluster, when the plan was rehearsed (docs/rehearsal.md). */
  rehearsal?: Rehearsal;
}

// What a rehearsal found (docs/rehearsal.md): the plan's `rehearsal`.

export interface RehearsalPhase {
  phase: string;
  /** Offsets from the rehearsal's start. */
  startMs: number;
  endMs: number;
}

export interface RehearsalGroup {
  group: string;
  durationMs: number;
  result: string;
  phases: RehearsalPhase[];
}

export interface RehearsalWorkload {
  kind: "Deployment" | "StatefulSet";
  namespace: string;
  name: string;
  desired: number;
  /** The fewest Ready replicas at any moment of the roll. */
  minReady: number;
  /** Time with fewer Ready replicas than its PodDisruptionBudget wants (0 without one). */
  msBelowPdb: number;
  /** Time with no Ready replica: the workload was down. */
  msAtZero: number;
}

export interface RehearsalStall {
  /** pdb: a PodDisruptionBudget held a drain; pending: pods found no node; deleted: at the drain timeout (deleteAfterDrainTimeout). */
  kind: "pdb" | "pending" | "deleted";
  /** The pod ("ns/name") or, for pending, the workload ("Kind/ns/name"). */
  object: string;
  /** The PodDisruptionBudget that held it. */
  by?: string;
  node?: string;
  fromMs: number;
  forMs: number;
  /** Pending: the most pods pending at once. */
  pods?: number;
}

export interface Rehearsal {
  /** How the twin's roll ended, as apply would say it. */
  result: string;
  message: string;
  durationMs: number;
  groups: RehearsalGroup[];
  workloads: RehearsalWorkload[];
  stalls: RehearsalStall[];
  /** The most nodes running beyond the cluster's own at any moment (surge, EKS's scale-up). */
  peakExtraNodes: number;
  /** The most Kubernetes and AWS requests the roll made in any minute. */
  peakRequestsPerMinute: number;
  /** The timings the twin assumed, and where each came from. */
  timings: { values: Record<string, number>; sources: Record<string, string> };
}
