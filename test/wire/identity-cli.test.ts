// Issue 44, defect 1, over the wire: two EKS clusters in one account and region behind one
// `sandbox serve`, the bundled command line with the real AWS SDK and Kubernetes client, a policy
// for cluster `small` and a kubeconfig for cluster `big`. Plan and apply refuse, naming both
// clusters and both endpoints, and nothing of either cluster changes — where apply once
// terminated all three of small's instances undrained.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { Account } from "../../src/sandbox/world/account.js";
import { ROOT } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "noderoll-identity-"));

function scenario(name: string, seed: number, nodes: number, workloads = ""): string {
  return `apiVersion: noderoll.io/v1
kind: SandboxScenario
metadata: { name: ${name} }
seed: ${seed}
cluster: { name: ${name}, version: "1.33" }
zones: [eu-west-1a, eu-west-1b, eu-west-1c]
nodeGroups:
  - name: ${name}-workers
    type: self-managed
    size: { min: 0, max: ${nodes * 2}, desired: ${nodes} }
    launchTemplate: { versions: 2, use: $Latest }
    instances: [{ version: 1, count: ${nodes} }]
${workloads}`;
}

const WEB = `workloads:
  - { kind: Deployment, name: web, replicas: 3, pdb: { minAvailable: 2 } }
`;

const policy = join(dir, "small-policy.yaml");
writeFileSync(
  policy,
  `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata: { name: small }
cluster: { name: small, region: eu-west-1 }
groups:
  - { name: small-workers, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }
`,
);

/** The bundled command line, asynchronously (the server answers in this process). */
function cli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, "dist/cli.js"), ...args],
      { env: { PATH: process.env.PATH, HOME: dir, ...env }, timeout: 300_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("a policy for one cluster, a kubeconfig for another", () => {
  let account: Account;
  let server: SandboxServer;
  const kubeconfig = join(dir, "kubeconfig.yaml");
  let env: Record<string, string>;
  beforeAll(async () => {
    account = Account.fromYaml([
      { text: scenario("small", 3, 3, WEB), file: "small.yaml" },
      { text: scenario("big", 4, 5), file: "big.yaml" },
    ]);
    server = await serveSandbox(account, { kubeconfigPath: kubeconfig });
    const { KUBECONFIG: _k, ...rest } = server.env;
    env = rest;
  });
  afterAll(() => server?.close());

  const bigKubeconfig = () => server.clusters.find((c) => c.name === "big")!.kubeconfigPath!;
  const endpoint = (name: string) => server.clusters.find((c) => c.name === name)!.kubernetes;

  it("plan refuses, naming both clusters and both endpoints", async () => {
    const r = await cli(["plan", "--policy", policy, "--kubeconfig", bigKubeconfig()], env);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `The Kubernetes API at ${endpoint("big")} is not EKS cluster small's (DescribeCluster small: endpoint ${endpoint("small")}): it is EKS cluster big's; 0 of the 3 instances of the policy's groups are nodes there. Nothing was planned or changed.`,
    );
  });

  it("apply refuses before any write: small's nodes and web untouched, no Lease anywhere", async () => {
    const r = await cli(["apply", "--policy", policy, "--kubeconfig", bigKubeconfig()], env);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/The Kubernetes API at .* it is EKS cluster big's/);
    const small = account.world("small");
    expect(small.instances("small-workers").map((i) => i.lifecycle)).toEqual([
      "InService",
      "InService",
      "InService",
    ]);
    expect(small.downtimeSeconds("web")).toBe(0);
    expect(account.worlds.flatMap((w) => [...w.kube.leases.keys()])).toEqual([]);
    expect(small.calls.get("autoscaling.terminateInstanceInAutoScalingGroup") ?? 0).toBe(0);
  });

  it("with small's own kubeconfig the same policy plans a roll of its 3 nodes", async () => {
    const own = server.clusters.find((c) => c.name === "small")!.kubeconfigPath!;
    const r = await cli(["plan", "--policy", policy, "--kubeconfig", own, "--format", "json"], env);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as {
      cluster: { verified: unknown };
      summary: { nodesToReplace: number };
    };
    expect(plan.cluster.verified).toEqual({ by: "endpoint", server: endpoint("small") });
    expect(plan.summary.nodesToReplace).toBe(3);
  });
});
