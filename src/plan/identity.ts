// Whether the Kubernetes API a run talks to belongs to the EKS cluster the policy names, and
// whether each group belongs to that cluster — proven before anything is planned or changed.
// A kubeconfig for another cluster once made every instance of the policy's groups look like one
// with no node, free to terminate undrained; nothing in the picture itself says it is wrong.
//
// The proof, strongest first, and only over TLS that was verified:
// - the API server's URL is DescribeCluster's endpoint (EKS gives each cluster its own);
// - the certificate authority TLS verified the server with is the cluster's own
//   (DescribeCluster's certificateAuthority; EKS makes one per cluster, so a server that passed
//   TLS against it alone is that cluster's, whatever URL reached it: a tunnel, a port-forward);
// - an API that is neither this cluster's nor — by the same two tests — any other EKS cluster's
//   of the account (a proxy with a certificate of its own) is recognised by its nodes: most of
//   the policy's instances must be nodes there (a node's spec.providerID, aws:///ZONE/ID, is set
//   by the kubelet from the instance it runs on, and an instance id is unique to one account and
//   region). Instances of groups that say they are another cluster's do not vouch.
// See "Connect kubectl to an EKS cluster by creating a kubeconfig file" in the Amazon EKS user
// guide for what a kubeconfig for a cluster holds.
import type { ApiEndpoint, EksCluster, Node } from "../ports/index.js";
import { instanceIdOf } from "../ports/index.js";
import { liveInstances } from "./select.js";
import type { ClusterProof, LiveGroup } from "./snapshot.js";

/** An instance with no node this long after its launch did not join (still joining before). */
export const JOIN_GRACE_MS = 10 * 60_000;

/** What the instances say: those that are nodes of this API, of those that had time to join. */
export interface Evidence {
  found: number;
  judged: number;
}

/** The origin a URL names (scheme, host, port), so that "https://h" and "https://H:443/" agree. */
export function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    const port = u.port || (u.protocol === "https:" ? "443" : u.protocol === "http:" ? "80" : "");
    return `${u.protocol}//${u.hostname.toLowerCase()}:${port}`;
  } catch {
    return undefined;
  }
}

/** The certificates in a base64 PEM bundle, as their base64 DER bodies. */
function certificates(caData: string | undefined): Set<string> {
  if (!caData) return new Set();
  const pem = Buffer.from(caData, "base64").toString("utf8");
  const out = new Set<string>();
  for (const m of pem.matchAll(/-----BEGIN CERTIFICATE-----([^-]+)-----END CERTIFICATE-----/g))
    out.add((m[1] ?? "").replace(/\s+/g, ""));
  return out;
}

/**
 * Whether the API's CA bundle is the cluster's own certificate authority: every certificate it
 * trusts is one of the cluster's. A bundle that merely includes the cluster's CA beside others
 * proves nothing — TLS may have verified the server against any of them.
 */
export function sameAuthority(api: string | undefined, cluster: string | undefined): boolean {
  const trusted = certificates(api);
  if (trusted.size === 0) return false;
  const own = certificates(cluster);
  for (const c of trusted) if (!own.has(c)) return false;
  return true;
}

/**
 * The proof by the API's URL or certificate authority alone, when either is the cluster's. Only
 * over verified TLS: without it, whatever answers at a URL (a tunnel, a hosts entry) is not
 * known to be what the URL names.
 */
export function proveByEndpoint(
  eks: EksCluster,
  api: ApiEndpoint | undefined,
): ClusterProof | undefined {
  if (!api || api.insecure) return undefined;
  const { server } = api;
  const origin = originOf(server);
  if (origin && eks.endpoint && origin === originOf(eks.endpoint))
    return { by: "endpoint", server };
  if (sameAuthority(api.caData, eks.certificateAuthority?.data))
    return { by: "certificate", server };
  return undefined;
}

/**
 * What a group's instances say of the cluster they are in: those with a node of this API (found),
 * and those that have had time to join (judged, found included). A detached instance and one on
 * its way out say nothing.
 */
export function groupEvidence(
  group: LiveGroup,
  nodeInstances: { has(instanceId: string): boolean },
  now: Date,
): Evidence {
  let found = 0;
  let judged = 0;
  for (const i of liveInstances(group)) {
    if (i.detachedForSurge) continue;
    if (nodeInstances.has(i.id)) {
      found++;
      judged++;
    } else if (!i.launchTime || now.getTime() - i.launchTime.getTime() >= JOIN_GRACE_MS) judged++;
  }
  return { found, judged };
}

