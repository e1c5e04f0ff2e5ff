// Adversarial review of issue 44, defect 1's last sentence: "A running instance with no node is
// never terminated undrained unless the plan named it (never joined, or unreachable) and it fits
// within maxUnavailable."
import { describe, expect, it } from "vitest";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { ofType, policyFor, roll, selfManagedWorld } from "../roll/scenarios.js";

describe("an instance planned with no node whose node registers before its turn", () => {
  // The plan (and apply's re-plan before the group) saw instance X with no node: a kubelet slow
  // to join (past the 10 min JOIN_GRACE_MS), or a node object deleted and registered again. While
  // the surge boots (scale-up phase), X's node registers and the scheduler puts pods on it. At
  // its turn, replaceOne (src/kinds/self-managed/window.ts) sees no `r.node` and terminates X
  // without a drain — pods running there are killed without an eviction, PDBs unasked. The
  // StalePlan fix guards the opposite (a node gone since the plan); a node *come* since the plan
  // is not looked for. Expected: X's node is drained before X is terminated (or the run refuses
  // as StalePlan and the next run plans it as a node).
  it("is drained before it is terminated, its pods evicted, not killed", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 3 }], {
      podEvents: true,
      workloads: [
        // One 6-CPU pod per 8-CPU node: the pod of X's node is Pending while X has no node, and
        // goes back to X's node once it registers.
        { kind: "Deployment", name: "heavy", replicas: 3, requests: { cpu: "6", memory: "1Gi" } },
      ],
    } as Partial<ScenarioInput>);
    const x = world.instances("w")[0]!;
    const node = world.nodes("w").find((n) => n.instanceId === x.id)!.name;
    world.kube.deleteNode(node);
    const policy = policyFor(
      "groups: [{ name: w, rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } }]\n",
    );
    let back = false;
    let since = 0;
    const r = await roll(world, policy, {}, undefined, (e) => {
      if (back || e.type !== "phase.start" || e.phase !== "scale-up") return;
      back = true;
      since = world.clock.nowMs();
      world.ec2.registerNode(world.asg("w"), x, true);
    });
    expect(r.plan.groups[0]?.replacements.find((p) => p.instance === x.id)?.down).toBe("no-node");
    const boundThere = world.timeline
      .of("pod.bind")
      .filter((b) => b.node === node && b.at > since)
      .map((b) => b.pod as string);
    expect(boundThere.length).toBeGreaterThan(0);
    const drained = ofType(r.events, "node.drain.start").map((d) => d.node);
    const evicted = new Set(world.timeline.of("pod.evict").map((e) => e.pod as string));
    expect({
      result: r.result.result,
      drainedBeforeTerminate: drained.includes(node) || /StalePlan/.test(r.result.message),
      killedUnevicted: boundThere.filter((p) => !evicted.has(p)),
    }).toEqual({
      result: expect.anything(),
      drainedBeforeTerminate: true,
      killedUnevicted: [],
    });
  });
});
