// The surge marks: before detaching an instance to surge, noderoll tags the instance and labels
// its node (src/kinds/self-managed/roll.ts marks first, so that a detached instance is never
// lost). A run that dies between marking and detaching leaves the marks on a member of the
// group: the next run must count that node once, as the member it still is, whatever budgets it
// rolls with, and take the marks off when it no longer needs replacing. A detached instance
// whose node object is deleted is found again by its tag. Invariants are checked after every
// event of every run.
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { DETACHED_LABEL } from "../../src/plan/index.js";
import { AwsApiError, EventLog, type Cluster } from "../../src/ports/index.js";
import { leftovers } from "./crash.js";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

const surge = policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 1 } }]\n");

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
  const first = await world.run(
    planAndApply(surge, "p.yaml", world, new EventLog(world.clock), {
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
    const tagged = () =>
      world.ec2.instances.get(marked!.instanceId)!.tags.some((t) => t.Key === DETACHED_LABEL);
    expect(tagged()).toBe(true);
    // The policy now replaces nothing (no target: the live launch template stays).
    const nothing = policyFor('groups: [{ name: w, target: { launchTemplateVersion: "1" } }]\n');
    const again = await roll(world, nothing);
    expect(again.result.result).toBe("success");
    expect(world.kube.nodes.get(marked!.name)?.labels[DETACHED_LABEL]).toBeUndefined();
    expect(tagged()).toBe(false);
  });
});

/** A run killed right after it detached an instance, whose node object is then deleted (kubectl
 * delete node): the label goes with it, the instance's tag stays. */
async function detachedWithoutNode() {
  const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
  const stop = new AbortController();
  let detached = "";
  const log = new EventLog(world.clock);
  log.on((e) => {
    if (e.type !== "instance.detach" || detached) return;
    detached = e.instance;
    stop.abort();
  });
  await world.run(
    planAndApply(surge, "p.yaml", world, log, { runId: "dies", signal: stop.signal }),
  );
  const node = world.ec2.instances.get(detached)!.nodeName;
  world.kube.deleteNode(node);
  expect(world.kube.nodes.get(node)).toBeUndefined();
  return { world, detached };
}

describe("an instance detached for surge whose node object is deleted", () => {
  it("is found by its tag and terminated by the next run: nothing left running", async () => {
    const { world, detached } = await detachedWithoutNode();
    const again = await roll(world, surge);
    expect(again.invariants.violations).toEqual([]);
    expect(again.result.result).toBe("success");
    const r = again.plan.groups[0]!.replacements.find((x) => x.instance === detached);
    expect(r?.reasons.map((x) => x.kind)).toContain("detached-for-surge");
    await world.advance(10 * 60_000);
    expect(world.ec2.instances.get(detached)?.state).toBe("terminated");
    expect(leftovers(world)).toEqual([]);
  });

  it("is left alone when the policy says drainAndTerminate: false (nothing is terminated)", async () => {
    const { world, detached } = await detachedWithoutNode();
    const taintOnly = policyFor(
      "groups: [{ name: w, rollingUpdate: { maxSurge: 1, drainAndTerminate: false } }]\n",
    );
    const again = await roll(world, taintOnly);
    expect(again.result.result).toBe("success");
    expect(ofType(again.events, "instance.terminate")).toEqual([]);
    expect(world.ec2.instances.get(detached)?.state).toBe("running");
  });

  it("without ec2:CreateTags, the roll goes on with the label alone and says so once", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
    world.cloud.ec2.createTags = () =>
      Promise.reject(new AwsApiError("UnauthorizedOperation", "not authorized", 403));
    const r = await roll(
      world,
      policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 2 } }]\n"),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    const notes = ofType(r.events, "note").filter((n) => /could not tag/.test(n.message));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.message).toMatch(
      /UnauthorizedOperation: grant ec2:CreateTags and ec2:DeleteTags/,
    );
  });
});
