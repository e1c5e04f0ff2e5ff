// Connecting to a real cluster: AWS from the default credential chain (endpoints from the
// standard AWS_ENDPOINT_URL_* variables), Kubernetes from a kubeconfig when one is given, or
// else from EKS itself — DescribeCluster for the endpoint and CA, and an EKS token refreshed
// before it expires; Prometheus (the health gates' queries) over its HTTP API, at the address
// each gate names. No aws CLI, no kubectl. Every request has a deadline; closing the ports (or
// aborting `signal`) ends every request and watch still in flight, so a stopped run can exit.
import { defaultProvider } from "@aws-sdk/credential-provider-node";
import { KubeConfig } from "@kubernetes/client-node";
import { DescribeClusterCommand, EKSClient } from "@aws-sdk/client-eks";
import { systemClock, type Cloud, type Cluster, type Clock, type Metrics } from "../ports/index.js";
import { awsCloud, portError, sdkConfig } from "./aws/cloud.js";
import { EksTokenSource } from "./aws/eks-token.js";
import { KubeHttp } from "./kubernetes/http.js";
import { serverAlignedClock } from "./server-clock.js";
import { kubernetesCluster } from "./kubernetes/cluster.js";
import { prometheusMetrics } from "./metrics/prometheus.js";

export interface LivePorts {
  cloud: Cloud;
  cluster: Cluster;
  clock: Clock;
  /** Prometheus instant queries, for the gates that name a Prometheus address. */
  metrics: Metrics;
  /** End every request and watch still in flight; the ports answer nothing more. */
  close(): void;
}

export interface ConnectOptions {
  clusterName: string;
  region: string;
  kubeconfig?: string;
  /**
   * Told about each retry the Kubernetes adapter makes itself (a 5xx), for the log. A 429 is not
   * one: the engine's ports retry it (ports/resilient.ts), and the event log says so.
   */
  onRetry?: (info: { status: number; waitMs: number; attempt: number }) => void;
  /** Ends every request and watch in flight when it aborts (as `close()` does). */
  signal?: AbortSignal;
  /** The STS endpoint EKS tokens name, only when asked for (default: the region's own). */
  stsEndpoint?: string;
}

async function eksKubeConfig(
  o: ConnectOptions,
  signal: AbortSignal,
): Promise<{ kubeConfig: KubeConfig; token: () => Promise<string> }> {
  const credentials = defaultProvider();
  const eks = new EKSClient(sdkConfig({ region: o.region, credentials }));
  const { cluster } = await eks
    .send(new DescribeClusterCommand({ name: o.clusterName }), { abortSignal: signal })
    .catch((e: unknown) => {
      throw portError(e);
    });
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
  const source = new EksTokenSource({
    clusterName: o.clusterName,
    region: o.region,
    credentials,
    ...(o.stsEndpoint && { stsEndpoint: o.stsEndpoint }),
  });
  return { kubeConfig, token: () => source.token() };
}

export async function connectLive(o: ConnectOptions): Promise<LivePorts> {
  const closed = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, closed.signal]) : closed.signal;
  const retry = {
    sleep: (ms: number) => systemClock.sleep(ms, signal),
    ...(o.onRetry && { onRetry: o.onRetry }),
  };
  let http: KubeHttp;
  if (o.kubeconfig) {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(o.kubeconfig);
    http = new KubeHttp({ kubeConfig, retry, signal });
  } else {
    http = new KubeHttp({ ...(await eksKubeConfig(o, signal)), retry, signal });
  }
  return {
    cloud: awsCloud({ region: o.region, credentials: defaultProvider(), signal }),
    cluster: kubernetesCluster(http),
    clock: serverAlignedClock(systemClock, () => http.serverNowMs()),
    metrics: prometheusMetrics({ signal }),
    close: () => closed.abort(),
  };
}
