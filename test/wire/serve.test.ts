// serveSandbox itself: watches on the wire (newline-delimited JSON, bookmarks, replay from a
// resourceVersion), the three node patch types, virtual time that runs while clients wait,
// scenario throttling seen through the adapters, the GitHub face, and the request log.
import { getOctokit } from "@actions/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KubeConfig } from "@kubernetes/client-node";
import { awsCloud } from "../../src/adapters/aws/cloud.js";
import { kubernetesCluster } from "../../src/adapters/kubernetes/cluster.js";
import { KubeHttp } from "../../src/adapters/kubernetes/http.js";
import { resilient } from "../../src/ports/index.js";
import { isMutating } from "../../src/sandbox/wire/http-server.js";
import { SANDBOX_TOKEN } from "../../src/sandbox/wire/kubernetes-face.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { DEFAULT_CREDENTIALS } from "../../src/sandbox/wire/sts-face.js";
import { World } from "../../src/sandbox/world/world.js";
import { DEMO_SCENARIO_YAML } from "../../src/sandbox/scenarios/demo.js";

const auth = { authorization: `Bearer ${SANDBOX_TOKEN}` };

type WatchLine = {
  type: string;
  object: { metadata: { name: string; resourceVersion: string } } & Record<string, unknown>;
};

/** Read newline-delimited JSON events from a watch until `enough` says stop. */
async function readWatch(url: string, enough: (events: WatchLine[]) => boolean) {
  const abort = new AbortController();
  const res = await fetch(url, { headers: auth, signal: abort.signal });
  expect(res.status).toBe(200);
  const events: WatchLine[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = res.body!.getReader();
  while (!enough(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      events.push(JSON.parse(buffer.slice(0, nl)) as WatchLine);
      buffer = buffer.slice(nl + 1);
    }
  }
  abort.abort();
  return events;
}

describe("watches, patches and time on a frozen clock", () => {
  let world: World;
  let server: SandboxServer;
  beforeAll(async () => {
    world = World.demo();
    server = await serveSandbox(world, {
      speed: 0,
      instant: false,
      kubernetes: { bookmarkMs: 20 },
    });
  });
  afterAll(() => server.close());

  it("starts with ADDED events and the initial-events-end bookmark, then sends bookmarks", async () => {
    const events = await readWatch(
      `${server.url}/api/v1/nodes?watch=1&allowWatchBookmarks=true&sendInitialEvents=true&labelSelector=role%3Dingress`,
      (e) => e.filter((x) => x.type === "BOOKMARK").length >= 2,
    );
    const added = events.filter((e) => e.type === "ADDED");
    expect(added).toHaveLength(3);
    expect(added[0]!.object).toMatchObject({ kind: "Node", apiVersion: "v1" });
    expect(events[3]).toMatchObject({
      type: "BOOKMARK",
      object: { kind: "Node", metadata: { annotations: { "k8s.io/initial-events-end": "true" } } },
    });
    expect(events[4]).toMatchObject({
      type: "BOOKMARK",
      object: { metadata: { resourceVersion: expect.any(String) } },
    });
  });

  it("replays what happened after a resourceVersion, and says 410 Expired for a too-old one", async () => {
    const rv = String(world.kube.rv);
    const web = [...world.workload("web").pods][0]!;
    world.kube.deletePod(web, 0);
    const events = await readWatch(
      `${server.url}/api/v1/namespaces/default/pods?watch=true&resourceVersion=${rv}`,
      (e) => e.some((x) => x.type === "DELETED"),
    );
    const deleted = events.find((e) => e.type === "DELETED")!;
    expect(deleted.object.metadata.name).toBe(web.name);
    expect(Number(deleted.object.metadata.resourceVersion)).toBeGreaterThan(Number(rv));
    const gone = await readWatch(
      `${server.url}/api/v1/nodes?watch=1&resourceVersion=5`,
      (e) => e.length > 0,
    );
    expect(gone).toEqual([
      {
        type: "ERROR",
        object: expect.objectContaining({ kind: "Status", code: 410, reason: "Expired" }),
      },
    ]);
  });

  it("ends a watch after timeoutSeconds, and the server keeps no subscriber behind", async () => {
    const events = await readWatch(
      `${server.url}/api/v1/nodes?watch=1&timeoutSeconds=1&labelSelector=role%3Dsystem`,
      () => false,
    );
    expect(events.filter((e) => e.type === "ADDED")).toHaveLength(6);
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.faces.kubernetes.hub.open).toBe(0);
  });

  it("patches nodes by JSON patch, merge patch and strategic merge patch", async () => {
    const name = world.kube.nodeList()[2]!.name;
    const patch = (type: string, body: unknown) =>
      fetch(`${server.url}/api/v1/nodes/${name}`, {
        method: "PATCH",
        headers: { ...auth, "content-type": type },
        body: JSON.stringify(body),
      });
    let r = await patch("application/json-patch+json", [
      { op: "add", path: "/metadata/labels/a~1b", value: "1" },
      { op: "add", path: "/spec/taints", value: [{ key: "k", effect: "NoSchedule" }] },
    ]);
    expect(r.status).toBe(200);
    expect(world.kube.nodes.get(name)!.labels["a/b"]).toBe("1");
    expect(world.kube.nodes.get(name)!.taints).toEqual([{ key: "k", effect: "NoSchedule" }]);
    r = await patch("application/merge-patch+json", {
      metadata: { labels: { "a/b": null } },
      spec: { taints: null },
    });
    expect(r.status).toBe(200);
    expect(world.kube.nodes.get(name)!.labels["a/b"]).toBeUndefined();
    expect(world.kube.nodes.get(name)!.taints).toEqual([]);
    r = await patch("application/strategic-merge-patch+json", { spec: { unschedulable: true } });
    const body = (await r.json()) as {
      spec: { unschedulable?: boolean; taints?: { key: string }[] };
    };
    expect(body.spec.unschedulable).toBe(true);
    expect(body.spec.taints?.map((t) => t.key)).toEqual(["node.kubernetes.io/unschedulable"]);
    await patch("application/strategic-merge-patch+json", { spec: { unschedulable: null } });
    expect(world.kube.nodes.get(name)!.unschedulable).toBe(false);
    expect(world.kube.nodes.get(name)!.taints).toEqual([]);
    r = await patch("application/json-patch+json", [
      { op: "test", path: "/metadata/resourceVersion", value: "1" },
      { op: "add", path: "/metadata/labels/x", value: "y" },
    ]);
    expect(r.status).toBe(422);
  });
});

