// Reading the Kubernetes objects the Cluster port returns, the same way everywhere.
import type { Condition, Node, ObjectMeta, PodPhase } from "./cluster.js";

/**
 * A Ready condition with this status (nodes and pods alike). A plain loop here and in
 * controllerOf, read for every pod of a plan: V8 inlines `some` and `find` with their callback
 * only over arrays that can still change, and a frozen one (the sandbox serves a state's
 * conditions and an owner's reference frozen, shared by its pods) made each call build its
 * callback's closure.
 */
function hasReady(
  conditions: readonly Condition[] | undefined,
  status: Condition["status"],
): boolean {
  if (!conditions) return false;
  for (let i = 0; i < conditions.length; i++) {
    const c = conditions[i] as Condition;
    if (c.type === "Ready" && c.status === status) return true;
  }
  return false;
}

/** A Ready condition that is True. */
export function hasReadyCondition(conditions: readonly Condition[] | undefined): boolean {
  return hasReady(conditions, "True");
}

export function isReady(node: Node): boolean {
  return hasReadyCondition(node.status.conditions);
}

/**
 * A Ready condition that is Unknown: the node controller's mark for a node whose kubelet stopped
 * posting its status (https://kubernetes.io/docs/reference/node/node-status/#condition). The
 * node is unreachable: nothing deleted on it will be confirmed gone while that lasts.
 */
export function hasUnknownReadyCondition(conditions: readonly Condition[] | undefined): boolean {
  return hasReady(conditions, "Unknown");
}

export function isUnreachable(node: Node): boolean {
  return hasUnknownReadyCondition(node.status.conditions);
}

/** The EC2 instance behind a node, from its providerID (aws:///eu-west-1a/i-0123…). */
export function instanceIdOf(node: Node): string | undefined {
  return /\/(i-[0-9a-z]+)$/.exec(node.spec.providerID ?? "")?.[1];
}

/** A finished pod (Succeeded or Failed): it runs nowhere, so a drain may remove it at once. */
export function isFinished(phase: PodPhase | string | undefined): boolean {
  return phase === "Succeeded" || phase === "Failed";
}

/**
 * A mirror pod: the API server's copy of a static pod the kubelet runs from a file (annotated
 * kubernetes.io/config.mirror). Deleting it through the API server does not stop the pod (the
 * kubelet runs it from its file and makes the copy again), so kubectl drain leaves it.
 */
export function isMirrorPod(p: { metadata: ObjectMeta }): boolean {
  return p.metadata.annotations?.["kubernetes.io/config.mirror"] !== undefined;
}

/**
 * The owner reference that controls the object, if any. Only the controller counts as the owner
 * (kubectl drain's filters): a pod another object merely owns has no controller to bring it back.
 */
export function controllerOf(o: { metadata: ObjectMeta }) {
  const refs = o.metadata.ownerReferences;
  if (!refs) return undefined;
  for (let i = 0; i < refs.length; i++) if (refs[i]?.controller === true) return refs[i];
  return undefined;
}
