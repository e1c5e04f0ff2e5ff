// The EKS managed node group kind: EKS runs the update, noderoll sets it up and follows it.
import type { ManagedGroupInfo } from "../../plan/index.js";
import { managedRollbackRefusal, managedVersions } from "./rollback.js";
import type { GroupKind } from "../kind.js";
import {
  MANAGED_SURGE_ADVICE,
  managedFindings,
  managedNotes,
  managedReachedTarget,
} from "./findings.js";
import { observeManaged } from "./observe.js";
import { rollManaged } from "./roll.js";
import { managedSchedule } from "./schedule.js";
import { managedConfigChanges, managedTarget, selectManaged } from "./select.js";
import { managedBudgets, managedConflicts, resolveManaged } from "./settings.js";
import { managedInFlight } from "./updates.js";

export const managedKind: GroupKind<ManagedGroupInfo> = {
  id: "managed",
  // The label EKS puts on every node of a managed node group (EKS user guide, "Managed node
  // groups": the eks.amazonaws.com/nodegroup label).
  labelledGroup: (n) => n.metadata.labels?.["eks.amazonaws.com/nodegroup"],
  // EKS tags a managed node group's instances with its name (eks:nodegroup-name).
  taggedGroup: (tags) => tags.find((t) => t.Key === "eks:nodegroup-name")?.Value,
  surgeAdvice: MANAGED_SURGE_ADVICE,
  // EKS user guide, "Understand each phase of node updates": 15 minutes a drain, fixed.
  drainTimeoutAdvice:
    "EKS gives each drain a fixed 15 minutes, which cannot be raised: shorten the pods' terminationGracePeriodSeconds (and preStop) below it, or set deleteAfterDrainTimeout (EKS's force: it then terminates the node after its 15 minutes)",
  leavesUnreachable: false,
  pacesNoNode: false,
  observe: observeManaged,
  resolve: resolveManaged,
  conflicts: managedConflicts,
  budgets: managedBudgets,
  target: managedTarget,
  select: selectManaged,
  configChanges: managedConfigChanges,
  setup: (_group, _live, settings) =>
    settings.updateConfig ? { updateConfig: settings.updateConfig } : {},
  schedule: managedSchedule,
  findings: managedFindings,
  reachedTarget: managedReachedTarget,
  versions: managedVersions,
  rollbackRefusal: managedRollbackRefusal,
  notes: managedNotes,
  roll: rollManaged,
  inFlight: managedInFlight,
};
