// `sandbox serve`: one loopback server in front of one world, with every face (Kubernetes, EKS,
// Auto Scaling, EC2, CloudWatch, SSM, Prometheus, STS, GitHub), each given the part of the world it serves, a kubeconfig for
// kubectl and the adapters, and a driver that moves the world's virtual time (time-driver.ts).
//
// Or in front of an account of several clusters (world/account.ts): one AWS for all of them on
// that server, and each cluster's Kubernetes API on its own TLS front with a certificate
// authority of its own (tls-front.ts), as EKS gives every cluster its own endpoint and CA; the
// first cluster's API is also on the server itself, as a single world's is, the others each on
// a loopback server of their own. DescribeCluster says each cluster's endpoint and CA, and each
// cluster gets a kubeconfig (`kubeconfigPath` for the first, the same path with the cluster's
// name inserted for the others: kubeconfigPathOf).
//
// Time: virtual time runs at `speed` × real time; and whenever no request is in flight except
// watches (every client is idle, or waiting for something to happen), it jumps straight to the
// next timer, so a drain's 30-second grace period costs a client no real time. Jumps fire one
// timer batch per event-loop turn, letting requests in between; a client's request stops the
// jumping until it is answered, so what a single request sees is consistent. `speed: 0,
// instant: false` freezes time: then only the caller moves it (world.advance), which is what
// tests that want exact answers use.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import type { IncomingMessage, Server } from "node:http";
import { basename, dirname, join } from "node:path";
import type { ApiEndpoint } from "../../ports/cluster.js";
import { Account } from "../world/account.js";
import type { World } from "../world/world.js";
import { AutoScalingFace } from "./auto-scaling-face.js";
import { CloudWatchFace } from "./cloudwatch-face.js";
import { Ec2Face } from "./ec2-face.js";
import { EksFace } from "./eks-face.js";
import { GitHubFace, type GitHubOptions, type SandboxPull } from "./github-face.js";
import { startWireServer, type RequestLog, type WireServer } from "./http-server.js";
import { KubernetesFace, SANDBOX_TOKEN, type KubernetesFaceOptions } from "./kubernetes-face.js";
import { PROMETHEUS_PATH, PrometheusFace } from "./prometheus-face.js";
import { DEFAULT_CREDENTIALS, StsFace } from "./sts-face.js";
import { SsmFace } from "./ssm-face.js";
import { TimeDriver } from "./time-driver.js";
import { SANDBOX_TLS_IDENTITIES, startTlsFront, type TlsIdentity } from "./tls-front.js";

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
  /**
   * Write a kubeconfig here that points kubectl and the adapters at the server (at the first
   * cluster; another cluster's is at kubeconfigPathOf(path, its name)).
   */
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
  cloudWatch: string;
  sts: string;
  github: string;
  /** The address to give a gate's Prometheus queries (the first cluster's; `/<cluster>` after
   * it for another's). */
  prometheus: string;
}

/** One served cluster's Kubernetes API. */
export interface ServedCluster {
  name: string;
  /** Its TLS front (what its kubeconfig and DescribeCluster say). */
  kubernetes: string;
  /** The same API in plain HTTP: the server's URL for the first cluster, its own for another. */
  url: string;
  /** Its certificate authority, base64 PEM (kubeconfig's certificate-authority-data). */
  caData: string;
  /** The static bearer token it takes (besides EKS tokens for it). */
  token: string;
  /** Where its kubeconfig is written, when one is. */
  kubeconfigPath?: string;
  /** Its requests: the server's log for the first cluster, one of its own for another. */
  log: RequestLog;
  face: KubernetesFace;
}

