// What health gates read, as `sandbox serve` serves it: a crash-looping pod's containerStatuses
// through the Kubernetes face (to the product's Kubernetes adapter, and to kubectl), the
// Prometheus API's own shapes at <url>/prometheus, and an account's alarms and Prometheus per
// cluster.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubernetesCluster } from "../../src/adapters/kubernetes/cluster.js";
import { KubeHttp } from "../../src/adapters/kubernetes/http.js";
import type { Cluster, Pod } from "../../src/ports/index.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { Account } from "../../src/sandbox/world/account.js";
import { World } from "../../src/sandbox/world/world.js";
import { available, run } from "./clients.js";

const hasKubectl = await available("kubectl", ["version", "--client"]);
if (!hasKubectl) console.warn("kubectl is not on PATH: skipping its crash-loop test");

const dir = mkdtempSync(join(tmpdir(), "noderoll-signals-"));
const kubeconfig = join(dir, "kubeconfig");

function scenario(name: string, alarm: string): ScenarioInput {
  return {
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: { name },
    cluster: { name, version: "1.33" },
    zones: ["eu-west-1a", "eu-west-1b"],
    nodeGroups: [
      {
        name: `${name}-nodes`,
        type: "self-managed",
        size: { min: 0, max: 6, desired: 2 },
        launchTemplate: { versions: 2, use: 1 },
      },
    ],
    workloads: [{ kind: "Deployment", name: "web", replicas: 2 }],
    faults: { badRelease: [{ launchTemplateVersion: 2, effect: "crashLoop" }] },
    alarms: [{ name: alarm, follows: "badRelease" }],
  };
}

/** A web pod on a node of the bad release (template version 2): its name. */
async function crashingPod(world: World, group: string): Promise<string> {
  const before = new Set(world.kube.nodes.keys());
  await world.cloud.autoScaling.updateAutoScalingGroup({
    AutoScalingGroupName: group,
    LaunchTemplate: { LaunchTemplateName: group, Version: "2" },
    DesiredCapacity: 3,
  });
  const bad = () => world.kube.nodeList().find((n) => !before.has(n.name) && n.ready);
  await world.until(() => bad() !== undefined, 600_000);
  for (const n of world.kube.nodeList())
    if (n !== bad()) await world.cluster.patchNode(n.name, { unschedulable: true });
  const web = world.workload("web");
  await world.cluster.deletePod("default", [...web.pods][0]!.name, { gracePeriodSeconds: 0 });
  await world.until(() => [...web.pods].some((p) => p.nodeName === bad()!.name && p.startedAt));
  return [...web.pods].find((p) => p.nodeName === bad()!.name)!.name;
}

describe("a crash-looping pod over the Kubernetes face", () => {
  let world: World;
  let server: SandboxServer;
  let cluster: Cluster;
  let crashing: string;
  beforeAll(async () => {
    world = World.from(scenario("crash", "crash-5xx"));
    server = await serveSandbox(world, { speed: 0, instant: false, kubeconfigPath: kubeconfig });
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    cluster = kubernetesCluster(new KubeHttp({ kubeConfig: kc, retry: { sleep: async () => {} } }));
    crashing = await crashingPod(world, "crash-nodes");
  });
  afterAll(() => server?.close());

  const pods = async () => (await cluster.listPods("default")).items;
  const named = (list: Pod[], name: string) => list.find((p) => p.metadata.name === name)!;

  it("its containerStatuses: CrashLoopBackOff, restarts climbing; the others running and ready", async () => {
    const first = named(await pods(), crashing);
    expect(first.status.phase).toBe("Running");
    expect(first.status.containerStatuses).toEqual([
      {
        name: "main",
        ready: false,
        restartCount: 0,
        state: { waiting: { reason: "CrashLoopBackOff" } },
      },
    ]);
    await world.advance(35_000);
    const later = await pods();
    expect(named(later, crashing).status.containerStatuses?.[0]?.restartCount).toBe(2);
    const good = later.filter((p) => p.metadata.name !== crashing);
    expect(good.length).toBeGreaterThan(0);
    for (const p of good)
      expect(p.status.containerStatuses).toEqual([
        {
          name: "main",
          ready: true,
          restartCount: 0,
          state: { running: { startedAt: p.status.startTime } },
        },
      ]);
  });

  it.skipIf(!hasKubectl)(
    "kubectl get pods: STATUS CrashLoopBackOff, RESTARTS counted",
    async () => {
      const cache = join(dir, "cache");
      const r = await run("kubectl", [
        "--kubeconfig",
        kubeconfig,
        "--cache-dir",
        cache,
        "get",
        "pods",
      ]);
      expect(r.code, r.stderr).toBe(0);
      const row = r.stdout.split("\n").find((l) => l.startsWith(crashing))!;
      const restarts = world.kube.crashLoops.get(world.pod(crashing)!)!.restarts;
      expect(row.split(/\s+/).slice(0, 4)).toEqual([
        crashing,
        "0/1",
        "CrashLoopBackOff",
        String(restarts),
      ]);
    },
  );

  it("the alarm that follows the bad release is ALARM, over the wire's Prometheus too", async () => {
    const [a] = await world.cloud.cloudWatch.describeAlarms({ AlarmNames: ["crash-5xx"] });
    expect(a?.StateValue).toBe("ALARM");
    const q = encodeURIComponent("sandbox:error_ratio");
    const body = (await (
      await fetch(`${server.endpoints.prometheus}/api/v1/query?query=${q}`)
    ).json()) as {
      data: { result: { value: [number, string] }[] };
    };
    // One of two web pods crash-looping, its requests failing at the default 0.2.
    expect(Number(body.data.result[0]!.value[1])).toBeCloseTo((0.001 + 0.2) / 2, 12);
  });
});

