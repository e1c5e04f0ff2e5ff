// A group moved to another launch template whose version numbers overlap the old one's (issue
// 46, item 2): every instance launched from the old template is replaced, as kOps compares a
// template's id with its version (upup/pkg/fi/cloudup/awsup/aws_cloud.go). Before, the plan
// compared version numbers alone and said "no change". Every invariant held after every event.
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { apply } from "../../src/engine/apply.js";
import { EventLog } from "../../src/ports/index.js";
import type { World } from "../../src/sandbox/world/world.js";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

/** Four instances all on version 2 of the group's template; then the group is moved to a new
 * template's version 2. */
async function movedWorld(): Promise<{ w: World; from: string; to: string }> {
  const w = selfManagedWorld([{ name: "w", nodes: 4, upToDate: 4 }]);
  const group = w.autoScaling.groups.get("w")!;
  const from = group.ltId;
  const old = w.ec2.templates.get(from)!;
  const to = "lt-0new0000000000000";
  w.ec2.templates.set(to, {
    id: to,
    name: "w-next",
    versions: old.versions.map((v) => ({ ...v })),
    defaultVersion: old.defaultVersion,
  });
  await w.run(
    w.cloud.autoScaling.updateAutoScalingGroup({
      AutoScalingGroupName: "w",
      LaunchTemplate: { LaunchTemplateId: to, Version: "2" },
    }),
  );
  return { w, from, to };
}

const policy = policyFor(
  `groups: [{ name: w, rollingUpdate: { maxSurge: 1, postDrainDelay: 0s } }]\n`,
);

describe("a group moved to another launch template with overlapping versions", () => {
  it("plans every instance launched from the old template, naming both", async () => {
    const { w, from, to } = await movedWorld();
    const r = await roll(w, policy);
    const g = r.plan.groups[0]!;
    expect(g.status).toBe("roll");
    expect(g.replacements).toHaveLength(4);
    for (const x of g.replacements)
      expect(x.reasons).toContainEqual({
        kind: "launch-template",
        from: 2,
        to: 2,
        fromTemplate: from,
        toTemplate: to,
      });
    expect(g.target).toMatchObject({ launchTemplate: to, launchTemplateVersion: 2 });
  });

  it("rolls them onto the new template, every invariant held", async () => {
    const { w, to } = await movedWorld();
    const r = await roll(w, policy);
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(ofType(r.events, "instance.terminate")).toHaveLength(4);
    const group = w.autoScaling.groups.get("w")!;
    const templates = [...group.instances].map((id) => w.ec2.instances.get(id)!.ltId);
    expect(templates).toEqual([to, to, to, to]);
  });

  it("is a stale plan when the template moves between plan and apply", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 2, upToDate: 2 }]);
    const { plan } = await w.run(observeAndPlan(policy, "policy.yaml", w, {}));
    expect(plan.groups[0]!.status).not.toBe("roll");
    const old = w.ec2.templates.get(w.autoScaling.groups.get("w")!.ltId)!;
    w.ec2.templates.set("lt-0other00000000000", { ...old, id: "lt-0other00000000000" });
    await w.run(
      w.cloud.autoScaling.updateAutoScalingGroup({
        AutoScalingGroupName: "w",
        LaunchTemplate: { LaunchTemplateId: "lt-0other00000000000", Version: "2" },
      }),
    );
    const result = await w.run(apply(policy, plan, w, new EventLog(w.clock), { runId: "stale" }));
    expect(result.result).toBe("failure");
    expect(result.message).toMatch(/StalePlan: w: .*target: planned launchTemplate lt-/);
  });
});
