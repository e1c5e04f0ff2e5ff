// The claims and volumes a plan reads to know which pods a zonal volume binds (issue 44, defect
// 7), through the real adapter (kubernetesCluster over KubeHttp) against `sandbox serve`: a
// PersistentVolumeClaim by namespace and name, a PersistentVolume by name, 404s for neither;
// and a whole plan through the real AWS and Kubernetes adapters finding the pods.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awsCloud } from "../../src/adapters/aws/cloud.js";
import { kubernetesCluster } from "../../src/adapters/kubernetes/cluster.js";
import { KubeHttp } from "../../src/adapters/kubernetes/http.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { systemClock, type Cluster } from "../../src/ports/index.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { DEFAULT_CREDENTIALS } from "../../src/sandbox/wire/sts-face.js";
import type { World } from "../../src/sandbox/world/world.js";
import { policyFor, selfManagedWorld } from "../roll/scenarios.js";

let world: World;
let server: SandboxServer;
let cluster: Cluster;
const dir = mkdtempSync(join(tmpdir(), "noderoll-volumes-"));

beforeAll(async () => {
  world = selfManagedWorld([{ name: "workers", nodes: 3 }], {
    workloads: [{ kind: "StatefulSet", name: "db", replicas: 2, volumes: "zonal" }],
  });
  const kubeconfig = join(dir, "kubeconfig");
  server = await serveSandbox(world, { speed: 0, instant: false, kubeconfigPath: kubeconfig });
  for (const [k, v] of Object.entries(server.env))
    if (k.startsWith("AWS_ENDPOINT_URL_")) process.env[k] = v;
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfig);
  cluster = kubernetesCluster(
    new KubeHttp({ kubeConfig, retry: { sleep: (ms) => new Promise((r) => setTimeout(r, ms)) } }),
  );
});
afterAll(() => server?.close());

describe("claims and volumes over the wire", () => {
  it("gets a claim, then its volume and the zone its node affinity pins; 404 for a missing one", async () => {
    const claim = await cluster.getPersistentVolumeClaim("default", "data-db-0");
    expect(claim).toMatchObject({ status: { phase: "Bound" }, metadata: { name: "data-db-0" } });
    const pv = await cluster.getPersistentVolume(claim.spec.volumeName!);
    const zone = world.kube.nodes.get(world.kube.pods.get("default/db-0")!.nodeName!)!.zone;
    expect(pv.spec.nodeAffinity?.required?.nodeSelectorTerms[0]?.matchExpressions).toEqual([
      { key: "topology.kubernetes.io/zone", operator: "In", values: [zone] },
    ]);
    await expect(cluster.getPersistentVolumeClaim("default", "nope")).rejects.toMatchObject({
      status: 404,
    });
    await expect(cluster.getPersistentVolume("nope")).rejects.toMatchObject({ status: 404 });
  });

  it("a plan through the real adapters finds the pods their volumes bind to a zone", async () => {
    const cloud = awsCloud({ region: "eu-west-1", credentials: async () => DEFAULT_CREDENTIALS });
    const policy = policyFor("groups: [{ name: workers }]\n");
    const { plan } = await observeAndPlan(policy, "p.yaml", { cloud, cluster, clock: systemClock });
    const f = plan.groups[0]!.findings.find((x) => x.code === "zone-pinned-pods");
    expect(f?.objects).toEqual(["default/db-0", "default/db-1"]);
  });
});
