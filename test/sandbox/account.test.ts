// Several clusters in one AWS account and region (src/sandbox/world/account.ts): one clock, one
// AWS routed to the world that holds what a call names, identities AWS keeps unique kept unique
// (or the account refused), and a roll of one cluster that leaves the other as it was.
import { describe, expect, it } from "vitest";
import { apply, observeAndPlan } from "../../src/engine/index.js";
import { loadPolicy } from "../../src/policy/index.js";
import { AwsApiError, EventLog } from "../../src/ports/index.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { Account } from "../../src/sandbox/world/account.js";
import { World } from "../../src/sandbox/world/world.js";
import { ZONES } from "./helpers.js";

/** A cluster with a managed group "system", a self-managed group NAME-workers and a budgeted web. */
function cluster(name: string, seed = 1, extra: Partial<ScenarioInput> = {}): ScenarioInput {
  return {
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: { name },
    seed,
    cluster: { name, version: "1.33" },
    releases: { "1.32": ["1.32.3-20250519"], "1.33": ["1.33.1-20250715"] },
    zones: ZONES.slice(0, 3),
    nodeGroups: [
      {
        name: "system",
        type: "managed",
        version: "1.32",
        releaseVersion: "1.32.3-20250519",
        size: { min: 1, max: 9, desired: 3 },
        updateConfig: { maxUnavailable: 1 },
        capacity: { cpu: 4, memory: "16Gi", pods: 40 },
      },
      {
        name: `${name}-workers`,
        type: "self-managed",
        version: "1.33",
        size: { min: 0, max: 9, desired: 3 },
        capacity: { cpu: 4, memory: "16Gi", pods: 40 },
        launchTemplate: { versions: 2, use: "$Latest" },
        instances: [{ version: 1, count: 3 }],
      },
    ],
    workloads: [{ kind: "Deployment", name: "web", replicas: 4, pdb: { maxUnavailable: 1 } }],
    ...extra,
  };
}

const twoClusters = () => Account.from([cluster("big"), cluster("small", 2)]);

/** The error a promise rejects with (its AWS code, message and status). */
async function failure(p: Promise<unknown>): Promise<Pick<AwsApiError, "code" | "message">> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AwsApiError);
  const { code, message, status } = e as AwsApiError;
  return { code, message, status } as Pick<AwsApiError, "code" | "message">;
}

const ids = (w: World) => [...w.ec2.instances.keys()];

