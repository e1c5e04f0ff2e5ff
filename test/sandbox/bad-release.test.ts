// A bad release (faults.badRelease) as the health gates will meet it in-process: nodes of a launch
// template version (or an EKS AMI release) that never turn Ready, that crash-loop every workload
// pod, or that make the workloads' requests fail; the CloudWatch alarms that follow it; the error
// ratio the world's Prometheus answers; and the container statuses every pod shows.
import { describe, expect, it } from "vitest";
import { AwsApiError, KubeApiError, type Pod } from "../../src/ports/index.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { BASELINE_ERROR_RATIO } from "../../src/sandbox/sim/bad-release.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "./helpers.js";

type Effect = "neverReady" | "crashLoop" | "errors";

const RATIO_QUERY =
  'sum(rate(http_requests_total{code=~"5.."}[5m])) / sum(rate(http_requests_total[5m]))';

/** Two nodes from template version 1, and one from version 2 at the start (not bad: initial). */
function scenario(effect: Effect, extra: Partial<ScenarioInput> = {}): ScenarioInput {
  return {
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: { name: "bad" },
    seed: 5,
    cluster: { name: "bad", version: "1.33" },
    zones: ["eu-west-1a", "eu-west-1b"],
    nodeGroups: [
      {
        name: "nodes",
        type: "self-managed",
        size: { min: 0, max: 6, desired: 3 },
        capacity: { cpu: 4, memory: "16Gi", pods: 40 },
        launchTemplate: { versions: 2, use: 1 },
        instances: [{ version: 2, count: 1 }],
      },
    ],
    workloads: [
      { kind: "Deployment", name: "web", replicas: 4 },
      { kind: "DaemonSet", name: "agent" },
    ],
    faults: { badRelease: [{ group: "nodes", launchTemplateVersion: 2, effect }] },
    alarms: [{ name: "web-5xx", follows: "badRelease" }, { name: "by-hand" }],
    ...extra,
  };
}

/** A node launched from version 2 now: the bad release. Its name once it registers. */
async function launchBad(world: World): Promise<string> {
  const before = new Set(world.kube.nodes.keys());
  await world.cloud.autoScaling.updateAutoScalingGroup({
    AutoScalingGroupName: "nodes",
    LaunchTemplate: { LaunchTemplateName: "nodes", Version: "2" },
    DesiredCapacity: 4,
  });
  await world.until(() => [...world.kube.nodes.keys()].some((n) => !before.has(n)), 600_000);
  return [...world.kube.nodes.keys()].find((n) => !before.has(n)) as string;
}

/** Every other node cordoned, and one web pod deleted: its replacement goes to `node`. */
async function moveOneWebPod(world: World, node: string): Promise<void> {
  for (const n of world.kube.nodeList())
    if (n.name !== node) await world.cluster.patchNode(n.name, { unschedulable: true });
  const web = world.workload("web");
  const [victim] = [...web.pods];
  await world.cluster.deletePod("default", victim!.name, { gracePeriodSeconds: 0 });
  await world.until(() => [...web.pods].some((p) => p.nodeName === node && p.startedAt), 600_000);
}

async function podsOn(world: World, node: string): Promise<Pod[]> {
  const r = await world.cluster.listPods("default", { fieldSelector: `spec.nodeName=${node}` });
  return r.items;
}

const ready = (p: Pod) => p.status.conditions?.find((c) => c.type === "Ready")?.status;
const isWeb = (p: Pod) => p.metadata.name.startsWith("web-");

async function alarm(world: World, name: string) {
  const [a] = await world.cloud.cloudWatch.describeAlarms({ AlarmNames: [name] });
  return a!;
}

const errorRatio = (world: World) =>
  world.metrics.instantQuery({ address: "http://prometheus.invalid", query: RATIO_QUERY });

