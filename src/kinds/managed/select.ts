// Which nodes an EKS managed node group's update replaces: a version, release or launch template
// change is an update of the whole group, and once EKS starts one it replaces every node
// (Amazon EKS user guide, "Update a managed node group for your cluster").
import type { Group } from "../../policy/index.js";
import {
  liveInstances,
  replacementOf,
  selectWith,
  type ConfigChange,
  type ManagedGroupInfo,
  type ReplaceReason,
  type Replacement,
  type SelectInput,
  type Snapshot,
  type Target,
} from "../../plan/index.js";
import type { UpdateConfig } from "../../ports/index.js";
import type { GroupSettings } from "../kind.js";

/** The policy's target, resolved against live state: "latest" from the known releases. */
export function managedTarget(group: Group, live: ManagedGroupInfo, snapshot: Snapshot): Target {
  const t = group.target ?? {};
  const out: Target = {};
  if (t.kubernetesVersion) out.kubernetesVersion = t.kubernetesVersion;
  if (t.releaseVersion) {
    const version = t.kubernetesVersion ?? live.version;
    // "latest" unknown (no SSM lookup): leave it to EKS, which takes the latest release itself.
    const release =
      t.releaseVersion === "latest" ? snapshot.latestReleaseVersions[version] : t.releaseVersion;
    if (release) out.releaseVersion = release;
  }
  const lt = live.launchTemplate;
  if (t.launchTemplateVersion !== undefined && lt) {
    const v = t.launchTemplateVersion;
    out.launchTemplateVersion =
      v === "$Latest" ? lt.latest : v === "$Default" ? lt.default : Number(v);
  }
  return out;
}

/** Group-wide reasons a managed group's update would replace all its nodes: none when it is at
 * the target already. */
export function groupReasons(live: ManagedGroupInfo, target: Target): ReplaceReason[] {
  const reasons: ReplaceReason[] = [];
  if (target.kubernetesVersion && target.kubernetesVersion !== live.version)
    reasons.push({ kind: "kubernetes-version", from: live.version, to: target.kubernetesVersion });
  if (target.releaseVersion && target.releaseVersion !== live.releaseVersion)
    reasons.push({ kind: "release-version", from: live.releaseVersion, to: target.releaseVersion });
  const lt = live.launchTemplate;
  if (
    lt &&
    target.launchTemplateVersion !== undefined &&
    target.launchTemplateVersion !== lt.resolved
  ) {
    reasons.push({ kind: "launch-template", from: lt.resolved, to: target.launchTemplateVersion });
  }
  return reasons;
}

export function selectManaged(
  live: ManagedGroupInfo,
  target: Target,
  input: SelectInput,
): Replacement[] {
  const groupWide = groupReasons(live, target);
  const out = selectWith(live, input, () => [...groupWide]);
  // EKS replaces every node of a managed group once an update starts for any of them.
  const all = liveInstances(live);
  if (out.length === 0 || out.length === all.length) return out;
  const chosen = new Set(out.map((r) => r.instance));
  for (const instance of all) {
    if (chosen.has(instance.id)) continue;
    const node = input.nodesByInstance.get(instance.id);
    out.push(replacementOf(instance, node, [{ kind: "group-update" }]));
  }
  return out;
}

function describeUpdateConfig(c: UpdateConfig): string {
  if (c.maxUnavailablePercentage !== undefined) return `${c.maxUnavailablePercentage}%`;
  return String(c.maxUnavailable ?? 1);
}

/** The updateConfig changes apply makes before the update. */
export function managedConfigChanges(
  _group: Group,
  live: ManagedGroupInfo,
  _target: Target,
  settings: GroupSettings,
): ConfigChange[] {
  const want = settings.updateConfig;
  const have = live.updateConfig;
  const out: ConfigChange[] = [];
  if (want?.maxUnavailable !== undefined && want.maxUnavailable !== have.maxUnavailable)
    out.push({
      field: "updateConfig.maxUnavailable",
      from: describeUpdateConfig(have),
      to: String(want.maxUnavailable),
    });
  else if (
    want?.maxUnavailablePercentage !== undefined &&
    want.maxUnavailablePercentage !== have.maxUnavailablePercentage
  )
    out.push({
      field: "updateConfig.maxUnavailablePercentage",
      from: describeUpdateConfig(have),
      to: `${want.maxUnavailablePercentage}%`,
    });
  if (want?.updateStrategy && want.updateStrategy !== (have.updateStrategy ?? "DEFAULT"))
    out.push({
      field: "updateConfig.updateStrategy",
      from: have.updateStrategy ?? "DEFAULT",
      to: want.updateStrategy,
    });
  return out;
}