describe("an account of two clusters", () => {
  it("runs every world on the account's one clock", async () => {
    const account = twoClusters();
    const [big, small] = account.worlds as [World, World];
    expect(big.clock).toBe(account.clock);
    expect(small.clock).toBe(account.clock);
    // A change in one world goes on while code waits on the other world's clock.
    await account.cloud.autoScaling.updateAutoScalingGroup({
      AutoScalingGroupName: "small-workers",
      DesiredCapacity: 4,
    });
    const start = account.clock.nowMs();
    await account.run(() => big.clock.sleep(600_000));
    expect(small.instances("small-workers")).toHaveLength(4);
    expect(small.nodes("small-workers").filter((n) => n.ready)).toHaveLength(4);
    expect(big.instances("big-workers")).toHaveLength(3);
    expect(small.clock.nowMs() - start).toBe(600_000);
  });

  it("gives a world in an account the state it has alone when no id of it is taken", () => {
    const account = twoClusters();
    const alone = World.from(cluster("big"));
    const big = account.world("big");
    expect(ids(big)).toEqual(ids(alone));
    expect([...big.autoScaling.groups.keys()]).toEqual([...alone.autoScaling.groups.keys()]);
    expect([...big.ec2.templates.keys()]).toEqual([...alone.ec2.templates.keys()]);
  });

  it("routes EKS by cluster name; ListClusters names both; each cluster has its own endpoint", async () => {
    const account = twoClusters();
    const eks = account.cloud.eks;
    expect(await eks.listClusters()).toEqual(["big", "small"]);
    const servers = new Set<string>();
    for (const w of account.worlds) {
      const name = w.scenario.cluster.name;
      const c = await eks.describeCluster(name);
      expect(c).toMatchObject({ name, arn: `arn:aws:eks:eu-west-1:123456789012:cluster/${name}` });
      expect(c.endpoint).toBe(w.cluster.endpoint.server);
      servers.add(c.endpoint!);
      expect(await eks.listNodegroups(name)).toEqual(["system"]);
      const ng = await eks.describeNodegroup(name, "system");
      expect(ng.clusterName).toBe(name);
      expect(ng.resources.autoScalingGroups[0]!.name).toBe(w.asg("system").name);
    }
    expect(servers.size).toBe(2);
    const update = await eks.updateNodegroupVersion({
      clusterName: "small",
      nodegroupName: "system",
      version: "1.33",
    });
    const ofSystem = { nodegroupName: "system" };
    expect(await eks.listUpdates({ name: "small", ...ofSystem })).toEqual([update.id]);
    expect(await eks.listUpdates({ name: "big", ...ofSystem })).toEqual([]);
    expect((await eks.describeUpdate({ name: "small", updateId: update.id })).id).toBe(update.id);
    await account.cloud.eks.updateNodegroupConfig({
      clusterName: "big",
      nodegroupName: "system",
      updateConfig: { maxUnavailable: 2 },
    });
    await account.advance(3600_000);
    expect(account.world("small").eks.nodegroups.get("system")!.version).toBe("1.33");
    expect(account.world("big").eks.nodegroups.get("system")!.version).toBe("1.32");
    expect(account.world("big").eks.nodegroups.get("system")!.updateConfig.maxUnavailable).toBe(2);
    expect(account.world("small").eks.nodegroups.get("system")!.updateConfig.maxUnavailable).toBe(
      1,
    );
    // A cluster no world has: the error one world alone gives.
    const alone = World.from(cluster("big"));
    for (const call of [
      (e: typeof eks) => e.describeCluster("other"),
      (e: typeof eks) => e.listNodegroups("other"),
      (e: typeof eks) => e.describeNodegroup("other", "system"),
      (e: typeof eks) => e.listUpdates({ name: "other" }),
    ])
      expect(await failure(call(eks))).toEqual(await failure(call(alone.cloud.eks)));
    expect(await failure(eks.describeCluster("other"))).toMatchObject({
      code: "ResourceNotFoundException",
    });
    // Each update belongs to its cluster: small's id is not big's.
    expect(await failure(eks.describeUpdate({ name: "big", updateId: update.id }))).toMatchObject({
      code: "ResourceNotFoundException",
    });
  });

  it("describes Auto Scaling groups of every world, by name, by tag and all; writes go to the owner", async () => {
    const account = twoClusters();
    const as = account.cloud.autoScaling;
    const big = account.world("big");
    const small = account.world("small");
    const names = (gs: { AutoScalingGroupName: string }[]) =>
      gs.map((g) => g.AutoScalingGroupName).sort();
    expect(names(await as.describeAutoScalingGroups({}))).toEqual(
      [...big.autoScaling.groups.keys(), ...small.autoScaling.groups.keys()].sort(),
    );
    expect(
      names(
        await as.describeAutoScalingGroups({
          AutoScalingGroupNames: ["big-workers", "small-workers", "nobody"],
        }),
      ),
    ).toEqual(["big-workers", "small-workers"]);
    expect(await as.describeAutoScalingGroups({ AutoScalingGroupNames: ["nobody"] })).toEqual([]);
    expect(
      names(
        await as.describeAutoScalingGroups({
          Filters: [{ Name: "tag:kubernetes.io/cluster/small", Values: ["owned"] }],
        }),
      ),
    ).toEqual([...small.autoScaling.groups.keys()].sort());

    await as.updateAutoScalingGroup({ AutoScalingGroupName: "small-workers", MaxSize: 7 });
    await as.setDesiredCapacity({ AutoScalingGroupName: "small-workers", DesiredCapacity: 2 });
    expect(small.sizes("small-workers")).toEqual({ min: 0, max: 7, desired: 2 });
    expect(big.sizes("big-workers")).toEqual({ min: 0, max: 9, desired: 3 });

    await as.suspendProcesses({
      AutoScalingGroupName: "big-workers",
      ScalingProcesses: ["Launch"],
    });
    expect([...big.asg("big-workers").suspended]).toEqual(["Launch"]);
    await as.resumeProcesses({ AutoScalingGroupName: "big-workers" });
    expect(big.asg("big-workers").suspended.size).toBe(0);

    const [detach, terminate] = big.instances("big-workers").map((i) => i.id);
    const detached = await as.detachInstances({
      AutoScalingGroupName: "big-workers",
      InstanceIds: [detach!],
      ShouldDecrementDesiredCapacity: false,
    });
    expect(detached[0]!.AutoScalingGroupName).toBe("big-workers");
    const ended = await as.terminateInstanceInAutoScalingGroup({
      InstanceId: terminate!,
      ShouldDecrementDesiredCapacity: true,
    });
    expect(ended.AutoScalingGroupName).toBe("big-workers");
    expect(big.sizes("big-workers").desired).toBe(2);
    expect(
      (await as.describeScalingActivities({ AutoScalingGroupName: "big-workers" })).length,
    ).toBeGreaterThanOrEqual(2);
    expect(await as.describeScalingActivities({ AutoScalingGroupName: "small-workers" })).toEqual(
      await small.cloud.autoScaling.describeScalingActivities({
        AutoScalingGroupName: "small-workers",
      }),
    );

    await as.createOrUpdateTags({
      Tags: [
        { Key: "team", Value: "a", ResourceId: "big-workers" },
        { Key: "team", Value: "b", ResourceId: "small-workers" },
      ],
    });
    expect(big.asg("big-workers").tags.find((t) => t.Key === "team")?.Value).toBe("a");
    expect(small.asg("small-workers").tags.find((t) => t.Key === "team")?.Value).toBe("b");
    // One tag on a group no world holds: nothing is tagged.
    await expect(
      as.createOrUpdateTags({
        Tags: [
          { Key: "x", Value: "1", ResourceId: "big-workers" },
          { Key: "x", Value: "1", ResourceId: "nobody" },
        ],
      }),
    ).rejects.toMatchObject({ code: "ValidationError" });
    expect(big.asg("big-workers").tags.some((t) => t.Key === "x")).toBe(false);

    // A group or instance no world holds: the error one world alone gives.
    const alone = World.from(cluster("big"));
    const strangers = [
      (a: typeof as) => a.updateAutoScalingGroup({ AutoScalingGroupName: "nobody", MinSize: 1 }),
      (a: typeof as) =>
        a.detachInstances({
          AutoScalingGroupName: "nobody",
          InstanceIds: ["i-0123"],
          ShouldDecrementDesiredCapacity: false,
        }),
      (a: typeof as) =>
        a.terminateInstanceInAutoScalingGroup({
          InstanceId: "i-0123",
          ShouldDecrementDesiredCapacity: false,
        }),
      (a: typeof as) => a.suspendProcesses({ AutoScalingGroupName: "nobody" }),
    ];
    for (const call of strangers)
      expect(await failure(call(as))).toEqual(await failure(call(alone.cloud.autoScaling)));
    // Another world's instance is not this group's.
    await expect(
      as.detachInstances({
        AutoScalingGroupName: "big-workers",
        InstanceIds: [small.instances("small-workers")[0]!.id],
        ShouldDecrementDesiredCapacity: false,
      }),
    ).rejects.toMatchObject({ code: "ValidationError" });
  });

  it("answers EC2 for every world's instances and launch templates", async () => {
    const account = twoClusters();
    const ec2 = account.cloud.ec2;
    const big = account.world("big");
    const small = account.world("small");
    const mixed = [
      small.instances("small-workers")[0]!.id,
      big.instances("big-workers")[0]!.id,
      small.instances("system")[1]!.id,
    ];
    expect((await ec2.describeInstances({ InstanceIds: mixed })).map((i) => i.InstanceId)).toEqual(
      mixed,
    );
    const running = await ec2.describeInstances({
      Filters: [{ Name: "instance-state-name", Values: ["running"] }],
    });
    expect(running.map((i) => i.InstanceId).sort()).toEqual([...ids(big), ...ids(small)].sort());
    const tagged = await ec2.describeInstances({
      Filters: [{ Name: "tag:aws:autoscaling:groupName", Values: ["small-workers"] }],
    });
    expect(tagged.map((i) => i.InstanceId).sort()).toEqual(
      small
        .instances("small-workers")
        .map((i) => i.id)
        .sort(),
    );

    await ec2.createTags({ Resources: mixed, Tags: [{ Key: "mark", Value: "1" }] });
    for (const id of mixed)
      expect(
        (big.ec2.instances.get(id) ?? small.ec2.instances.get(id))!.tags.some(
          (t) => t.Key === "mark",
        ),
      ).toBe(true);
    await ec2.deleteTags({ Resources: mixed, Tags: [{ Key: "mark" }] });
    expect(
      (await ec2.describeInstances({ Filters: [{ Name: "tag-key", Values: ["mark"] }] })).length,
    ).toBe(0);

    // An id no world holds: EC2's error, and nothing happens to the others named with it.
    const alone = World.from(cluster("big"));
    const unknown = { InstanceIds: [mixed[0]!, "i-0000000000000000f"] };
    expect(await failure(ec2.describeInstances(unknown))).toEqual(
      await failure(alone.cloud.ec2.describeInstances({ InstanceIds: ["i-0000000000000000f"] })),
    );
    await expect(ec2.terminateInstances(unknown)).rejects.toMatchObject({
      code: "InvalidInstanceID.NotFound",
    });
    expect(small.ec2.instances.get(mixed[0]!)!.state).toBe("running");

    await ec2.terminateInstances({ InstanceIds: [mixed[0]!] });
    expect(small.ec2.instances.get(mixed[0]!)!.state).not.toBe("running");

    for (const w of [big, small]) {
      const t = w.ec2.template(w.asg(`${w.scenario.cluster.name}-workers`).ltId);
      const byId = await ec2.describeLaunchTemplateVersions({ LaunchTemplateId: t.id });
      const byName = await ec2.describeLaunchTemplateVersions({ LaunchTemplateName: t.name });
      expect(byId.map((v) => v.LaunchTemplateId)).toEqual([t.id, t.id]);
      expect(byName).toEqual(byId);
    }
    expect(
      await failure(ec2.describeLaunchTemplateVersions({ LaunchTemplateId: "lt-0nobody" })),
    ).toEqual(
      await failure(
        alone.cloud.ec2.describeLaunchTemplateVersions({ LaunchTemplateId: "lt-0nobody" }),
      ),
    );
  });
});

