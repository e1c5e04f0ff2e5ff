// A policy naming a group the cluster lacks (issue 48, item 8): the plan suggests the nearest of
// the groups the cluster has — EKS's node groups and those its nodes' labels name — and lists them.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { loadPolicy } from "../../src/policy/index.js";
import { World } from "../../src/sandbox/world/world.js";

const text = readFileSync("policies/demo.yaml", "utf8")
  .replace(/name: workers$/m, "name: workerz")
  .replace(/order: \[system, ingress, workers\]/, "order: [system, ingress, workerz]");

describe("a group the cluster lacks", () => {
  it("is an error that names the nearest group the cluster has, and the groups it has", async () => {
    const loaded = loadPolicy(text, "demo.yaml");
    if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join("\n"));
    const world = World.demo();
    const { plan, snapshot } = await world.run(observeAndPlan(loaded.policy, "demo.yaml", world));
    const g = plan.groups.find((x) => x.name === "workerz")!;
    expect(g.status).toBe("error");
    expect(g.errors).toEqual([
      'cluster demo has no EKS managed node group or Auto Scaling group named "workerz"; did you mean "workers"? It has: ingress, system, workers',
    ]);
    expect(snapshot.knownGroups).toContain("workers");
  });

  it("is not looked for when every group is there", async () => {
    const loaded = loadPolicy(readFileSync("policies/demo.yaml", "utf8"), "demo.yaml");
    if (!loaded.ok) throw new Error("demo policy");
    const world = World.demo();
    const { snapshot } = await world.run(observeAndPlan(loaded.policy, "demo.yaml", world));
    expect(snapshot.knownGroups).toBeUndefined();
  });
});
