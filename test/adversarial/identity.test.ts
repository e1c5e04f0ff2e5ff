// Adversarial review of issue 44, defect 1 (the right cluster, proven first).
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { EventLog } from "../../src/ports/index.js";
import { Account } from "../../src/sandbox/world/account.js";
import { policyFor } from "../roll/scenarios.js";

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

const account = () =>
  Account.fromYaml([
    { text: scenario("small", 3, 3, WEB), file: "small.yaml" },
    { text: scenario("big", 4, 3), file: "big.yaml" },
  ]);

describe("a policy for small that also names one of big's groups, with big's kubeconfig", () => {
  // The issue: "before plan and apply, noderoll proves the Kubernetes API it talks to belongs to
  // the EKS cluster the policy names ... A mismatch is an error that names both." Here the API's
  // URL *is* DescribeCluster big's endpoint — proof that it is big's — yet half of the policy's
  // instances (big-workers', named by mistake) being nodes there is taken as proof it is small's,
  // and small-workers (tagged for small, so "its own") is rolled against big's API: every one of
  // its instances has "no node", and goes undrained.
  const policy = () =>
    policyFor(
      "groups:\n  - { name: big-workers }\n  - { name: small-workers, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }\n",
      "small",
    );

  it("plan refuses: the API is big's by its endpoint, whatever the instances say", async () => {
    const a = account();
    const r = await a
      .run(observeAndPlan(policy(), "p.yaml", a.ports("big")))
      .then((x) => ({ ok: true as const, plan: x.plan }))
      .catch((e: Error) => ({ ok: false as const, message: e.message }));
    expect(r.ok ? r.plan.cluster.verified : undefined).toBeUndefined();
    expect(r.ok ? "" : r.message).toMatch(/is not EKS cluster small's.*it is EKS cluster big's/);
  });

  // apply --groups small-workers (as an emergency dispatch would name the one group to roll)
  it("apply --groups small-workers terminates none of small's instances and leaves web up", async () => {
    const a = account();
    const small = a.world("small");
    const log = new EventLog(a.clock);
    const result = await a.run(
      planAndApply(policy(), "p.yaml", a.ports("big"), log, {
        runId: "wrong",
        groups: ["small-workers"],
      }),
      6 * 3600_000,
    );
    const terminated = small.timeline.of("instance.terminated").length;
    expect({
      message: result.message,
      terminated,
      webDown: small.downtimeSeconds("web"),
    }).toMatchObject({
      message: expect.stringMatching(/ClusterMismatch/),
      terminated: 0,
      webDown: 0,
    });
    expect(small.calls.get("autoscaling.terminateInstanceInAutoScalingGroup") ?? 0).toBe(0);
    expect(small.downtimeSeconds("web")).toBe(0);
  });
});

describe("a kubeconfig for big whose CA bundle also holds small's authority", () => {
  const cert = (body: string) =>
    `-----BEGIN CERTIFICATE-----\n${Buffer.from(body).toString("base64")}\n-----END CERTIFICATE-----\n`;
  // The wire twin is in identity-wire.test.ts (plan exits 0, "verified: by certificate"). Here
  // apply: a bundle that merely contains small's CA is taken as proof; small's instances have no
  // node in big and are terminated undrained (issue 44: "A running instance with no node is never
  // terminated undrained unless the plan named it ... and it fits within maxUnavailable" — the
  // plan named them only because it was reading the wrong cluster).
  it("apply refuses (ClusterMismatch) and terminates none of small's instances", async () => {
    const a = account();
    const smallCa = Buffer.from(cert("small-ca")).toString("base64");
    const bundle = Buffer.from(cert("big-ca") + cert("small-ca")).toString("base64");
    Object.assign(a.world("small").endpoint, { caData: smallCa });
    const ports = a.ports("big");
    const cluster = new Proxy(ports.cluster, {
      get(t, key) {
        if (key === "endpoint") return { ...t.endpoint!, caData: bundle };
        const v = Reflect.get(t, key, t) as unknown;
        return typeof v === "function" ? (v as (...x: unknown[]) => unknown).bind(t) : v;
      },
    });
    const small = a.world("small");
    const log = new EventLog(a.clock);
    const result = await a.run(
      planAndApply(
        policyFor(
          "groups: [{ name: small-workers, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }]\n",
          "small",
        ),
        "p.yaml",
        { ...ports, cluster },
        log,
        { runId: "bundle" },
      ),
      6 * 3600_000,
    );
    expect({
      message: result.message,
      terminated: small.timeline.of("instance.terminated").length,
    }).toMatchObject({ message: expect.stringMatching(/^ClusterMismatch/), terminated: 0 });
  });
});

