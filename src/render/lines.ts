// One line per roll event worth reading, for the terminal, the Actions log and the check run's
// per-node timeline: cordon, drain (with what was evicted or deleted), terminate, validation,
// EKS's update status, a gate that did not pass. The rest (labels, validation successes) stays in the event log.
import { noBudgetHeld, type RollEvent } from "../ports/index.js";
import { forcedFlags } from "./words.js";

const cap = (c: { min: number; max: number; desired: number }) =>
  `desired ${c.desired} (min ${c.min}, max ${c.max})`;

/** Lines of the run as a whole and of its phases. */
export function renderProgressLine(e: RollEvent): string | undefined {
  switch (e.type) {
    case "phase.start":
      return `${e.group}: ${e.phase} …`;
    case "phase.end":
      return `${e.group}: ${e.phase} ${e.result}${e.message ? ` (${e.message})` : ""}`;
    case "group.end":
      return `${e.group}: ${e.result}${e.message ? ` (${e.message})` : ""}`;
    case "roll.end":
      return `roll ${e.result}${e.message ? `: ${e.message}` : ""}`;
    default:
      return undefined;
  }
}

function drained(e: Extract<RollEvent, { type: "node.drain.end" }>): string {
  const deleted = e.deleted?.length
    ? `, ${e.deleted.length} deleted past their PodDisruptionBudgets at the drain timeout: ${e.deleted.join(", ")}`
    : "";
  const left = e.leftBehind?.length
    ? `, ${e.leftBehind.length} left behind on the unreachable node, their deletion long past due: ${e.leftBehind.join(", ")}`
    : "";
  return `${e.group}: drained ${e.node} (${e.evicted} pod${e.evicted === 1 ? "" : "s"} evicted${deleted}${left})`;
}

/**
 * An eviction.blocked line. `pdb` names the budget that refused, or (after EKS's failure) says
 * why no budget did: "none (…)" or "unknown".
 */
function blockedLine(e: Extract<RollEvent, { type: "eviction.blocked" }>): string {
  const next = e.final ? "not retried" : "retrying";
  if (noBudgetHeld(e.pdb))
    return `${e.group}: ${e.pod} could not be evicted (PodDisruptionBudget: ${e.pdb}); ${next}`;
  return `${e.group}: eviction of ${e.pod} refused by PodDisruptionBudget ${e.pdb}; ${next}`;
}

/** What happened to one node or instance, or undefined for other events. */
export function nodeLine(e: RollEvent): string | undefined {
  switch (e.type) {
    case "asg.resize":
      return `${e.group}: Auto Scaling group ${cap(e.from)} → ${cap(e.to)}`;
    case "instance.detach":
      return `${e.group}: detached ${e.instance} (surge: the group launches a replacement)`;
    case "surge.given-up":
      return `${e.group}: surge given up, Auto Scaling refused to detach ${e.instance} (${e.reason}); replacing in place, up to ${e.maxUnavailable} node${e.maxUnavailable === 1 ? "" : "s"} out of service at once`;
    case "node.taint":
      return `${e.group}: tainted ${e.node} ${e.taint}`;
    case "node.cordon":
      return `${e.group}: cordoned ${e.node}`;
    case "node.drain.start":
      return `${e.group}: draining ${e.node}`;
    case "node.drain.end":
      return drained(e);
    case "eviction.blocked":
      return blockedLine(e);
    case "instance.terminate":
      return `${e.group}: terminated ${e.instance}${e.warmPool ? " (warm pool)" : ""}`;
    case "validation":
      return e.ok ? undefined : `validation: not yet (${e.failures.slice(0, 3).join("; ")})`;
    case "gate.verdict":
      // A pass is the rule: only what stops, or might, is a line.
      return e.verdict === "pass"
        ? undefined
        : `${e.group}: gate ${e.gate} ${e.verdict === "fail" ? "failed" : "inconclusive"} — ${e.value}${e.detail ? ` (${e.detail})` : ""}`;
    case "eks.update":
      return `${e.group}: EKS ${e.updateType} ${e.updateId} ${e.status}${e.errors.length ? `: ${e.errors.map((x) => `${x.code} ${x.message}`).join("; ")}` : ""}`;
    default:
      return undefined;
  }
}

/** " with replace-all, delete-after-drain-timeout": what a roll forces, for its first line. */
function forcedWith(o: { replaceAll: boolean; deleteAfterDrainTimeout: boolean }): string {
  const flags = forcedFlags(o);
  return flags.length > 0 ? ` with ${flags.join(", ")}` : "";
}

/** The log line of any event worth a line (the terminal skips roll.end: it closes itself). */
export function eventLine(e: RollEvent): string | undefined {
  switch (e.type) {
    case "roll.start":
      return `${e.rollback ? "rolling back" : "rolling"} ${e.groups.join(", ")} of cluster ${e.cluster}${forcedWith(e)}${e.reason ? ` (reason: ${e.reason})` : ""}`;
    case "lock.acquire":
      return `lock taken by ${e.holder}${e.takenOver ? ` (taken over from ${e.takenOver})` : ""}`;
    case "lock.release":
      return `lock released`;
    case "lock.kept":
      return `lock NOT released (${e.why})`;
    case "lock.wait":
      return `waiting for the cluster lock, held by ${e.holder}${e.runUrl ? ` (${e.runUrl})` : ""}: ${e.alive ? "it renews it, a run in progress" : `it stopped renewing it; free by ${e.freeBy?.slice(11, 19) ?? "?"} if it stays unchanged`}`;
    case "group.start":
      return `${e.group}: ${e.kind}, ${e.replace} of ${e.nodes} nodes to replace`;
    case "window.wait":
      return `waiting for the maintenance window (${e.until})`;
    case "note":
      return e.message;
    default:
      return nodeLine(e) ?? renderProgressLine(e);
  }
}
