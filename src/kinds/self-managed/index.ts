// The self-managed Auto Scaling group kind: noderoll rolls it itself, with kOps' semantics.
import {
  DETACHED_LABEL,
  suspendedFindings,
  type GroupPlan,
  type SelfManagedGroupInfo,
} from "../../plan/index.js";
import type { GroupKind } from "../kind.js";
import { observeSelfManaged } from "./observe.js";
import { rollSelfManaged } from "./roll.js";
import { restoreProcesses } from "./processes.js";
import { selfManagedSchedule } from "./schedule.js";
import {
  launchTemplateChange,
  selfManagedConfigChanges,
  selfManagedTarget,
  selectSelfManaged,
  staleWarmPool,
} from "./select.js";
import { resolveSelfManaged, selfManagedBudgets } from "./settings.js";
import { selfManagedVersions } from "./rollback.js";

function notes(plan: GroupPlan, _group: unknown, live: SelfManagedGroupInfo): string[] {
  const out: string[] = [];
  if (plan.settings && !plan.settings.drainAndTerminate)
    out.push(
      "drainAndTerminate is false: nodes are tainted (and surged) but not drained or terminated",
    );
  if (live.mixedInstances)
    out.push(
      "the group uses a mixed-instances policy; its launch template decides what is up to date",
    );
  return out;
}

export const selfManagedKind: GroupKind<SelfManagedGroupInfo> = {
  id: "self-managed",
  // A node whose instance the roll detached for surge is in no Auto Scaling group any more: the
  // mark the roll put on it names the group (kinds/self-managed/roll.ts, detach).
  labelledGroup: (n) => n.metadata.labels?.[DETACHED_LABEL],
  // EC2 Auto Scaling tags every instance it launches with its group's name (the EC2 Auto
  // Scaling user guide, "Tag Auto Scaling groups and instances": aws:autoscaling:groupName).
  taggedGroup: (tags) => tags.find((t) => t.Key === "aws:autoscaling:groupName")?.Value,
  surgeAdvice: "lower maxSurge",
  drainTimeoutAdvice:
    "raise the group's drainTimeout above LONGEST, or shorten the pods' terminationGracePeriodSeconds (and preStop)",
  leavesUnreachable: true,
  pacesNoNode: true,
  versions: selfManagedVersions,
  rollbackRefusal: () => undefined,
  observe: observeSelfManaged,
  resolve: resolveSelfManaged,
  // EKS's update strategy means nothing to an Auto Scaling group noderoll rolls itself: its
  // surge is maxSurge.
  conflicts: (w) =>
    w.own.updateStrategy === undefined
      ? []
      : [
          {
            key: "updateStrategy",
            message:
              "updateStrategy is EKS's, for a managed node group; a self-managed group surges by maxSurge (0 replaces nodes in place)",
          },
        ],
  budgets: selfManagedBudgets,
  target: selfManagedTarget,
  select: selectSelfManaged,
  configChanges: selfManagedConfigChanges,
  setup: (group, live, settings) => {
    const lt = launchTemplateChange(group, live);
    const target = selfManagedTarget(group, live);
    const warm = staleWarmPool(live, target, settings.roll).map((i) => i.id);
    return {
      ...(lt && { launchTemplate: lt }),
      ...(warm.length > 0 && { warmPool: { replace: warm } }),
    };
  },
  schedule: selfManagedSchedule,
  findings: (live) => suspendedFindings(live),
  notes,
  roll: rollSelfManaged,
  release: (ctx, live) => restoreProcesses(ctx, live.name, live.suspendedByNoderoll ?? []),
};
