import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEMO_SCENARIO_YAML, demoScenario } from "../../src/sandbox/scenarios/demo.js";
import { World } from "../../src/sandbox/world/world.js";

describe("the demo scenario", () => {
  it("is the same text as src/sandbox/scenarios/demo.yaml", () => {
    expect(DEMO_SCENARIO_YAML).toBe(readFileSync("src/sandbox/scenarios/demo.yaml", "utf8"));
  });

  it("builds the cluster policies/demo.yaml rolls", async () => {
    const world = new World(demoScenario());
    expect(world.scenario.cluster).toMatchObject({
      name: "demo",
      region: "eu-west-1",
      version: "1.33",
    });
    const ng = await world.cloud.eks.describeNodegroup("demo", "system");
    expect(ng.version).toBe("1.32");
    expect(ng.releaseVersion).not.toBe(world.eks.latestRelease("1.32"));
    expect(ng.scalingConfig.desiredSize).toBe(6);
    const asgs = await world.cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: ["ingress", "workers"],
    });
    expect(asgs.map((g) => [g.AutoScalingGroupName, g.Instances.length])).toEqual([
      ["ingress", 3],
      ["workers", 8],
    ]);
    for (const g of asgs) {
      const [latest] = await world.cloud.ec2.describeLaunchTemplateVersions({
        LaunchTemplateId: g.LaunchTemplate?.LaunchTemplateId as string,
        Versions: ["$Latest"],
      });
      for (const i of g.Instances)
        expect(Number(i.LaunchTemplate?.Version)).toBeLessThan(latest?.VersionNumber as number);
    }
    expect(world.settled()).toBe(true);
    expect(world.nodes("system").every((n) => n.ready)).toBe(true);
    expect(world.kube.nodes.size).toBe(17);
  });
});
