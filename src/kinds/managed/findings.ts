// What a reviewer should know about an EKS managed node group itself: EKS's quota of nodes per
// group, which the update's scale-up may cross, and a group that is not ACTIVE (EKS starts an
// update only on an ACTIVE node group; one UPDATING is most likely an update an earlier run
// started, which apply follows rather than start another).
import type { GateSettings } from "../../policy/index.js";
import { managedRollbackRefusal } from "./rollback.js";
import type { Group, UpdateStrategy } from "../../policy/index.js";
import {
  suspendedFindings,
  type Finding,
  type GroupPlan,
  type ManagedGroupInfo,
  type Snapshot,
  type Target,
} from "../../plan/index.js";
import { customAmiRefusal, eksTarget, isCustomAmi, versionsSetAside } from "./custom-ami.js";
import { describeTarget, takesToTarget } from "./updates.js";
import { groupReasons } from "./select.js";
import { strategyOf } from "./settings.js";

/** EKS's quota of nodes per managed node group. */
export const EKS_NODES_PER_NODEGROUP = 450;

export const MANAGED_SURGE_ADVICE =
  "EKS's scale-up is max(2 × zones, maxUnavailable); a lower maxUnavailable keeps it near 2 × zones";

function sizeLimit(group: ManagedGroupInfo, surge: number): Finding[] {
  if (group.max + surge <= EKS_NODES_PER_NODEGROUP) return [];
  return [
    {
      code: "nodegroup-size-limit",
      severity: "warning",
      message: `EKS raises ${group.name}'s max size from ${group.max} to ${group.max + surge} for the update, above the ${EKS_NODES_PER_NODEGROUP} nodes a managed node group may hold`,
      objects: [group.name],
    },
  ];
}

/**
 * An update in progress, whoever started it (an earlier run, a console click, another tool):
 * one that takes the group to the plan's target is followed; any other is waited for, and the
 * group rolled to the target after it (apply reads the group back to know it got there).
 */
function updating(group: ManagedGroupInfo, target: Target): string {
  const u = group.update;
  const lead = `node group ${group.name} is UPDATING`;
  if (!u) return `${lead}: apply waits for the update in progress to end, then rolls to the target`;
  const since = `EKS update ${u.id} (${u.type}, started ${u.createdAt.toISOString()})`;
  if (u.type !== "VersionUpdate")
    return `${lead}: ${since} is in progress; apply waits for it to end, then rolls to the target`;
  if (takesToTarget(u, eksTarget(group.amiType, target)))
    return `${lead}: ${since} takes it to ${describeTarget(u.to)}, this plan's target: apply follows it instead of starting another`;
  return `${lead}: ${since} takes it to ${describeTarget(u.to)}, not this plan's target (${describeTarget(target)}): apply waits for it to end, then rolls the group to the target`;
}

function status(group: ManagedGroupInfo, target: Target): Finding[] {
  const at = (severity: Finding["severity"], message: string): Finding[] => [
    { code: "group-degraded", severity, message, objects: [group.name] },
  ];
  if (group.status === "UPDATING")
    return [
      {
        code: "update-in-progress",
        severity: "warning",
        message: updating(group, target),
        objects: [group.update?.id ?? group.name],
      },
    ];
  if (group.status !== "ACTIVE")
    return at(
      "blocker",
      `node group ${group.name} is ${group.status}; EKS starts an update only on an ACTIVE node group`,
    );
  if (group.healthIssues.length > 0)
    return at(
      "warning",
      `node group ${group.name} reports health issues: ${group.healthIssues.map((h) => h.code).join(", ")}`,
    );
  return [];
}

/** A custom AMI's target with only versions, which EKS cannot roll to (custom-ami.ts). */
function customAmi(group: ManagedGroupInfo, target: Target): Finding[] {
  const refusal = customAmiRefusal(group.name, group.amiType, target);
  if (!refusal) return [];
  return [
    { code: "custom-ami-version", severity: "blocker", message: refusal, objects: [group.name] },
  ];
}

/**
 * MINIMAL has none of DEFAULT's guardrails (EKS API reference, NodegroupUpdateConfig): old
 * instances are terminated before new ones launch, so the group runs short while they boot —
 * by maxUnavailable at least, more while one wave's replacements boot as the next drains.
 */
function minimalStrategy(group: ManagedGroupInfo, roll?: { updateStrategy?: UpdateStrategy }) {
  if (strategyOf(roll ?? {}, group) !== "MINIMAL") return [];
  return [
    {
      code: "minimal-strategy" as const,
      severity: "warning" as const,
      message: `updateStrategy MINIMAL: EKS terminates each node before launching its replacement, without DEFAULT's guardrails — the group runs below its ${group.desired} nodes while replacements boot, by maxUnavailable or more; use DEFAULT unless capacity (GPUs, reservations) forbids extra nodes`,
      objects: [],
    },
  ];
}

/**
 * Nodes to replace (--replace-all, maxNodeAge, the needs-update annotation) on a group that is at its
 * target already: EKS replaces a managed node group's nodes only by an update to another AMI
 * release, Kubernetes version or launch template version, and refuses one to where it is
 * (UpdateNodegroupVersion: InvalidParameterException "already at release version"). The plan
 * must not promise what apply cannot do. Asked only of a group with nodes to replace.
 */
