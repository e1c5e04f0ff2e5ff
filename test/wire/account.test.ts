// Two clusters in one AWS account and region behind one `sandbox serve` (issue 44): the aws CLI
// and the AWS SDK see both, each with its own endpoint and certificate authority; kubectl with
// each cluster's kubeconfig sees that cluster's nodes only; one cluster's CA does not verify the
// other's endpoint, nor does one cluster take the other's token. Then the bundled command line,
// `sandbox serve --scenario A --scenario B`, the way a person runs it.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awsCloud } from "../../src/adapters/aws/cloud.js";
import { createEksToken } from "../../src/adapters/aws/eks-token.js";
import { kubernetesCluster } from "../../src/adapters/kubernetes/cluster.js";
import { KubeHttp } from "../../src/adapters/kubernetes/http.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { DEFAULT_CREDENTIALS } from "../../src/sandbox/wire/sts-face.js";
import { Account } from "../../src/sandbox/world/account.js";
import type { World } from "../../src/sandbox/world/world.js";
import { ROOT, runCli } from "../helpers/cli.js";
import { available, AWS, awsCli, run } from "./clients.js";

const hasKubectl = await available("kubectl", ["version", "--client"]);
const hasAws = await available(AWS);
if (!hasKubectl) console.warn("kubectl is not on PATH: skipping the kubectl account tests");
if (!hasAws) console.warn("no aws CLI on PATH: skipping the aws CLI account tests");

const dir = mkdtempSync(join(tmpdir(), "noderoll-account-"));

/** A cluster of a managed group "system" and a self-managed group NAME-workers of `workers`. */
function scenarioYaml(name: string, seed: number, workers: number): string {
  return `apiVersion: noderoll.io/v1
kind: SandboxScenario
metadata: { name: ${name} }
seed: ${seed}
cluster: { name: ${name}, version: "1.33" }
releases: { "1.32": [1.32.3-20250519] }
zones: [eu-west-1a, eu-west-1b]
nodeGroups:
  - name: system
    type: managed
    version: "1.32"
    releaseVersion: 1.32.3-20250519
    size: { min: 1, max: 6, desired: 2 }
  - { name: ${name}-workers, type: self-managed, size: { min: 0, max: 9, desired: ${workers} } }
`;
}
const files = {
  big: join(dir, "big.yaml"),
  small: join(dir, "small.yaml"),
};
writeFileSync(files.big, scenarioYaml("big", 1, 4));
writeFileSync(files.small, scenarioYaml("small", 2, 1));

/** kubectl with a kubeconfig (and more arguments). */
const kubectl = (kubeconfig: string, ...args: string[]) =>
  run("kubectl", ["--kubeconfig", kubeconfig, "--cache-dir", join(dir, "cache"), ...args]);

/** The providerIDs of the nodes kubectl sees, sorted. */
async function providerIds(kubeconfig: string): Promise<string[]> {
  const r = await kubectl(kubeconfig, "get", "nodes", "-o", "jsonpath={.items[*].spec.providerID}");
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r.stdout.trim().split(/\s+/).sort();
}

/** The providerIDs a world's nodes have: aws:///ZONE/INSTANCE. */
const providerIdsOf = (w: World) =>
  w.kube
    .nodeList()
    .map((n) => `aws:///${n.zone}/${n.instanceId}`)
    .sort();

/** A kubeconfig of our own making: a server, a CA, a token. */
function kubeconfigFile(name: string, c: { server: string; caData: string; token: string }) {
  const path = join(dir, `${name}.kubeconfig`);
  writeFileSync(
    path,
    `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "${c.server}", certificate-authority-data: ${c.caData} } }]
users: [{ name: u, user: { token: "${c.token}" } }]
contexts: [{ name: x, context: { cluster: c, user: u } }]
current-context: x
`,
  );
  return path;
}

