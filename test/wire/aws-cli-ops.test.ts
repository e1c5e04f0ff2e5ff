// Every EKS, Auto Scaling and EC2 operation noderoll calls, or a person debugging a roll with the
// aws CLI would, against `sandbox serve`: each answered in the shape the CLI parses (its JSON
// output is asserted), paginated lists followed to their end by the CLI itself.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { World } from "../../src/sandbox/world/world.js";
import { available, AWS, awsCli } from "./clients.js";

const hasAws = await available(AWS);
if (!hasAws) console.warn("no aws CLI on PATH: skipping the aws CLI operation tests");

let world: World;
let server: SandboxServer;
const dir = mkdtempSync(join(tmpdir(), "noderoll-aws-ops-"));

const aws = awsCli(dir, () => server.url);

beforeAll(async () => {
  world = World.demo();
  server = await serveSandbox(world, { speed: 0, instant: false });
});
afterAll(() => server?.close());

describe.skipIf(!hasAws)("aws CLI: the operations of a roll and of debugging one", () => {
  it("eks list-clusters, describe-cluster and update-kubeconfig", async () => {
    expect(await aws("eks", "list-clusters")).toEqual({ clusters: ["demo"] });
    const { cluster } = (await aws("eks", "describe-cluster", "--name", "demo")) as {
      cluster: { name: string; endpoint: string; certificateAuthority: { data: string } };
    };
    expect(cluster.endpoint).toBe(server.endpoints.kubernetes);
    expect((await aws("eks", "update-kubeconfig", "--name", "demo")).text).toMatch(/kubeconfig/);
    expect(readFileSync(join(dir, "kubeconfig"), "utf8")).toContain(server.endpoints.kubernetes);
  });

  it("eks list-nodegroups, and list-updates followed page by page to the end", async () => {
    expect(await aws("eks", "list-nodegroups", "--cluster-name", "demo")).toEqual({
      nodegroups: ["system"],
    });
    const made: string[] = [];
    for (const n of [2, 3, 1, 2, 3]) {
      const u = await world.cloud.eks.updateNodegroupConfig({
        clusterName: "demo",
        nodegroupName: "system",
        updateConfig: { maxUnavailable: n },
      });
      made.push(u.id);
      await world.waitForUpdate(u.id);
    }
    const { updateIds } = (await aws(
      "eks",
      "list-updates",
      "--name",
      "demo",
      "--nodegroup-name",
      "system",
    )) as { updateIds: string[] };
    // Pages of three ids: the CLI followed nextToken to gather all five.
    expect([...updateIds].sort()).toEqual([...made].sort());
    expect(server.log.entries.filter((e) => e.resource === "ListUpdates").length).toBe(2);
    const { update } = (await aws(
      "eks",
      "describe-update",
      "--name",
      "demo",
      "--nodegroup-name",
      "system",
      "--update-id",
      made[0]!,
    )) as { update: { status: string; type: string } };
    expect(update).toMatchObject({ status: "Successful", type: "ConfigUpdate" });
  });

  it("autoscaling describe-auto-scaling-instances, describe-tags, describe-scaling-activities", async () => {
    const { AutoScalingInstances } = (await aws(
      "autoscaling",
      "describe-auto-scaling-instances",
    )) as {
      AutoScalingInstances: {
        InstanceId: string;
        AutoScalingGroupName: string;
        HealthStatus: string;
      }[];
    };
    const all = [...world.autoScaling.groups.values()].reduce((n, g) => n + g.instances.size, 0);
    expect(AutoScalingInstances).toHaveLength(all);
    expect(AutoScalingInstances.filter((i) => i.AutoScalingGroupName === "workers")).toHaveLength(
      8,
    );
    expect(new Set(AutoScalingInstances.map((i) => i.HealthStatus))).toEqual(new Set(["HEALTHY"]));
    const { Tags } = (await aws(
      "autoscaling",
      "describe-tags",
      "--filters",
      "Name=auto-scaling-group,Values=workers",
    )) as { Tags: { ResourceId: string; Key: string; Value: string }[] };
    expect(Tags).toContainEqual(
      expect.objectContaining({
        ResourceId: "workers",
        Key: "kubernetes.io/cluster/demo",
        Value: "owned",
      }),
    );
    expect(await aws("autoscaling", "describe-scaling-activities")).toHaveProperty("Activities");
  });

  it("autoscaling update-auto-scaling-group and detach-instances, as a roll makes them", async () => {
    await aws(
      "autoscaling",
      "update-auto-scaling-group",
      "--auto-scaling-group-name",
      "workers",
      "--launch-template",
      "LaunchTemplateName=workers,Version=$Latest",
    );
    const victim = world.instances("workers")[0]!.id;
    const { Activities } = (await aws(
      "autoscaling",
      "detach-instances",
      "--auto-scaling-group-name",
      "workers",
      "--instance-ids",
      victim,
      "--no-should-decrement-desired-capacity",
    )) as { Activities: { Description: string }[] };
    expect(Activities[0]!.Description).toContain(victim);
    expect(world.instances("workers").some((i) => i.id === victim)).toBe(false);
  });

  it("ec2 describe-instance-status, describe-availability-zones, terminate-instances", async () => {
    const ids = world.instances("ingress").map((i) => i.id);
    const { InstanceStatuses } = (await aws(
      "ec2",
      "describe-instance-status",
      "--instance-ids",
      ...ids,
    )) as { InstanceStatuses: { InstanceId: string; InstanceState: { Name: string } }[] };
    expect(InstanceStatuses.map((s) => s.InstanceId)).toEqual(ids);
    const { AvailabilityZones } = (await aws("ec2", "describe-availability-zones")) as {
      AvailabilityZones: { ZoneName: string; State: string }[];
    };
    expect(AvailabilityZones.map((z) => z.ZoneName)).toEqual(world.scenario.zones);
    const detached = [...world.ec2.instances.values()].find((i) => !i.asg)!;
    const { TerminatingInstances } = (await aws(
      "ec2",
      "terminate-instances",
      "--instance-ids",
      detached.id,
    )) as { TerminatingInstances: { CurrentState: { Name: string } }[] };
    expect(TerminatingInstances[0]!.CurrentState.Name).toBe("shutting-down");
  });
});