export interface SandboxServer {
  url: string;
  port: number;
  log: RequestLog;
  /** The first cluster's Kubernetes API, and the AWS, STS and GitHub endpoints. */
  endpoints: SandboxEndpoints;
  /** Every cluster's Kubernetes API, in the account's order (one for a single world). */
  clusters: ServedCluster[];
  /** The variables a user exports to point the AWS SDK / CLI, kubectl and Octokit here. */
  env: Record<string, string>;
  faces: {
    /** The first cluster's (every cluster's: `clusters`). */
    kubernetes: KubernetesFace;
    eks: EksFace;
    autoScaling: AutoScalingFace;
    ec2: Ec2Face;
    cloudWatch: CloudWatchFace;
    prometheus: PrometheusFace;
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

/**
 * Where the kubeconfig of an account's other cluster is written: `path` with the cluster's name
 * before its extension (`kc.yaml` → `kc.small.yaml`), or after it where it has none
 * (`kubeconfig` → `kubeconfig.small`).
 */
export function kubeconfigPathOf(path: string, cluster: string): string {
  const base = basename(path);
  const dot = base.lastIndexOf(".");
  const name =
    dot > 0 ? `${base.slice(0, dot)}.${cluster}${base.slice(dot)}` : `${base}.${cluster}`;
  return join(dirname(path), name);
}

/** A kubeconfig for one cluster; `name`: its cluster, context and user (noderoll-sandbox[-X]). */
function kubeconfig(c: Pick<ServedCluster, "kubernetes" | "caData" | "token">, name: string) {
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `  - name: ${name}`,
    "    cluster:",
    `      server: ${c.kubernetes}`,
    `      certificate-authority-data: ${c.caData}`,
    "contexts:",
    `  - name: ${name}`,
    "    context:",
    `      cluster: ${name}`,
    `      user: ${name}`,
    `current-context: ${name}`,
    "users:",
    `  - name: ${name}`,
    "    user:",
    `      token: ${c.token}`,
    "",
  ].join("\n");
}

/**
 * A pull request of `owner/repo` that changes `files`, as `sandbox serve --pull N:FILE,...` holds
 * it: open, with a head commit of its own (a made-up sha, the same for the same number).
 */
export function servedPull(
  owner: string,
  repo: string,
  number: number,
  files: string[],
): SandboxPull {
  const headSha = createHash("sha1").update(`head ${owner}/${repo}#${number}`).digest("hex");
  return { number, headSha, files };
}

/** The most clusters served at once: one TLS identity (a CA of its own) each. */
export const MAX_SERVED_CLUSTERS = SANDBOX_TLS_IDENTITIES.length;

/** Serve the world, or every cluster of the account, on 127.0.0.1 until close(). */
export async function serveSandbox(
  target: World | Account,
  options: ServeOptions = {},
): Promise<SandboxServer> {
  const worlds = target instanceof Account ? target.worlds : [target];
  if (worlds.length > MAX_SERVED_CLUSTERS)
    throw new Error(
      `sandbox serve serves at most ${MAX_SERVED_CLUSTERS} clusters at once (each has a TLS identity, a certificate authority, of its own), not ${worlds.length}`,
    );
  const first = worlds[0] as World;
  const faces = makeFaces(target, options);
  // Order matters: the query faces claim signed POST /, CloudWatch its X-Amz-Target and CBOR
  // paths too, EKS /clusters, GitHub /repos, Prometheus /prometheus, and the Kubernetes face
  // answers everything else (its 404 is a Status, as the API server's is).
  const { sts, autoScaling, ec2, cloudWatch, ssm, eks, github, prometheus, kubernetes } = faces;
  const server: WireServer = await startWireServer(
    [sts, autoScaling, ec2, cloudWatch, ssm, eks, github, prometheus, kubernetes],
    { ...(options.port !== undefined && { port: options.port }) },
  );
  const url = server.url;
  const driver = new TimeDriver(
    first.clock,
    options.speed ?? 1,
    options.instant ?? true,
    options.quietMs ?? 3,
    options.horizonMs ?? 3600_000,
  );
  const track = (http: Server) =>
    void http.on("request", (req: IncomingMessage, res) => {
      if (isWatch(req)) return;
      driver.track(1);
      res.on("close", () => driver.track(-1));
    });
  track(server.server);
  const served = await serveClusters(worlds, { face: faces.kubernetes, server }, options, track);
  driver.start();
  const clusters = served.map((s) => s.cluster);
  const kube = clusters[0] as ServedCluster;
  const endpoints: SandboxEndpoints = {
    kubernetes: kube.kubernetes,
    eks: url,
    autoScaling: url,
    ec2: url,
    cloudWatch: url,
    sts: url,
    github: url,
    prometheus: `${url}${PROMETHEUS_PATH}`,
  };
  const env = environment(first, url, options.kubeconfigPath, faces.github);
  return {
    url,
    port: server.port,
    log: server.log,
    endpoints,
    clusters,
    env,
    faces,
    describe: () =>
      worlds.length === 1
        ? describeServer(first, url, kube.kubernetes, env, options.github)
        : describeAccount(worlds, url, clusters, env, options.github),
    hold: (call) => driver.hold(call),
    close: async () => {
      driver.stop();
      await Promise.all(served.map((s) => s.close()));
      await server.close();
      for (const s of served) s.done();
    },
  };
}

/**
 * Every world's Kubernetes API, the first on the main server; `track` counts the requests of
 * the others' servers. Where one cannot be served, everything is closed again.
 */
async function serveClusters(
  worlds: readonly World[],
  main: { face: KubernetesFace; server: WireServer },
  options: ServeOptions,
  track: (http: Server) => void,
): Promise<Served[]> {
  const served: Served[] = [];
  try {
    for (const [i, world] of worlds.entries()) {
      const s = await serveCluster(world, i, i === 0 ? main : undefined, options);
      served.push(s);
      if (i > 0) track(s.server.server);
    }
    return served;
  } catch (e) {
    await Promise.all(served.map((s) => s.close()));
    await main.server.close();
    for (const s of served) s.done();
    throw e;
  }
}

interface Served {
  cluster: ServedCluster;
  /** The plain server its TLS front hands connections to. */
  server: WireServer;
  /** Its TLS front, and its own server. */
  close(): Promise<void>;
  /** Once every server is closed: its watches end, its world's endpoint is as before. */
  done(): void;
}

/**
 * Cluster `i` of the served worlds: the first on the main server (`main`), another on a loopback
 * server of its own; each behind a TLS front with identity `i`. The world's endpoint (what
 * DescribeCluster and its Cluster port say) is the served one while it is served.
 */
async function serveCluster(
  world: World,
  i: number,
  main: { face: KubernetesFace; server: WireServer } | undefined,
  options: ServeOptions,
): Promise<Served> {
  const name = world.scenario.cluster.name;
  const token = i === 0 ? SANDBOX_TOKEN : `${SANDBOX_TOKEN}-${name}`;
  const face = main?.face ?? kubernetesFace(world, { tokens: [token], ...options.kubernetes });
  const server = main?.server ?? (await startWireServer([face]));
  const identity = SANDBOX_TLS_IDENTITIES[i] as TlsIdentity;
  let tls: Awaited<ReturnType<typeof startTlsFront>> | undefined;
  const close = async () => {
    await tls?.close();
    if (!main) await server.close();
  };
  try {
    tls = await startTlsFront(server.port, i === 0 ? (options.tlsPort ?? 0) : 0, identity);
    const kubernetes = `https://127.0.0.1:${tls.port}`;
    const caData = Buffer.from(identity.cert).toString("base64");
    const path =
      options.kubeconfigPath &&
      (i === 0 ? options.kubeconfigPath : kubeconfigPathOf(options.kubeconfigPath, name));
    const cluster: ServedCluster = {
      name,
      kubernetes,
      url: server.url,
      caData,
      token: options.kubernetes?.tokens?.[0] ?? token,
      ...(path && { kubeconfigPath: path }),
      log: server.log,
      face,
    };
    if (path)
      writeFileSync(
        path,
        kubeconfig(cluster, i === 0 ? "noderoll-sandbox" : `noderoll-sandbox-${name}`),
      );
    const before: ApiEndpoint = { ...world.endpoint };
    // The object the world's Cloud and Cluster faces were given: they say the served one now.
    Object.assign(world.endpoint, { server: kubernetes, caData });
    return {
      cluster,
      server,
      close,
      done: () => {
        face.hub.close();
        delete world.endpoint.caData;
        Object.assign(world.endpoint, before);
      },
    };
  } catch (e) {
    await close();
    face.hub.close();
    throw e;
  }
}

function kubernetesFace(world: World, options: KubernetesFaceOptions = {}): KubernetesFace {
  const s = world.scenario;
  return new KubernetesFace(
    {
      cluster: world.cluster,
      clusterName: s.cluster.name,
      version: s.cluster.version,
      clock: world.clock,
      gate: world.gate,
      kube: world.kube,
    },
    options,
  );
}

/** Every face but the other clusters' Kubernetes, each given the part of the world it serves. */
function makeFaces(target: World | Account, options: ServeOptions) {
  const worlds = target instanceof Account ? target.worlds : [target];
  const first = worlds[0] as World;
  const s = first.scenario;
  const one = worlds.length === 1;
  return {
    sts: new StsFace(),
    autoScaling: new AutoScalingFace(target.cloud.autoScaling),
    ec2: new Ec2Face({
      ec2: target.cloud.ec2,
      sim: one
        ? first.ec2
        : {
            templates: { values: () => worlds.flatMap((w) => [...w.ec2.templates.values()]) },
            instances: { keys: () => worlds.flatMap((w) => [...w.ec2.instances.keys()]) },
          },
      region: s.cluster.region,
      zones: one ? s.zones : [...new Set(worlds.flatMap((w) => w.scenario.zones))].sort(),
    }),
    eks: new EksFace({
      eks: target.cloud.eks,
      region: s.cluster.region,
      start: s.start,
      pageSize: s.eks.updates.pageSize,
    }),
    cloudWatch: new CloudWatchFace(target.cloud.cloudWatch),
    ssm: new SsmFace({ eks: target.cloud.eks, region: s.cluster.region }),
    prometheus: new PrometheusFace(
      new Map(worlds.map((w) => [w.scenario.cluster.name, w.metrics])),
    ),
    github: new GitHubFace(options.github, () => first.clock.now()),
    kubernetes: kubernetesFace(first, options.kubernetes),
  };
}

/** The variables that point the AWS SDK / CLI, kubectl and Octokit at the server. */
function environment(
  world: World,
  url: string,
  kubeconfigPath: string | undefined,
  github: GitHubFace,
): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_EKS: url,
    AWS_ENDPOINT_URL_AUTO_SCALING: url,
    AWS_ENDPOINT_URL_EC2: url,
    AWS_ENDPOINT_URL_CLOUDWATCH: url,
    AWS_ENDPOINT_URL_SSM: url,
    AWS_ENDPOINT_URL_STS: url,
    AWS_REGION: world.scenario.cluster.region,
    AWS_ACCESS_KEY_ID: DEFAULT_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: DEFAULT_CREDENTIALS.secretAccessKey,
    GITHUB_API_URL: url,
    GITHUB_REPOSITORY: `${github.owner}/${github.repo}`,
    ...(kubeconfigPath && { KUBECONFIG: kubeconfigPath }),
  };
}