describe("sandbox serve of an account of two clusters", () => {
  let account: Account;
  let server: SandboxServer;
  const kubeconfig = join(dir, "kubeconfig.yaml");
  const aws = awsCli(dir, () => server.url);
  beforeAll(async () => {
    account = Account.fromYaml([
      { text: readFileSync(files.big, "utf8"), file: files.big },
      { text: readFileSync(files.small, "utf8"), file: files.small },
    ]);
    server = await serveSandbox(account, { speed: 0, instant: false, kubeconfigPath: kubeconfig });
  });
  afterAll(() => server?.close());

  it("serves each cluster on a TLS port and with a CA of its own, and writes each a kubeconfig", () => {
    const [big, small] = server.clusters;
    expect(big).toMatchObject({ name: "big", kubeconfigPath: kubeconfig });
    expect(small).toMatchObject({
      name: "small",
      kubeconfigPath: join(dir, "kubeconfig.small.yaml"),
    });
    expect(big!.kubernetes).not.toBe(small!.kubernetes);
    expect(big!.caData).not.toBe(small!.caData);
    expect(big!.token).not.toBe(small!.token);
    for (const c of [big!, small!]) {
      const text = readFileSync(c.kubeconfigPath!, "utf8");
      expect(text).toContain(`server: ${c.kubernetes}`);
      expect(text).toContain(`certificate-authority-data: ${c.caData}`);
      expect(text).toContain(`token: ${c.token}`);
      // In-process, the cluster's port says the same as its kubeconfig.
      expect(account.world(c.name).cluster.endpoint).toEqual({
        server: c.kubernetes,
        caData: c.caData,
      });
    }
    expect(server.env.KUBECONFIG).toBe(kubeconfig);
    expect(server.describe()).toMatch(/2 clusters in one account \(eu-west-1\)/);
    expect(server.describe()).toContain(`kubeconfig       ${small!.kubeconfigPath}`);
  });

  it.skipIf(!hasAws)(
    "aws CLI: both clusters, two endpoints and two CAs, every group and instance",
    async () => {
      expect(await aws("eks", "list-clusters")).toEqual({ clusters: ["big", "small"] });
      const described = [];
      for (const c of server.clusters) {
        const { cluster } = (await aws("eks", "describe-cluster", "--name", c.name)) as {
          cluster: { endpoint: string; certificateAuthority: { data: string } };
        };
        expect(cluster.endpoint).toBe(c.kubernetes);
        expect(cluster.certificateAuthority.data).toBe(c.caData);
        described.push(cluster);
      }
      expect(described[0]!.endpoint).not.toBe(described[1]!.endpoint);
      expect(described[0]!.certificateAuthority.data).not.toBe(
        described[1]!.certificateAuthority.data,
      );
      const { AutoScalingGroups } = (await aws("autoscaling", "describe-auto-scaling-groups")) as {
        AutoScalingGroups: { AutoScalingGroupName: string }[];
      };
      const groups = account.worlds.flatMap((w) => [...w.autoScaling.groups.keys()]);
      expect(AutoScalingGroups.map((g) => g.AutoScalingGroupName).sort()).toEqual(groups.sort());
      const owned = (await aws(
        "autoscaling",
        "describe-auto-scaling-groups",
        "--filters",
        "Name=tag:kubernetes.io/cluster/small,Values=owned",
      )) as { AutoScalingGroups: { AutoScalingGroupName: string }[] };
      expect(owned.AutoScalingGroups.map((g) => g.AutoScalingGroupName).sort()).toEqual(
        [...account.world("small").autoScaling.groups.keys()].sort(),
      );
      const { Reservations } = (await aws("ec2", "describe-instances")) as {
        Reservations: { Instances: { InstanceId: string }[] }[];
      };
      expect(Reservations.flatMap((r) => r.Instances.map((i) => i.InstanceId)).sort()).toEqual(
        account.worlds.flatMap((w) => [...w.ec2.instances.keys()]).sort(),
      );
    },
  );

  it.skipIf(!hasKubectl)(
    "kubectl with each kubeconfig sees that cluster's nodes only",
    async () => {
      const [big, small] = server.clusters;
      const seenBig = await providerIds(big!.kubeconfigPath!);
      const seenSmall = await providerIds(small!.kubeconfigPath!);
      expect(seenBig).toEqual(providerIdsOf(account.world("big")));
      expect(seenSmall).toEqual(providerIdsOf(account.world("small")));
      expect(seenBig).toHaveLength(6);
      expect(seenSmall).toHaveLength(3);
      expect(seenBig.filter((id) => seenSmall.includes(id))).toEqual([]);
    },
  );

  it.skipIf(!hasKubectl)(
    "kubectl with one cluster's CA fails TLS verification at the other's endpoint",
    async () => {
      const [big, small] = server.clusters;
      // The control: small's endpoint with small's own CA and token works.
      const own = kubeconfigFile("own", {
        server: small!.kubernetes,
        caData: small!.caData,
        token: small!.token,
      });
      expect(await providerIds(own)).toEqual(providerIdsOf(account.world("small")));
      const crossed = kubeconfigFile("crossed", {
        server: small!.kubernetes,
        caData: big!.caData,
        token: small!.token,
      });
      const r = await kubectl(crossed, "get", "nodes");
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/x509: certificate signed by unknown authority/);
      // Nor does a cluster take the other's token.
      const token = kubeconfigFile("token", {
        server: small!.kubernetes,
        caData: small!.caData,
        token: big!.token,
      });
      const refused = await kubectl(token, "get", "nodes");
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/Unauthorized|must be logged in/);
    },
  );

  it("the product's adapters: the kubeconfig's endpoint is DescribeCluster's of its own cluster only", async () => {
    for (const [k, v] of Object.entries(server.env))
      if (k.startsWith("AWS_ENDPOINT_URL_")) process.env[k] = v;
    const cloud = awsCloud({ region: "eu-west-1", credentials: async () => DEFAULT_CREDENTIALS });
    expect((await cloud.eks.listClusters()).sort()).toEqual(["big", "small"]);
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(server.clusters[1]!.kubeconfigPath!);
    const http = new KubeHttp({ kubeConfig, retry: { sleep: async () => undefined } });
    try {
      const reached = http.endpoint();
      const small = await cloud.eks.describeCluster("small");
      const big = await cloud.eks.describeCluster("big");
      expect(reached).toEqual({ server: small.endpoint, caData: small.certificateAuthority?.data });
      expect(reached?.server).not.toBe(big.endpoint);
      expect(reached?.caData).not.toBe(big.certificateAuthority?.data);
      // An EKS token is for one cluster: small takes small's, not big's.
      const withToken = (clusterName: string) =>
        kubernetesCluster(
          new KubeHttp({
            kubeConfig,
            token: () =>
              createEksToken(
                {
                  clusterName,
                  region: "eu-west-1",
                  credentials: DEFAULT_CREDENTIALS,
                  stsEndpoint: server.url,
                },
                new Date(),
              ),
            retry: { sleep: async () => undefined },
          }),
        );
      expect((await withToken("small").listNodes()).items).toHaveLength(3);
      await expect(withToken("big").listNodes()).rejects.toMatchObject({ status: 401 });
    } finally {
      http.close();
    }
  });
});