function noVersionChange(group: ManagedGroupInfo, target: Target): Finding[] {
  if (group.status === "UPDATING" || groupReasons(group, target).length > 0) return [];
  return [
    {
      code: "no-version-change",
      severity: "blocker",
      message: `node group ${group.name} is at its target already (${describeTarget({ kubernetesVersion: group.version, releaseVersion: group.releaseVersion })}): EKS replaces a managed node group's nodes only by updating it to another release, Kubernetes version or launch template version, so replace-all, maxNodeAge or the needs-update annotation cannot replace them (UpdateNodegroupVersion would answer "already at release version"); set a newer target (releaseVersion: latest once a newer AMI release is out, or a new launch template version)`,
      objects: [group.name],
    },
  ];
}

/** The reasons for which the plan updates a managed group to another version. */
const VERSION_REASONS: ReadonlySet<string> = new Set([
  "kubernetes-version",
  "release-version",
  "launch-template",
]);

/**
 * The plan updated the group to another version, and it is there now (ACTIVE, no update going
 * on): done. A forced plan's fresh selection would still want every node, and EKS would refuse an
 * update to where the group is already (no-version-change) — but that is the roll's progress,
 * not a new blocker.
 */
export function managedReachedTarget(planned: GroupPlan, live: ManagedGroupInfo): boolean {
  const moved = planned.replacements.some((r) =>
    r.reasons.some((x) => VERSION_REASONS.has(x.kind)),
  );
  return moved && live.status === "ACTIVE" && groupReasons(live, planned.target ?? {}).length === 0;
}

/**
 * `onFailure: rollback` on a group whose update goes up a Kubernetes minor: EKS will not take it
 * back (rollback.ts), so a failed gate only halts; said before anything is done.
 */
function rollbackRefused(
  group: ManagedGroupInfo,
  target: Target,
  roll?: { gates?: GateSettings },
): Finding[] {
  if (roll?.gates?.onFailure !== "rollback" || !target.kubernetesVersion) return [];
  const why = managedRollbackRefusal(
    { kubernetesVersion: group.version },
    { kubernetesVersion: target.kubernetesVersion },
  );
  if (!why) return [];
  return [
    {
      code: "rollback-refused",
      severity: "warning",
      message: `onFailure: rollback cannot take ${group.name} back: ${why}; a failed gate halts the run and the group stays where the update left it`,
      objects: [group.name],
    },
  ];
}

/** Checkpoints on a managed group: EKS runs the update in its own waves, nothing holds it. */
function checkpointsIgnored(group: ManagedGroupInfo, roll?: { gates?: GateSettings }): Finding[] {
  if (!roll?.gates || roll.gates.checkpoints.length === 0) return [];
  return [
    {
      code: "checkpoints-ignored",
      severity: "warning",
      message: `checkpoints do not apply to ${group.name}: EKS runs a managed node group's update in its own waves and has no call to hold it midway; its gates are read during the update and its bake`,
      objects: [group.name],
    },
  ];
}

export function managedFindings(
  group: ManagedGroupInfo,
  surge: number,
  target: Target = {},
  roll?: { updateStrategy?: UpdateStrategy; gates?: GateSettings },
): Finding[] {
  return [
    ...rollbackRefused(group, target, roll),
    ...checkpointsIgnored(group, roll),
    ...sizeLimit(group, surge),
    ...status(group, target),
    ...customAmi(group, target),
    ...suspendedFindings(group),
    ...minimalStrategy(group, roll),
    ...noVersionChange(group, target),
  ];
}

export function managedNotes(
  plan: GroupPlan,
  group: Group,
  live: ManagedGroupInfo,
  snapshot: Snapshot,
): string[] {
  const notes: string[] = [];
  if (plan.replacements.length > 0) notes.push("EKS picks the nodes of each wave at random");
  if (
    plan.target?.launchTemplateVersion !== undefined &&
    versionsSetAside(live.amiType, group.target ?? {})
  )
    notes.push(
      `the launch template names a custom AMI: EKS takes no Kubernetes or release version for it, so the AMI of launch template version ${plan.target.launchTemplateVersion} decides`,
    );
  else if (live.launchTemplate && plan.target?.releaseVersion)
    notes.push(
      `the launch template leaves the AMI to EKS: release ${plan.target.releaseVersion} is sent with it`,
    );
  const version = group.target?.kubernetesVersion ?? live.version;
  // UpdateNodegroupVersion without a releaseVersion takes the latest AMI release for the
  // version (EKS API reference, UpdateNodegroupVersion): a launch-template change alone moves
  // the AMI too, unless the AMI is the template's own.
  if (
    live.launchTemplate &&
    !isCustomAmi(live.amiType) &&
    plan.target?.launchTemplateVersion !== undefined &&
    !plan.target.releaseVersion
  ) {
    const latest = snapshot.latestReleaseVersions[version];
    notes.push(
      `no release is named with the launch template version: EKS also moves the nodes to its latest AMI release for ${version}${latest ? ` (${latest})` : ""}; name \`releaseVersion\` to keep the current one`,
    );
  }
  if (group.target?.releaseVersion === "latest" && !snapshot.latestReleaseVersions[version])
    notes.push(
      `the latest EKS AMI release for ${version} is not known here: a version update takes EKS's latest; to move the release alone, name it`,
    );
  return notes;
}
