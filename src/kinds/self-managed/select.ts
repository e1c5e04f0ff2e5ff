// Which nodes of a self-managed Auto Scaling group are replaced, as kOps selects them
// (https://kops.sigs.k8s.io/operations/rolling-update/): an instance launched from another
// launch template version than the group's, and an instance an earlier run detached to surge
// (it must still be drained and terminated).
import type { Group, RollSettings } from "../../policy/index.js";
import type { GroupSettings } from "../kind.js";
import {
  selectWith,
  type ConfigChange,
  type InstanceInfo,
  type ReplaceReason,
  type Replacement,
  type SelectInput,
  type SelfManagedGroupInfo,
  type Target,
} from "../../plan/index.js";

/** The launch template version the group's nodes must run: the policy's, or the group's own. */
export function selfManagedTarget(group: Group, live: SelfManagedGroupInfo): Target {
  const lt = live.launchTemplate;
  if (!lt) return {};
  const v = group.target?.launchTemplateVersion;
  const version =
    v === undefined
      ? lt.resolved
      : v === "$Latest"
        ? lt.latest
        : v === "$Default"
          ? lt.default
          : Number(v);
  return { ...(lt.id && { launchTemplate: lt.id }), launchTemplateVersion: version };
}

/**
 * Another template than the target's: kOps compares an instance's template id and version with
 * its group's, as "id:version" (upup/pkg/fi/cloudup/awsup/aws_cloud.go,
 * findInstanceLaunchConfiguration): version numbers of two templates say nothing of each other.
 * An instance its group reports no template id for is judged by its version alone.
 */
function otherTemplate(instance: InstanceInfo, target: Target): boolean {
  return (
    target.launchTemplate !== undefined &&
    instance.launchTemplate !== undefined &&
    instance.launchTemplate !== target.launchTemplate
  );
}

function instanceReasons(instance: InstanceInfo, target: Target): ReplaceReason[] {
  const reasons: ReplaceReason[] = [];
  const other = otherTemplate(instance, target);
  if (
    target.launchTemplateVersion !== undefined &&
    (other || instance.launchTemplateVersion !== target.launchTemplateVersion)
  ) {
    reasons.push({
      kind: "launch-template",
      from: instance.launchTemplateVersion,
      to: target.launchTemplateVersion,
      ...(other && {
        fromTemplate: instance.launchTemplate,
        toTemplate: target.launchTemplate,
      }),
    });
  }
  if (instance.detachedForSurge) reasons.push({ kind: "detached-for-surge" });
  return reasons;
}

export function selectSelfManaged(
  live: SelfManagedGroupInfo,
  target: Target,
  input: SelectInput,
): Replacement[] {
  return selectWith(live, input, (i) => instanceReasons(i, target));
}

/** The warm pool's instances launched from another template than the target's (kOps deletes
 * them before it rolls the group); none where the policy terminates nothing. */
export function staleWarmPool(
  live: SelfManagedGroupInfo,
  target: Target,
  roll: Pick<RollSettings, "drainAndTerminate">,
): InstanceInfo[] {
  if (!roll.drainAndTerminate) return [];
  return (live.warmPool ?? []).filter((i) =>
    instanceReasons(i, target).some((r) => r.kind === "launch-template"),
  );
}

/** The launch template version the policy sets on the group, as written, when it differs. */
export function launchTemplateChange(
  group: Group,
  live: SelfManagedGroupInfo,
): { id: string; version: string } | undefined {
  const lt = live.launchTemplate;
  const wanted = group.target?.launchTemplateVersion;
  if (!lt || wanted === undefined || String(wanted) === lt.configured) return undefined;
  return { id: lt.id, version: String(wanted) };
}

export function selfManagedConfigChanges(
  group: Group,
  live: SelfManagedGroupInfo,
  target: Target,
  settings: Pick<GroupSettings, "roll">,
): ConfigChange[] {
  const lt = live.launchTemplate;
  const change = launchTemplateChange(group, live);
  const stale = staleWarmPool(live, target, settings.roll);
  const versions = [...new Set(stale.map((i) => i.launchTemplateVersion ?? "?"))].join(", ");
  return [
    ...(lt && change
      ? [
          {
            field: "launchTemplate.version",
            from: `${lt.configured} (${lt.resolved})`,
            to: `${change.version} (${target.launchTemplateVersion})`,
          },
        ]
      : []),
    ...(stale.length > 0
      ? [
          {
            field: "warmPool",
            from: `${stale.length} instance${stale.length === 1 ? "" : "s"} on version ${versions}`,
            to: `terminated first, refilled from ${target.launchTemplateVersion}`,
          },
        ]
      : []),
  ];
}
