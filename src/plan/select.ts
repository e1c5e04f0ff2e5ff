// What every kind of group shares when it selects the nodes to replace (kOps' instance
// selection, https://kops.sigs.k8s.io/operations/rolling-update/): a node annotated
// needs-update, or older than maxNodeAge, is replaced whatever its version; with a run's
// --replace-all (kOps' --force) every node is. The kinds add their own reasons (src/kinds/*/select.ts).
import {
  KOPS_NEEDS_UPDATE_ANNOTATION,
  NEEDS_UPDATE_ANNOTATION,
  type InstanceInfo,
  type LiveGroup,
  type NodeInfo,
} from "./snapshot.js";
import type { ReplaceReason, Replacement } from "./types.js";

/** What selection reads besides the group: the nodes by instance, the time, the options. */
export interface SelectInput {
  nodesByInstance: Map<string, NodeInfo>;
  now: Date;
  maxNodeAgeMs?: number;
  replaceAll: boolean;
}

/** An instance on its way out (terminating) is no longer the group's to replace. */
export const isLeaving = (i: InstanceInfo) => /^Terminat/.test(i.lifecycleState);

/** The group's instances that are not leaving. */
export function liveInstances(live: LiveGroup): InstanceInfo[] {
  return live.instances.filter((i) => !isLeaving(i));
}

/** Reasons that come from the node itself: annotations and age. */
export function nodeReasons(
  node: NodeInfo | undefined,
  launchTime: Date | undefined,
  input: SelectInput,
): ReplaceReason[] {
  const reasons: ReplaceReason[] = [];
  for (const annotation of [NEEDS_UPDATE_ANNOTATION, KOPS_NEEDS_UPDATE_ANNOTATION]) {
    if (node?.annotations[annotation] !== undefined)
      reasons.push({ kind: "annotated", annotation });
  }
  // Without a node, the instance's launch; with neither known, no age to judge.
  const born = node?.createdAt ?? launchTime;
  const age = born ? input.now.getTime() - born.getTime() : 0;
  if (input.maxNodeAgeMs !== undefined && age > input.maxNodeAgeMs)
    reasons.push({ kind: "max-node-age", ageMs: age, maxMs: input.maxNodeAgeMs });
  return reasons;
}

/**
 * Each live instance with the kind's reasons for it plus the node's own; `replace-all` when the
 * run asks it and nothing else applies. Instances without a reason are kept.
 */
export function selectWith(
  live: LiveGroup,
  input: SelectInput,
  kindReasons: (i: InstanceInfo) => ReplaceReason[],
): Replacement[] {
  const out: Replacement[] = [];
  for (const instance of liveInstances(live)) {
    const node = input.nodesByInstance.get(instance.id);
    const reasons = [...kindReasons(instance), ...nodeReasons(node, instance.launchTime, input)];
    if (input.replaceAll && reasons.length === 0) reasons.push({ kind: "replace-all" });
    if (reasons.length > 0) out.push(replacementOf(instance, node, reasons));
  }
  return out;
}

export function replacementOf(
  instance: InstanceInfo,
  node: NodeInfo | undefined,
  reasons: ReplaceReason[],
): Replacement {
  return {
    instance: instance.id,
    ...(node && { node: node.name }),
    zone: instance.zone,
    reasons,
    ...(node && !node.ready && { down: node.unreachable ? "unreachable" : "not-ready" }),
    // An instance an earlier run detached has no node when the node went first (it is lost).
    ...(!node && !instance.detachedForSurge && { down: "no-node" as const }),
  };
}

export const isDetached = (r: Replacement) =>
  r.reasons.some((x) => x.kind === "detached-for-surge");

export function describeReason(r: ReplaceReason): string {
  switch (r.kind) {
    case "launch-template":
      return r.fromTemplate !== r.toTemplate
        ? `launch template ${r.fromTemplate ?? "?"} version ${r.from ?? "?"} → ${r.toTemplate} version ${r.to}`
        : `launch template ${r.from ?? "?"} → ${r.to}`;
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
    case "replace-all":
      return "replace-all";
  }
}