describe("virtual time while clients wait", () => {
  it("runs the world on while the only open request is a watch", async () => {
    const world = World.demo();
    const server = await serveSandbox(world, { speed: 0 });
    try {
      const web = [...world.workload("web").pods][0]!;
      const start = world.clock.nowMs();
      // Watch from before the eviction: the deletion may happen before the watch opens.
      const rv = world.kube.rv;
      const evicted = await fetch(
        `${server.url}/api/v1/namespaces/default/pods/${web.name}/eviction`,
        {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({
            apiVersion: "policy/v1",
            kind: "Eviction",
            metadata: { name: web.name, namespace: "default" },
          }),
        },
      );
      expect(evicted.status).toBe(201);
      // The pod takes its preStop (5 s) and shutdown to go: virtual seconds that pass at once.
      const events = await readWatch(
        `${server.url}/api/v1/namespaces/default/pods?watch=1&labelSelector=app%3Dweb&resourceVersion=${rv}`,
        (e) => e.some((x) => x.type === "DELETED" && x.object.metadata.name === web.name),
      );
      expect(events.some((x) => x.type === "DELETED")).toBe(true);
      expect(world.clock.nowMs() - start).toBeGreaterThanOrEqual(5000);
    } finally {
      await server.close();
    }
  });

  it("does not jump while a call held for a client in this process is on its way, and jumps once it is answered", async () => {
    const world = World.demo();
    const server = await serveSandbox(world, { speed: 0 });
    try {
      const start = world.clock.nowMs();
      // A timer of the client's own, as a lock's renew deadline is.
      let fired = false;
      void world.clock.sleep(10_000).then(() => (fired = true));
      let answer!: (v: string) => void;
      const held = server.hold(new Promise<string>((resolve) => (answer = resolve)));
      // Far longer than the quiet period (3 ms), in real time.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(fired).toBe(false);
      expect(world.clock.nowMs()).toBe(start);
      answer("ok");
      expect(await held).toBe("ok");
      while (!fired) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(world.clock.nowMs() - start).toBeGreaterThanOrEqual(10_000);
      // A rejected call is released too, its rejection passed on.
      await expect(server.hold(Promise.reject(new Error("refused")))).rejects.toThrow("refused");
      let later = false;
      void world.clock.sleep(10_000).then(() => (later = true));
      while (!later) await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      await server.close();
    }
  });
});

