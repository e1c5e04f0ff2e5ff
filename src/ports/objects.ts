// Reading the Kubernetes objects the Cluster port returns, the same way everywhere.
import type { Condition, Node } from "./cluster.js";

/** A Ready condition that is True (nodes and pods alike). */
export function hasReadyCondition(conditions: readonly Condition[] | undefined): boolean {
  return conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;
}

export function isReady(node: Node): boolean {
  return hasReadyCondition(node.status.conditions);
}

/** The EC2 instance behind a node, from its providerID (aws:///eu-west-1a/i-0123…). */
export function instanceIdOf(node: Node): string | undefined {
  return /\/(i-[0-9a-z]+)$/.exec(node.spec.providerID ?? "")?.[1];
}
