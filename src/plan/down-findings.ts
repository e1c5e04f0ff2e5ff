// What preflight finds about nodes to replace that are down already: unreachable ones, whose
// drains leave their pods once long past due, and down ones in a zone that is mostly down, which
// are an outage rather than dead nodes (zones.ts).
import { list, podId, stopping } from "./finding.js";
import type { PreflightInput } from "./preflight-input.js";
import { drainWaitsFor, leftOnUnreachable, UNREACHABLE_WAIT_MS, type PodInfo } from "./snapshot.js";
import type { Finding, Replacement } from "./types.js";
import type { ZoneHealth } from "./zones.js";

/**
 * Nodes to replace whose kubelets stopped reporting: nothing evicted there will be confirmed
 * gone, so their drains wait for a pod only until its deletion is UNREACHABLE_WAIT_MS past due
 * (kubectl drain's --skip-wait-for-delete-timeout, as Cluster API drains such a node); the node's
 * termination takes what is left. Said, not blocking: replacing such nodes is the way out.
 */
export function unreachableFindings(
  deleting: PodInfo[],
  input: PreflightInput,
  unreachable: ReadonlySet<string>,
): Finding[] {
  const nodes = [...unreachable].sort();
  if (nodes.length === 0) return [];
  const now = input.snapshot.takenAt.getTime();
  const left = deleting.filter(
    (p) =>
      unreachable.has(p.nodeName) &&
      drainWaitsFor(p) &&
      leftOnUnreachable(p.deletionTimestamp, now),
  );
  const minutes = UNREACHABLE_WAIT_MS / 60_000;
  const already = left.length > 0 ? `; left behind at once: ${list(left.map(podId))}` : "";
  return [
    {
      code: "unreachable-nodes",
      severity: "warning",
      message: `unreachable, their kubelets no longer reporting (Ready Unknown): ${list(nodes)}. They are replaced first; their drains evict as usual but wait for a pod only until its deletion is ${minutes} minutes past due, since no kubelet will confirm it — the pod goes with its node${already}`,
      objects: nodes,
    },
  ];
}

/**
 * Nodes to replace that are down in a zone where most nodes are (zones.ts): an outage or a
 * partition, whose nodes may still run what they ran. Not replaced as dead nodes unless
 * deleteAfterDrainTimeout.
 */
export function disruptedFindings(input: PreflightInput): Finding[] {
  const hit = input.replacements.filter(
    (r) => r.down && r.down !== "no-node" && input.unhealthyZones.has(r.zone),
  );
  if (hit.length === 0) return [];
  const zones = [...new Set(hit.map((r) => r.zone))].sort().map((z) => {
    const h = input.unhealthyZones.get(z) as ZoneHealth;
    return `${z} (${h.notReady} of ${h.nodes} nodes not Ready)`;
  });
  return [
    stopping(
      "zone-disrupted",
      input.deleteAfterDrainTimeout,
      `most nodes of ${list(zones)} are not Ready at once: an outage or a network partition, not nodes that died one by one (Kubernetes' node controller stops evicting in such a zone). What they run may still be serving, and replacing them would end it: wait for the zone to recover, or set deleteAfterDrainTimeout`,
      hit.map((r) => r.node ?? r.instance),
    ),
  ];
}

/**
 * Instances to replace that have no node in the cluster: they never joined (a broken bootstrap,
 * a launch that never finished) or their node was deleted. Nothing can be drained there, so
 * they go without a drain — but the run cannot see that they serve nothing (a kubeconfig for
 * another cluster looks exactly like this), so each costs the capacity budget like a Ready node:
 * no more than maxUnavailable are out at once, the next only once a replacement is Ready. With
 * a budget of none, only a surge can make room, and there must be one to make.
 */
export function noNodeFindings(input: PreflightInput): Finding[] {
  const hit = input.replacements.filter((r) => r.down === "no-node");
  if (hit.length === 0) return [];
  const ids = hit.map((r) => r.instance);
  const what = `no node in cluster ${input.snapshot.cluster.name}: ${list(ids)} (never joined, or their nodes were deleted)`;
  const finding = (severity: Finding["severity"], how: string): Finding[] => [
    { code: "no-node", severity, message: `${what}. ${how}`, objects: ids },
  ];
  if (!input.pacesNoNode) return finding("info", "EKS replaces them with the rest of the group");
  const counted =
    "They are replaced without a drain, each counted as serving until its replacement is Ready (noderoll cannot see that it is not)";
  if (input.maxUnavailable === 0 && (input.surge === 0 || hit.length === input.replacements.length))
    return finding(
      "blocker",
      `${counted}, but maxUnavailable is 0 and no surge can make room: allow maxUnavailable 1, or terminate them by hand if they truly serve nothing`,
    );
  return finding(
    "warning",
    `${counted}, first, and at most maxUnavailable (${input.maxUnavailable}) of them at once`,
  );
}

/** The nodes to replace that are unreachable, where the kind's drain leaves their pods. */
export const leftUnreachable = (input: PreflightInput): ReadonlySet<string> =>
  new Set(
    input.replacements.flatMap((r) =>
      leavesPodsOf(r, input.leavesUnreachable) && r.node ? [r.node] : [],
    ),
  );

/** Whether the drain of this replacement's node leaves pods long past due: it is unreachable,
 * and the kind's drain is one that does (GroupKind.leavesUnreachable). */
export const leavesPodsOf = (r: Replacement, leavesUnreachable: boolean | undefined) =>
  leavesUnreachable === true && r.down === "unreachable";
