// Pods bound to a zone with nowhere to go there while their nodes are replaced (issue 44, defect
// 7). A pod tied to a zone — its nodeSelector or required node affinity on the zone label, or a
// claim bound to a zonal volume (placement.ts) — can only be scheduled on a node of that zone.
// When every node of the zone that could take it is one this roll replaces, its drain leaves it
// Pending until a new node of the group is Ready there: the surge's, or its node's replacement,
// which Auto Scaling launches in the zone it balances toward (the zone it took one from). If the
// zone cannot launch one — out of capacity — the pod stays Pending: a StatefulSet's replica, or
// all of them, down. And where the group launches no node in that zone at all, none of the roll's
// will come: apply would drain them and then fail waiting for them, so the group is blocked.
import { list, podId, stopping } from "./finding.js";
import { couldTake, zoneBinding, type ZoneBinding } from "./placement.js";
import type { PreflightInput } from "./preflight-input.js";
import type { ClaimInfo, NodeInfo, PodInfo } from "./snapshot.js";
import type { Finding } from "./types.js";

interface Stranded {
  pod: PodInfo;
  binding: ZoneBinding;
}

/** The cluster's nodes by zone, and every zone known (the nodes' and the group's). */
function nodesByZone(nodes: readonly NodeInfo[], groupZones: readonly string[]) {
  const byZone = new Map<string, NodeInfo[]>();
  for (const n of nodes) {
    if (n.zone === undefined) continue;
    const list = byZone.get(n.zone);
    if (list) list.push(n);
    else byZone.set(n.zone, [n]);
  }
  return { byZone, known: new Set([...byZone.keys(), ...groupZones]) };
}

/**
 * The pods (those the drains move) bound to zones where no node outside this roll's
 * replacements could take them. Pods alike (the same constraints, tolerations and zones) are
 * asked about once.
 */
function strandedPods(pods: readonly PodInfo[], input: PreflightInput): Stranded[] {
  const bound = pods.filter((p) => p.placement !== undefined);
  if (bound.length === 0) return [];
  const claims = new Map<string, ClaimInfo>(
    (input.snapshot.claims ?? []).map((c) => [`${c.namespace}/${c.name}`, c]),
  );
  const { byZone, known } = nodesByZone(input.snapshot.nodes, input.group.zones);
  const replaced = new Set(input.replacements.flatMap((r) => (r.node ? [r.node] : [])));
  const answers = new Map<string, boolean>();
  const out: Stranded[] = [];
  for (const pod of bound) {
    const binding = zoneBinding(pod, claims, known);
    if (!binding) continue;
    const key = JSON.stringify([pod.placement?.nodeSelector, binding, pod.tolerations]);
    let somewhere = answers.get(key);
    if (somewhere === undefined) {
      somewhere = binding.zones.some((z) =>
        (byZone.get(z) ?? []).some((n) => !replaced.has(n.name) && couldTake(n, pod, binding)),
      );
      answers.set(key, somewhere);
    }
    if (!somewhere) out.push({ pod, binding });
  }
  return out;
}

const describe = (s: Stranded) =>
  `${podId(s.pod)} (${s.binding.zones.join(" or ")}: ${s.binding.why.join(", ")})`;

export function zoneFindings(pods: readonly PodInfo[], input: PreflightInput): Finding[] {
  const out: Finding[] = [];
  if (input.snapshot.claimsUnread)
    out.push({
      code: "zone-pinned-pods",
      severity: "info",
      message: `the volume claims of the pods to move could not be read (${input.snapshot.claimsUnread}): whether a zonal volume ties them to a zone is not checked; grant get on persistentvolumeclaims and persistentvolumes`,
      objects: [],
    });
  const stranded = strandedPods(pods, input);
  if (stranded.length === 0) return out;
  const launches = new Set(input.group.zones);
  const never = stranded.filter((s) => !s.binding.zones.some((z) => launches.has(z)));
  const wait = stranded.filter((s) => !never.includes(s));
  const name = input.group.name;
  if (never.length > 0)
    out.push(
      stopping(
        "zone-pinned-pods",
        input.deleteAfterDrainTimeout,
        `pods bound to a zone where no node outside this roll can take them and ${name} launches no node (its zones: ${input.group.zones.join(", ")}): nothing the roll does gives them a node, and apply would drain them and then fail waiting for them: ${list(never.map(describe))}; add capacity in that zone first, or set deleteAfterDrainTimeout`,
        never.map((s) => podId(s.pod)),
      ),
    );
  if (wait.length > 0) {
    const newNode =
      input.surge > 0
        ? "the surge's or their node's replacement"
        : "their node's replacement, launched only after the drain (no surge)";
    out.push({
      code: "zone-pinned-pods",
      severity: "warning",
      message: `pods bound to a zone where every node that could take them is replaced by this roll: drained, they are Pending until a new node of ${name} is Ready in their zone (${newNode}), and stay Pending if the zone cannot launch one (out of capacity): ${list(wait.map(describe))}. Apply waits for them after the group's last drain, then fails naming them; to keep them up, run such workloads across zones or keep a node of their zone outside the roll`,
      objects: wait.map((s) => podId(s.pod)),
    });
  }
  return out;
}