describe("a bad release's nodes", () => {
  it("an instance of the scenario's start is never bad, whatever its version", () => {
    const world = World.from(scenario("neverReady"));
    const instances = world.instances("nodes");
    expect(instances.map((i) => i.ltVersion).sort()).toEqual([1, 1, 2]);
    expect(instances.every((i) => i.badRelease === undefined)).toBe(true);
    expect(world.kube.nodeList().every((n) => n.ready)).toBe(true);
  });

  it("neverReady: the node registers and never turns Ready; nothing runs there", async () => {
    const world = World.from(scenario("neverReady"));
    const node = await launchBad(world);
    await world.advance(30 * 60_000);
    const rec = world.kube.nodes.get(node)!;
    expect(rec.ready).toBe(false);
    expect(world.ec2.instances.get(rec.instanceId)?.badRelease?.effect).toBe("neverReady");
    expect(world.timeline.first("node.ready", { node })).toBeUndefined();
    expect((await podsOn(world, node)).filter(isWeb)).toEqual([]);
  });

  it("crashLoop: the node turns Ready, its workload pods Running, never Ready, restarts climbing with virtual time", async () => {
    const world = World.from(scenario("crashLoop"));
    const node = await launchBad(world);
    await world.until(() => world.kube.nodes.get(node)!.ready, 600_000);
    await moveOneWebPod(world, node);
    const started = [...world.workload("web").pods].find((p) => p.nodeName === node)!.startedAt!;
    const restarts = async () => {
      const [web] = (await podsOn(world, node)).filter(isWeb);
      expect(web!.status.phase).toBe("Running");
      expect(ready(web!)).toBe("False");
      const [c] = web!.status.containerStatuses!;
      expect(c).toMatchObject({ ready: false, state: { waiting: { reason: "CrashLoopBackOff" } } });
      return c!.restartCount;
    };
    expect(await restarts()).toBe(0);
    // The kubelet's back-off: 10 s, 20 s, 40 s, ... five minutes at most.
    const seen: number[] = [];
    for (const at of [9, 11, 31, 71, 151, 311, 611, 911, 1211]) {
      await world.clock.advanceTo(started + at * 1000);
      seen.push(await restarts());
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    // The node's own agents run: the DaemonSet's pod is Ready, never restarted.
    const agent = (await podsOn(world, node)).find((p) => p.metadata.name.startsWith("agent-"))!;
    expect(ready(agent)).toBe("True");
    expect(agent.status.containerStatuses).toEqual([
      {
        name: "main",
        ready: true,
        restartCount: 0,
        state: { running: { startedAt: agent.status.startTime } },
      },
    ]);
    expect(world.settled()).toBe(false);
  });

  it("crashLoop: every restart is a status update a watch sees; a deleted pod stops restarting", async () => {
    const world = World.from(scenario("crashLoop"));
    const node = await launchBad(world);
    await world.until(() => world.kube.nodes.get(node)!.ready, 600_000);
    const controller = new AbortController();
    const counts: number[] = [];
    const watch = (async () => {
      for await (const e of world.cluster.watchPods("default", { signal: controller.signal }))
        if (e.object.spec.nodeName === node && isWeb(e.object))
          counts.push(e.object.status.containerStatuses?.[0]?.restartCount ?? -1);
    })().catch(() => undefined);
    await moveOneWebPod(world, node);
    await world.advance(75_000);
    // Bound (ContainerCreating), started and crashed, then a restart at 10, 30 and 70 s.
    expect(new Set(counts)).toEqual(new Set([0, 1, 2, 3]));
    expect(counts).toEqual([...counts].sort());
    const [web] = (await podsOn(world, node)).filter(isWeb);
    const rec = world.pod(web!.metadata.name)!;
    await world.cluster.deletePod("default", web!.metadata.name);
    await world.advance(3_600_000);
    expect(rec.gone).toBe(true);
    expect(world.kube.crashLoops.get(rec)?.restarts).toBe(3);
    // Its replacement (every other node is cordoned) crash-loops there in its turn.
    const [next] = (await podsOn(world, node)).filter(isWeb);
    expect(next!.metadata.name).not.toBe(web!.metadata.name);
    expect(next!.status.containerStatuses?.[0]?.restartCount).toBeGreaterThan(5);
    controller.abort();
    await watch;
  });

  it("errors: nodes and pods healthy, the workloads' error ratio up by the share on the bad release", async () => {
    const world = World.from(scenario("errors"));
    expect(await errorRatio(world)).toEqual({ kind: "value", value: BASELINE_ERROR_RATIO });
    const node = await launchBad(world);
    await world.until(() => world.kube.nodes.get(node)!.ready, 600_000);
    await moveOneWebPod(world, node);
    await world.advance(30_000);
    const [web] = (await podsOn(world, node)).filter(isWeb);
    expect(ready(web!)).toBe("True");
    expect(web!.status.containerStatuses?.[0]).toMatchObject({ ready: true, restartCount: 0 });
    // One web pod of four on the bad release: (3 × 0.001 + 0.2) / 4.
    const value = (3 * BASELINE_ERROR_RATIO + 0.2) / 4;
    expect(await errorRatio(world)).toEqual({ kind: "value", value });
    expect(await world.metrics.instantQuery({ address: "", query: "sandbox:error_ratio" })).toEqual(
      { kind: "value", value },
    );
    expect(world.calls.get("prometheus.query")).toBe(3);
  });

  it("an EKS AMI release: a managed group's instances launched with it are the bad release's", async () => {
    const release = "1.32.5-20250715";
    const world = World.from(
      managedScenario({
        nodes: 3,
        workloads: [{ kind: "Deployment", name: "web", replicas: 3 }],
        extra: { faults: { badRelease: [{ releaseVersion: release, effect: "errors" }] } },
      }),
    );
    const update = await world.cloud.eks.updateNodegroupVersion({
      clusterName: "test",
      nodegroupName: "ng",
      releaseVersion: release,
    });
    const done = await world.waitForUpdate(update.id);
    expect(done.status).toBe("Successful");
    const instances = world.instances("ng");
    expect(instances).toHaveLength(3);
    expect(instances.every((i) => i.badRelease?.releaseVersion === release)).toBe(true);
    const ratio = await errorRatio(world);
    expect(ratio.kind === "value" && ratio.value).toBeCloseTo(0.2, 12);
  });
});

describe("an alarm that follows the bad release", () => {
  it("is OK, goes ALARM the moment a workload pod runs on a bad node, and OK when none does", async () => {
    const world = World.from(scenario("errors"));
    const start = world.clock.now();
    expect(await alarm(world, "web-5xx")).toMatchObject({
      StateValue: "OK",
      StateUpdatedTimestamp: start,
    });
    const node = await launchBad(world);
    await world.until(() => world.kube.nodes.get(node)!.ready, 600_000);
    await world.advance(60_000);
    // The DaemonSet's pod runs there already: no workload pod, no alarm.
    expect((await alarm(world, "web-5xx")).StateValue).toBe("OK");
    await moveOneWebPod(world, node);
    const pod = [...world.workload("web").pods].find((p) => p.nodeName === node)!;
    const fired = await alarm(world, "web-5xx");
    expect(fired).toMatchObject({ StateValue: "ALARM" });
    expect(fired.StateUpdatedTimestamp).toEqual(new Date(pod.startedAt!));
    expect(fired.StateReason).toContain(`workload pod ${pod.key} runs on node ${node}`);
    expect(fired.StateReason).toContain("launch template version 2 of group nodes");
    await world.advance(60_000);
    await world.cluster.deletePod("default", pod.name);
    const back = await alarm(world, "web-5xx");
    expect(back.StateValue).toBe("OK");
    expect(back.StateUpdatedTimestamp).toEqual(world.clock.now());
    expect(world.timeline.of("alarm.state").map((e) => [e.alarm, e.from, e.to, e.by])).toEqual([
      ["web-5xx", "OK", "ALARM", "cloudwatch"],
      ["web-5xx", "ALARM", "OK", "cloudwatch"],
    ]);
  });

  it("a state set by hand holds until what it follows next changes", async () => {
    const world = World.from(scenario("crashLoop"));
    const cw = world.cloud.cloudWatch;
    await cw.setAlarmState({ AlarmName: "web-5xx", StateValue: "ALARM", StateReason: "drill" });
    await world.advance(600_000);
    expect(await alarm(world, "web-5xx")).toMatchObject({
      StateValue: "ALARM",
      StateReason: "drill",
    });
    const node = await launchBad(world);
    await world.until(() => world.kube.nodes.get(node)!.ready, 600_000);
    await moveOneWebPod(world, node);
    // Evaluated: the signal's reason overwrites the drill's.
    expect((await alarm(world, "web-5xx")).StateReason).toMatch(/^Threshold Crossed: workload pod/);
    await cw.setAlarmState({ AlarmName: "web-5xx", StateValue: "OK", StateReason: "muted" });
    await world.advance(3_600_000);
    expect(await alarm(world, "web-5xx")).toMatchObject({ StateValue: "OK", StateReason: "muted" });
    const pod = [...world.workload("web").pods].find((p) => p.nodeName === node)!;
    await world.cluster.deletePod("default", pod.name, { gracePeriodSeconds: 0 });
    expect((await alarm(world, "web-5xx")).StateReason).toContain("no workload pod runs");
    // An alarm that follows nothing keeps what it was set to.
    await cw.setAlarmState({ AlarmName: "by-hand", StateValue: "ALARM", StateReason: "paged" });
    await world.advance(3_600_000);
    expect((await alarm(world, "by-hand")).StateValue).toBe("ALARM");
  });

  it("answers as CloudWatch: unknown names absent, SetAlarmState on one ResourceNotFound, put alarms INSUFFICIENT_DATA", async () => {
    const world = World.from(scenario("errors"));
    const cw = world.cloud.cloudWatch;
    const names = (await cw.describeAlarms({ AlarmNames: ["nope", "web-5xx", "by-hand"] })).map(
      (a) => a.AlarmName,
    );
    expect(names).toEqual(["by-hand", "web-5xx"]);
    const e = await cw
      .setAlarmState({ AlarmName: "nope", StateValue: "ALARM", StateReason: "x" })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AwsApiError);
    expect(e).toMatchObject({ code: "ResourceNotFound", status: 404 });
    await cw.putMetricAlarm({
      AlarmName: "api-latency",
      EvaluationPeriods: 3,
      ComparisonOperator: "GreaterThanThreshold",
      Threshold: 0.5,
      MetricName: "Latency",
      Namespace: "App",
    });
    expect(await alarm(world, "api-latency")).toMatchObject({
      StateValue: "INSUFFICIENT_DATA",
      StateReason: "Unchecked: Initial alarm creation",
      Threshold: 0.5,
      AlarmArn: "arn:aws:cloudwatch:eu-west-1:123456789012:alarm:api-latency",
    });
    const bad = await cw
      .putMetricAlarm({ AlarmName: "x", EvaluationPeriods: 0, ComparisonOperator: "Above" })
      .catch((x: unknown) => x);
    expect(bad).toMatchObject({ code: "InvalidParameterValue" });
    expect(world.calls.get("cloudwatch.describeAlarms")).toBe(2);
    expect(world.calls.get("cloudwatch.setAlarmState")).toBe(1);
  });
});

