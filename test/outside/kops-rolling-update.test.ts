// An outside check: kOps' rolling-update tests (kubernetes/kops pkg/instancegroups,
// rollingupdate_test.go and settings_test.go), each translated into a sandbox case of its own and
// named after the kOps test it translates. kOps' tests drive mocks (a validator that fails when
// told, Auto Scaling groups whose terminated instances are never replaced); here the same
// situations are made in the sandbox (a critical pod that is not Ready, a node that stops
// reporting, launches that fail) and noderoll's observable behaviour — its events, the world's
// instances — is asserted. Where noderoll differs on purpose (docs/rolling.md, "Where it follows kOps,
// kubectl and EKS, and where it differs on purpose", and the roll-settings table) the case says
// which difference it is and asserts noderoll's documented behaviour.
//
// kOps' test setup (getTestSetup) is a cluster with no cloud provider spec, so its budgets default
// to maxSurge 0, maxUnavailable 1 unless a test sets them; noderoll's self-managed default is
// kOps' AWS default (maxSurge 1: TestAWSDefault). The cases that translate the former say
// maxSurge: 0.
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { DETACHED_LABEL } from "../../src/plan/index.js";
import { AwsApiError, type RollEvent } from "../../src/ports/index.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import type { World } from "../../src/sandbox/world/world.js";
import {
  maxInFlight,
  ofType,
  policyFor,
  roll,
  selfManagedWorld,
  type GroupSpec,
} from "../roll/scenarios.js";

const FAST = "postDrainDelay: 0s, validation: { timeout: 3m }";
const FAST1 = "postDrainDelay: 0s, validation: { timeout: 3m, count: 1 }";

/** kOps' getGroups / getGroupsAllNeedUpdate: two node groups of 3, a control plane of 2, a
 * bastion of 1; `stale` says whether they all need update. */
function fourGroups(stale: boolean, extra: Partial<ScenarioInput> = {}): World {
  const up = (n: number) => (stale ? 0 : n);
  return selfManagedWorld(
    [
      { name: "node-1", nodes: 3, upToDate: up(3) },
      { name: "node-2", nodes: 3, upToDate: up(3) },
      { name: "master-1", nodes: 2, upToDate: up(2) },
      { name: "bastion-1", nodes: 1, upToDate: up(1) },
    ],
    {
      workloads: [{ kind: "Deployment", name: "web", replicas: 3, pdb: { maxUnavailable: 1 } }],
      ...extra,
    },
  );
}

const fourGroupsPolicy = (defaults = `{ maxSurge: 0, ${FAST} }`) =>
  policyFor(
    `defaults: ${defaults}\ngroups:\n  - { name: node-1 }\n  - { name: node-2 }\n  - { name: master-1, role: control-plane }\n  - { name: bastion-1, role: bastion }\n`,
  );

/** Instances of the group still on the old launch template version. */
const stale = (w: World, group: string) => w.instances(group).filter((i) => i.ltVersion !== 2);
const terminated = (events: RollEvent[], group: string) =>
  ofType(events, "instance.terminate").filter((e) => e.group === group);
const detached = (events: RollEvent[], group?: string) =>
  ofType(events, "instance.detach").filter((e) => group === undefined || e.group === group);

/** A Deployment of the system-cluster-critical class whose pod is not Ready for `seconds` (or
 * never: no node will take it). Validation judges such pods in every group's name (kOps'
 * collectPodFailures), so this is kOps' failing validator with no instance group. */
function criticalPod(seconds?: number): NonNullable<ScenarioInput["workloads"]>[number] {
  return {
    kind: "Deployment",
    name: "gateway",
    namespace: "kube-system",
    priorityClassName: "system-cluster-critical",
    replicas: 1,
    ...(seconds === undefined ? { nodeSelector: { role: "nowhere" } } : { start: seconds }),
  };
}

/** Make a node of `group` stop reporting from the start (its kubelet hung). */
async function darkNodeOf(w: World): Promise<string> {
  await w.advance(60_000);
  return w.timeline.of("node.unreachable")[0]!.node as string;
}