/** The instance ids this API's nodes run on (spec.providerID). */
export function nodeInstanceIds(nodes: readonly Node[]): Set<string> {
  const out = new Set<string>();
  for (const n of nodes) {
    const id = instanceIdOf(n);
    if (id) out.add(id);
  }
  return out;
}

/**
 * The evidence of the policy's groups that do not say they are another cluster's: a group
 * tagged for another cluster, named by mistake, would otherwise vouch for that cluster's API.
 */
export function instanceEvidence(
  groups: readonly LiveGroup[],
  nodes: readonly Node[],
  now: Date,
  cluster: string,
): Evidence {
  const ids = nodeInstanceIds(nodes);
  let found = 0;
  let judged = 0;
  for (const g of groups) {
    if (g.clusters.length > 0 && !g.clusters.includes(cluster)) continue;
    const e = groupEvidence(g, ids, now);
    found += e.found;
    judged += e.judged;
  }
  return { found, judged };
}

/**
 * The proof by the instances, for an API neither this cluster's nor another's by its URL or CA:
 * most of those that had time to join must be nodes there; an implementation that cannot say
 * where it is, with no instance to judge, has nothing a run could act on wrongly.
 */
export function proveByNodes(
  api: ApiEndpoint | undefined,
  { found, judged }: Evidence,
): ClusterProof | undefined {
  const server = api?.server;
  if (found > 0 && found * 2 >= judged)
    return { by: "nodes", ...(server && { server }), found, judged };
  if (!server && judged === 0) return { by: "nothing-to-judge" };
  return undefined;
}

/** The clusters an Auto Scaling group's tags say it belongs to (kOps, eksctl, EKS, the
 * cluster autoscaler's auto-discovery all tag their groups so). */
export function clustersTagged(tags: readonly { Key: string; Value: string }[]): string[] {
  const out = new Set<string>();
  for (const { Key, Value } of tags) {
    const m = /^(?:kubernetes\.io\/cluster|k8s\.io\/cluster-autoscaler)\/(.+)$/.exec(Key);
    if (m && m[1] !== "enabled" && m[1] !== "node-template") out.add(m[1] as string);
    if ((Key === "eks:cluster-name" || Key === "KubernetesCluster") && Value) out.add(Value);
  }
  return [...out].sort();
}

/**
 * Why a group is not the cluster's to roll, or undefined when it is. A managed node group EKS
 * lists under the cluster is. Any other must say so — its tags (kubernetes.io/cluster/NAME and
 * kin) — or, saying nothing, have its instances as nodes of the (proven) cluster; and however it
 * is tagged, once its instances have had time to join, some must be nodes here: a group none of
 * whose instances joined is broken or another cluster's (a copied module's tag), and its
 * instances are not terminated undrained on its tags' word. The Auto Scaling group behind an EKS
 * managed node group is EKS's to roll, under the node group's name.
 */
export function groupNotOfCluster(
  group: LiveGroup,
  cluster: string,
  nodeInstances: { has(instanceId: string): boolean },
  now: Date,
): string | undefined {
  const name = `Auto Scaling group ${group.name}`;
  if (group.nodegroup)
    return `${name} is the one behind EKS managed node group ${group.nodegroup}: EKS rolls it. Name the node group (${group.nodegroup}) in the policy instead; noderoll will not touch EKS's group itself`;
  const tagged = group.clusters;
  if (tagged.length > 0 && !tagged.includes(cluster))
    return `${name} belongs to cluster ${tagged.join(", ")} (its tags say so), not to ${cluster}: noderoll will not touch it. Name this cluster's own group in the policy, or fix the group's kubernetes.io/cluster/ tag`;
  if (group.listedByEks) return undefined;
  const { found, judged } = groupEvidence(group, nodeInstances, now);
  if (found > 0) return undefined;
  if (tagged.length === 0)
    return `${name} does not say it belongs to cluster ${cluster}, and none of its instances is a node of it: noderoll will not touch it. Tag it kubernetes.io/cluster/${cluster}=owned (as eksctl and EKS's templates do)`;
  if (judged === 0) return undefined;
  return `${name}'s tags say it is cluster ${cluster}'s (${tagged.join(", ")}), but none of its ${judged} instances is a node of ${cluster}: none ever joined it, or they are another cluster's nodes. noderoll will not terminate them undrained on its tags' word. If they never joined, fix the group's launch template and terminate them by hand (aws autoscaling terminate-instance-in-auto-scaling-group)`;
}
