// The marks noderoll leaves on nodes while it rolls a group, by name (src/roll/marks.ts sets and
// clears them), and what the plan finds of them left behind: a run killed late — after its last
// old instance went, before it gave the new nodes back to the cluster autoscaler — leaves marks
// that nothing else ever removes (the autoscaler can never take those nodes away; a group left
// without AZRebalance). A plan lists them, and apply clears them even when no node needs
// replacing.
import { DETACHED_LABEL, type LiveGroup, type NodeInfo } from "./snapshot.js";
import type { Cleanup } from "./types.js";

/** kOps' PreferNoSchedule taint, under our own key: new pods avoid nodes about to go. */
export const SCHEDULED_TAINT = {
  key: "noderoll.io/scheduled-for-update",
  effect: "PreferNoSchedule",
} as const;
/** On a node we cordoned, so that we only ever uncordon our own. */
export const CORDONED_ANNOTATION = "noderoll.io/cordoned";
export const EXCLUDE_LB_LABEL = "node.kubernetes.io/exclude-from-external-load-balancers";
/** New nodes the roll still needs: the cluster autoscaler must not remove them meanwhile. */
export const SCALE_DOWN_DISABLED = "cluster-autoscaler.kubernetes.io/scale-down-disabled";
/** With SCALE_DOWN_DISABLED, on a node where noderoll set it (only those are noderoll's to clear). */
export const SCALE_DOWN_BY_US = "noderoll.io/scale-down-disabled";
export { DETACHED_LABEL };

/** Which of noderoll's marks a node not being replaced still carries. */
function marksOn(n: NodeInfo, member: boolean): Cleanup["mark"][] {
  const out: Cleanup["mark"][] = [];
  if (n.annotations[SCALE_DOWN_BY_US] !== undefined) out.push("scale-down-disabled");
  if (n.annotations[CORDONED_ANNOTATION] !== undefined) out.push("cordon");
  if (n.taints.some((t) => t.key === SCHEDULED_TAINT.key)) out.push("scheduled-taint");
  if (member && n.labels[DETACHED_LABEL] !== undefined) out.push("surge-mark");
  return out;
}

/**
 * The marks an earlier run left on the group's nodes that this plan does not replace (a node to
 * replace keeps its marks: the roll carries on from them), and on members it marked for surge but
 * never detached; by kind of mark, each with its nodes or instances.
 */
export function marksLeft(
  group: LiveGroup,
  nodes: readonly NodeInfo[],
  replaced: ReadonlySet<string>,
): Cleanup[] {
  const members = new Set(group.instances.filter((i) => !i.detachedForSurge).map((i) => i.id));
  const found = new Map<Cleanup["mark"], string[]>();
  const add = (mark: Cleanup["mark"], object: string) => {
    const list = found.get(mark) ?? [];
    if (!list.includes(object)) list.push(object);
    found.set(mark, list);
  };
  for (const n of nodes) {
    if (n.group !== group.name || replaced.has(n.name)) continue;
    for (const mark of marksOn(n, members.has(n.instanceId ?? ""))) add(mark, n.name);
  }
  for (const i of group.instances)
    if (i.markedForSurge && !i.detachedForSurge && !replaced.has(i.id)) add("surge-mark", i.id);
  // A scaling process an earlier run suspended on the group and did not resume (a self-managed
  // group's roll holds AZRebalance): the roll resumes it when it ends, at once with nothing to do.
  const suspended = "suspendedByNoderoll" in group ? (group.suspendedByNoderoll ?? []) : [];
  for (const p of suspended) add("suspended-process", p);
  return [...found].map(([mark, objects]) => ({ mark, objects: objects.sort() }));
}
