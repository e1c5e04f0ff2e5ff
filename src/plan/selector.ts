// Kubernetes label selectors, as the PodDisruptionBudget controller and eviction read them: the
// one implementation, which the sandbox uses too.
import type { LabelSelector } from "./snapshot.js";

/** A structured selector (PDBs, workloads). A null selector matches nothing, {} everything. */
export function matchesSelector(
  selector: LabelSelector | undefined,
  labels: Record<string, string>,
): boolean {
  if (!selector) return false;
  // for-in, not Object.entries or Object.keys, and no empty list made when there are no
  // expressions: this runs for every pod a plan reads (millions on a large cluster), and each
  // would make an array on every call.
  const match = selector.matchLabels;
  if (match) for (const k in match) if (labels[k] !== match[k]) return false;
  const expressions = selector.matchExpressions;
  if (!expressions) return true;
  for (let i = 0; i < expressions.length; i++) {
    const e = expressions[i] as NonNullable<LabelSelector["matchExpressions"]>[number];
    const has = Object.hasOwn(labels, e.key);
    const value = labels[e.key];
    const values = e.values ?? [];
    if (e.operator === "In" && !(has && values.includes(value as string))) return false;
    if (e.operator === "NotIn" && has && values.includes(value as string)) return false;
    if (e.operator === "Exists" && !has) return false;
    if (e.operator === "DoesNotExist" && has) return false;
  }
  return true;
}
