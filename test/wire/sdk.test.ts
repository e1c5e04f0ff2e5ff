// The product's own adapters — awsCloud() on the AWS SDK v3 and kubernetesCluster() on KubeHttp
// with a kubeconfig — against `sandbox serve`, over HTTP(S), with real serialization, retries
// and errors: every call of the Cloud and Cluster ports, the error paths, and throttling
// (the SDK's adaptive retry; a Kubernetes 429 handed up with its Retry-After, which the ports'
// one retry layer, resilient.ts, honours).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  AutoScalingClient,
  DescribeScalingActivitiesCommand,
  ResumeProcessesCommand,
  SetDesiredCapacityCommand,
  SuspendProcessesCommand,
} from "@aws-sdk/client-auto-scaling";
import { DescribeClusterCommand, EKSClient } from "@aws-sdk/client-eks";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awsCloud } from "../../src/adapters/aws/cloud.js";
import { createEksToken } from "../../src/adapters/aws/eks-token.js";
import { kubernetesCluster } from "../../src/adapters/kubernetes/cluster.js";
import { KubeHttp } from "../../src/adapters/kubernetes/http.js";
import type {
  Cloud,
  Cluster,
  Node,
  Pod,
  PodDisruptionBudget,
  WatchEvent,
} from "../../src/ports/index.js";
import { AwsApiError, KubeApiError, resilient } from "../../src/ports/index.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { DEFAULT_CREDENTIALS } from "../../src/sandbox/wire/sts-face.js";
import { World } from "../../src/sandbox/world/world.js";

let world: World;
let server: SandboxServer;
let cloud: Cloud;
let cluster: Cluster;
/** The Kubernetes API as the adapter reaches it, for calls the Cluster port does not make. */
let http: KubeHttp;
/** The SDK itself, for Auto Scaling calls the Cloud port does not make (the aws CLI's). */
let autoScaling: AutoScalingClient;
const waits: number[] = [];
const dir = mkdtempSync(join(tmpdir(), "noderoll-sdk-"));

beforeAll(async () => {
  world = World.demo();
  const kubeconfig = join(dir, "kubeconfig");
  server = await serveSandbox(world, { speed: 0, instant: false, kubeconfigPath: kubeconfig });
  // Endpoints the way a user sets them: the SDK reads these variables itself.
  for (const [k, v] of Object.entries(server.env))
    if (k.startsWith("AWS_ENDPOINT_URL_")) process.env[k] = v;
  cloud = awsCloud({ region: "eu-west-1", credentials: async () => DEFAULT_CREDENTIALS });
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfig);
  http = new KubeHttp({ kubeConfig, retry: { sleep: async (ms) => void waits.push(ms) } });
  cluster = kubernetesCluster(http);
  autoScaling = new AutoScalingClient({
    region: "eu-west-1",
    credentials: async () => DEFAULT_CREDENTIALS,
  });
});
afterAll(() => server?.close());

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

