// Whether the Kubernetes API a run talks to belongs to the EKS cluster the policy names, and
// whether each group belongs to that cluster — proven before anything is planned or changed.
// A kubeconfig for another cluster once made every instance of the policy's groups look like one
// with no node, free to terminate undrained; nothing in the picture itself says it is wrong.
//
// The proof, strongest first:
// - the API server's URL is DescribeCluster's endpoint (EKS gives each cluster its own);
// - the certificate authority TLS verified the server with is the cluster's own
//   (DescribeCluster's certificateAuthority; EKS makes one per cluster, so a server that passed
//   TLS against it is that cluster's, whatever URL reached it: a tunnel, a port-forward);
// - most instances of the policy's groups are nodes of this API (a node's spec.providerID,
//   aws:///ZONE/INSTANCE-ID, is set by the kubelet from the instance it runs on, and an instance
//   id is unique to one account and region): an API reached through a proxy with its own
//   certificate is still recognised by the nodes it has.
// See "Connect kubectl to an EKS cluster by creating a kubeconfig file" in the Amazon EKS user
// guide for what a kubeconfig for a cluster holds.
import type { ApiEndpoint, EksCluster, Node } from "../ports/index.js";
import { instanceIdOf } from "../ports/index.js";
import { liveInstances } from "./select.js";
import type { ClusterProof, LiveGroup } from "./snapshot.js";

/** An instance with no node this long after its launch did not join (still joining before). */
export const JOIN_GRACE_MS = 10 * 60_000;

export type ClusterVerdict =
  | { ok: true; proof: ClusterProof }
  | {
      ok: false;
      /** What the API is, as far as can be told (the caller may name the cluster it belongs to). */
      api?: ApiEndpoint;
      endpoint?: string;
      found: number;
      judged: number;
    };

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

/** Whether the API's CA bundle holds the cluster's own certificate authority. */
export function sameAuthority(a: string | undefined, b: string | undefined): boolean {
  const mine = certificates(a);
  for (const c of certificates(b)) if (mine.has(c)) return true;
  return false;
}

/**
 * The policy's groups' instances that say which cluster they are in: those with a node of this
 * API (found), and those without one that have had time to join (judged includes both). A
 * detached instance and one on its way out say nothing.
 */
export function instanceEvidence(
  groups: readonly LiveGroup[],
  nodes: readonly Node[],
  now: Date,
): { found: number; judged: number } {
  const nodeOf = new Set<string>();
  for (const n of nodes) {
    const id = instanceIdOf(n);
    if (id) nodeOf.add(id);
  }
  let found = 0;
  let judged = 0;
  for (const g of groups)
    for (const i of liveInstances(g)) {
      if (i.detachedForSurge) continue;
      if (nodeOf.has(i.id)) {
        found++;
        judged++;
      } else if (!i.launchTime || now.getTime() - i.launchTime.getTime() >= JOIN_GRACE_MS) judged++;
    }
  return { found, judged };
}

/** The proof by the API's URL or certificate authority alone, when either is the cluster's. */
export function proveByEndpoint(
  eks: EksCluster,
  api: ApiEndpoint | undefined,
): ClusterProof | undefined {
  const server = api?.server;
  const origin = server ? originOf(server) : undefined;
  if (server && origin && eks.endpoint && origin === originOf(eks.endpoint))
    return { by: "endpoint", server };
  if (server && sameAuthority(api?.caData, eks.certificateAuthority?.data))
    return { by: "certificate", server };
  return undefined;
}

/**
 * Whether the API (`api`, from the kubeconfig) is EKS cluster `eks`'s. Endpoint or certificate
 * authority: proven. Otherwise the instances decide — most of those that have had time to join
 * must be nodes here; with no endpoint to compare (an implementation that cannot say) and no
 * instance to judge, there is nothing a run could act on wrongly.
 */
export function proveCluster(
  eks: EksCluster,
  api: ApiEndpoint | undefined,
  evidence: { found: number; judged: number },
): ClusterVerdict {
  const proven = proveByEndpoint(eks, api);
  if (proven) return { ok: true, proof: proven };
  const server = api?.server;
  const { found, judged } = evidence;
  if (found > 0 && found * 2 >= judged)
    return { ok: true, proof: { by: "nodes", ...(server && { server }), found, judged } };
  if (!server && judged === 0) return { ok: true, proof: { by: "nothing-to-judge" } };
  return {
    ok: false,
    ...(api && { api }),
    ...(eks.endpoint && { endpoint: eks.endpoint }),
    found,
    judged,
  };
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
 * Why a group is not the cluster's to roll, or undefined when it is: by the clusters it says it
 * belongs to (a managed node group: the one EKS lists it under; an Auto Scaling group: its tags),
 * or — saying none — by its instances being nodes of the (proven) cluster.
 */
export function groupNotOfCluster(
  group: LiveGroup,
  cluster: string,
  nodeInstances: { has(instanceId: string): boolean },
): string | undefined {
  const tagged = group.clusters;
  if (tagged.includes(cluster)) return undefined;
  if (tagged.length > 0)
    return `Auto Scaling group ${group.name} belongs to cluster ${tagged.join(", ")} (its tags say so), not to ${cluster}: noderoll will not touch it. Name this cluster's own group in the policy, or fix the group's kubernetes.io/cluster/ tag`;
  if (liveInstances(group).some((i) => nodeInstances.has(i.id))) return undefined;
  return `Auto Scaling group ${group.name} does not say it belongs to cluster ${cluster}, and none of its instances is a node of it: noderoll will not touch it. Tag it kubernetes.io/cluster/${cluster}=owned (as eksctl and EKS's templates do)`;
}
