// `sandbox serve`: one loopback server in front of one world, with every face (Kubernetes, EKS,
// Auto Scaling, EC2, STS, GitHub), each given the part of the world it serves, a kubeconfig for
// kubectl and the adapters, and a driver that moves the world's virtual time (time-driver.ts).
//
// Time: virtual time runs at `speed` × real time; and whenever no request is in flight except
// watches (every client is idle, or waiting for something to happen), it jumps straight to the
// next timer, so a drain's 30-second grace period costs a client no real time. Jumps fire one
// timer batch per event-loop turn, letting requests in between; a client's request stops the
// jumping until it is answered, so what a single request sees is consistent. `speed: 0,
// instant: false` freezes time: then only the caller moves it (world.advance), which is what
// tests that want exact answers use.
import { writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import type { World } from "../world/world.js";
import { AutoScalingFace } from "./auto-scaling-face.js";
import { Ec2Face } from "./ec2-face.js";
import { EksFace } from "./eks-face.js";
import { GitHubFace, type GitHubOptions } from "./github-face.js";
import { startWireServer, type RequestLog, type WireServer } from "./http-server.js";
import { KubernetesFace, SANDBOX_TOKEN, type KubernetesFaceOptions } from "./kubernetes-face.js";
import { DEFAULT_CREDENTIALS, StsFace } from "./sts-face.js";
import { TimeDriver } from "./time-driver.js";
import { SANDBOX_TLS_CERT, startTlsFront } from "./tls-front.js";

export interface ServeOptions {
  /** 0 (default) = any free port. */
  port?: number;
  /** The TLS front's port (kubectl sends tokens only over TLS); 0 (default) = any free port. */
  tlsPort?: number;
  /** Virtual milliseconds per real millisecond (default 1; 0 = only jumps move time). */
  speed?: number;
  /** Jump to the next timer while no request but watches is in flight (default true). */
  instant?: boolean;
  /**
   * Real milliseconds with no request in flight before time jumps (default 3): a client
   * between two back-to-back calls is busy, not waiting, and must not see time race past.
   */
  quietMs?: number;
  /**
   * How far (virtual ms) jumps may run past the last client request (default 1 hour): a world
   * with periodic actors (a cluster autoscaler) would otherwise race time on with no one asking.
   */
  horizonMs?: number;
  /** Write a kubeconfig here that points kubectl and the adapters at the server. */
  kubeconfigPath?: string;
  github?: GitHubOptions;
  kubernetes?: KubernetesFaceOptions;
}

export interface SandboxEndpoints {
  /** https: kubectl sends its bearer token only over TLS (the kubeconfig trusts the cert). */
  kubernetes: string;
  eks: string;
  autoScaling: string;
  ec2: string;
  sts: string;
  github: string;
}

export interface SandboxServer {
  url: string;
  port: number;
  log: RequestLog;
  endpoints: SandboxEndpoints;
  /** The variables a user exports to point the AWS SDK / CLI, kubectl and Octokit here. */
  env: Record<string, string>;
  faces: {
    kubernetes: KubernetesFace;
    eks: EksFace;
    autoScaling: AutoScalingFace;
    ec2: Ec2Face;
    sts: StsFace;
    github: GitHubFace;
  };
  /** The endpoints and `export` lines, for a person at a terminal. */
  describe(): string;
  /**
   * A call a client in this process has just made, counted as a request in flight from now
   * until it settles (see TimeDriver.hold): for a client whose clock is the world's.
   */
  hold<T>(call: PromiseLike<T>): Promise<T>;
  close(): Promise<void>;
}

const isWatch = (req: IncomingMessage) => /[?&]watch=(1|true)(&|$)/.test(req.url ?? "");

/** The sandbox certificate, as kubeconfig's certificate-authority-data and EKS's CA data. */
export const SANDBOX_CA_DATA = Buffer.from(SANDBOX_TLS_CERT).toString("base64");

function kubeconfig(url: string): string {
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "  - name: noderoll-sandbox",
    "    cluster:",
    `      server: ${url}`,
    `      certificate-authority-data: ${SANDBOX_CA_DATA}`,
    "contexts:",
    "  - name: noderoll-sandbox",
    "    context:",
    "      cluster: noderoll-sandbox",
    "      user: noderoll-sandbox",
    "current-context: noderoll-sandbox",
    "users:",
    "  - name: noderoll-sandbox",
    "    user:",
    `      token: ${SANDBOX_TOKEN}`,
    "",
  ].join("\n");
}