describe.skipIf(!hasKubectl)("noderoll sandbox serve --scenario A --scenario B", () => {
  it("serves both, writes both kubeconfigs, and stops on SIGTERM", async () => {
    const out = join(dir, "cli");
    mkdirSync(out);
    const kc = join(out, "kc.yaml");
    const child = spawn(
      process.execPath,
      [
        join(ROOT, "dist/cli.js"),
        "sandbox",
        "serve",
        "--scenario",
        files.big,
        "--scenario",
        files.small,
        "--kubeconfig",
        kc,
        "--speed",
        "0",
      ],
      { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME } },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", () => stdout.includes("export KUBECONFIG=") && resolve());
        void exited.then(() => reject(new Error(`serve exited: ${stderr}`)));
      });
      expect(stdout).toMatch(/^noderoll sandbox: 2 clusters in one account \(eu-west-1\) on /);
      expect(stdout).toContain(`export KUBECONFIG=${kc}`);
      expect(stdout).toContain(`kubeconfig       ${join(out, "kc.small.yaml")}`);
      const big = await providerIds(kc);
      const small = await providerIds(join(out, "kc.small.yaml"));
      expect(big).toHaveLength(6);
      expect(small).toHaveLength(3);
      expect(big.filter((id) => small.includes(id))).toEqual([]);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });

  it("refuses two scenarios of one cluster, saying which and what to change", () => {
    const r = runCli(["sandbox", "serve", "--scenario", files.big, "--scenario", files.big]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `scenario ${files.big} (cluster big): EKS cluster "big" is also scenario ${files.big} (cluster big)'s`,
    );
    const many = runCli(["sandbox", "serve", ...Array(9).fill(["--scenario", files.big]).flat()]);
    expect(many.status).toBe(2);
    expect(many.stderr).toMatch(/at most 8 clusters are served at once/);
  });
});