describe("kOps pkg/instancegroups rollingupdate_test.go, as sandbox cases", () => {
  it("TestRollingUpdateAllNeedUpdate → every group replaced, bastion then control plane then nodes; each node tainted before it is cordoned, cordoned before it is terminated", async () => {
    const w = fourGroups(true);
    const r = await roll(w, fourGroupsPolicy());
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    // kOps' order: bastions, then control plane, then nodes.
    expect(ofType(r.events, "group.start").map((e) => e.group)).toEqual([
      "bastion-1",
      "master-1",
      "node-1",
      "node-2",
    ]);
    for (const g of ["node-1", "node-2", "master-1", "bastion-1"]) {
      expect(stale(w, g), g).toEqual([]);
      expect(terminated(r.events, g).length, g).toBe(
        g.startsWith("node") ? 3 : g === "master-1" ? 2 : 1,
      );
    }
    // Every node: taint, then cordon, then its instance's termination (bastion nodes are not
    // drained; the taint is skipped for them, as kOps' bastions have no node).
    const seen = new Map<string, string[]>();
    for (const e of r.events) {
      if (e.type === "node.taint" || e.type === "node.cordon")
        seen.set(e.node, [...(seen.get(e.node) ?? []), e.type]);
    }
    const cordoned = ofType(r.events, "node.cordon").filter((e) => e.group !== "bastion-1");
    expect(cordoned).toHaveLength(8);
    for (const e of cordoned)
      expect(seen.get(e.node), e.node).toEqual(["node.taint", "node.cordon"]);
    // Cordoned before its instance's termination: one node in flight at a time here.
    expect(maxInFlight(r.events)).toBe(1);
    // The control plane's nodes all went before any worker's.
    const iMaster = r.events.findLastIndex(
      (e) => e.type === "instance.terminate" && e.group === "master-1",
    );
    const iNode = r.events.findIndex(
      (e) => e.type === "instance.terminate" && e.group.startsWith("node-"),
    );
    expect(iMaster).toBeLessThan(iNode);
  });

  it("TestRollingUpdateNoneNeedUpdate → nothing tainted, cordoned, detached or terminated", async () => {
    const w = fourGroups(false);
    const before = w.instances("node-1").map((i) => i.id);
    const r = await roll(w, fourGroupsPolicy());
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    for (const t of ["node.taint", "node.cordon", "instance.detach", "instance.terminate"] as const)
      expect(ofType(r.events, t), t).toEqual([]);
    expect(w.instances("node-1").map((i) => i.id)).toEqual(before);
    expect(w.instances("master-1")).toHaveLength(2);
    expect(w.instances("bastion-1")).toHaveLength(1);
  });

  it("TestRollingUpdateNoneNeedUpdateWithForce → --replace-all (kOps' --force) replaces every instance", async () => {
    const w = fourGroups(false);
    const before = new Set(
      ["node-1", "node-2", "master-1", "bastion-1"].flatMap((g) => w.instances(g).map((i) => i.id)),
    );
    const r = await roll(w, fourGroupsPolicy(), { replaceAll: true });
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(ofType(r.events, "instance.terminate")).toHaveLength(9);
    for (const g of ["node-1", "node-2", "master-1", "bastion-1"])
      expect(
        w.instances(g).filter((i) => before.has(i.id)),
        g,
      ).toEqual([]);
  });

  it("TestRollingUpdateUnknownRole → a group of an unknown role is an error, and nothing is touched", () => {
    // kOps fails the rolling update; noderoll refuses the policy before anything is read.
    expect(() =>
      policyFor(`groups: [{ name: node-1, role: Unknown }, { name: node-2 }]\n`),
    ).toThrow(/expected one of "bastion", "control-plane"/);
  });

  it("TestRollingUpdateAllNeedUpdateFailsValidation → fails; the bastion (not validated) is replaced, nothing else", async () => {
    const w = fourGroups(true, {
      workloads: [
        { kind: "Deployment", name: "web", replicas: 3, pdb: { maxUnavailable: 1 } },
        criticalPod(),
      ],
    });
    const r = await roll(w, fourGroupsPolicy());
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(
      /ValidationFailed.*system-cluster-critical pod kube-system\/gateway-/,
    );
    expect(stale(w, "bastion-1")).toEqual([]);
    for (const g of ["master-1", "node-1", "node-2"]) {
      expect(terminated(r.events, g), g).toEqual([]);
      expect(stale(w, g), g).toHaveLength(w.instances(g).length);
    }
  });

  it("TestRollingUpdateNodes1NeedsUpdateFailsValidation → fails before any node of the group is touched", async () => {
    const w = selfManagedWorld([{ name: "node-1", nodes: 3 }], {
      workloads: [criticalPod()],
    });
    const r = await roll(
      w,
      policyFor(`groups: [{ name: node-1, rollingUpdate: { maxSurge: 0, ${FAST} } }]\n`),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(/^ValidationFailed/);
    expect(ofType(r.events, "node.cordon")).toEqual([]);
    expect(ofType(r.events, "instance.terminate")).toEqual([]);
    expect(w.instances("node-1")).toHaveLength(3);
  });

  it("TestRollingUpdateClusterFailsValidationAfterOneNode → the group falls short of its desired capacity after one node: fails with that node alone gone", async () => {
    // kOps' validator fails once the group has fewer instances than desired; here Auto Scaling
    // cannot launch the first node's replacement.
    const w = selfManagedWorld([{ name: "node-1", nodes: 3 }], {
      faults: { launchFailures: [{ group: "node-1", for: 7200 }] },
    } as Partial<ScenarioInput>);
    const r = await roll(
      w,
      policyFor(`groups: [{ name: node-1, rollingUpdate: { maxSurge: 0, ${FAST} } }]\n`),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("failure");
    // noderoll names the cause (NodeCreationFailure: the replacement never launched) where kOps'
    // validator only says the cluster is not valid: the same stop.
    expect(r.result.message).toMatch(/^(ValidationFailed|NodeCreationFailure): .*node-1.*2 of 3/);
    expect(ofType(r.events, "instance.terminate")).toHaveLength(1);
    expect(w.instances("node-1")).toHaveLength(2);
  });

  it("TestRollingUpdateClusterFailsValidationAfterOneMaster → fails after one control-plane node; the node groups are not started", async () => {
    const w = fourGroups(true, {
      faults: { launchFailures: [{ group: "master-1", for: 7200 }] },
    } as Partial<ScenarioInput>);
    const r = await roll(w, fourGroupsPolicy());
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("failure");
    // noderoll names the cause NodeCreationFailure (the replacement never launched) where kOps'
    // validator only says the cluster is not valid: the same stop.
    expect(r.result.message).toMatch(/^(ValidationFailed|NodeCreationFailure): .*master-1.*1 of 2/);
    expect(terminated(r.events, "master-1")).toHaveLength(1);
    expect(w.instances("master-1")).toHaveLength(1);
    expect(stale(w, "bastion-1")).toEqual([]);
    for (const g of ["node-1", "node-2"]) expect(terminated(r.events, g), g).toEqual([]);
    expect(ofType(r.events, "group.start").map((e) => e.group)).toEqual(["bastion-1", "master-1"]);
  });

  it("TestRollingUpdateNonRelatedInstanceGroupFailure → another group's failing node is ignored: node-1 is replaced", async () => {
    const w = selfManagedWorld(
      [
        { name: "node-1", nodes: 3 },
        { name: "node-2", nodes: 3, upToDate: 3 },
        { name: "master-1", nodes: 2, upToDate: 2 },
      ],
      {
        faults: { nodesUnreachable: [{ group: "node-2", at: 0, count: 1 }] },
      } as Partial<ScenarioInput>,
    );
    const dark = await darkNodeOf(w);
    const r = await roll(
      w,
      policyFor(
        `defaults: { maxSurge: 0, ${FAST} }\ngroups: [{ name: node-1 }, { name: node-2 }, { name: master-1, role: control-plane }]\n`,
      ),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(stale(w, "node-1")).toEqual([]);
    expect(terminated(r.events, "node-1")).toHaveLength(3);
    expect(terminated(r.events, "node-2")).toEqual([]);
    expect(terminated(r.events, "master-1")).toEqual([]);
    expect(ofType(r.events, "validation").some((v) => v.failures.join().includes(dark))).toBe(true);
  });

  /** The node of `group`'s instance that is already on the target. */
  const freshNode = (w: World, group: string) =>
    w
      .nodes(group)
      .find((n) => w.instances(group).some((i) => i.id === n.instanceId && i.ltVersion === 2))!;

  it("TestRollingUpdateRelatedInstanceGroupFailure → a failing node of the group being rolled stops it before any termination", async () => {
    // kOps' validator reports a failure in node-1's own instance group. Here one of node-1's
    // nodes reports NotReady — one already up to date: a NotReady node that needs replacing is
    // noderoll's deliberate difference (next case).
    const w = selfManagedWorld([
      { name: "node-1", nodes: 3, upToDate: 1 },
      { name: "node-2", nodes: 3, upToDate: 3 },
    ]);
    const sick = freshNode(w, "node-1");
    w.kube.setNodeReady(sick, false);
    const r = await roll(
      w,
      policyFor(
        `defaults: { maxSurge: 0, ${FAST} }\ngroups: [{ name: node-1 }, { name: node-2 }]\n`,
      ),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(new RegExp(`ValidationFailed.*${sick.name}`));
    expect(ofType(r.events, "instance.terminate")).toEqual([]);
    expect(w.instances("node-1")).toHaveLength(3);
  });

  it("TestRollingUpdateRelatedInstanceGroupFailure (difference on purpose) → a NotReady node that needs replacing does not stop the roll: it goes first", async () => {
    // docs/rolling.md, "Nodes that are down already": they are what a roll is often for; the plan puts
    // them first and validation does not fail on them (kOps validates every node and stops —
    // kOps issue 11367).
    const w = selfManagedWorld([{ name: "node-1", nodes: 3 }]);
    const sick = w.nodes("node-1")[0]!;
    w.kube.setNodeReady(sick, false);
    const r = await roll(
      w,
      policyFor(`groups: [{ name: node-1, rollingUpdate: { maxSurge: 0, ${FAST} } }]\n`),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(ofType(r.events, "node.cordon")[0]!.node).toBe(sick.name);
    expect(stale(w, "node-1")).toEqual([]);
  });

  it("TestRollingUpdateMasterGroupFailure → a failing control-plane node stops the roll of a node group", async () => {
    const w = selfManagedWorld(
      [
        { name: "node-1", nodes: 3 },
        { name: "master-1", nodes: 2, upToDate: 2 },
      ],
      {
        faults: { nodesUnreachable: [{ group: "master-1", at: 0, count: 1 }] },
      } as Partial<ScenarioInput>,
    );
    const dark = await darkNodeOf(w);
    w.kube.nodes.get(dark)!.labels["node-role.kubernetes.io/control-plane"] = "";
    const r = await roll(
      w,
      policyFor(
        `defaults: { maxSurge: 0, ${FAST} }\ngroups: [{ name: node-1 }, { name: master-1, role: control-plane }]\n`,
      ),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(new RegExp(`ValidationFailed.*${dark}`));
    expect(ofType(r.events, "instance.terminate")).toEqual([]);
  });

  it("TestRollingUpdateValidationErrorInstanceGroupExitableError → node-1 rolled, node-2's failure stops the roll, node-3 not started", async () => {
    // kOps exits at a validation timeout without going on to node-3; noderoll stops at the first
    // group that fails whatever the cause (docs/rolling.md: "apply stops at the first group that fails
    // and names the groups it did not start") — the same outcome here.
    // node-2's failure: its up-to-date node reports NotReady.
    const w = selfManagedWorld([
      { name: "node-1", nodes: 3 },
      { name: "node-2", nodes: 3, upToDate: 1 },
      { name: "node-3", nodes: 3 },
    ]);
    const sick = freshNode(w, "node-2");
    w.kube.setNodeReady(sick, false);
    const r = await roll(
      w,
      policyFor(
        `defaults: { maxSurge: 0, ${FAST} }\ngroups: [{ name: node-1 }, { name: node-2 }, { name: node-3 }]\n`,
      ),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("failure");
    expect(stale(w, "node-1")).toEqual([]);
    expect(terminated(r.events, "node-2")).toEqual([]);
    expect(terminated(r.events, "node-3")).toEqual([]);
    expect(ofType(r.events, "group.start").map((e) => e.group)).toEqual(["node-1", "node-2"]);
    expect(r.result.message).toMatch(/node-3/);
  });

  it("TestRollingUpdateValidatesAfterBastion → validation that fails a few times, then passes, lets every group roll", async () => {
    // kOps' validator fails three times then succeeds; here a cluster-critical pod takes 40 s to
    // start.
    const w = fourGroups(true, {
      workloads: [
        { kind: "Deployment", name: "web", replicas: 3, pdb: { maxUnavailable: 1 } },
        criticalPod(40),
      ],
    });
    const r = await roll(w, fourGroupsPolicy());
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    for (const g of ["node-1", "node-2", "master-1", "bastion-1"])
      expect(stale(w, g), g).toEqual([]);
  });

  it("TestRollingUpdateTaintAllButOneNeedUpdate → both nodes needing update tainted before any termination; the up-to-date one never", async () => {
    const w = selfManagedWorld([{ name: "node-1", nodes: 3, upToDate: 1 }]);
    const fresh = freshNode(w, "node-1");
    const r = await roll(
      w,
      policyFor(`groups: [{ name: node-1, rollingUpdate: { maxSurge: 0, ${FAST} } }]\n`),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    const firstTerminate = r.events.findIndex((e) => e.type === "instance.terminate");
    const taints = r.events.flatMap((e, i) => (e.type === "node.taint" ? [i] : []));
    expect(taints).toHaveLength(2);
    expect(Math.max(...taints)).toBeLessThan(firstTerminate);
    expect(ofType(r.events, "instance.terminate")).toHaveLength(2);
    const touched = [...ofType(r.events, "node.taint"), ...ofType(r.events, "node.cordon")];
    expect(touched.filter((e) => e.node === fresh.name)).toEqual([]);
    expect(w.instances("node-1").map((i) => i.id)).toContain(fresh.instanceId);
  });

  it("TestRollingUpdateMaxSurgeIgnoredForMaster → a control-plane group does not surge (maxSurge 2 from defaults): one node at a time, tainted before any cordon", async () => {
    const w = selfManagedWorld([{ name: "master-1", nodes: 3, upToDate: 1 }]);
    const r = await roll(
      w,
      policyFor(
        `defaults: { maxSurge: 2, ${FAST} }\ngroups: [{ name: master-1, role: control-plane }]\n`,
      ),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(r.plan.groups[0]!.budgets.maxSurge).toBe(0);
    expect(detached(r.events)).toEqual([]);
    expect(maxInFlight(r.events)).toBe(1);
    expect(ofType(r.events, "instance.terminate")).toHaveLength(2);
    // kOps: "not tainting while node cordoned" — every taint comes before the first cordon.
    const lastTaint = r.events.findLastIndex((e) => e.type === "node.taint");
    const firstCordon = r.events.findIndex((e) => e.type === "node.cordon");
    expect(lastTaint).toBeLessThan(firstCordon);
    expect(stale(w, "master-1")).toEqual([]);
  });

  it("TestRollingUpdateDisabled → drainAndTerminate: false replaces nothing", async () => {
    const w = fourGroups(true);
    const before = ["node-1", "node-2", "master-1", "bastion-1"].map((g) => w.instances(g).length);
    const r = await roll(w, fourGroupsPolicy(`{ maxSurge: 0, drainAndTerminate: false, ${FAST} }`));
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(ofType(r.events, "instance.terminate")).toEqual([]);
    expect(ofType(r.events, "node.cordon")).toEqual([]);
    expect(detached(r.events)).toEqual([]);
    expect(["node-1", "node-2", "master-1", "bastion-1"].map((g) => w.instances(g).length)).toEqual(
      before,
    );
  });

  it("TestRollingUpdateDisabledSurge → drainAndTerminate: false with maxSurge 1 detaches one instance per group, none of the control plane's, and terminates nothing", async () => {
    const w = fourGroups(true);
    const r = await roll(w, fourGroupsPolicy(`{ maxSurge: 1, drainAndTerminate: false, ${FAST} }`));
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(
      detached(r.events)
        .map((e) => e.group)
        .sort(),
    ).toEqual(["bastion-1", "node-1", "node-2"]);
    expect(ofType(r.events, "instance.terminate")).toEqual([]);
  });

  it("TestRollingUpdateMaxUnavailableAllNeedUpdate → maxUnavailable 2 over 7 stale nodes: one node alone first (the canary), then never more than 2 at once", async () => {
    const w = selfManagedWorld([{ name: "node-1", nodes: 7 }]);
    const r = await roll(
      w,
      policyFor(
        `groups: [{ name: node-1, rollingUpdate: { maxSurge: 0, maxUnavailable: 2, ${FAST1} } }]\n`,
      ),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(ofType(r.events, "instance.terminate")).toHaveLength(7);
    expect(maxInFlight(r.events)).toBe(2);
    // The canary: the first node is terminated before a second is cordoned.
    const cordons = r.events.flatMap((e, i) => (e.type === "node.cordon" ? [i] : []));
    const firstTerminate = r.events.findIndex((e) => e.type === "instance.terminate");
    expect(firstTerminate).toBeLessThan(cordons[1]!);
    expect(stale(w, "node-1")).toEqual([]);
  });

  // Differs on purpose (issue 47; docs/rolling.md, "Where it follows kOps"): kOps drops its canary once a
  // node is up to date, noderoll starts every group with one, so the gates judge one replacement
  // before a wave of them. After the canary, the window is kOps': two at once.
  it("TestRollingUpdateMaxUnavailableAllButOneNeedUpdate → with one node up to date, noderoll still canaries (differs on purpose), then two nodes at once", async () => {
    const w = selfManagedWorld([{ name: "node-1", nodes: 7, upToDate: 1 }]);
    const r = await roll(
      w,
      policyFor(
        `groups: [{ name: node-1, rollingUpdate: { maxSurge: 0, maxUnavailable: 2, ${FAST1} } }]\n`,
      ),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(ofType(r.events, "instance.terminate")).toHaveLength(6);
    expect(maxInFlight(r.events)).toBe(2);
    const cordons = r.events.flatMap((e, i) => (e.type === "node.cordon" ? [i] : []));
    const terminates = r.events.flatMap((e, i) => (e.type === "instance.terminate" ? [i] : []));
    // The canary alone, terminated before the second cordon; then the second and third together.
    expect(cordons[1]!).toBeGreaterThan(terminates[0]!);
    expect(cordons[2]!).toBeLessThan(terminates[1]!);
    expect(w.instances("node-1")).toHaveLength(7);
    expect(stale(w, "node-1")).toEqual([]);
  });

  it("TestRollingUpdateMaxUnavailableAllNeedUpdateMaster → the same window for a control-plane group: canary, then 2 at once", async () => {
    const w = selfManagedWorld([{ name: "master-1", nodes: 7 }]);
    const r = await roll(
      w,
      policyFor(
        `groups: [{ name: master-1, role: control-plane, rollingUpdate: { maxUnavailable: 2, ${FAST1} } }]\n`,
      ),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(ofType(r.events, "instance.terminate")).toHaveLength(7);
    expect(maxInFlight(r.events)).toBe(2);
    const cordons = r.events.flatMap((e, i) => (e.type === "node.cordon" ? [i] : []));
    const firstTerminate = r.events.findIndex((e) => e.type === "instance.terminate");
    expect(firstTerminate).toBeLessThan(cordons[1]!);
  });

  it("TestRollingUpdateMaxSurgeAllNeedUpdate → maxSurge 2 over 6 stale nodes: one detach (the canary) validated before the second, desired capacity kept, detached instances terminated last", async () => {
    const w = selfManagedWorld([{ name: "node-1", nodes: 6 }]);
    const asked: { ids: string[]; decrement: boolean | undefined }[] = [];
    const detach = w.cloud.autoScaling.detachInstances.bind(w.cloud.autoScaling);
    w.cloud.autoScaling.detachInstances = async (input) => {
      asked.push({ ids: [...input.InstanceIds], decrement: input.ShouldDecrementDesiredCapacity });
      return detach(input);
    };
    const r = await roll(
      w,
      policyFor(`groups: [{ name: node-1, rollingUpdate: { maxSurge: 2, ${FAST1} } }]\n`),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(asked.flatMap((a) => a.ids)).toHaveLength(2);
    expect(asked.every((a) => a.decrement === false)).toBe(true);
    // Canary: a validation between the first detach and the second.
    const d = r.events.flatMap((e, i) => (e.type === "instance.detach" ? [i] : []));
    expect(d).toHaveLength(2);
    expect(r.events.slice(d[0]!, d[1]!).some((e) => e.type === "validation" && e.ok)).toBe(true);
    // Detached instances last.
    const order = ofType(r.events, "instance.terminate").map((e) => e.instance);
    expect(order).toHaveLength(6);
    expect(new Set(order.slice(4))).toEqual(new Set(asked.flatMap((a) => a.ids)));
    expect(maxInFlight(r.events)).toBeLessThanOrEqual(2);
    expect(stale(w, "node-1")).toEqual([]);
    expect(w.sizes("node-1").desired).toBe(6);
  });

  // Differs on purpose, as above: the canary's surge first, validated, then the rest.
  it("TestRollingUpdateMaxSurgeAllButOneNeedUpdate → with one node up to date, a canary surge first (differs on purpose), then the second", async () => {
    const w = selfManagedWorld([{ name: "node-1", nodes: 7, upToDate: 1 }]);
    const r = await roll(
      w,
      policyFor(`groups: [{ name: node-1, rollingUpdate: { maxSurge: 2, ${FAST1} } }]\n`),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    const d = r.events.flatMap((e, i) => (e.type === "instance.detach" ? [i] : []));
    expect(d).toHaveLength(2);
    expect(r.events.slice(d[0]!, d[1]!).some((e) => e.type === "validation")).toBe(true);
    const ids = detached(r.events).map((e) => e.instance);
    const order = ofType(r.events, "instance.terminate").map((e) => e.instance);
    expect(order).toHaveLength(6);
    expect(new Set(order.slice(4))).toEqual(new Set(ids));
    expect(stale(w, "node-1")).toEqual([]);
  });

  it("TestRollingUpdateMaxSurgeGreaterThanNeedUpdate → maxSurge 10 with 2 of 3 stale: only 2 detached", async () => {
    const w = selfManagedWorld([{ name: "node-1", nodes: 3, upToDate: 1 }]);
    const r = await roll(
      w,
      policyFor(`groups: [{ name: node-1, rollingUpdate: { maxSurge: 10, ${FAST} } }]\n`),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(r.plan.groups[0]!.budgets.maxSurge).toBe(2);
    expect(detached(r.events)).toHaveLength(2);
    expect(ofType(r.events, "instance.terminate")).toHaveLength(2);
    expect(stale(w, "node-1")).toEqual([]);
  });

  it("TestRollingUpdateDetachFails → a refused detach: replaced in place, no error", async () => {
    const w = selfManagedWorld([{ name: "node-1", nodes: 3, upToDate: 1 }]);
    w.cloud.autoScaling.detachInstances = async () => {
      throw new AwsApiError(
        "AccessDenied",
        "not authorized to perform: autoscaling:DetachInstances",
        403,
      );
    };
    const r = await roll(
      w,
      policyFor(`groups: [{ name: node-1, rollingUpdate: { maxSurge: 10, ${FAST} } }]\n`),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(ofType(r.events, "surge.given-up")).toHaveLength(1);
    expect(ofType(r.events, "instance.terminate")).toHaveLength(2);
    expect(stale(w, "node-1")).toEqual([]);
    expect(w.instances("node-1")).toHaveLength(3);
  });

  /** As an earlier run leaves an instance it detached for surge: node labelled, instance tagged
   * with the group, then detached (its replacement launched). */
  async function detachedEarlier(w: World, group: string, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (const inst of w.instances(group).slice(-count)) {
      const node = [...w.kube.nodes.values()].find((n) => n.instanceId === inst.id)!;
      node.labels[DETACHED_LABEL] = group;
      await w.run(
        w.cloud.ec2.createTags({
          Resources: [inst.id],
          Tags: [{ Key: DETACHED_LABEL, Value: group }],
        }),
      );
      await w.run(
        w.cloud.autoScaling.detachInstances({
          AutoScalingGroupName: group,
          InstanceIds: [inst.id],
          ShouldDecrementDesiredCapacity: false,
        }),
      );
      ids.push(inst.id);
    }
    await w.advance(5 * 60_000);
    return ids;
  }

  it("TestRollingUpdateMaxSurgeAllNeedUpdateOneAlreadyDetached → maxSurge 3 with one instance already detached: 2 more detached, the earlier one terminated last", async () => {
    const w = selfManagedWorld([{ name: "node-1", nodes: 4 }]);
    const [earlier] = await detachedEarlier(w, "node-1", 1);
    const r = await roll(
      w,
      policyFor(`groups: [{ name: node-1, rollingUpdate: { maxSurge: 3, ${FAST1} } }]\n`),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(detached(r.events)).toHaveLength(2);
    const order = ofType(r.events, "instance.terminate").map((e) => e.instance);
    expect(order).toHaveLength(4);
    expect(order.at(-1)).toBe(earlier);
    expect(stale(w, "node-1")).toEqual([]);
    expect(w.ec2.instances.get(earlier!)!.state).not.toBe("running");
  });

  it("TestRollingUpdateMaxSurgeAllNeedUpdateMaxAlreadyDetached → maxSurge 2 with 2 already detached: no further detach, all 7 replaced", async () => {
    const w = selfManagedWorld([{ name: "node-1", nodes: 7 }]);
    const earlier = await detachedEarlier(w, "node-1", 2);
    const r = await roll(
      w,
      policyFor(`groups: [{ name: node-1, rollingUpdate: { maxSurge: 2, ${FAST1} } }]\n`),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    expect(detached(r.events)).toEqual([]);
    const order = ofType(r.events, "instance.terminate").map((e) => e.instance);
    expect(order).toHaveLength(7);
    expect(new Set(order.slice(5))).toEqual(new Set(earlier));
    expect(stale(w, "node-1")).toEqual([]);
  });
});

describe("kOps pkg/instancegroups settings_test.go, as plans of a sandbox group", () => {
  async function budgets(size: number, settings: string) {
    const w = selfManagedWorld([{ name: "g", nodes: size }]);
    const policy = policyFor(`groups: [{ name: g, rollingUpdate: { ${settings} } }]\n`);
    const { plan } = await w.run(observeAndPlan(policy, "policy.yaml", w, {}));
    return plan.groups[0]!.budgets;
  }

  it.each([
    [1, "0", 0],
    [1, '"0%"', 1],
    [10, '"39%"', 3],
    [10, '"100%"', 10],
  ])(
    "TestMaxUnavailable → %i nodes, maxUnavailable %s resolves to %i",
    async (size, value, expected) => {
      // maxSurge left at its default: with maxUnavailable 0 the default surge (1) keeps the group
      // rollable, which the validator requires.
      expect((await budgets(size, `maxUnavailable: ${value}`)).maxUnavailable).toBe(expected);
    },
  );

  it.each([
    [1, "0", 0, 1],
    [1, '"0%"', 0, 1],
    [10, '"31%"', 4, 0],
    [10, '"100%"', 10, 0],
  ])(
    "TestMaxSurge → %i nodes, maxSurge %s resolves to %i, and maxUnavailable defaults to %i",
    async (size, value, surge, unavailable) => {
      const b = await budgets(size, `maxSurge: ${value}`);
      expect(b.maxSurge).toBe(surge);
      expect(b.maxUnavailable).toBe(unavailable);
    },
  );

  it("TestAWSDefault → nothing said: maxSurge 1, maxUnavailable 0", async () => {
    const w = selfManagedWorld([{ name: "g", nodes: 40 } satisfies GroupSpec]);
    const { plan } = await w.run(
      observeAndPlan(policyFor(`groups: [{ name: g }]\n`), "policy.yaml", w, {}),
    );
    expect(plan.groups[0]!.budgets).toMatchObject({ maxSurge: 1, maxUnavailable: 0 });
  });
});