/** Serve the world on 127.0.0.1 until close(). */
export async function serveSandbox(
  world: World,
  options: ServeOptions = {},
): Promise<SandboxServer> {
  let kubeUrl = "";
  const faces = makeFaces(world, options, () => kubeUrl);
  // Order matters: the query faces claim signed POST /, EKS /clusters, GitHub /repos, and the
  // Kubernetes face answers everything else (its 404 is a Status, as the API server's is).
  const server: WireServer = await startWireServer(
    [faces.sts, faces.autoScaling, faces.ec2, faces.eks, faces.github, faces.kubernetes],
    { ...(options.port !== undefined && { port: options.port }) },
  );
  const url = server.url;
  const tls = await startTlsFront(server.port, options.tlsPort ?? 0);
  kubeUrl = `https://127.0.0.1:${tls.port}`;
  const driver = new TimeDriver(
    world.clock,
    options.speed ?? 1,
    options.instant ?? true,
    options.quietMs ?? 3,
    options.horizonMs ?? 3600_000,
  );
  server.server.on("request", (req: IncomingMessage, res) => {
    if (isWatch(req)) return;
    driver.track(1);
    res.on("close", () => driver.track(-1));
  });
  driver.start();
  if (options.kubeconfigPath) writeFileSync(options.kubeconfigPath, kubeconfig(kubeUrl));
  const endpoints: SandboxEndpoints = {
    kubernetes: kubeUrl,
    eks: url,
    autoScaling: url,
    ec2: url,
    sts: url,
    github: url,
  };
  const env = environment(world, url, options.kubeconfigPath);
  return {
    url,
    port: server.port,
    log: server.log,
    endpoints,
    env,
    faces,
    describe: () => describeServer(world, url, kubeUrl, env),
    hold: (call) => driver.hold(call),
    close: async () => {
      driver.stop();
      await tls.close();
      await server.close();
      faces.kubernetes.hub.close();
    },
  };
}

/** Every face, each given the part of the world it serves. */
function makeFaces(world: World, options: ServeOptions, kubeUrl: () => string) {
  const s = world.scenario;
  return {
    sts: new StsFace(),
    autoScaling: new AutoScalingFace(world.cloud.autoScaling),
    ec2: new Ec2Face({
      ec2: world.cloud.ec2,
      sim: world.ec2,
      region: s.cluster.region,
      zones: s.zones,
    }),
    eks: new EksFace(
      {
        eks: world.cloud.eks,
        region: s.cluster.region,
        start: s.start,
        clusterName: s.cluster.name,
        pageSize: s.eks.updates.pageSize,
      },
      kubeUrl,
      SANDBOX_CA_DATA,
    ),
    github: new GitHubFace(options.github, () => world.clock.now()),
    kubernetes: new KubernetesFace(
      {
        cluster: world.cluster,
        clusterName: s.cluster.name,
        version: s.cluster.version,
        clock: world.clock,
        gate: world.gate,
        kube: world.kube,
      },
      options.kubernetes,
    ),
  };
}

/** The variables that point the AWS SDK / CLI, kubectl and Octokit at the server. */
function environment(
  world: World,
  url: string,
  kubeconfigPath: string | undefined,
): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_EKS: url,
    AWS_ENDPOINT_URL_AUTO_SCALING: url,
    AWS_ENDPOINT_URL_EC2: url,
    AWS_ENDPOINT_URL_STS: url,
    AWS_REGION: world.scenario.cluster.region,
    AWS_ACCESS_KEY_ID: DEFAULT_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: DEFAULT_CREDENTIALS.secretAccessKey,
    GITHUB_API_URL: url,
    ...(kubeconfigPath && { KUBECONFIG: kubeconfigPath }),
  };
}

function describeServer(
  world: World,
  url: string,
  kubeUrl: string,
  env: Record<string, string>,
): string {
  const s = world.scenario;
  return [
    `noderoll sandbox "${s.metadata.name}" (cluster ${s.cluster.name}, ${s.cluster.region}) on ${url}`,
    `  Kubernetes API   ${kubeUrl}  (TLS; also ${url}; bearer token ${SANDBOX_TOKEN} or an EKS token)`,
    `  EKS              ${url}/clusters/${s.cluster.name}`,
    `  Auto Scaling     ${url}  (query protocol, by SigV4 service)`,
    `  EC2              ${url}  (query protocol, by SigV4 service)`,
    `  STS              ${url}  (GetCallerIdentity)`,
    `  GitHub REST      ${url}/repos/...`,
    "",
    "export these to point the AWS SDK / CLI, kubectl and Octokit at it:",
    ...Object.entries(env).map(([k, v]) => `  export ${k}=${v}`),
    "",
  ].join("\n");
}
