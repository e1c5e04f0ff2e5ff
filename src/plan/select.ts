// Which nodes a group would replace, and why (kOps' instance selection, reference 004, plus
// EKS's rule that a version update replaces every node of a managed group).
import type { Group, Resolution } from "../policy/index.js";
import {
  KOPS_NEEDS_UPDATE_ANNOTATION,
  NEEDS_UPDATE_ANNOTATION,
  type LiveGroup,
  type NodeInfo,
  type Snapshot,
} from "./snapshot.js";
import type { ConfigChange, ReplaceReason, Replacement } from "./types.js";

export interface Target {
  kubernetesVersion?: string;
  releaseVersion?: string;
  launchTemplateVersion?: number;
}

/** The policy's target for a group, resolved against live state ("latest", "$Latest"). */
export function resolveTarget(group: Group, live: LiveGroup, snapshot: Snapshot): Target {
  const t = group.target ?? {};
  const out: Target = {};
  if (t.kubernetesVersion) out.kubernetesVersion = t.kubernetesVersion;
  if (t.releaseVersion && live.kind === "managed") {
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
  } else if (lt && live.kind === "self-managed") {
    out.launchTemplateVersion = lt.resolved;
  }
  return out;
}

/** Configuration the apply would change before replacing anything. */
export function configChanges(
  group: Group,
  live: LiveGroup,
  target: Target,
  resolution: Resolution,
): ConfigChange[] {
  const changes: ConfigChange[] = [];
  if (live.kind === "managed") {
    const want = resolution.updateConfig;
    const have = live.updateConfig;
    if (want && "maxUnavailable" in want && want.maxUnavailable !== have.maxUnavailable) {
      changes.push({
        field: "updateConfig.maxUnavailable",
        from: describeUpdateConfig(have),
        to: String(want.maxUnavailable),
      });
    }
    if (
      want &&
      "maxUnavailablePercentage" in want &&
      want.maxUnavailablePercentage !== have.maxUnavailablePercentage
    ) {
      changes.push({
        field: "updateConfig.maxUnavailablePercentage",
        from: describeUpdateConfig(have),
        to: `${want.maxUnavailablePercentage}%`,
      });
    }
  }
  const lt = live.launchTemplate;
  const wanted = group.target?.launchTemplateVersion;
  if (
    live.kind === "self-managed" &&
    lt &&
    wanted !== undefined &&
    String(wanted) !== lt.configured
  ) {
    changes.push({
      field: "launchTemplate.version",
      from: `${lt.configured} (${lt.resolved})`,
      to: `${wanted} (${target.launchTemplateVersion})`,
    });
  }
  return changes;
}

function describeUpdateConfig(c: {
  maxUnavailable?: number;
  maxUnavailablePercentage?: number;
}): string {
  if (c.maxUnavailablePercentage !== undefined) return `${c.maxUnavailablePercentage}%`;
  return String(c.maxUnavailable ?? 1);
}

function nodeReasons(
  node: NodeInfo | undefined,
  launchTime: Date,
  now: Date,
  maxNodeAgeMs: number | undefined,
): ReplaceReason[] {
  const reasons: ReplaceReason[] = [];
  for (const annotation of [NEEDS_UPDATE_ANNOTATION, KOPS_NEEDS_UPDATE_ANNOTATION]) {
    if (node?.annotations[annotation] !== undefined)
      reasons.push({ kind: "annotated", annotation });
  }
  const born = node?.createdAt ?? launchTime;
  const age = now.getTime() - born.getTime();
  if (maxNodeAgeMs !== undefined && age > maxNodeAgeMs)
    reasons.push({ kind: "max-node-age", ageMs: age, maxMs: maxNodeAgeMs });
  return reasons;
}

/** Group-wide reasons a managed group's update would replace all its nodes. */
function managedReasons(
  live: Extract<LiveGroup, { kind: "managed" }>,
  target: Target,
): ReplaceReason[] {
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

export function selectReplacements(
  live: LiveGroup,
  target: Target,
  nodesByInstance: Map<string, NodeInfo>,
  now: Date,
  options: { maxNodeAgeMs?: number; force: boolean },
): Replacement[] {
  const groupWide = live.kind === "managed" ? managedReasons(live, target) : [];
  const out: Replacement[] = [];
  for (const instance of live.instances) {
    if (/^Terminat/.test(instance.lifecycleState)) continue;
    const node = nodesByInstance.get(instance.id);
    const reasons: ReplaceReason[] = [...groupWide];
    if (
      live.kind === "self-managed" &&
      target.launchTemplateVersion !== undefined &&
      instance.launchTemplateVersion !== target.launchTemplateVersion
    ) {
      reasons.push({
        kind: "launch-template",
        from: instance.launchTemplateVersion,
        to: target.launchTemplateVersion,
      });
    }
    if (instance.detachedForSurge) reasons.push({ kind: "detached-for-surge" });
    reasons.push(...nodeReasons(node, instance.launchTime, now, options.maxNodeAgeMs));
    if (options.force && reasons.length === 0) reasons.push({ kind: "forced" });
    if (reasons.length > 0)
      out.push({
        instance: instance.id,
        ...(node && { node: node.name }),
        zone: instance.zone,
        reasons,
      });
  }
  // EKS replaces every node of a managed group once an update starts for any of them.
  if (live.kind === "managed" && out.length > 0 && out.length < countLive(live)) {
    const chosen = new Set(out.map((r) => r.instance));
    for (const instance of live.instances) {
      if (chosen.has(instance.id) || /^Terminat/.test(instance.lifecycleState)) continue;
      const node = nodesByInstance.get(instance.id);
      out.push({
        instance: instance.id,
        ...(node && { node: node.name }),
        zone: instance.zone,
        reasons: [{ kind: "group-update" }],
      });
    }
  }
  return out;
}

function countLive(live: LiveGroup): number {
  return live.instances.filter((i) => !/^Terminat/.test(i.lifecycleState)).length;
}

export function describeReason(r: ReplaceReason): string {
  switch (r.kind) {
    case "launch-template":
      return `launch template ${r.from ?? "?"} → ${r.to}`;
    case "kubernetes-version":
      return `Kubernetes ${r.from} → ${r.to}`;
    case "release-version":
      return `release ${r.from} → ${r.to}`;
    case "max-node-age":
      return `older than maxNodeAge (${Math.floor(r.ageMs / 86_400_000)}d > ${Math.floor(r.maxMs / 86_400_000)}d)`;
    case "annotated":
      return `annotated ${r.annotation}`;
    case "detached-for-surge":
      return "detached for surge by an earlier run";
    case "group-update":
      return "EKS replaces every node of the group";
    case "forced":
      return "forced";
  }
}
