// EKS as its API reference has it, met by the managed engine: updates listed in no order and a
// few ids a page, an update in progress followed rather than started again, the upgrade phase
// reported when EKS taints the old nodes (under either cordon behaviour), and launch templates
// with a custom AMI or with EKS's.
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { ofType, policyFor, roll } from "./scenarios.js";

const policy = (target = 'kubernetesVersion: "1.33"') =>
  policyFor(`groups: [{ name: ng, target: { ${target} } }]\n`, "test");

describe("an EKS update in progress", () => {
  it("is found among many updates listed in no order, and followed instead of started again", async () => {
    const world = World.from(managedScenario({ zones: 2, nodes: 4, seed: 2 }));
    // A long history of config updates, then a version update an earlier run started.
    for (let i = 0; i < 24; i++) {
      const u = await world.cloud.eks.updateNodegroupConfig({
        clusterName: "test",
        nodegroupName: "ng",
        updateConfig: { maxUnavailable: 1 + (i % 2) },
      });
      await world.waitForUpdate(u.id);
    }
    await world.cloud.eks.updateNodegroupConfig({
      clusterName: "test",
      nodegroupName: "ng",
      updateConfig: { maxUnavailable: 1 },
    });
    await world.advance(60_000);
    const running = await world.cloud.eks.updateNodegroupVersion({
      clusterName: "test",
      nodegroupName: "ng",
      version: "1.33",
    });
    const ids = await world.cloud.eks.listUpdates({ name: "test", nodegroupName: "ng" });
    expect(ids).toHaveLength(26);
    // Not newest first (the scenario replays exactly: with this seed the update in progress is
    // listed after the first five ids, where looking at the first few would miss it).
    expect(ids.indexOf(running.id)).toBeGreaterThan(4);
    const { result, events } = await roll(world, policy());
    expect(result.result).toBe("success");
    expect(ofType(events, "note").some((n) => n.message.includes(running.id))).toBe(true);
    const versionUpdates = [...world.eks.updates.values()].filter(
      (u) => u.update.type === "VersionUpdate",
    );
    expect(versionUpdates).toHaveLength(1);
  });
});

describe("the upgrade phase starts when EKS taints the old nodes", () => {
  // A budget that allows nothing for the first 10 minutes of the update: EKS's drain of the
  // first old node waits, which must be reported as the upgrade it is, not as scale-up.
  const world = (cordon: "after-drain" | "when-new-nodes-ready") =>
    World.from(
      managedScenario({
        zones: 2,
        nodes: 4,
        workloads: [{ kind: "Deployment", name: "web", replicas: 4, pdb: { maxUnavailable: 1 } }],
        extra: { eks: { cordon } } as Partial<ScenarioInput>,
      }),
    );
  it.each(["after-drain", "when-new-nodes-ready"] as const)("cordon %s", async (cordon) => {
    const w = world(cordon);
    const budget = (n: number) => {
      const pdb = w.pdb("default", "web")!;
      pdb.maxUnavailable = n;
      pdb.dirty = true;
    };
    const relax = (e: { type: string; updateType?: string }) => {
      if (e.type !== "eks.update" || e.updateType !== "VersionUpdate") return;
      budget(0);
      w.clock.after(10 * 60_000, () => budget(1));
    };
    const { result, events } = await roll(w, policy(), {}, 48 * 3600_000, relax);
    expect(result.message).toBe("1 group rolled");
    const eksUpgrade = w.timeline.first("eks.phase.start", { phase: "upgrade" })!;
    const reported = ofType(events, "phase.start").find((e) => e.phase === "upgrade")!;
    const lag = Date.parse(reported.t) - eksUpgrade.at;
    // Seen within one poll of DescribeUpdate (15 s), long before the first old node is
    // cordoned after its 10-minute drain.
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThanOrEqual(20_000);
    const firstCordon = w.timeline.of("node.cordon").find((e) => e.by === "eks")!;
    if (cordon === "after-drain")
      expect(firstCordon.at - eksUpgrade.at).toBeGreaterThan(5 * 60_000);
    else expect(firstCordon.at).toBeLessThanOrEqual(eksUpgrade.at);
  });
});

