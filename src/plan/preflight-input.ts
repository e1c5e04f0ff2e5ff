// What preflight reads about one group: its own module, so that the findings preflight.ts
// gathers from down-findings.ts and zone-findings.ts take it without importing preflight.ts.
import type { UnmanagedPods } from "../policy/index.js";
import type { LiveGroup, PodInfo, Snapshot } from "./snapshot.js";
import type { Finding, Replacement } from "./types.js";
import type { ZoneHealth } from "./zones.js";

export interface PreflightInput {
  group: LiveGroup;
  /** The pods of each node to replace, a list per node (as `podsByNode` holds them). */
  nodes: readonly (readonly PodInfo[])[];
  snapshot: Snapshot;
  /** EKS's force: what is left at the drain timeout is deleted (finding.ts AT_DRAIN_TIMEOUT). */
  deleteAfterDrainTimeout: boolean;
  /** What a drain does with pods no controller owns (the policy's unmanagedPods). */
  unmanagedPods: UnmanagedPods;
  surge: number;
  /** Nodes that may be out of service at once (the group's resolved budget). */
  maxUnavailable: number;
  /** How this kind of group launches fewer nodes at once. */
  surgeAdvice: string;
  /** What the group's kind finds about the group itself. */
  groupFindings: Finding[];
  /** How long a drain waits for its pods (a managed group's: EKS's 15 minutes). */
  drainTimeoutMs: number;
  /** How this kind of group lets a drain wait longer (GroupKind.drainTimeoutAdvice). */
  drainTimeoutAdvice: string;
  /** The kind's drain leaves an unreachable node's pods once long past due (GroupKind). */
  leavesUnreachable: boolean;
  /** The kind's roll paces instances with no node within maxUnavailable (GroupKind). */
  pacesNoNode: boolean;
  /** The group's nodes to replace (their zones, and whether they are down already). */
  replacements: readonly Replacement[];
  /** The cluster's zones with most of their nodes not Ready at once (zones.ts). */
  unhealthyZones: ReadonlyMap<string, ZoneHealth>;
}
