// How preflight words a finding, and what deleteAfterDrainTimeout (EKS's force) does about one
// that would stop a group: one
// home for the findings preflight.ts makes and those about nodes down already (down-findings.ts).
import type { PodInfo } from "./snapshot.js";
import type { Finding, FindingCode } from "./types.js";

const MAX_LISTED = 10;

/**
 * What deleteAfterDrainTimeout does about each finding that would stop a group; a blocker
 * missing here stops the group whatever it says (EKS starts no update on a node group that is
 * not ACTIVE). With it
 * the finding stays, as a warning that says what will happen.
 */
export const AT_DRAIN_TIMEOUT: Partial<Record<FindingCode, string>> = {
  "pdb-blocks":
    "after the drain timeout the pods it protects are deleted, past the PodDisruptionBudget, and their node terminated postDrainDelay later, cutting their shutdown short",
  "multiple-pdbs":
    "these pods are deleted, not evicted, since the eviction API refuses them (a self-managed group's drain deletes them at once; EKS terminates their node after its 15 minutes)",
  "pdb-closed-now":
    "if it has not opened by the drain timeout, the pods it protects are deleted past it",
  "tolerates-everything":
    "after the drain timeout what is left is deleted and the node terminated; these pods start again elsewhere",
  "stuck-terminating": "after the drain timeout their node is terminated with them still on it",
  "zone-disrupted": "those nodes are replaced all the same, as dead nodes, ending what runs there",
  "zone-pinned-pods":
    "they are drained all the same, and stay Pending until a node of their zone can take them",
  "grace-exceeds-drain-timeout":
    "at the drain timeout their node is terminated with them still stopping, cutting their shutdown short",
};

/** A finding that stops the group, or with deleteAfterDrainTimeout (where it helps) a warning saying what happens. */
export function stopping(
  code: FindingCode,
  deleteAfterDrainTimeout: boolean,
  message: string,
  objects: string[],
): Finding {
  const withForce = AT_DRAIN_TIMEOUT[code];
  // Its advice to set deleteAfterDrainTimeout goes: it is set (one statement per fact).
  const advice = message.replace(/,? or set deleteAfterDrainTimeout$/, "");
  if (deleteAfterDrainTimeout && withForce)
    return {
      code,
      severity: "warning",
      message: `with deleteAfterDrainTimeout: ${withForce}: ${advice}`,
      objects,
    };
  return { code, severity: "blocker", message, objects };
}

export const podId = (p: PodInfo) => `${p.namespace}/${p.name}`;

export function list(items: string[]): string {
  const shown = items.slice(0, MAX_LISTED).join(", ");
  return items.length > MAX_LISTED ? `${shown} and ${items.length - MAX_LISTED} more` : shown;
}
