// Before a plan is made, and so before anything is changed: the Kubernetes API this run reads is
// the EKS cluster the policy names (src/plan/identity.ts says how that is proven). When it is
// not, the run stops with an error that names both — the cluster the policy names, and the one
// the API belongs to when EKS knows it — and says how to point the run at the right one.
import {
  CONCURRENCY,
  instanceEvidence,
  mapLimit,
  proveByEndpoint,
  proveByNodes,
  type ClusterProof,
  type Evidence,
  type LiveGroup,
} from "../plan/index.js";
import type { Policy } from "../policy/index.js";
import type { ApiEndpoint, Cloud, Cluster, EksCluster, Node } from "../ports/index.js";
import { RollError } from "../roll/context.js";

/** How many clusters of the region are described to name the one an API belongs to. */
const NAME_AT_MOST = 100;

/**
 * The other EKS cluster of this account and region whose API `api` is known to be (its URL or
 * its CA, over verified TLS), if any: then no instance can vouch for the policy's cluster.
 */
async function whose(cloud: Cloud, api: ApiEndpoint, except: string): Promise<string | undefined> {
  const names = (await cloud.eks.listClusters()).filter((n) => n !== except);
  const described = await mapLimit(names.slice(0, NAME_AT_MOST), CONCURRENCY, (n) =>
    cloud.eks.describeCluster(n).catch(() => undefined),
  );
  return described.find((c) => c && proveByEndpoint(c, api))?.name;
}

function mismatch(
  policy: Policy,
  eks: EksCluster,
  api: ApiEndpoint | undefined,
  other: string | undefined,
  evidence: Evidence,
): RollError {
  const { name, region } = policy.cluster;
  const at = api ? `The Kubernetes API at ${api.server}` : "The Kubernetes API this run reads";
  const theirs = other
    ? `it is EKS cluster ${other}'s`
    : api
      ? `it is no EKS cluster of this account and region that noderoll can name${api.insecure ? " (its TLS is not verified)" : ""}`
      : "";
  const expected = eks.endpoint ? ` (DescribeCluster ${name}: endpoint ${eks.endpoint})` : "";
  const nodes = `${evidence.found} of the ${evidence.judged} instances of the policy's groups ${evidence.found === 1 ? "is a node" : "are nodes"} there`;
  return new RollError(
    "ClusterMismatch",
    `${at} is not EKS cluster ${name}'s${expected}${theirs ? `: ${theirs}` : ""}; ${nodes}. Nothing was planned or changed. Use a kubeconfig for ${name} (aws eks update-kubeconfig --name ${name} --region ${region}), or none: noderoll then reaches ${name} through EKS itself`,
  );
}

/**
 * How the API was proven to be the policy's cluster's; throws ClusterMismatch, naming both, when
 * it is not — at once when the API is known to be another EKS cluster's, whatever the instances.
 */
export async function verifyCluster(
  policy: Policy,
  ports: { cloud: Cloud; cluster: Cluster },
  input: { eks: EksCluster; nodes: Node[]; groups: LiveGroup[]; now: Date },
): Promise<ClusterProof> {
  const api = ports.cluster.endpoint;
  const proven = proveByEndpoint(input.eks, api);
  if (proven) return proven;
  const evidence = instanceEvidence(input.groups, input.nodes, input.now, policy.cluster.name);
  const other = api ? await whose(ports.cloud, api, policy.cluster.name) : undefined;
  const byNodes = other ? undefined : proveByNodes(api, evidence);
  if (byNodes) return byNodes;
  throw mismatch(policy, input.eks, api, other, evidence);
}
