// Validation checks the set kOps checks (issue 46, item 1), every invariant held after every
// event. kOps ignores failures of instance groups it is not rolling (pkg/instancegroups,
// hasFailureRelevantToGroup) and returns before validating a group with nothing to update
// (rollingUpdateInstanceGroup: `if len(update) == 0 { return nil }`).
import { describe, expect, it } from "vitest";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { World } from "../../src/sandbox/world/world.js";
import { ofType, policyFor, roll, selfManagedWorld, type GroupSpec } from "./scenarios.js";

/** `w` needs a roll; `dark` is `others`' node whose kubelet stopped reporting from the start. */
function world(others: GroupSpec[], dark: string): World {
  return selfManagedWorld([{ name: "w", nodes: 4 }, ...others], {
    workloads: [{ kind: "Deployment", name: "web", replicas: 4, pdb: { minAvailable: 2 } }],
    faults: { nodesUnreachable: [{ group: dark, at: 0, count: 1 }] },
  } as Partial<ScenarioInput>);
}

const darkNode = (w: World) => w.timeline.of("node.unreachable")[0]?.node as string;

describe("validation, as kOps validates", () => {
  it("ignores a NotReady node of an Auto Scaling group the policy does not name", async () => {
    const w = world([{ name: "batch", nodes: 2, upToDate: 2 }], "batch");
    await w.advance(60_000);
    const dark = darkNode(w);
    const r = await roll(
      w,
      policyFor(`groups: [{ name: w, rollingUpdate: { maxSurge: 1, postDrainDelay: 0s } }]\n`),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    // It was seen, and reported, but did not count against the roll.
    const seen = ofType(r.events, "validation").filter((v) => v.failures.join().includes(dark));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((v) => v.ok)).toBe(true);
    // Nothing left detached: every instance of w is a member again, on the target.
    expect(w.nodes("w").filter((n) => !n.deleted && n.ready)).toHaveLength(4);
  });

  it("does not validate a group with nothing to replace, so its own NotReady node does not stop the apply", async () => {
    const w = world([{ name: "done", nodes: 2, upToDate: 2 }], "done");
    await w.advance(60_000);
    const r = await roll(
      w,
      policyFor(
        `order: [done, w]\ngroups:\n  - { name: done }\n  - { name: w, rollingUpdate: { maxSurge: 1, postDrainDelay: 0s } }\n`,
      ),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(ofType(r.events, "validation").filter((v) => v.group === "done")).toEqual([]);
    const upgrade = ofType(r.events, "phase.end").find(
      (e) => e.group === "done" && e.phase === "upgrade",
    );
    expect(upgrade).toMatchObject({
      result: "skipped",
      message: expect.stringMatching(/nothing to replace/),
    });
    // The group that needed it rolled after it.
    const groups = ofType(r.events, "group.end").map((e) => [e.group, e.result]);
    expect(groups).toEqual([
      ["done", "success"],
      ["w", "success"],
    ]);
  });

  it("still fails on a NotReady node nothing places: nothing shows it is not this roll's", async () => {
    // The same dark node, but its instance carries no group tag a kind knows (a hand-made
    // instance joined to the cluster): the roll cannot tell it from one of its own.
    const w = world([{ name: "batch", nodes: 2, upToDate: 2 }], "batch");
    await w.advance(60_000);
    const dark = darkNode(w);
    const id = w.kube.nodes.get(dark)!.instanceId;
    await w.run(
      w.cloud.ec2.deleteTags({ Resources: [id], Tags: [{ Key: "aws:autoscaling:groupName" }] }),
    );
    const r = await roll(
      w,
      policyFor(
        `groups: [{ name: w, rollingUpdate: { maxSurge: 1, postDrainDelay: 0s, validation: { timeout: 2m } } }]\n`,
      ),
    );
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(new RegExp(`ValidationFailed.*${dark}`));
  });

  it("fails on a NotReady control-plane node, whatever group it is in", async () => {
    // kOps: a control plane's failure concerns every group. Its Auto Scaling group is outside
    // the policy, but its role label says what it is.
    const w = world([{ name: "masters", nodes: 1, upToDate: 1 }], "masters");
    await w.advance(60_000);
    const dark = darkNode(w);
    w.kube.nodes.get(dark)!.labels["node-role.kubernetes.io/control-plane"] = "";
    const r = await roll(
      w,
      policyFor(
        `groups: [{ name: w, rollingUpdate: { maxSurge: 1, postDrainDelay: 0s, validation: { timeout: 2m } } }]\n`,
      ),
    );
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(new RegExp(`ValidationFailed.*${dark}`));
  });

  it("names the node, not an AWS error, when EC2 no longer knows its instance", async () => {
    const w = world([{ name: "batch", nodes: 2, upToDate: 2 }], "batch");
    await w.advance(60_000);
    const dark = darkNode(w);
    w.ec2.instances.delete(w.kube.nodes.get(dark)!.instanceId);
    const r = await roll(
      w,
      policyFor(
        `groups: [{ name: w, rollingUpdate: { maxSurge: 1, postDrainDelay: 0s, validation: { timeout: 2m } } }]\n`,
      ),
    );
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(new RegExp(`ValidationFailed.*${dark}`));
    expect(r.result.message).not.toMatch(/InvalidInstanceID/);
  });
});

describe("the pods validation judges, as kOps judges them (pkg/validation, collectPodFailures)", () => {
  const policy = policyFor(
    `groups: [{ name: w, rollingUpdate: { maxSurge: 1, postDrainDelay: 0s, validation: { timeout: 2m } } }]\n`,
  );
  /** `w` needs a roll; `extra` are workloads beside the group's own. */
  const withPods = (extra: object[], others: GroupSpec[] = [], dark?: string) =>
    selfManagedWorld([{ name: "w", nodes: 4 }, ...others], {
      workloads: [
        { kind: "Deployment", name: "web", replicas: 4, pdb: { minAvailable: 2 } },
        ...extra,
      ],
      ...(dark && { faults: { nodesUnreachable: [{ group: dark, at: 0, count: 1 }] } }),
    } as Partial<ScenarioInput>);
  /** Pods no node will take: Pending, never Ready. */
  const stuck = { nodeSelector: { role: "nowhere" }, replicas: 1 };

  it("fails on a system-cluster-critical pod that is not Ready, in any namespace", async () => {
    const w = withPods([
      {
        kind: "Deployment",
        name: "gateway",
        namespace: "platform",
        priorityClassName: "system-cluster-critical",
        ...stuck,
      },
    ]);
    const r = await roll(w, policy);
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(
      /ValidationFailed.*system-cluster-critical pod platform\/gateway-[a-z0-9-]+ is not Ready/,
    );
  });

  it("does not count a kube-system pod of no critical priority class", async () => {
    const w = withPods([
      { kind: "Deployment", name: "dashboard", namespace: "kube-system", ...stuck },
    ]);
    const r = await roll(w, policy);
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(ofType(r.events, "validation").every((v) => v.ok && v.failures.length === 0)).toBe(true);
  });

  it("leaves a system-node-critical pod on another group's dark node to that group", async () => {
    const w = withPods(
      [
        {
          kind: "DaemonSet",
          name: "cni",
          namespace: "networking",
          priorityClassName: "system-node-critical",
          tolerations: [{ operator: "Exists", effect: "NoSchedule" }],
        },
      ],
      [{ name: "batch", nodes: 2, upToDate: 2 }],
      "batch",
    );
    await w.advance(60_000);
    const r = await roll(w, policy);
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    // Seen and reported, but another group's business: the dark node's pod is the one still
    // failing at the end (a replacement's own pod starting late is w's, and counts).
    const validations = ofType(r.events, "validation");
    const theirs = validations
      .at(-1)!
      .failures.filter((f) => /system-node-critical pod networking\/cni-/.test(f));
    expect(theirs).toHaveLength(1);
    const dark = darkNode(w);
    const onlyTheirs = validations.filter(
      (v) =>
        v.failures.length > 0 && v.failures.every((f) => theirs.includes(f) || f.includes(dark)),
    );
    expect(onlyTheirs.length).toBeGreaterThan(0);
    expect(onlyTheirs.every((v) => v.ok)).toBe(true);
  });

  it("fails on a system-cluster-critical pod on another group's dark node: it concerns every group", async () => {
    const w = withPods(
      [
        {
          kind: "DaemonSet",
          name: "dns-cache",
          namespace: "networking",
          priorityClassName: "system-cluster-critical",
          tolerations: [{ operator: "Exists", effect: "NoSchedule" }],
        },
      ],
      [{ name: "batch", nodes: 2, upToDate: 2 }],
      "batch",
    );
    await w.advance(60_000);
    const r = await roll(w, policy);
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(
      /ValidationFailed.*system-cluster-critical pod networking\/dns-cache-/,
    );
  });
});

describe("replacements that have not joined, as kOps validates them (pkg/validation, validateNodes)", () => {
  const canaryPolicy = policyFor(
    `groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 2, postDrainDelay: 0s, validation: { timeout: 3m } } }]\n`,
  );
  const faulty = (faults: object) =>
    selfManagedWorld([{ name: "w", nodes: 4 }], {
      workloads: [{ kind: "Deployment", name: "web", replicas: 4, pdb: { minAvailable: 2 } }],
      faults,
    } as Partial<ScenarioInput>);

  it("stops after the canary when its replacement never registers a node, naming the machine", async () => {
    const w = faulty({ nodesNeverJoin: [{ group: "w" }] });
    const r = await roll(w, canaryPolicy);
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(
      /^ValidationFailed: .*machine i-[0-9a-f]+ of w has not yet joined the cluster/,
    );
    // The canary alone: the budget's second node was never taken for a launch that does not work.
    expect(ofType(r.events, "instance.terminate")).toHaveLength(1);
    expect(ofType(r.events, "node.cordon")).toHaveLength(1);
  });

  it("stops after the canary when Auto Scaling cannot launch its replacement: too few instances", async () => {
    const w = faulty({ launchFailures: [{ group: "w", for: 3600 }] });
    const r = await roll(w, canaryPolicy);
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(/^ValidationFailed: .*group w has 3 of 4 instances/);
    expect(ofType(r.events, "instance.terminate")).toHaveLength(1);
  });

  it("widens the window only once the canary's replacement has joined and turned Ready", async () => {
    const w = faulty({});
    const r = await roll(w, canaryPolicy);
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(ofType(r.events, "instance.terminate")).toHaveLength(4);
    const canaryGone = Date.parse(ofType(r.events, "instance.terminate")[0]!.t);
    const firstReady = w.timeline
      .of("node.ready")
      .map((e) => e.at as number)
      .find((at) => at > canaryGone);
    const nextCordon = Date.parse(ofType(r.events, "node.cordon")[1]!.t);
    expect(firstReady).toBeDefined();
    expect(firstReady!).toBeLessThanOrEqual(nextCordon);
  });
});
