// Adversarial review of issue 44, defect 1, over the wire: two clusters behind one `sandbox serve`,
// the bundled command line, kubeconfigs a platform engineer could plausibly hold.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { Account } from "../../src/sandbox/world/account.js";
import { ROOT } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "noderoll-adv-identity-"));

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

function kubeconfig(file: string, server: string, caData: string | undefined, token: string) {
  const path = join(dir, file);
  writeFileSync(
    path,
    [
      "apiVersion: v1",
      "kind: Config",
      "clusters:",
      "  - name: c",
      "    cluster:",
      `      server: ${server}`,
      ...(caData ? [`      certificate-authority-data: ${caData}`] : []),
      "contexts:",
      "  - name: c",
      "    context: { cluster: c, user: u }",
      "current-context: c",
      "users:",
      "  - name: u",
      `    user: { token: ${token} }`,
      "",
    ].join("\n"),
  );
  return path;
}

const pem = (caData: string) => Buffer.from(caData, "base64").toString("utf8");
const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("kubeconfigs for big that carry small's certificate authority", () => {
  let account: Account;
  let server: SandboxServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    account = Account.fromYaml([
      { text: scenario("small", 3, 3, WEB), file: "small.yaml" },
      { text: scenario("big", 4, 5), file: "big.yaml" },
    ]);
    server = await serveSandbox(account, { kubeconfigPath: join(dir, "kc.yaml") });
    const { KUBECONFIG: _k, ...rest } = server.env;
    env = rest;
  });
  afterAll(async () => {
    await server?.close();
  });
  const of = (name: string) => server.clusters.find((c) => c.name === name)!;

  // A CA bundle with several clusters' authorities (merged by hand, or a bundle the team keeps
  // for every cluster) verifies big's server, since big's CA is in it. docs/rolling.md: "its
  // certificate authority is the cluster's" proves the API — but here the bundle merely
  // *contains* small's CA; the server TLS verified is big's (its URL is DescribeCluster big's
  // endpoint). Expected: ClusterMismatch naming big; found: proven "by certificate" as small's.
  it("a CA bundle holding both clusters' authorities, big's endpoint: plan refuses", async () => {
    const bundle = b64(pem(of("big").caData) + pem(of("small").caData));
    const kc = kubeconfig("bundle.yaml", of("big").kubernetes, bundle, of("big").token);
    const r = await cli(["plan", "--policy", policy, "--kubeconfig", kc, "--format", "json"], env);
    const verified =
      r.code === 0 ? (JSON.parse(r.stdout) as { cluster: unknown }).cluster : undefined;
    expect({ code: r.code, verified }).toMatchObject({ code: 1, verified: undefined });
    expect(r.stderr).toMatch(/is not EKS cluster small's.*it is EKS cluster big's/);
  });
});