describe("the world's Prometheus", () => {
  const query = (world: World, q: string) => world.metrics.instantQuery({ address: "", query: q });

  it("numbers, vector(n), kube_node_info: values, no series, several", async () => {
    const world = World.from(scenario("errors"));
    expect(await query(world, "0.25")).toEqual({ kind: "value", value: 0.25 });
    expect(await query(world, "vector(3)")).toEqual({ kind: "value", value: 3 });
    expect(await query(world, "NaN")).toEqual({ kind: "empty", why: "the value is NaN" });
    const node = world.kube.nodeList()[0]!.name;
    expect(await query(world, `kube_node_info{node="${node}"}`)).toEqual({
      kind: "value",
      value: 1,
    });
    expect(await query(world, 'kube_node_info{node="none"}')).toEqual({
      kind: "empty",
      why: "no series",
    });
    expect(await query(world, "kube_node_info")).toEqual({
      kind: "empty",
      why: "3 series: a gate needs one number",
    });
  });

  it("refuses what it does not evaluate, as Prometheus refuses a bad query: bad_data", async () => {
    const world = World.from(scenario("errors"));
    for (const q of [
      "up",
      'sum(rate(http_requests_total{code=~"5.."}[5m]))',
      'kube_node_info{node=~"a.*"}',
    ]) {
      const e = await query(world, q).catch((x: unknown) => x);
      expect(e, q).toBeInstanceOf(KubeApiError);
      expect(e, q).toMatchObject({ status: 400, reason: "bad_data" });
    }
  });

  it("no workload pod serving: no series (nothing to divide)", async () => {
    const world = World.from(scenario("errors", { workloads: [] }));
    expect(await errorRatio(world)).toEqual({ kind: "empty", why: "no series" });
  });
});

describe("the scenario's keys", () => {
  const problems = (extra: Partial<ScenarioInput>) => {
    try {
      World.from(scenario("errors", extra));
      return "";
    } catch (e) {
      return (e as Error).message;
    }
  };

  it("a bad release names a version or a release, and a group and a release that exist", () => {
    expect(problems({ faults: { badRelease: [{ effect: "errors" }] } })).toMatch(
      /names its launchTemplateVersion, its releaseVersion, or both/,
    );
    expect(
      problems({
        faults: { badRelease: [{ group: "web", launchTemplateVersion: 2, effect: "errors" }] },
      }),
    ).toMatch(/faults\.badRelease\[0\]\.group: no node group "web"/);
    expect(
      problems({ faults: { badRelease: [{ releaseVersion: "1.0.0-2020", effect: "crashLoop" }] } }),
    ).toMatch(/release 1\.0\.0-2020 is not listed under releases/);
    expect(problems({ alarms: [{ name: "a" }, { name: "a" }] })).toMatch(/alarm "a" appears twice/);
    expect(problems({})).toBe("");
  });
});
