// A run that dies between marking a node for surge and detaching its instance leaves the mark
// on a member of the group (src/kinds/self-managed/roll.ts marks first, so that a detached
// instance is never lost). The next run must count that node once, as the member it still is,
// whatever budgets it rolls with; invariants are checked after every event of both runs.
import { describe, expect, it } from "vitest";
import { apply } from "../../src/engine/apply.js";
import { DETACHED_LABEL } from "../../src/plan/index.js";
import { EventLog, type Cluster } from "../../src/ports/index.js";
import { policyFor, roll, selfManagedWorld } from "./scenarios.js";

/** A world where the first run stopped right after marking a node, its instance still a member. */
async function markedMember() {
  const world = selfManagedWorld([{ name: "w", nodes: 6 }]);
  const stop = new AbortController();
  const cluster = world.cluster as Cluster;
  const patch = cluster.patchNode.bind(cluster);
  cluster.patchNode = async (name, p) => {
    const r = await patch(name, p);
    if (p.labels?.[DETACHED_LABEL]) stop.abort();
    return r;
  };
  const surge = policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 1 } }]\n");
  const first = await world.run(
    apply(surge, "p.yaml", world, new EventLog(world.clock), {
      runId: "dies",
      signal: stop.signal,
    }),
  );
  cluster.patchNode = patch;
  return { world, first };
}

describe("a node marked for surge whose instance was never detached", () => {
  it("counts once, as a member, when the next run rolls in place: no budget exceeded", async () => {
    const { world, first } = await markedMember();
    expect(first.result).toBe("cancelled");
    const marked = world.nodes("w").filter((n) => n.labels[DETACHED_LABEL] === "w");
    expect(marked).toHaveLength(1);
    expect(world.ec2.instances.get(marked[0]!.instanceId)?.asg).toBe("w");
    const inPlace = policyFor(
      "groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }]\n",
    );
    const again = await roll(world, inPlace);
    expect(again.invariants.violations).toEqual([]);
    expect(again.result.result).toBe("success");
  });

  it("loses the mark when the node no longer needs replacing", async () => {
    const { world } = await markedMember();
    const marked = world.nodes("w").find((n) => n.labels[DETACHED_LABEL] === "w");
    expect(marked).toBeDefined();
    // The policy now replaces nothing (no target: the live launch template stays).
    const nothing = policyFor('groups: [{ name: w, target: { launchTemplateVersion: "1" } }]\n');
    const again = await roll(world, nothing);
    expect(again.result.result).toBe("success");
    expect(world.kube.nodes.get(marked!.name)?.labels[DETACHED_LABEL]).toBeUndefined();
  });
});
