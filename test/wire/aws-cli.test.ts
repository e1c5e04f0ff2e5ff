// The aws CLI — v2 from Debian's awscli in CI, or whichever `aws` is on PATH — against the
// sandbox with --endpoint-url: EKS (REST-JSON), Auto Scaling and EC2 (query protocol, XML).
// Its parsed JSON output is asserted, so the faces are only as right as a real client agrees.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { World } from "../../src/sandbox/world/world.js";
import { available, AWS, awsCli } from "./clients.js";

const hasAws = await available(AWS);
if (!hasAws) console.warn("no aws CLI on PATH: skipping the aws CLI wire tests");

let world: World;
let server: SandboxServer;
const dir = mkdtempSync(join(tmpdir(), "noderoll-aws-"));

const aws = awsCli(dir, () => server.url);

beforeAll(async () => {
  world = World.demo();
  // Time stands still unless a test moves it, so the answers are exact.
  server = await serveSandbox(world, { speed: 0, instant: false });
});
afterAll(() => server?.close());

describe.skipIf(!hasAws)("aws CLI against sandbox serve", () => {
  it("eks describe-nodegroup", async () => {
    const { nodegroup } = (await aws(
      "eks",
      "describe-nodegroup",
      "--cluster-name",
      "demo",
      "--nodegroup-name",
      "system",
    )) as {
      nodegroup: Record<string, unknown> & {
        scalingConfig: Record<string, number>;
        resources: { autoScalingGroups: { name: string }[] };
      };
    };
    expect(nodegroup).toMatchObject({
      nodegroupName: "system",
      clusterName: "demo",
      version: "1.32",
      releaseVersion: "1.32.3-20250519",
      status: "ACTIVE",
    });
    expect(nodegroup.scalingConfig).toEqual({ minSize: 3, maxSize: 9, desiredSize: 6 });
    expect(nodegroup.resources.autoScalingGroups[0]!.name).toBe(world.asg("system").name);
  });

  it("eks update-nodegroup-version, then describe-update", async () => {
    const { update } = (await aws(
      "eks",
      "update-nodegroup-version",
      "--cluster-name",
      "demo",
      "--nodegroup-name",
      "system",
      "--kubernetes-version",
      "1.33",
    )) as {
      update: {
        id: string;
        status: string;
        type: string;
        params: { type: string; value: string }[];
      };
    };
    expect(update).toMatchObject({ status: "InProgress", type: "VersionUpdate" });
    expect(update.params).toContainEqual({ type: "Version", value: "1.33" });
    const described = (await aws(
      "eks",
      "describe-update",
      "--name",
      "demo",
      "--nodegroup-name",
      "system",
      "--update-id",
      update.id,
    )) as {
      update: { id: string; status: string };
    };
    expect(described.update).toMatchObject({ id: update.id, status: "InProgress" });
  });

  it("autoscaling describe-auto-scaling-groups", async () => {
    const r = (await aws(
      "autoscaling",
      "describe-auto-scaling-groups",
      "--auto-scaling-group-names",
      "workers",
    )) as {
      AutoScalingGroups: {
        AutoScalingGroupName: string;
        DesiredCapacity: number;
        MinSize: number;
        MaxSize: number;
        Instances: { InstanceId: string; LaunchTemplate: { Version: string } }[];
        LaunchTemplate: { Version: string };
      }[];
    };
    expect(r.AutoScalingGroups).toHaveLength(1);
    const g = r.AutoScalingGroups[0]!;
    expect(g).toMatchObject({
      AutoScalingGroupName: "workers",
      DesiredCapacity: 8,
      MinSize: 4,
      MaxSize: 12,
    });
    expect(g.LaunchTemplate.Version).toBe("$Latest");
    expect(g.Instances).toHaveLength(8);
    expect(new Set(g.Instances.map((i) => i.LaunchTemplate.Version))).toEqual(new Set(["6"]));
  });

  it("autoscaling terminate-instance-in-auto-scaling-group", async () => {
    const victim = world.instances("workers")[0]!.id;
    const { Activity } = (await aws(
      "autoscaling",
      "terminate-instance-in-auto-scaling-group",
      "--instance-id",
      victim,
      "--should-decrement-desired-capacity",
    )) as {
      Activity: { AutoScalingGroupName: string; Description: string; StatusCode: string };
    };
    expect(Activity.AutoScalingGroupName).toBe("workers");
    expect(Activity.Description).toContain(victim);
    expect(world.sizes("workers").desired).toBe(7);
  });

  it("ec2 describe-launch-template-versions", async () => {
    const r = (await aws(
      "ec2",
      "describe-launch-template-versions",
      "--launch-template-name",
      "workers",
      "--versions",
      "$Latest",
      "$Default",
      "6",
    )) as {
      LaunchTemplateVersions: {
        LaunchTemplateName: string;
        VersionNumber: number;
        DefaultVersion: boolean;
        LaunchTemplateData: { ImageId: string };
      }[];
    };
    expect(r.LaunchTemplateVersions.map((v) => v.VersionNumber)).toEqual([7, 7, 6]);
    expect(r.LaunchTemplateVersions[0]).toMatchObject({
      LaunchTemplateName: "workers",
      DefaultVersion: true,
    });
    expect(r.LaunchTemplateVersions[0]!.LaunchTemplateData.ImageId).toMatch(/^ami-/);
  });

  it("ec2 describe-launch-templates and describe-instances", async () => {
    const t = (await aws(
      "ec2",
      "describe-launch-templates",
      "--launch-template-names",
      "ingress",
    )) as {
      LaunchTemplates: {
        LaunchTemplateName: string;
        DefaultVersionNumber: number;
        LatestVersionNumber: number;
      }[];
    };
    expect(t.LaunchTemplates).toEqual([
      expect.objectContaining({
        LaunchTemplateName: "ingress",
        DefaultVersionNumber: 3,
        LatestVersionNumber: 3,
      }),
    ]);
    const ids = world.instances("ingress").map((i) => i.id);
    const r = (await aws("ec2", "describe-instances", "--instance-ids", ...ids)) as {
      Reservations: {
        Instances: { InstanceId: string; State: { Name: string }; InstanceType: string }[];
      }[];
    };
    const instances = r.Reservations.flatMap((x) => x.Instances);
    expect(instances.map((i) => i.InstanceId)).toEqual(ids);
    expect(
      instances.every((i) => i.State.Name === "running" && i.InstanceType === "c6i.large"),
    ).toBe(true);
  });

  it("reports the service's error code on failure", async () => {
    await expect(
      aws("eks", "describe-nodegroup", "--cluster-name", "demo", "--nodegroup-name", "nope"),
    ).rejects.toThrow(/ResourceNotFoundException/);
    await expect(
      aws(
        "autoscaling",
        "set-desired-capacity",
        "--auto-scaling-group-name",
        "workers",
        "--desired-capacity",
        "99",
      ),
    ).rejects.toThrow(/ValidationError/);
  });
});