/** For an account: every cluster's Kubernetes API and kubeconfig, then AWS and what to export. */
function describeAccount(
  worlds: readonly World[],
  url: string,
  clusters: readonly ServedCluster[],
  env: Record<string, string>,
  github: GitHubOptions = {},
): string {
  const region = (worlds[0] as World).scenario.cluster.region;
  return [
    `noderoll sandbox: ${worlds.length} clusters in one account (${region}) on ${url}`,
    ...clusters.flatMap((c, i) => [
      `  cluster ${c.name} (scenario "${(worlds[i] as World).scenario.metadata.name}")`,
      `    Kubernetes API   ${c.kubernetes}  (TLS, its own CA; also ${c.url}; bearer token ${c.token} or an EKS token for ${c.name})`,
      ...(c.kubeconfigPath ? [`    kubeconfig       ${c.kubeconfigPath}`] : []),
      `    EKS              ${url}/clusters/${c.name}`,
    ]),
    `  Auto Scaling     ${url}  (query protocol, by SigV4 service; every cluster's groups)`,
    `  EC2              ${url}  (query protocol, by SigV4 service)`,
    `  CloudWatch       ${url}  (JSON, query and CBOR protocols: alarms)`,
    `  Prometheus       ${url}${PROMETHEUS_PATH}  (the first cluster's; ${url}${PROMETHEUS_PATH}/<cluster> each's)`,
    `  STS              ${url}  (GetCallerIdentity)`,
    ...describeGitHub(url, env, github),
    "",
    "export these to point the AWS SDK / CLI, kubectl and Octokit at it (kubectl: the first cluster):",
    ...Object.entries(env).map(([k, v]) => `  export ${k}=${v}`),
    "",
  ].join("\n");
}