describe("EKS through the SDK", () => {
  it("describes the cluster with the sandbox's Kubernetes endpoint", async () => {
    const c = await cloud.eks.describeCluster("demo");
    expect(c).toMatchObject({
      name: "demo",
      version: "1.33",
      status: "ACTIVE",
      endpoint: server.endpoints.kubernetes,
    });
  });

  it("lists and describes node groups as the port does", async () => {
    expect(await cloud.eks.listNodegroups("demo")).toEqual(
      await world.cloud.eks.listNodegroups("demo"),
    );
    const wire = await cloud.eks.describeNodegroup("demo", "system");
    const port = await world.cloud.eks.describeNodegroup("demo", "system");
    expect(wire).toMatchObject({
      nodegroupName: port.nodegroupName,
      version: port.version,
      releaseVersion: port.releaseVersion,
      status: port.status,
      scalingConfig: port.scalingConfig,
      updateConfig: port.updateConfig,
      resources: port.resources,
      labels: port.labels,
    });
  });

  it("updates config and version, then describes and lists the updates", async () => {
    const config = await cloud.eks.updateNodegroupConfig({
      clusterName: "demo",
      nodegroupName: "system",
      updateConfig: { maxUnavailable: 2 },
    });
    expect(config).toMatchObject({ type: "ConfigUpdate", status: "InProgress" });
    expect(config.createdAt).toBeInstanceOf(Date);
    await world.waitForUpdate(config.id);
    const version = await cloud.eks.updateNodegroupVersion({
      clusterName: "demo",
      nodegroupName: "system",
      version: "1.33",
    });
    expect(version).toMatchObject({ type: "VersionUpdate", status: "InProgress" });
    const again = await cloud.eks.describeUpdate({
      name: "demo",
      nodegroupName: "system",
      updateId: version.id,
    });
    expect(again.id).toBe(version.id);
    const ids = await cloud.eks.listUpdates({ name: "demo", nodegroupName: "system" });
    expect(ids).toEqual(
      await world.cloud.eks.listUpdates({ name: "demo", nodegroupName: "system" }),
    );
    expect(ids).toEqual(expect.arrayContaining([version.id, config.id]));
    const busy = await rejection(
      cloud.eks.updateNodegroupVersion({
        clusterName: "demo",
        nodegroupName: "system",
        version: "1.33",
      }),
    );
    expect(busy).toMatchObject({ code: "ResourceInUseException", status: 409 });
  });

  it("answers unknown clusters and node groups with ResourceNotFoundException", async () => {
    const e = await rejection(cloud.eks.describeNodegroup("demo", "nope"));
    expect(e).toBeInstanceOf(AwsApiError);
    expect(e).toMatchObject({ code: "ResourceNotFoundException", status: 404 });
    expect(await rejection(cloud.eks.describeCluster("prod"))).toMatchObject({
      code: "ResourceNotFoundException",
    });
  });

  it("retries ThrottlingException (adaptive retry) and succeeds", async () => {
    server.faces.eks.throttleNext = 2;
    const before = server.log.entries.length;
    expect((await cloud.eks.describeCluster("demo")).name).toBe("demo");
    const seen = server.log.entries.slice(before).map((e) => e.status);
    expect(seen).toEqual([429, 429, 200]);
  });
});