describe("launch templates, as EKS takes them", () => {
  const withTemplate = (ami: "custom" | "eks-optimized") =>
    World.from(
      managedScenario({
        zones: 2,
        nodes: 2,
        group: { launchTemplate: { versions: 2, use: 1, ami } } as never,
      }),
    );

  it("a custom AMI: a Kubernetes version alone is a plan blocker; a launch template version rolls, sending no version", async () => {
    const blocked = withTemplate("custom");
    const { plan } = await blocked.run(observeAndPlan(policy(), "p.yaml", blocked));
    expect(plan.groups[0]!.status).toBe("blocked");
    expect(plan.groups[0]!.findings.map((f) => f.code)).toContain("custom-ami-version");
    // EKS itself refuses a version with such a template.
    await expect(
      blocked.cloud.eks.updateNodegroupVersion({
        clusterName: "test",
        nodegroupName: "ng",
        version: "1.33",
        launchTemplate: { id: blocked.eks.nodegroups.get("ng")!.ltId, version: "2" },
      }),
    ).rejects.toMatchObject({ code: "InvalidParameterException" });
    const world = withTemplate("custom");
    const r = await roll(world, policy('kubernetesVersion: "1.33", launchTemplateVersion: 2'));
    expect(r.result.result).toBe("success");
    const update = [...world.eks.updates.values()].find((u) => u.update.type === "VersionUpdate")!;
    expect(update.update.params).toContainEqual({ type: "LaunchTemplateVersion", value: "2" });
    expect(world.instances("ng").every((i) => i.ltVersion === 2)).toBe(true);
  });

  it("a custom AMI: an update in progress to the launch template version is the plan's, followed, not started again", async () => {
    const world = withTemplate("custom");
    // An earlier run's update, as versionInput sends it for a custom AMI: the version alone.
    const running = await world.cloud.eks.updateNodegroupVersion({
      clusterName: "test",
      nodegroupName: "ng",
      launchTemplate: { id: world.eks.nodegroups.get("ng")!.ltId, version: "2" },
    });
    const target = policy('kubernetesVersion: "1.33", launchTemplateVersion: 2');
    const { plan } = await world.run(observeAndPlan(target, "p.yaml", world));
    expect(plan.groups[0]!.findings.map((f) => f.message).join()).toMatch(
      /this plan's target: apply follows it/,
    );
    const { result, events } = await roll(world, target);
    expect(result.result).toBe("success");
    expect(ofType(events, "note").some((n) => n.message.includes(running.id))).toBe(true);
    const versionUpdates = [...world.eks.updates.values()].filter(
      (u) => u.update.type === "VersionUpdate",
    );
    expect(versionUpdates).toHaveLength(1);
  });

  it("an EKS optimized AMI in the customer's template: the planned release is sent and launched", async () => {
    const world = withTemplate("eks-optimized");
    const r = await roll(
      world,
      policy('kubernetesVersion: "1.33", releaseVersion: "1.33.1-20250715"'),
    );
    expect(r.result.result).toBe("success");
    const update = [...world.eks.updates.values()].find((u) => u.update.type === "VersionUpdate")!;
    expect(update.update.params).toContainEqual({
      type: "ReleaseVersion",
      value: "1.33.1-20250715",
    });
    const ami = world.eks.amiFor("1.33.1-20250715");
    expect(world.instances("ng").every((i) => i.imageId === ami)).toBe(true);
    expect(
      world
        .nodes("ng")
        .filter((n) => !n.deleted)
        .every((n) => n.kubeletVersion.startsWith("v1.33")),
    ).toBe(true);
  });
});
