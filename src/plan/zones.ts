// Zones where many nodes are not Ready at once: an outage or a network partition rather than
// nodes that died one by one. Kubernetes' node controller treats a zone where at least 55 % of
// the nodes, and at least 3, are not Ready as unhealthy, and slows or stops evicting pods there
// (kube-controller-manager's --unhealthy-zone-threshold;
// https://kubernetes.io/docs/concepts/architecture/nodes/#rate-limits-on-eviction). noderoll
// does not take the down nodes of such a zone for dead either: their pods may still be serving,
// cut off from the API server only, and replacing the nodes would end them.
import type { NodeInfo } from "./snapshot.js";

export const UNHEALTHY_ZONE_SHARE = 0.55;
export const UNHEALTHY_ZONE_MIN = 3;

export interface ZoneHealth {
  zone: string;
  notReady: number;
  nodes: number;
}

/** The cluster's unhealthy zones by name, from every node's zone label and Ready condition. */
export function unhealthyZones(nodes: readonly NodeInfo[]): Map<string, ZoneHealth> {
  const byZone = new Map<string, ZoneHealth>();
  for (const n of nodes) {
    if (!n.zone) continue;
    let h = byZone.get(n.zone);
    if (!h) byZone.set(n.zone, (h = { zone: n.zone, notReady: 0, nodes: 0 }));
    h.nodes++;
    if (!n.ready) h.notReady++;
  }
  for (const [zone, h] of byZone)
    if (h.notReady < UNHEALTHY_ZONE_MIN || h.notReady < UNHEALTHY_ZONE_SHARE * h.nodes)
      byZone.delete(zone);
  return byZone;
}
