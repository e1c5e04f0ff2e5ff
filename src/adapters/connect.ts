// Connecting to a real cluster: AWS from the default credential chain (endpoints from the
// standard AWS_ENDPOINT_URL_* variables), Kubernetes from a kubeconfig when one is given, or
// else from EKS itself — DescribeCluster for the endpoint and CA, and an EKS token refreshed
// before it expires. No aws CLI, no kubectl.
import { defaultProvider } from "@aws-sdk/credential-provider-node";
import { KubeConfig } from "@kubernetes/client-node";
import { DescribeClusterCommand, EKSClient } from "@aws-sdk/client-eks";
import { systemClock, type Cloud, type Cluster, type Clock } from "../ports/index.js";
import { awsCloud } from "./aws/cloud.js";
import { EksTokenSource } from "./aws/eks-token.js";
import { KubeHttp } from "./kubernetes/http.js";
import { kubernetesCluster } from "./kubernetes/cluster.js";

export interface LivePorts {
  cloud: Cloud;
  cluster: Cluster;
  clock: Clock;
}

export interface ConnectOptions {
  clusterName: string;
  region: string;
  kubeconfig?: string;
  /** Told about each retry (429 / 5xx), for the log. */
  onRetry?: (info: { status: number; waitMs: number; attempt: number }) => void;
}

async function eksKubeConfig(
  o: ConnectOptions,
): Promise<{ kubeConfig: KubeConfig; token: () => Promise<string> }> {
  const credentials = defaultProvider();
  const eks = new EKSClient({ region: o.region, credentials, retryMode: "adaptive" });
  const { cluster } = await eks.send(new DescribeClusterCommand({ name: o.clusterName }));
  if (!cluster?.endpoint)
    throw new Error(`EKS cluster ${o.clusterName} in ${o.region} has no endpoint (is it ACTIVE?)`);
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromClusterAndUser(
    {
      name: o.clusterName,
      server: cluster.endpoint,
      skipTLSVerify: false,
      ...(cluster.certificateAuthority?.data && { caData: cluster.certificateAuthority.data }),
    },
    { name: "noderoll" },
  );
  const source = new EksTokenSource({ clusterName: o.clusterName, region: o.region, credentials });
  return { kubeConfig, token: () => source.token() };
}

export async function connectLive(o: ConnectOptions): Promise<LivePorts> {
  const clock = systemClock;
  const retry = {
    sleep: (ms: number) => clock.sleep(ms),
    ...(o.onRetry && { onRetry: o.onRetry }),
  };
  let http: KubeHttp;
  if (o.kubeconfig) {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(o.kubeconfig);
    http = new KubeHttp({ kubeConfig, retry });
  } else {
    http = new KubeHttp({ ...(await eksKubeConfig(o)), retry });
  }
  return {
    cloud: awsCloud({ region: o.region, credentials: defaultProvider() }),
    cluster: kubernetesCluster(http),
    clock,
  };
}