describe("Auto Scaling and EC2 through the SDK", () => {
  it("describes groups by name and by tag filter, as the port does", async () => {
    const [wire] = await cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: ["workers"],
    });
    const [port] = await world.cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: ["workers"],
    });
    expect(wire).toMatchObject({
      AutoScalingGroupName: "workers",
      MinSize: port!.MinSize,
      MaxSize: port!.MaxSize,
      DesiredCapacity: port!.DesiredCapacity,
      AvailabilityZones: port!.AvailabilityZones,
      LaunchTemplate: port!.LaunchTemplate,
    });
    expect(wire!.Instances.map((i) => i.InstanceId)).toEqual(
      port!.Instances.map((i) => i.InstanceId),
    );
    expect(wire!.Instances[0]).toMatchObject({
      LifecycleState: "InService",
      HealthStatus: "Healthy",
      LaunchTemplate: port!.Instances[0]!.LaunchTemplate,
    });
    const tagged = await cloud.autoScaling.describeAutoScalingGroups({
      Filters: [{ Name: "tag:kubernetes.io/cluster/demo", Values: ["owned"] }],
    });
    expect(tagged.map((g) => g.AutoScalingGroupName).sort()).toEqual(
      [...world.autoScaling.groups.keys()].sort(),
    );
  });

  it("changes capacity, tags, processes (the SDK); detaches and terminates; lists activities", async () => {
    await cloud.autoScaling.updateAutoScalingGroup({
      AutoScalingGroupName: "workers",
      MaxSize: 13,
      LaunchTemplate: { LaunchTemplateName: "workers", Version: "$Latest" },
    });
    await autoScaling.send(
      new SetDesiredCapacityCommand({ AutoScalingGroupName: "workers", DesiredCapacity: 9 }),
    );
    expect(world.sizes("workers")).toEqual({ min: 4, max: 13, desired: 9 });
    // The group's own tags and processes, through the adapter (the port's calls).
    const tag = {
      Key: "noderoll.io/roll",
      ResourceId: "workers",
      ResourceType: "auto-scaling-group",
    } as const;
    await cloud.autoScaling.createOrUpdateTags({
      Tags: [{ ...tag, Value: "r1", PropagateAtLaunch: false }],
    });
    expect(world.asg("workers").tags).toContainEqual(
      expect.objectContaining({ Key: "noderoll.io/roll", Value: "r1" }),
    );
    await cloud.autoScaling.deleteTags({ Tags: [tag] });
    expect(world.asg("workers").tags.map((t) => t.Key)).not.toContain("noderoll.io/roll");
    await cloud.autoScaling.suspendProcesses({
      AutoScalingGroupName: "workers",
      ScalingProcesses: ["AZRebalance"],
    });
    expect([...world.asg("workers").suspended]).toEqual(["AZRebalance"]);
    const [described] = await cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: ["workers"],
    });
    expect(described!.SuspendedProcesses.map((p) => p.ProcessName)).toEqual(["AZRebalance"]);
    await cloud.autoScaling.resumeProcesses({
      AutoScalingGroupName: "workers",
      ScalingProcesses: ["AZRebalance"],
    });
    expect(world.asg("workers").suspended.size).toBe(0);
    // The SDK's own call without ScalingProcesses suspends every process (the API's default).
    await autoScaling.send(new SuspendProcessesCommand({ AutoScalingGroupName: "workers" }));
    expect(world.asg("workers").suspended.size).toBe(9);
    await autoScaling.send(new ResumeProcessesCommand({ AutoScalingGroupName: "workers" }));
    expect(world.asg("workers").suspended.size).toBe(0);
    const [a, b] = world.instances("workers").map((i) => i.id);
    const detached = await cloud.autoScaling.detachInstances({
      AutoScalingGroupName: "workers",
      InstanceIds: [a!],
      ShouldDecrementDesiredCapacity: false,
    });
    expect(detached[0]!.Description).toContain(a);
    const term = await cloud.autoScaling.terminateInstanceInAutoScalingGroup({
      InstanceId: b!,
      ShouldDecrementDesiredCapacity: true,
    });
    expect(term.Description).toContain(b);
    const acts =
      (
        await autoScaling.send(
          new DescribeScalingActivitiesCommand({ AutoScalingGroupName: "workers", MaxRecords: 5 }),
        )
      ).Activities ?? [];
    expect(acts.length).toBeGreaterThanOrEqual(2);
    expect(acts[0]!.StartTime).toBeInstanceOf(Date);
    await cloud.ec2.terminateInstances({ InstanceIds: [a!] });
    expect(world.ec2.instances.get(a!)!.state).not.toBe("running");
  });

  it("reads launch template versions and instances", async () => {
    const versions = await cloud.ec2.describeLaunchTemplateVersions({
      LaunchTemplateName: "workers",
      Versions: ["$Latest", "6"],
    });
    expect(versions.map((v) => v.VersionNumber)).toEqual([7, 6]);
    expect(versions[0]).toMatchObject({ LaunchTemplateName: "workers", DefaultVersion: true });
    expect(versions[0]!.LaunchTemplateData.ImageId).toMatch(/^ami-/);
    const all = await cloud.ec2.describeLaunchTemplateVersions({ LaunchTemplateName: "ingress" });
    expect(all.map((v) => v.VersionNumber)).toEqual([3, 2, 1]);
    const ids = world.instances("ingress").map((i) => i.id);
    const instances = await cloud.ec2.describeInstances({ InstanceIds: ids });
    expect(instances.map((i) => i.InstanceId)).toEqual(ids);
    expect(instances[0]).toMatchObject({
      State: { Name: "running" },
      Placement: { AvailabilityZone: expect.stringMatching(/^eu-west-1/) },
    });
    expect(instances[0]!.LaunchTime).toBeInstanceOf(Date);
  });

  it("tags instances, finds them by tag and state, and takes the tag off again", async () => {
    const [a, b] = world.instances("ingress").map((i) => i.id);
    const mark = { Key: "noderoll.io/detached-from", Value: "ingress" };
    await cloud.ec2.createTags({ Resources: [a!, b!], Tags: [mark] });
    const byKey = await cloud.ec2.describeInstances({
      Filters: [
        { Name: "tag-key", Values: [mark.Key] },
        { Name: "instance-state-name", Values: ["pending", "running"] },
      ],
    });
    expect(byKey.map((i) => i.InstanceId).sort()).toEqual([a, b].sort());
    expect(byKey[0]!.Tags).toContainEqual(mark);
    const byValue = await cloud.ec2.describeInstances({
      Filters: [{ Name: `tag:${mark.Key}`, Values: ["workers"] }],
    });
    expect(byValue).toEqual([]);
    await cloud.ec2.deleteTags({ Resources: [a!], Tags: [{ Key: mark.Key }] });
    const left = await cloud.ec2.describeInstances({
      Filters: [{ Name: "tag-key", Values: [mark.Key] }],
    });
    expect(left.map((i) => i.InstanceId)).toEqual([b]);
    await cloud.ec2.deleteTags({ Resources: [b!], Tags: [{ Key: mark.Key }] });
    await expect(
      cloud.ec2.describeInstances({ Filters: [{ Name: "no-such-filter", Values: ["x"] }] }),
    ).rejects.toMatchObject({ code: "InvalidParameterValue" });
  });

  it("turns AWS error documents into the port's errors", async () => {
    expect(
      await rejection(
        cloud.autoScaling.updateAutoScalingGroup({
          AutoScalingGroupName: "workers",
          DesiredCapacity: 99,
        }),
      ),
    ).toMatchObject({ code: "ValidationError", status: 400 });
    expect(
      await rejection(
        cloud.autoScaling.updateAutoScalingGroup({
          AutoScalingGroupName: "nope",
          DesiredCapacity: 1,
        }),
      ),
    ).toMatchObject({ code: "ValidationError" });
    expect(
      await rejection(cloud.ec2.describeInstances({ InstanceIds: ["i-0000000000000dead"] })),
    ).toMatchObject({ code: "InvalidInstanceID.NotFound" });
    expect(
      await rejection(cloud.ec2.describeLaunchTemplateVersions({ LaunchTemplateName: "nope" })),
    ).toMatchObject({ code: "InvalidLaunchTemplateId.NotFound" });
  });

  it("retries Throttling and RequestLimitExceeded and succeeds", async () => {
    server.faces.autoScaling.throttleNext = 2;
    server.faces.ec2.throttleNext = 1;
    const before = server.log.entries.length;
    expect(
      await cloud.autoScaling.describeAutoScalingGroups({ AutoScalingGroupNames: ["ingress"] }),
    ).toHaveLength(1);
    expect(
      await cloud.ec2.describeLaunchTemplateVersions({
        LaunchTemplateName: "ingress",
        Versions: ["1"],
      }),
    ).toHaveLength(1);
    const seen = server.log.entries.slice(before).map((e) => `${e.face} ${e.status}`);
    expect(seen).toEqual([
      "autoscaling 400",
      "autoscaling 400",
      "autoscaling 200",
      "ec2 503",
      "ec2 200",
    ]);
  });
});

