// How long a large self-managed roll takes, in virtual time, with the invariants checked after
// every event: a generated group of 300 nodes (30 pods each, disruption budgets of up to 50
// pods taking turns) surging 30 with none unavailable, as the bench rolls it
// (scripts/bench/roll.ts). Without terminations in batches (terminations.ts) the cluster seldom
// validates and freed slots wait; without the order for the budgets' turns (turns.ts) the
// longest budgets starve between nodes.
import { describe, expect, it } from "vitest";
import { loadPolicy } from "../../src/policy/index.js";
import { generateScenario } from "../../src/sandbox/scenarios/generate.js";
import { World } from "../../src/sandbox/world/world.js";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

const NODES = 300;

function generated(): { world: World; group: string } {
  const world = new World(
    generateScenario({ nodes: NODES, groups: 1, podsPerNode: 30, seed: 2, kind: "self-managed" }),
  );
  return { world, group: world.scenario.nodeGroups[0]?.name as string };
}

function policy(group: string) {
  const r = loadPolicy(
    `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata: { name: roll-time }
cluster: { name: generated, region: eu-west-1 }
defaults: { maxSurge: ${NODES / 10}, maxUnavailable: 0, postDrainDelay: 5s, interval: 15s, validation: { count: 1 } }
groups: [{ name: ${group}, target: { launchTemplateVersion: $Latest } }]
`,
    "roll-time.yaml",
  );
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
  return r.policy;
}

describe("a 300-node self-managed roll", () => {
  it("finishes within 41 virtual minutes, its terminations in batches", async () => {
    const { world, group } = generated();
    const start = world.clock.nowMs();
    const { result, events, invariants } = await roll(world, policy(group), {}, 48 * 3600_000);
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    // Terminations come in batches (within a validation period of each other): 300 of them in
    // 40 batches; 117 before either change, 79 with the order for the budgets' turns alone.
    const terminations = ofType(events, "instance.terminate").map((e) => Date.parse(e.t));
    expect(terminations.length).toBeGreaterThanOrEqual(NODES);
    const batches = terminations.filter(
      (t, i) => i === 0 || t - (terminations[i - 1] as number) > 10_000,
    );
    expect(batches.length).toBeLessThanOrEqual(50);
    // 59.3 min before either change, 43.1 with the order for the budgets' turns alone, 37.0
    // with both, 34.9 after later changes; 33.3 when a batch also goes once the last one's boots
    // have had time to register (70 s) and holding needs half again as many boots as nodes.
    expect((world.clock.nowMs() - start) / 60_000).toBeLessThan(34.5);
  }, 120_000);
});

describe("the end of a self-managed roll", () => {
  it("validates the moment the node watch shows the last terminated nodes gone", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 6 }]);
    const { result, events, invariants } = await roll(
      world,
      policyFor(
        "defaults: { interval: 15s, postDrainDelay: 5s, validation: { count: 1 } }\ngroups: [{ name: w, rollingUpdate: { maxSurge: 2 } }]\n",
      ),
    );
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    // The node controller deletes a terminated instance's node 40 s after the termination; the
    // last validation passes then, not on the next tick of its 10 s period (5 s later here).
    const lastDelete = Math.max(
      ...world.timeline.events.filter((e) => e.type === "node.delete").map((e) => e.at),
    );
    const upgraded = ofType(events, "phase.end").find((e) => e.phase === "upgrade");
    expect(Date.parse(upgraded?.t ?? "") - lastDelete).toBeLessThan(1000);
  });
});

describe("the last validation of a self-managed roll", () => {
  it("fails within one validation timeout, saying that timeout, when a terminated node's object lingers", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 6 }]);
    // The node of the last instance terminated is never deleted (as with a stuck finalizer):
    // it stays NotReady, and the group cannot validate.
    const deleteNode = world.kube.deleteNode.bind(world.kube);
    let deletes = 0;
    let lingering = 0;
    world.kube.deleteNode = (name: string) => {
      if (++deletes < 6) return deleteNode(name);
      lingering = world.clock.nowMs();
    };
    const { result, invariants } = await roll(
      world,
      policyFor(
        "defaults: { interval: 15s, postDrainDelay: 5s, validation: { count: 1, timeout: 2m } }\ngroups: [{ name: w, rollingUpdate: { maxSurge: 2 } }]\n",
      ),
    );
    expect(invariants.violations).toEqual([]);
    expect(result).toMatchObject({
      result: "failure",
      message: expect.stringMatching(/^ValidationFailed: .*within 120 s: .*is not Ready/),
    });
    // One timeout from the wait's start (the last termination, 40 s before the node would
    // have gone), not a second one after it.
    expect(lingering).toBeGreaterThan(0);
    expect(world.clock.nowMs() - lingering).toBeLessThan(120_000);
  });
});
