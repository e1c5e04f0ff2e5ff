// A scenario's faults on the wire: what the real adapters meet from `sandbox serve` — a reset
// connection, a stalled answer, a watch that ends with 410 Gone or stalls — and EKS's ListUpdates
// in pages of three, which the adapter follows to the end.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { afterEach, describe, expect, it } from "vitest";
import { awsCloud } from "../../src/adapters/aws/cloud.js";
import { kubernetesCluster } from "../../src/adapters/kubernetes/cluster.js";
import { KubeHttp, MAX_SOCKETS } from "../../src/adapters/kubernetes/http.js";
import { KubeApiError, NetworkError, type Cluster } from "../../src/ports/index.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { DEFAULT_CREDENTIALS } from "../../src/sandbox/wire/sts-face.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";

let server: SandboxServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(faults: object, requestTimeoutMs = 30_000) {
  const world = World.from(
    managedScenario({ zones: 2, nodes: 2, extra: { faults } as Partial<ScenarioInput> }),
  );
  const kubeconfig = join(mkdtempSync(join(tmpdir(), "noderoll-faults-")), "kubeconfig");
  server = await serveSandbox(world, { speed: 0, kubeconfigPath: kubeconfig });
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfig);
  const http = new KubeHttp({
    kubeConfig,
    retry: { sleep: async () => undefined },
    requestTimeoutMs,
  });
  return { world, cluster: kubernetesCluster(http), http };
}

async function firstFailure(cluster: Cluster, timeoutSeconds = 300): Promise<unknown> {
  try {
    for await (const e of cluster.watchNodes({ timeoutSeconds, allowWatchBookmarks: true })) void e;
  } catch (e) {
    return e;
  }
  return undefined;
}

describe("faults on the wire", () => {
  it("a reset: the connection breaks, the adapter reports ECONNRESET", async () => {
    const { cluster, http } = await serve({
      network: [{ api: "kubernetes", reset: 1, calls: ["core.getNode"] }],
    });
    const nodes = await cluster.listNodes();
    await expect(cluster.getNode(nodes.items[0]!.metadata.name)).rejects.toMatchObject({
      name: "NetworkError",
      code: "ECONNRESET",
    });
    http.close();
  });

  it("a stall: no answer, and the adapter's deadline ends the request", async () => {
    const { cluster, http } = await serve(
      { network: [{ api: "kubernetes", stall: 1, calls: ["core.listPods"] }] },
      1500,
    );
    await expect(cluster.listPods("kube-system")).rejects.toMatchObject({
      name: "NetworkError",
      code: "ETIMEDOUT",
    });
    http.close();
  });

  it("a watch that ends with 410 Gone mid-stream", async () => {
    const { cluster, http } = await serve({ watch: [{ gone: 1, within: 0 }] });
    const e = await firstFailure(cluster);
    expect(e).toBeInstanceOf(KubeApiError);
    expect((e as KubeApiError).status).toBe(410);
    http.close();
  });

  it("a watch that ends early ends; one that stalls sends nothing more and stays open", async () => {
    const early = await serve({ watch: [{ endEarly: 1, within: 0 }] });
    expect(await firstFailure(early.cluster)).toBeUndefined();
    early.http.close();
    await server?.close();
    const stalled = await serve({ watch: [{ stall: 1, within: 0 }] });
    const seen: string[] = [];
    const watching = (async () => {
      try {
        for await (const e of stalled.cluster.watchNodes({ allowWatchBookmarks: true }))
          seen.push(e.type);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    // Bookmarks come every second on an open watch; a stalled one sends none.
    await new Promise((r) => setTimeout(r, 2500));
    expect(seen.filter((t) => t === "BOOKMARK")).toEqual([]);
    stalled.http.close();
    expect(await watching).toBeInstanceOf(NetworkError);
  });

  it("EKS ListUpdates in pages of three, followed to the end by the adapter", async () => {
    const { world } = await serve({});
    for (const n of [2, 1, 2, 1, 2, 1, 2]) {
      const u = await world.cloud.eks.updateNodegroupConfig({
        clusterName: "test",
        nodegroupName: "ng",
        updateConfig: { maxUnavailable: n },
      });
      await world.waitForUpdate(u.id);
    }
    for (const [k, v] of Object.entries(server!.env))
      if (k.startsWith("AWS_ENDPOINT_URL_")) process.env[k] = v;
    const cloud = awsCloud({ region: "eu-west-1", credentials: async () => DEFAULT_CREDENTIALS });
    const ids = await cloud.eks.listUpdates({ name: "test", nodegroupName: "ng" });
    expect(ids).toHaveLength(7);
    expect(server!.log.entries.filter((e) => e.resource === "ListUpdates")).toHaveLength(3);
  });

  it("a lost answer to DetachInstances: sent once, reported as no answer, never re-sent by the SDK", async () => {
    const { world } = await serve({
      network: [{ api: "aws", lostAnswer: 1, calls: ["autoscaling.detachInstances"] }],
    });
    for (const [k, v] of Object.entries(server!.env))
      if (k.startsWith("AWS_ENDPOINT_URL_")) process.env[k] = v;
    const cloud = awsCloud({ region: "eu-west-1", credentials: async () => DEFAULT_CREDENTIALS });
    const [group] = await cloud.autoScaling.describeAutoScalingGroups({});
    const instance = group!.Instances[0]!.InstanceId;
    // A second DetachInstances would be refused ("not part of Auto Scaling group") although
    // the first did its work: the engine must see the lost answer and re-read instead.
    await expect(
      cloud.autoScaling.detachInstances({
        AutoScalingGroupName: group!.AutoScalingGroupName,
        InstanceIds: [instance],
        ShouldDecrementDesiredCapacity: false,
      }),
    ).rejects.toMatchObject({ name: "NetworkError" });
    expect(world.calls.get("autoscaling.detachInstances")).toBe(1);
    const [after] = await world.cloud.autoScaling.describeAutoScalingGroups({});
    expect(after!.Instances.map((i) => i.InstanceId)).not.toContain(instance);
  });

  it("more watches open than the request pool has sockets: a request still gets through", async () => {
    const { cluster, http } = await serve({}, 5000);
    const watches = new AbortController();
    const open = Array.from({ length: MAX_SOCKETS + 8 }, async () => {
      try {
        for await (const e of cluster.watchNodes({ timeoutSeconds: 300, signal: watches.signal }))
          void e;
      } catch {
        // ended by the abort below
      }
    });
    // Give every watch time to hold its socket.
    await new Promise((r) => setTimeout(r, 500));
    const nodes = await cluster.listNodes();
    await expect(cluster.getNode(nodes.items[0]!.metadata.name)).resolves.toBeDefined();
    watches.abort();
    http.close();
    await Promise.all(open);
  });
});
