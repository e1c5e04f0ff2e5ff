// The sandbox behind the ports: scoped and paginated lists, watches in virtual time, Leases,
// throttling, and the Auto Scaling / EC2 calls a self-managed roll makes.
import { describe, expect, it } from "vitest";
import type { Node, Pod, WatchEvent } from "../../src/ports/cluster.js";
import { AwsApiError, isThrottle, KubeApiError } from "../../src/ports/errors.js";
import { PodSet } from "../../src/sandbox/model/pod-set.js";
import { World } from "../../src/sandbox/world/world.js";
import { plainScenario } from "./helpers.js";

const web = [{ kind: "Deployment" as const, name: "web", replicas: 12 }];

describe("Cluster port", () => {
  it("lists pods page by page with limit and continue, and by node with a field selector", async () => {
    const world = World.from(plainScenario(web, 3));
    const seen: string[] = [];
    let cont: string | undefined;
    let pages = 0;
    do {
      const page = await world.cluster.listPods("default", {
        labelSelector: "app=web",
        limit: 5,
        ...(cont ? { continue: cont } : {}),
      });
      seen.push(...page.items.map((p) => p.metadata.name));
      cont = page.metadata.continue;
      pages++;
    } while (cont);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(12);
    const node = world.kube.nodeList()[0]!.name;
    const onNode = await world.cluster.listPods(undefined, {
      fieldSelector: `spec.nodeName=${node}`,
    });
    expect(onNode.items.length).toBe(world.kube.nodes.get(node)!.pods.length);
    expect(onNode.items.every((p) => p.spec.nodeName === node)).toBe(true);
    expect(
      (await world.cluster.listPods("default", { labelSelector: "app in (db,cache)" })).items,
    ).toHaveLength(0);
    await expect(
      world.cluster.listPods(undefined, { fieldSelector: "spec.hostIP=1" }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("pages a filtered list: every match once, in order, and no empty last page", async () => {
    const world = World.from(
      plainScenario(
        [
          { kind: "Deployment", name: "web", replicas: 12 },
          { kind: "Deployment", name: "db", replicas: 9 },
        ],
        12,
      ),
    );
    const names = world.kube.nodeList().map((n) => n.name);
    for (const n of names.filter((_, i) => i % 3 === 1))
      await world.cluster.patchNode(n, { unschedulable: true });
    const all = async <T>(
      list: (cont?: string) => Promise<{
        items: T[];
        metadata: { continue?: string };
      }>,
    ) => {
      const pages: T[][] = [];
      let cont: string | undefined;
      do {
        const page = await list(cont);
        pages.push(page.items);
        cont = page.metadata.continue;
      } while (cont);
      return pages;
    };
    const cordoned = await all((cont) =>
      world.cluster.listNodes({
        fieldSelector: "spec.unschedulable=true",
        limit: 2,
        ...(cont && { continue: cont }),
      }),
    );
    expect(cordoned.map((p) => p.length)).toEqual([2, 2]);
    expect(cordoned.flat().map((n) => n.metadata.name)).toEqual(
      names.filter((_, i) => i % 3 === 1),
    );
    const db = await all((cont) =>
      world.cluster.listPods(undefined, {
        labelSelector: "app=db",
        limit: 4,
        ...(cont && { continue: cont }),
      }),
    );
    expect(db.map((p) => p.length)).toEqual([4, 4, 1]);
    const expected = [...world.kube.pods.values()]
      .map((p) => p.key)
      .filter((k) => k.startsWith("default/db-"))
      .sort();
    expect(db.flat().map((p) => `${p.metadata.namespace}/${p.metadata.name}`)).toEqual(expected);
  });

  it("lists PodDisruptionBudgets across namespaces in pages, and one added between lists is in the next", async () => {
    const workloads = ["a", "b", "c"].flatMap((ns) =>
      ["x", "y", "z"].map((name) => ({
        kind: "Deployment" as const,
        name,
        namespace: ns,
        replicas: 2,
        pdb: { minAvailable: 1 },
      })),
    );
    const world = World.from(plainScenario(workloads, 3));
    const ids = async () => {
      const out: string[] = [];
      let cont: string | undefined;
      do {
        const page = await world.cluster.listPodDisruptionBudgets(undefined, {
          limit: 4,
          ...(cont && { continue: cont }),
        });
        out.push(...page.items.map((b) => `${b.metadata.namespace}/${b.metadata.name}`));
        cont = page.metadata.continue;
      } while (cont);
      return out;
    };
    const whole = (await world.cluster.listPodDisruptionBudgets(undefined)).items;
    expect(await ids()).toEqual(whole.map((b) => `${b.metadata.namespace}/${b.metadata.name}`));
    expect(new Set(await ids()).size).toBe(9);
    const [first] = world.kube.pdbs.get("b")!;
    world.kube.addPdb({
      ...first!,
      name: "late",
      uid: "late",
      pods: new PodSet(),
      disrupted: new Map(),
    });
    const again = await ids();
    expect(again).toHaveLength(10);
    // Namespace by namespace, each as added: the late one after its namespace's others.
    expect(again.indexOf("b/late")).toBe(again.indexOf("b/z") + 1);
    expect(
      (await world.cluster.listPodDisruptionBudgets("b")).items.map((b) => b.metadata.name),
    ).toEqual(["x", "y", "z", "late"]);
  });

  it("watches deliver changes at the virtual instant they happen", async () => {
    const world = World.from(plainScenario(web, 3));
    const ac = new AbortController();
    const events: { at: number; e: WatchEvent<Node> }[] = [];
    const name = world.kube.nodeList()[1]!.name;
    const watcher = (async () => {
      for await (const e of world.cluster.watchNodes({
        fieldSelector: `metadata.name=${name}`,
        signal: ac.signal,
      })) {
        events.push({ at: world.clock.nowMs(), e });
        if (e.object.spec.unschedulable) ac.abort();
      }
    })();
    const t0 = world.clock.nowMs();
    world.clock.after(42_000, () => void world.cluster.patchNode(name, { unschedulable: true }));
    await world.run(watcher);
    expect(events.map((x) => x.e.type)).toEqual(["ADDED", "MODIFIED"]);
    expect(events[1]!.at - t0).toBe(42_000);
    expect(events[1]!.e.object.spec.taints).toContainEqual({
      key: "node.kubernetes.io/unschedulable",
      effect: "NoSchedule",
    });
  });

  it("a watch from a recent resourceVersion replays what happened since; an older one is 410 Gone", async () => {
    const world = World.from(plainScenario(web, 3));
    const k = world.cluster;
    // Versions from before any watch: the port kept no history then.
    const before = (await k.listPods("default")).metadata.resourceVersion;
    const [victim] = (await k.listPods("default", { labelSelector: "app=web" })).items;
    await k.deletePod("default", victim!.metadata.name, { gracePeriodSeconds: 0 });
    // The first watch ends at once (its server timeout passes); the pod goes while nobody watches.
    const ac = new AbortController();
    let rv = "";
    const drain = async (w: AsyncIterable<WatchEvent<Pod>>, seen: (e: WatchEvent<Pod>) => void) => {
      for await (const e of w) seen(e);
    };
    await world.run(
      drain(k.watchPods("default", { timeoutSeconds: 1, signal: ac.signal }), (e) => {
        rv = e.object.metadata.resourceVersion ?? rv;
      }),
    );
    const [gone] = (await k.listPods("default", { labelSelector: "app=web" })).items;
    await world.run(k.deletePod("default", gone!.metadata.name, { gracePeriodSeconds: 0 }));
    await world.run(world.clock.sleep(30_000));
    // Watching again from the last version seen: the deletion and the replacement pods it
    // brought, not 410 (which would make the client list the namespace again).
    const replayed: WatchEvent<Pod>["type"][] = [];
    const names: string[] = [];
    await world.run(
      drain(k.watchPods("default", { resourceVersion: rv, timeoutSeconds: 1 }), (e) => {
        replayed.push(e.type);
        names.push(e.object.metadata.name);
      }),
    );
    expect(replayed).toContain("DELETED");
    expect(names).toContain(gone!.metadata.name);
    expect(replayed).toContain("ADDED");
    // From before the history began, with pod events since: 410 Gone.
    expect(() => k.watchPods("default", { resourceVersion: before })).toThrow(
      expect.objectContaining({ status: 410 }),
    );
  });

  it("patches nodes with a resourceVersion precondition (409 when stale)", async () => {
    const world = World.from(plainScenario([], 1));
    const node = (await world.cluster.listNodes()).items[0]!;
    await world.cluster.patchNode(node.metadata.name, {
      labels: { a: "1" },
      resourceVersion: node.metadata.resourceVersion!,
    });
    await expect(
      world.cluster.patchNode(node.metadata.name, {
        labels: { a: "2" },
        resourceVersion: node.metadata.resourceVersion!,
      }),
    ).rejects.toMatchObject({ status: 409, reason: "Conflict" });
    expect((await world.cluster.getNode(node.metadata.name)).metadata.labels?.a).toBe("1");
  });

  it("Leases: create once, update only from the current resourceVersion", async () => {
    const world = World.from(plainScenario([], 1));
    const lease = {
      metadata: { name: "noderoll-demo" },
      spec: { holderIdentity: "run-1", leaseDurationSeconds: 900 },
    };
    const created = await world.cluster.createLease("kube-system", lease);
    await expect(world.cluster.createLease("kube-system", lease)).rejects.toMatchObject({
      status: 409,
      reason: "AlreadyExists",
    });
    const updated = await world.cluster.updateLease("kube-system", {
      ...created,
      spec: { ...created.spec, holderIdentity: "run-2" },
    });
    expect(updated.spec.holderIdentity).toBe("run-2");
    await expect(
      world.cluster.updateLease("kube-system", { ...created, spec: { holderIdentity: "run-3" } }),
    ).rejects.toMatchObject({ status: 409, reason: "Conflict" });
    expect((await world.cluster.getLease("kube-system", "noderoll-demo")).spec.holderIdentity).toBe(
      "run-2",
    );
    await expect(world.cluster.getLease("kube-system", "other")).rejects.toMatchObject({
      status: 404,
    });
  });

  it("throttles at the scenario's rate with 429 and Retry-After", async () => {
    const world = World.from(
      plainScenario(web, 3, {
        faults: { throttle: [{ api: "kubernetes", rate: 0.5, retryAfter: "3s" }] },
      }),
    );
    let throttled = 0;
    for (let i = 0; i < 200; i++) {
      try {
        await world.cluster.listNodes({ limit: 1 });
      } catch (e) {
        expect(e).toBeInstanceOf(KubeApiError);
        expect(e).toMatchObject({ status: 429, retryAfterSeconds: 3 });
        expect(isThrottle(e)).toBe(true);
        throttled++;
      }
    }
    expect(throttled).toBeGreaterThan(60);
    expect(throttled).toBeLessThan(140);
  });

  it("looks up the owners behind pods", async () => {
    const world = World.from(plainScenario(web, 3));
    const pod = (await world.cluster.listPods("default")).items[0]!;
    const owner = pod.metadata.ownerReferences![0]!;
    expect(owner.kind).toBe("ReplicaSet");
    const rs = await world.cluster.getWorkload("ReplicaSet", "default", owner.name);
    expect(rs.metadata.ownerReferences?.[0]).toMatchObject({ kind: "Deployment", name: "web" });
    expect(rs.spec.replicas).toBe(12);
    expect(
      (await world.cluster.getWorkload("Deployment", "default", "web")).status.readyReplicas,
    ).toBe(12);
  });

  it("serves a workload's counts as its pods are now, whichever change came last", async () => {
    const world = World.from(plainScenario(web, 3));
    const pods = () => [...world.kube.pods.values()].filter((p) => p.labels.app === "web");
    // What the API server would count now, from the records themselves.
    const counted = () => {
      const active = pods().filter((p) => p.deletionAt === undefined);
      const ready = active.filter((p) => p.ready).length;
      return { replicas: active.length, readyReplicas: ready, availableReplicas: ready };
    };
    const served = async () => {
      const [rs] = (await world.cluster.listWorkloads("ReplicaSet", "default")).items;
      const deployment = await world.cluster.getWorkload("Deployment", "default", "web");
      return [rs!.status, deployment.status];
    };
    const check = async (step: string) =>
      expect(await served(), step).toEqual([counted(), counted()]);
    await check("built");
    const [first, second, third] = pods();
    world.kube.setPodReady(first!, false); // one change: ready no more
    await check("not ready");
    world.kube.setPodReady(first!, true);
    await check("ready again");
    await world.cluster.deletePod("default", second!.name); // being deleted: not active
    await check("deleting");
    world.kube.removePod(third!); // gone at once, no other change: only the count of pods moves
    await check("gone");
    expect(counted().replicas).toBe(10);
    // The replacements are created, scheduled and become ready; the deleted pod goes.
    for (let s = 0; s < 90; s++) {
      await world.advance(1000);
      await check(`after ${s + 1} s`);
    }
    expect(counted()).toEqual({ replicas: 12, readyReplicas: 12, availableReplicas: 12 });
  });
});

describe("Cloud port: Auto Scaling and EC2", () => {
  const asgName = "nodes";

  it("validates desired capacity against min and max like the real service", async () => {
    const world = World.from(plainScenario([], 3));
    await expect(
      world.cloud.autoScaling.setDesiredCapacity({
        AutoScalingGroupName: asgName,
        DesiredCapacity: 99,
      }),
    ).rejects.toMatchObject({
      code: "ValidationError",
      message: "New SetDesiredCapacity value 99 is above max value 8 for the AutoScalingGroup.",
    });
  });

  it("launches to desired with zone balancing after a boot delay; nodes register and turn Ready", async () => {
    const world = World.from(plainScenario([], 3));
    await world.cloud.autoScaling.setDesiredCapacity({
      AutoScalingGroupName: asgName,
      DesiredCapacity: 6,
    });
    await world.advance(1000);
    let [g] = await world.cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: [asgName],
    });
    expect(g!.Instances.filter((i) => i.LifecycleState === "Pending")).toHaveLength(3);
    expect(world.kube.nodes.size).toBe(3);
    await world.advance(10 * 60_000);
    [g] = await world.cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: [asgName],
    });
    const zones = g!.Instances.map((i) => i.AvailabilityZone);
    for (const z of g!.AvailabilityZones) expect(zones.filter((x) => x === z)).toHaveLength(2);
    expect([...world.kube.nodes.values()].filter((n) => n.ready)).toHaveLength(6);
  });

  it("detaches instances: without decrement the group replaces them, with decrement it shrinks", async () => {
    const world = World.from(plainScenario([], 3));
    const [g] = await world.cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: [asgName],
    });
    const [a, b] = g!.Instances;
    await world.cloud.autoScaling.detachInstances({
      AutoScalingGroupName: asgName,
      InstanceIds: [a!.InstanceId],
      ShouldDecrementDesiredCapacity: false,
    });
    await world.advance(10 * 60_000);
    let [now] = await world.cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: [asgName],
    });
    expect(now!.DesiredCapacity).toBe(3);
    expect(now!.Instances.map((i) => i.InstanceId)).not.toContain(a!.InstanceId);
    expect(now!.Instances).toHaveLength(3);
    // The detached instance still runs, and its node is still there.
    const [ec2] = await world.cloud.ec2.describeInstances({ InstanceIds: [a!.InstanceId] });
    expect(ec2!.State.Name).toBe("running");
    await world.cloud.autoScaling.detachInstances({
      AutoScalingGroupName: asgName,
      InstanceIds: [b!.InstanceId],
      ShouldDecrementDesiredCapacity: true,
    });
    [now] = await world.cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: [asgName],
    });
    expect(now!.DesiredCapacity).toBe(2);
    await world.cloud.ec2.terminateInstances({ InstanceIds: [a!.InstanceId] });
    await world.advance(5 * 60_000);
    expect(world.kube.nodes.has(ec2!.PrivateDnsName!)).toBe(false);
  });

  it("terminates in the group with and without decrement, refusing to go below min", async () => {
    const world = World.from(
      plainScenario([], 3, {
        nodeGroups: [{ name: "nodes", type: "self-managed", size: { min: 2, max: 5, desired: 3 } }],
      }),
    );
    const [g] = await world.cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: [asgName],
    });
    const ids = g!.Instances.map((i) => i.InstanceId);
    await world.cloud.autoScaling.terminateInstanceInAutoScalingGroup({
      InstanceId: ids[0]!,
      ShouldDecrementDesiredCapacity: true,
    });
    expect(world.sizes(asgName).desired).toBe(2);
    await expect(
      world.cloud.autoScaling.terminateInstanceInAutoScalingGroup({
        InstanceId: ids[1]!,
        ShouldDecrementDesiredCapacity: true,
      }),
    ).rejects.toBeInstanceOf(AwsApiError);
    await world.cloud.autoScaling.terminateInstanceInAutoScalingGroup({
      InstanceId: ids[1]!,
      ShouldDecrementDesiredCapacity: false,
    });
    await world.advance(10 * 60_000);
    const acts = await world.cloud.autoScaling.describeScalingActivities({
      AutoScalingGroupName: asgName,
    });
    expect(acts[0]!.Description).toMatch(/^Launching a new EC2 instance: i-/);
    expect(world.instances(asgName)).toHaveLength(2);
    expect(world.instances(asgName).map((i) => i.id)).toContain(ids[2]);
  });

  it("suspended Launch stops replacements until resumed", async () => {
    const world = World.from(plainScenario([], 3));
    await world.cloud.autoScaling.suspendProcesses({
      AutoScalingGroupName: asgName,
      ScalingProcesses: ["Launch"],
    });
    const id = world.instances(asgName)[0]!.id;
    await world.cloud.autoScaling.terminateInstanceInAutoScalingGroup({
      InstanceId: id,
      ShouldDecrementDesiredCapacity: false,
    });
    await world.advance(10 * 60_000);
    expect(world.instances(asgName)).toHaveLength(2);
    await world.cloud.autoScaling.resumeProcesses({
      AutoScalingGroupName: asgName,
      ScalingProcesses: ["Launch"],
    });
    await world.advance(10 * 60_000);
    expect(world.instances(asgName)).toHaveLength(3);
  });

  it("resolves $Latest and $Default launch template versions; instances keep the version they were launched from", async () => {
    const world = World.fromYaml(
      (await import("../../src/sandbox/scenarios/demo.js")).DEMO_SCENARIO_YAML,
    );
    const [g] = await world.cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: ["workers"],
    });
    expect(g!.LaunchTemplate?.Version).toBe("$Latest");
    const id = g!.LaunchTemplate!.LaunchTemplateId!;
    const [latest] = await world.cloud.ec2.describeLaunchTemplateVersions({
      LaunchTemplateId: id,
      Versions: ["$Latest"],
    });
    const [def] = await world.cloud.ec2.describeLaunchTemplateVersions({
      LaunchTemplateId: id,
      Versions: ["$Default"],
    });
    expect(latest!.VersionNumber).toBe(7);
    expect(def!.DefaultVersion).toBe(true);
    expect(g!.Instances.every((i) => i.LaunchTemplate?.Version === "6")).toBe(true);
    // A replacement launches from $Latest.
    await world.cloud.autoScaling.terminateInstanceInAutoScalingGroup({
      InstanceId: g!.Instances[0]!.InstanceId,
      ShouldDecrementDesiredCapacity: false,
    });
    await world.advance(5 * 60_000);
    const [after] = await world.cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: ["workers"],
    });
    expect(after!.Instances.filter((i) => i.LaunchTemplate?.Version === "7")).toHaveLength(1);
    const owned = await world.cloud.autoScaling.describeAutoScalingGroups({
      Filters: [{ Name: "tag:kubernetes.io/cluster/demo", Values: ["owned"] }],
    });
    expect(owned).toHaveLength(3);
  });

  it("throttles AWS calls with ThrottlingException when asked", async () => {
    const world = World.from(
      plainScenario([], 1, { faults: { throttle: [{ api: "aws", rate: 1 }] } }),
    );
    await expect(world.cloud.autoScaling.describeAutoScalingGroups({})).rejects.toMatchObject({
      code: "ThrottlingException",
    });
  });

  it("EKS config updates go through an update with the real status values", async () => {
    const world = World.demo();
    const u = await world.cloud.eks.updateNodegroupConfig({
      clusterName: "demo",
      nodegroupName: "system",
      updateConfig: { maxUnavailable: 3 },
    });
    expect(u).toMatchObject({
      type: "ConfigUpdate",
      status: "InProgress",
      params: [{ type: "MaxUnavailable", value: "3" }],
    });
    expect((await world.waitForUpdate(u.id)).status).toBe("Successful");
    expect(
      (await world.cloud.eks.describeNodegroup("demo", "system")).updateConfig.maxUnavailable,
    ).toBe(3);
    await expect(
      world.cloud.eks.updateNodegroupConfig({
        clusterName: "demo",
        nodegroupName: "system",
        updateConfig: { maxUnavailable: 101 },
      }),
    ).rejects.toMatchObject({ code: "InvalidParameterException" });
    await expect(world.cloud.eks.describeNodegroup("demo", "nope")).rejects.toMatchObject({
      code: "ResourceNotFoundException",
    });
    expect(await world.cloud.eks.latestReleaseVersions!()).toEqual({
      "1.32": "1.32.5-20250715",
      "1.33": "1.33.4-20250904",
    });
  });
});