describe("insecure-skip-tls-verify with small's endpoint URL, the name resolving to big", () => {
  // A tunnel to a private endpoint (ssh -L / an /etc/hosts entry for the EKS hostname) with
  // `insecure-skip-tls-verify: true`: the kubeconfig names small's endpoint, but what answers is
  // big. The adapter already drops the CA as proof when TLS is not verified (KubeHttp.endpoint:
  // "No CA when TLS is not verified: then it proves nothing"), yet still takes the URL as proof
  // (src/plan/identity.ts proveByEndpoint) — without TLS verification a URL proves no more than a
  // CA does. Expected: with TLS unverified, only the nodes decide (0 of small's 3 instances are
  // nodes there: ClusterMismatch).
  it("apply refuses and terminates none of small's instances", async () => {
    const a = account();
    const ports = a.ports("big");
    const smallEndpoint = a.world("small").cluster.endpoint.server;
    const cluster = new Proxy(ports.cluster, {
      get(t, key) {
        // What KubeHttp.endpoint() returns for such a kubeconfig: the URL, no CA, insecure.
        if (key === "endpoint") return { server: smallEndpoint, insecure: true };
        const v = Reflect.get(t, key, t) as unknown;
        return typeof v === "function" ? (v as (...x: unknown[]) => unknown).bind(t) : v;
      },
    });
    const small = a.world("small");
    const log = new EventLog(a.clock);
    const result = await a.run(
      planAndApply(
        policyFor(
          "groups: [{ name: small-workers, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }]\n",
          "small",
        ),
        "p.yaml",
        { ...ports, cluster },
        log,
        { runId: "skip-verify" },
      ),
      6 * 3600_000,
    );
    expect({
      message: result.message,
      terminated: small.timeline.of("instance.terminated").length,
    }).toMatchObject({ message: expect.stringMatching(/^ClusterMismatch/), terminated: 0 });
  });
});

describe("a group tagged for small whose instances are all nodes of big", () => {
  // A copy-pasted module: the Auto Scaling group carries small's discovery tag
  // (k8s.io/cluster-autoscaler/small), but its launch template bootstraps into big. The API is
  // small's, proven by its endpoint; groupNotOfCluster (src/plan/identity.ts) takes the tag as
  // enough and never looks at the instances, so all of the group's instances — long past joining,
  // none a node of small — are planned "no-node" and terminated undrained, maxUnavailable at a
  // time: big's nodes, pods and all. The issue: "the group's instances found as nodes by
  // spec.providerID"; a group none of whose (joined-by-now) instances is a node of the cluster
  // is not the cluster's, whatever its tags claim. Expected: an error of the group; nothing of it
  // terminated.
  it("is an error of its group; none of its instances is terminated", async () => {
    const a = Account.fromYaml([
      { text: scenario("small", 3, 3, WEB), file: "small.yaml" },
      {
        text: `${scenario("big", 4, 3, "")}  - name: shared-workers
    type: self-managed
    tags: { k8s.io/cluster-autoscaler/small: owned }
    size: { min: 0, max: 6, desired: 3 }
    launchTemplate: { versions: 2, use: $Latest }
    instances: [{ version: 1, count: 3 }]
workloads:
  - { kind: Deployment, name: api, replicas: 3, pdb: { minAvailable: 2 } }
`,
        file: "big.yaml",
      },
    ]);
    const policy = policyFor(
      "groups:\n  - { name: shared-workers, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }\n  - { name: small-workers }\n",
      "small",
    );
    const { plan } = await a.run(observeAndPlan(policy, "p.yaml", a.ports("small")));
    const big = a.world("big");
    const log = new EventLog(a.clock);
    await a.run(
      planAndApply(policy, "p.yaml", a.ports("small"), log, { runId: "r" }),
      6 * 3600_000,
    );
    expect({
      status: plan.groups.find((g) => g.name === "shared-workers")?.status,
      terminatedInBig: big.timeline
        .of("instance.terminated")
        .filter((t) => t.group === "shared-workers").length,
    }).toEqual({ status: "error", terminatedInBig: 0 });
  });
});