function describeServer(
  world: World,
  url: string,
  kubeUrl: string,
  env: Record<string, string>,
  github: GitHubOptions = {},
): string {
  const s = world.scenario;
  return [
    `noderoll sandbox "${s.metadata.name}" (cluster ${s.cluster.name}, ${s.cluster.region}) on ${url}`,
    `  Kubernetes API   ${kubeUrl}  (TLS; also ${url}; bearer token ${SANDBOX_TOKEN} or an EKS token)`,
    `  EKS              ${url}/clusters/${s.cluster.name}`,
    `  Auto Scaling     ${url}  (query protocol, by SigV4 service)`,
    `  EC2              ${url}  (query protocol, by SigV4 service)`,
    `  CloudWatch       ${url}  (JSON, query and CBOR protocols: alarms)`,
    `  Prometheus       ${url}${PROMETHEUS_PATH}  (instant queries: /api/v1/query)`,
    `  STS              ${url}  (GetCallerIdentity)`,
    ...describeGitHub(url, env, github),
    "",
    "export these to point the AWS SDK / CLI, kubectl and Octokit at it:",
    ...Object.entries(env).map(([k, v]) => `  export ${k}=${v}`),
    "",
  ].join("\n");
}

/** The GitHub face: its REST API, its page, the pull requests it holds, the read-only tokens. */
function describeGitHub(url: string, env: Record<string, string>, github: GitHubOptions): string[] {
  return [
    `  GitHub REST      ${url}/repos/${env.GITHUB_REPOSITORY}/...  (any token; a read-only one cannot write)`,
    `  GitHub page      ${url}/github/  (the pull requests, their comments and check runs)`,
    ...(github.pulls ?? []).map(
      (p) => `    pull request #${p.number}   head ${p.headSha}, changes ${p.files.join(", ")}`,
    ),
    ...(github.readOnlyTokens ?? []).map(
      (t) => `    read-only token  ${t}  (a fork's: writes answer 403)`,
    ),
  ];
}