describe("identities an account keeps unique", () => {
  const refused = (scenarios: ScenarioInput[]) => {
    try {
      Account.from(scenarios);
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error("the account was made");
  };

  it("refuses two clusters of one name, and says which scenario and what to change", () => {
    const other = cluster("big", 2, {
      nodeGroups: cluster("other").nodeGroups,
    });
    expect(refused([cluster("big"), other])).toMatch(
      /scenario 2 \(cluster big\): EKS cluster "big" is also scenario 1 \(cluster big\)'s; cluster names are unique in an account and region: rename one \(cluster\.name\)/,
    );
  });

  it("refuses an Auto Scaling group name and a launch template name two scenarios give", () => {
    const small = cluster("small", 2);
    small.nodeGroups[1]!.name = "big-workers";
    const message = refused([cluster("big"), small]);
    expect(message).toMatch(
      /scenario 2 \(cluster small\): Auto Scaling group "big-workers" is also scenario 1 \(cluster big\)'s; .*rename the node group/,
    );
    expect(message).toMatch(/launch template "big-workers" is also scenario 1 \(cluster big\)'s/);
    // The template alone, named on both sides.
    const named = cluster("small", 2);
    named.nodeGroups[1]!.launchTemplate = { versions: 2, use: "$Latest", name: "shared" };
    const big = cluster("big");
    big.nodeGroups[1]!.launchTemplate = { versions: 2, use: "$Latest", name: "shared" };
    expect(refused([big, named])).toMatch(
      /^these scenarios cannot be one AWS account and region:\n {2}scenario 2 \(cluster small\): launch template "shared" is also scenario 1 \(cluster big\)'s; .*launchTemplate\.name$/,
    );
  });

  it("refuses another region, another start, and another latest release of a version", () => {
    const message = refused([
      cluster("big"),
      cluster("small", 2, {
        cluster: { name: "small", version: "1.33", region: "us-east-1" },
        start: "2026-03-02T08:00:00Z",
        releases: { "1.32": ["1.32.3-20250519", "1.32.5-20250715"], "1.33": ["1.33.1-20250715"] },
      }),
    ]);
    expect(message).toMatch(
      /its cluster is in us-east-1, scenario 1 \(cluster big\)'s in eu-west-1/,
    );
    expect(message).toMatch(/it starts at 2026-03-02T08:00:00Z/);
    expect(message).toMatch(
      /releases\."1\.32" ends with 1\.32\.5-20250715, .* with 1\.32\.3-20250519/,
    );
  });

  it("names a scenario by its file where it has one", () => {
    const yaml = (name: string) =>
      `apiVersion: noderoll.io/v1\nkind: SandboxScenario\nmetadata: { name: ${name} }\ncluster: { name: same, version: "1.33" }\nzones: [eu-west-1a]\nnodeGroups:\n  - { name: ${name}, type: self-managed, size: { min: 0, max: 2, desired: 1 } }\n`;
    expect(() =>
      Account.fromYaml([
        { text: yaml("a"), file: "a.yaml" },
        { text: yaml("b"), file: "b.yaml" },
      ]),
    ).toThrow(/scenario b\.yaml \(cluster same\): EKS cluster "same" is also scenario a\.yaml/);
  });

  it("never lets two worlds share an instance id, a template id or a drawn name, whatever their seeds", async () => {
    // mulberry32's state moves by a constant per draw, so seed + k × that constant is the
    // same stream k draws on: the same seed, and streams 38 draws on and behind (a launch's
    // draws apart), whose ids meet when the worlds are built alone.
    const STEP = 0x6d2b79f5;
    for (const seed of [1, (1 + 38 * STEP) >>> 0, (1 - 38 * STEP) >>> 0]) {
      const a = cluster("big");
      const b = cluster("small", seed);
      // Alone, the two draw the same ids: what the account must prevent.
      const overlap = ids(World.from(a)).filter((id) => ids(World.from(b)).includes(id));
      expect(overlap.length, `seed ${seed}`).toBeGreaterThan(0);
      const account = Account.from([a, b]);
      const drawn = (w: World) => [
        ...ids(w),
        ...w.ec2.templates.keys(),
        ...[...w.ec2.templates.values()].map((t) => t.name),
        ...w.autoScaling.groups.keys(),
      ];
      // Both roll every group, launching new instances with ids drawn as they boot.
      for (const w of account.worlds)
        for (const g of w.autoScaling.groups.keys())
          await account.cloud.autoScaling.updateAutoScalingGroup({
            AutoScalingGroupName: g,
            DesiredCapacity: 6,
          });
      await account.advance(1800_000);
      const [big, small] = account.worlds as [World, World];
      expect(ids(big).length + ids(small).length).toBe(24);
      const theirs = new Set(drawn(small));
      expect(
        drawn(big).filter((x) => theirs.has(x)),
        `seed ${seed}`,
      ).toEqual([]);
    }
  });
});

describe("a roll of one cluster of the account", () => {
  it("rolls it through the account's AWS and leaves the other cluster as it was", async () => {
    const account = twoClusters();
    const big = account.world("big");
    const small = account.world("small");
    const state = (w: World) => ({
      instances: [...w.ec2.instances.values()].map((i) => [
        i.id,
        i.state,
        i.lifecycle,
        i.ltVersion,
      ]),
      groups: [...w.autoScaling.groups.values()].map((g) => [g.name, g.min, g.max, g.desired]),
      nodes: [...w.kube.nodes.values()].map((n) => [n.name, n.unschedulable, n.taints, n.labels]),
      nodegroup: w.eks.nodegroups.get("system"),
    });
    const before = structuredClone(state(small));
    const r = loadPolicy(
      `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata: { name: big }
cluster: { name: big, region: eu-west-1 }
defaults: { maxSurge: 1, postDrainDelay: 5s, interval: 15s }
groups:
  - name: system
    target: { kubernetesVersion: "1.33", releaseVersion: latest }
  - name: big-workers
    target: { launchTemplateVersion: $Latest }
`,
      "policy.yaml",
    );
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
    const ports = account.ports("big");
    const { plan } = await account.run(observeAndPlan(r.policy, "policy.yaml", ports, {}));
    expect(plan.summary.nodesToReplace).toBe(6);
    const log = new EventLog(account.clock);
    const result = await account.run(
      apply(r.policy, plan, ports, log, { runId: "test-run" }),
      48 * 3600_000,
    );
    expect(result).toMatchObject({ result: "success" });
    expect(big.instances("big-workers").every((i) => i.ltVersion === 2)).toBe(true);
    expect(big.eks.nodegroups.get("system")!.version).toBe("1.33");
    expect(state(small)).toEqual(before);
    expect(
      small.timeline.events.filter((e) => /detach|terminat|cordon|taint|resize|eks\./.test(e.type)),
    ).toEqual([]);
  });
});
