// One line of the job log per roll event worth reading; the rest (validation successes, node
// labels) stays in the event log.
import { renderProgressLine } from "../render/index.js";
import type { RollEvent } from "../ports/index.js";

const cap = (c: { min: number; max: number; desired: number }) =>
  `desired ${c.desired} (min ${c.min}, max ${c.max})`;

export function eventLine(e: RollEvent): string | undefined {
  switch (e.type) {
    case "roll.start":
      return `rolling ${e.groups.join(", ")} of cluster ${e.cluster}${e.force ? " with force" : ""}${e.reason ? ` (reason: ${e.reason})` : ""}`;
    case "lock.acquire":
      return `lock taken by ${e.holder}${e.takenOver ? ` (taken over from ${e.takenOver})` : ""}`;
    case "lock.release":
      return `lock released`;
    case "group.start":
      return `${e.group}: ${e.kind}, ${e.replace} of ${e.nodes} nodes to replace`;
    case "validation":
      return e.ok ? undefined : `validation failed: ${e.failures.slice(0, 3).join("; ")}`;
    case "asg.resize":
      return `${e.group}: Auto Scaling group ${cap(e.from)} → ${cap(e.to)}`;
    case "instance.detach":
      return `${e.group}: detached ${e.instance} (surge)`;
    case "node.taint":
      return `${e.group}: tainted ${e.node} ${e.taint}`;
    case "node.cordon":
      return `${e.group}: cordoned ${e.node}`;
    case "node.drain.start":
      return `${e.group}: draining ${e.node}`;
    case "node.drain.end":
      return `${e.group}: drained ${e.node} (${e.evicted} evicted${e.deleted?.length ? `, ${e.deleted.length} deleted past their PodDisruptionBudgets with force: ${e.deleted.join(", ")}` : ""})`;
    case "eviction.blocked":
      return `${e.group}: eviction of ${e.pod} refused by PodDisruptionBudget ${e.pdb}`;
    case "instance.terminate":
      return `${e.group}: terminated ${e.instance}`;
    case "eks.update":
      return `${e.group}: EKS ${e.updateType} ${e.updateId} ${e.status}${e.errors.length ? `: ${e.errors.map((x) => `${x.code} ${x.message}`).join("; ")}` : ""}`;
    case "window.wait":
      return `waiting for the maintenance window (${e.until})`;
    case "note":
      return e.message;
    default:
      return renderProgressLine(e);
  }
}