describe("scenario throttling, GitHub, the request log", () => {
  let world: World;
  let server: SandboxServer;
  beforeAll(async () => {
    const yaml = DEMO_SCENARIO_YAML.replace(
      "workloads:",
      "faults:\n  throttle:\n    - { api: kubernetes, rate: 0.4, retryAfter: 2 }\n    - { api: aws, rate: 0.3 }\nworkloads:",
    );
    world = World.fromYaml(yaml, "throttled.yaml");
    server = await serveSandbox(world, {
      speed: 0,
      instant: false,
      github: { owner: "octo-org", repo: "infra" },
    });
  });
  afterAll(() => server.close());

  it("throttles as the scenario says; the ports wait out Retry-After over the adapter and get through", async () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromClusterAndUser(
      { name: "s", server: server.url, skipTLSVerify: true },
      { name: "u", token: SANDBOX_TOKEN },
    );
    const adapterWaits: number[] = [];
    const waits: number[] = [];
    const clock = { now: () => new Date(), sleep: async (ms: number) => void waits.push(ms) };
    const cluster = resilient(
      kubernetesCluster(
        new KubeHttp({ kubeConfig, retry: { sleep: async (ms) => void adapterWaits.push(ms) } }),
      ),
      clock,
    );
    for (let i = 0; i < 10; i++)
      expect((await cluster.listNodes({ labelSelector: "role=system" })).items).toHaveLength(6);
    const throttled = server.log.entries.filter((e) => e.status === 429);
    expect(throttled.length).toBeGreaterThan(0);
    // One layer: each 429 waited out once, by resilient.ts; the adapter retries none.
    expect(waits).toEqual(throttled.map(() => 2000));
    expect(adapterWaits).toEqual([]);
  });

  it("throttles AWS as the scenario says; the SDK's adaptive retry gets through", async () => {
    for (const [k, v] of Object.entries(server.env))
      if (k.startsWith("AWS_ENDPOINT_URL_")) process.env[k] = v;
    const cloud = awsCloud({ region: "eu-west-1", credentials: async () => DEFAULT_CREDENTIALS });
    for (let i = 0; i < 4; i++) {
      expect(
        await cloud.autoScaling.describeAutoScalingGroups({ AutoScalingGroupNames: ["workers"] }),
      ).toHaveLength(1);
      expect((await cloud.eks.describeNodegroup("demo", "system")).nodegroupName).toBe("system");
      expect(
        await cloud.ec2.describeLaunchTemplateVersions({
          LaunchTemplateName: "workers",
          Versions: ["7"],
        }),
      ).toHaveLength(1);
    }
    const throttled = server.log.entries.filter(
      (e) => ["eks", "autoscaling", "ec2"].includes(e.face) && e.status !== 200,
    );
    expect(throttled.length).toBeGreaterThan(0);
    expect(new Set(throttled.map((e) => `${e.face} ${e.status}`))).toEqual(
      new Set(
        throttled.map(
          (e) => ({ eks: "eks 429", autoscaling: "autoscaling 400", ec2: "ec2 503" })[e.face],
        ),
      ),
    );
  });

  it("serves the GitHub face at GITHUB_API_URL", async () => {
    const gh = getOctokit("token", {
      baseUrl: server.env.GITHUB_API_URL,
      retry: { enabled: false },
    });
    const { data } = await gh.rest.issues.createComment({
      owner: "octo-org",
      repo: "infra",
      issue_number: 1,
      body: "plan",
    });
    expect(data.body).toBe("plan");
  });

  it("counts requests per verb and resource, and tells reads from writes", () => {
    const counts = server.log.counts("kubernetes");
    const lists = server.log.entries.filter(
      (e) => e.face === "kubernetes" && e.resource === "nodes",
    ).length;
    expect(counts["GET nodes"]).toBe(lists);
    expect(lists).toBeGreaterThanOrEqual(10);
    expect(server.log.mutating("kubernetes")).toEqual([]);
    expect(server.log.counts("github")).toEqual({ "POST issue-comments": 1 });
    expect(isMutating({ method: "POST", resource: "DescribeAutoScalingGroups" })).toBe(false);
  });

  it("tells a person what to export", () => {
    const text = server.describe();
    expect(text).toContain(`export AWS_ENDPOINT_URL_EKS=${server.url}`);
    expect(text).toContain(`export AWS_ENDPOINT_URL_AUTO_SCALING=${server.url}`);
    expect(text).toContain(`export GITHUB_API_URL=${server.url}`);
    expect(server.endpoints.kubernetes).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });
});