describe("Kubernetes through kubernetesCluster() with the served kubeconfig (TLS)", () => {
  it("lists nodes a page at a time with limit and continue", async () => {
    const first = await cluster.listNodes({ limit: 5 });
    expect(first.items).toHaveLength(5);
    expect(first.metadata.continue).toBeTruthy();
    const names = first.items.map((n) => n.metadata.name);
    let cont = first.metadata.continue;
    while (cont) {
      const page = await cluster.listNodes({ limit: 5, continue: cont });
      names.push(...page.items.map((n) => n.metadata.name));
      cont = page.metadata.continue;
    }
    expect(names).toEqual(world.kube.nodeList().map((n) => n.name));
    const system = await cluster.listNodes({ labelSelector: "role=system", resourceVersion: "0" });
    expect(system.items).toHaveLength(6);
  });

  it("gets and patches a node, with a resourceVersion precondition", async () => {
    const name = world.kube.nodeList()[0]!.name;
    const node = await cluster.getNode(name);
    const patched = await cluster.patchNode(name, {
      labels: { "noderoll.io/state": "draining" },
      taints: [{ key: "noderoll.io/roll", effect: "PreferNoSchedule" }],
      unschedulable: true,
      resourceVersion: node.metadata.resourceVersion!,
    });
    expect(patched.metadata.labels?.["noderoll.io/state"]).toBe("draining");
    expect(patched.spec.unschedulable).toBe(true);
    expect(world.kube.nodes.get(name)!.taints).toEqual([
      { key: "noderoll.io/roll", effect: "PreferNoSchedule" },
    ]);
    const stale = await rejection(
      cluster.patchNode(name, {
        labels: { x: "y" },
        resourceVersion: node.metadata.resourceVersion!,
      }),
    );
    expect(stale).toMatchObject({ status: 409, reason: "Conflict" });
    await cluster.patchNode(name, {
      labels: { "noderoll.io/state": null },
      taints: [],
      unschedulable: false,
    });
    expect(world.kube.nodes.get(name)!.labels["noderoll.io/state"]).toBeUndefined();
    expect(await rejection(cluster.getNode("nope"))).toMatchObject({
      status: 404,
      reason: "NotFound",
    });
  });

  it("lists pods by node (field selector), by label, by page; gets one", async () => {
    const node = world.kube.nodeList().find((n) => n.pods.length > 1)!;
    const onNode = await cluster.listPods(undefined, {
      fieldSelector: `spec.nodeName=${node.name}`,
    });
    expect(onNode.items.map((p) => p.metadata.name).sort()).toEqual(
      [...node.pods].map((p) => p.name).sort(),
    );
    const web = await cluster.listPods("default", { labelSelector: "app=web" });
    expect(web.items).toHaveLength(3);
    const page = await cluster.listPods(undefined, { limit: 4 });
    expect(page.items).toHaveLength(4);
    expect(page.metadata.continue).toBeTruthy();
    const one = await http.json<Pod>({
      method: "GET",
      path: `/api/v1/namespaces/default/pods/${web.items[0]!.metadata.name}`,
    });
    expect(one.metadata.uid).toBe(web.items[0]!.metadata.uid);
  });

  it("evicts: 201, then 429 with the budget's cause, 404 for a missing pod; deletes a pod", async () => {
    const web = (await cluster.listPods("default", { labelSelector: "app=web" })).items;
    expect(await cluster.evictPod("default", web[0]!.metadata.name)).toEqual({ status: 201 });
    const blocked = await cluster.evictPod("default", web[1]!.metadata.name);
    expect(blocked).toMatchObject({
      status: 429,
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
    });
    expect(blocked.status === 429 && blocked.causes[0]).toMatch(
      /The disruption budget web needs 2 healthy pods/,
    );
    expect(await cluster.evictPod("default", "nope")).toMatchObject({ status: 404 });
    const legacy = (await cluster.listPods("default", { labelSelector: "app=legacy" })).items[0]!;
    await cluster.deletePod("default", legacy.metadata.name, { gracePeriodSeconds: 0 });
    expect(world.pod(`default/${legacy.metadata.name}`)).toBeUndefined();
  });

  it("lists PDBs and gets the owners of pods", async () => {
    const pdbs = await cluster.listPodDisruptionBudgets(undefined);
    expect(pdbs.items.map((p) => `${p.metadata.namespace}/${p.metadata.name}`).sort()).toEqual([
      "default/db",
      "default/web",
      "ingress/ingress-nginx",
      "kube-system/coredns",
    ]);
    const db = pdbs.items.find((p) => p.metadata.name === "db")!;
    expect(db.status.expectedPods).toBe(3);
    const rsName = world.workload("web").replicaSet!;
    const rs = await cluster.getWorkload("ReplicaSet", "default", rsName);
    expect(rs.metadata.ownerReferences?.[0]).toMatchObject({ kind: "Deployment", name: "web" });
    expect((await cluster.getWorkload("Deployment", "default", "web")).spec.replicas).toBe(3);
    expect((await cluster.getWorkload("StatefulSet", "default", "db")).spec.replicas).toBe(3);
    expect((await cluster.getWorkload("DaemonSet", "monitoring", "node-exporter")).kind).toBe(
      "DaemonSet",
    );
    expect(await rejection(cluster.getWorkload("Deployment", "default", "nope"))).toMatchObject({
      status: 404,
    });
  });

  it("creates, reads, updates and deletes a Lease, with 409s on conflicts", async () => {
    const lease = {
      metadata: { name: "noderoll-demo" },
      spec: { holderIdentity: "run-1", leaseDurationSeconds: 60 },
    };
    const created = await cluster.createLease("kube-system", lease);
    expect(created.spec.holderIdentity).toBe("run-1");
    expect(await rejection(cluster.createLease("kube-system", lease))).toMatchObject({
      status: 409,
      reason: "AlreadyExists",
    });
    const got = await cluster.getLease("kube-system", "noderoll-demo");
    const updated = await cluster.updateLease("kube-system", {
      ...got,
      spec: { ...got.spec, holderIdentity: "run-2" },
    });
    expect(updated.spec.holderIdentity).toBe("run-2");
    expect(
      await rejection(
        cluster.updateLease("kube-system", { ...got, spec: { holderIdentity: "run-3" } }),
      ),
    ).toMatchObject({ status: 409, reason: "Conflict" });
    await http.json({
      method: "DELETE",
      path: "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/noderoll-demo",
    });
    expect(await rejection(cluster.getLease("kube-system", "noderoll-demo"))).toMatchObject({
      status: 404,
    });
  });

  it("watches nodes: changes arrive as events; a too-old resourceVersion is 410", async () => {
    const list = await cluster.listNodes();
    const name = list.items[1]!.metadata.name;
    const abort = new AbortController();
    const events: WatchEvent<Node>[] = [];
    const done = (async () => {
      for await (const e of cluster.watchNodes({
        resourceVersion: list.metadata.resourceVersion,
        signal: abort.signal,
      })) {
        events.push(e);
        if (e.type === "MODIFIED" && e.object.metadata.name === name) abort.abort();
      }
    })();
    // A change made right after the list, before the watch is even open, is not lost.
    await world.cluster.patchNode(name, { labels: { watched: "yes" } });
    await done;
    expect(events.at(-1)).toMatchObject({
      type: "MODIFIED",
      object: { metadata: { name, labels: { watched: "yes" } } },
    });
    const gone = await rejection(
      (async () => {
        for await (const e of cluster.watchNodes({ resourceVersion: "1" })) void e;
      })(),
    );
    expect(gone).toBeInstanceOf(KubeApiError);
    expect(gone).toMatchObject({ status: 410 });
  });

  it("watches PodDisruptionBudgets: a status change arrives as MODIFIED; a too-old resourceVersion is 410", async () => {
    const list = await cluster.listPodDisruptionBudgets(undefined);
    // A Ready pod one budget selects: its going lowers the budget's currentHealthy.
    const pod = [...world.kube.pods.values()].find((p) => p.ready && p.pdbs.length === 1)!;
    const name = pod.pdbs[0]!.name;
    const before = list.items.find((b) => b.metadata.name === name)!;
    const abort = new AbortController();
    const events: WatchEvent<PodDisruptionBudget>[] = [];
    const done = (async () => {
      for await (const e of cluster.watchPodDisruptionBudgets(undefined, {
        resourceVersion: list.metadata.resourceVersion,
        allowWatchBookmarks: true,
        signal: abort.signal,
      })) {
        events.push(e);
        if (e.type === "MODIFIED" && e.object.metadata.name === name) abort.abort();
      }
    })();
    // The pod goes: the disruption controller writes the budget's status.
    await world.cluster.deletePod(pod.namespace, pod.name, { gracePeriodSeconds: 0 });
    await done;
    const after = events.at(-1)!.object;
    expect(after.metadata.namespace).toBe(pod.namespace);
    expect(after.status.currentHealthy).toBe(before.status.currentHealthy - 1);
    expect(Number(after.metadata.resourceVersion)).toBeGreaterThan(
      Number(list.metadata.resourceVersion),
    );
    const gone = await rejection(
      (async () => {
        for await (const e of cluster.watchPodDisruptionBudgets("default", {
          resourceVersion: "1",
        }))
          void e;
      })(),
    );
    expect(gone).toMatchObject({ status: 410 });
  });

  it("hands a 429 up with its Retry-After, which the ports honour, when the API server sheds load", async () => {
    server.faces.kubernetes.throttleNext = 3;
    server.faces.kubernetes.throttleRetryAfter = 3;
    waits.length = 0;
    const name = world.kube.nodeList()[0]!.name;
    // The adapter itself: the 429 at once, with the seconds asked for.
    expect(await rejection(cluster.getNode(name))).toMatchObject({
      status: 429,
      retryAfterSeconds: 3,
      attempts: 1,
    });
    // The ports over it (resilient.ts, the one retry layer): each Retry-After waited out once.
    const slept: number[] = [];
    const clock = { now: () => new Date(), sleep: async (ms: number) => void slept.push(ms) };
    expect((await resilient(cluster, clock).getNode(name)).metadata.name).toBe(name);
    expect(slept).toEqual([3000, 3000]);
    expect(waits).toEqual([]);
  });

  it("accepts an EKS token and refuses a missing or forged one with 401", async () => {
    const kubeConfig = new KubeConfig();
    // As connectLive does from DescribeCluster: the endpoint and its certificate authority.
    const described = await new EKSClient({
      region: "eu-west-1",
      credentials: DEFAULT_CREDENTIALS,
    }).send(new DescribeClusterCommand({ name: "demo" }));
    kubeConfig.loadFromClusterAndUser(
      {
        name: "demo",
        server: described.cluster!.endpoint!,
        skipTLSVerify: false,
        caData: described.cluster!.certificateAuthority!.data!,
      },
      { name: "eks" },
    );
    const withToken = (token: () => Promise<string>) =>
      kubernetesCluster(
        new KubeHttp({ kubeConfig, token, retry: { sleep: async () => undefined } }),
      );
    const eks = withToken(() =>
      createEksToken(
        {
          clusterName: "demo",
          region: "eu-west-1",
          credentials: DEFAULT_CREDENTIALS,
          stsEndpoint: server.url,
        },
        new Date(),
      ),
    );
    expect((await eks.listNodes({ limit: 1 })).items).toHaveLength(1);
    const other = withToken(() =>
      createEksToken(
        {
          clusterName: "prod",
          region: "eu-west-1",
          credentials: DEFAULT_CREDENTIALS,
          stsEndpoint: server.url,
        },
        new Date(),
      ),
    );
    expect(await rejection(other.listNodes())).toMatchObject({
      status: 401,
      reason: "Unauthorized",
    });
    expect(await rejection(withToken(async () => "not-a-token").listNodes())).toMatchObject({
      status: 401,
    });
  });
});