describe("the Prometheus API's shapes at <url>/prometheus", () => {
  let world: World;
  let server: SandboxServer;
  beforeAll(async () => {
    world = World.from(scenario("prom", "prom-5xx"));
    server = await serveSandbox(world, { speed: 0, instant: false });
  });
  afterAll(() => server?.close());

  const get = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${server.url}${path}`, init);
    const text = await res.text();
    return { status: res.status, type: res.headers.get("content-type"), text };
  };

  it("success: status, resultType and samples stamped with the world's time", async () => {
    const r = await get(`/prometheus/api/v1/query?query=${encodeURIComponent("vector(1.5)")}`);
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/json/);
    const t = world.clock.nowMs() / 1000;
    expect(JSON.parse(r.text)).toEqual({
      status: "success",
      data: { resultType: "vector", result: [{ metric: {}, value: [t, "1.5"] }] },
    });
    const scalar = await get("/prometheus/api/v1/query?query=2");
    expect(JSON.parse(scalar.text)).toEqual({
      status: "success",
      data: { resultType: "scalar", result: [t, "2"] },
    });
    const nodes = JSON.parse((await get("/prometheus/api/v1/query?query=kube_node_info")).text);
    expect(nodes.data.result).toHaveLength(2);
    expect(nodes.data.result[0].metric).toMatchObject({ __name__: "kube_node_info" });
  });

  it("a form POST, as Prometheus takes one", async () => {
    const r = await get("/prometheus/api/v1/query", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "query=vector(7)",
    });
    expect(JSON.parse(r.text).data.result[0].value[1]).toBe("7");
  });

  it("errors as Prometheus says them: bad_data with HTTP 400; an unknown path a 404", async () => {
    for (const [path, words] of [
      ["/prometheus/api/v1/query", "no expression found"],
      ["/prometheus/api/v1/query?query=up", 'does not evaluate "up"'],
      ["/prometheus/api/v1/query?query=1&time=1700000000", "current time only"],
    ] as const) {
      const r = await get(path);
      expect(r.status, path).toBe(400);
      const body = JSON.parse(r.text) as { status: string; errorType: string; error: string };
      expect(body).toMatchObject({ status: "error", errorType: "bad_data" });
      expect(body.error, path).toContain(words);
    }
    expect((await get("/prometheus/api/v1/labels")).status).toBe(404);
    expect((await get("/prometheus/other/api/v1/query?query=1")).status).toBe(404);
  });
});

describe("an account: alarms and Prometheus per cluster", () => {
  it("routes alarms to the world that holds them, and serves each cluster's Prometheus", async () => {
    const account = Account.from([scenario("big", "big-5xx"), scenario("small", "small-5xx")]);
    const cw = account.cloud.cloudWatch;
    await cw.setAlarmState({ AlarmName: "small-5xx", StateValue: "ALARM", StateReason: "drill" });
    expect(account.world("small").timeline.of("alarm.state")).toHaveLength(1);
    expect(account.world("big").timeline.of("alarm.state")).toHaveLength(0);
    const all = await cw.describeAlarms({ AlarmNames: ["small-5xx", "big-5xx", "none"] });
    expect(all.map((a) => [a.AlarmName, a.StateValue])).toEqual([
      ["big-5xx", "OK"],
      ["small-5xx", "ALARM"],
    ]);
    await expect(
      cw.setAlarmState({ AlarmName: "none", StateValue: "OK", StateReason: "x" }),
    ).rejects.toMatchObject({ code: "ResourceNotFound" });
    expect(() => Account.from([scenario("a", "same"), scenario("b", "same")])).toThrow(
      /CloudWatch alarm "same" is also scenario 1 \(cluster a\)'s/,
    );
    await crashingPod(account.world("small"), "small-nodes");
    const server = await serveSandbox(account, { speed: 0, instant: false });
    try {
      const nodes = async (path: string) =>
        (
          (await (
            await fetch(`${server.url}${path}/api/v1/query?query=kube_node_info`)
          ).json()) as {
            data: { result: unknown[] };
          }
        ).data.result.length;
      expect(await nodes("/prometheus")).toBe(2);
      expect(await nodes("/prometheus/big")).toBe(2);
      expect(await nodes("/prometheus/small")).toBe(3);
    } finally {
      await server.close();
    }
  });
});
