// The roll engine in the sandbox, in virtual time, with the invariants checked after every
// event: kOps' behaviours (https://kops.sigs.k8s.io/operations/rolling-update/) as scenarios,
// EKS's delegated update, the demo.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadPolicy } from "../../src/policy/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { maxInFlight, ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

function expectClean(world: World, group: string): void {
  const nodes = world.nodes(group).filter((n) => !n.deleted);
  expect(
    nodes.filter((n) => n.unschedulable).map((n) => n.name),
    "cordoned nodes left",
  ).toEqual([]);
  expect(
    nodes.filter((n) => n.taints.some((t) => t.key.startsWith("noderoll.io/"))).map((n) => n.name),
    "taints left",
  ).toEqual([]);
  expect(
    nodes.filter((n) => n.labels["noderoll.io/detached-from"]).map((n) => n.name),
    "detached nodes left",
  ).toEqual([]);
  expect(
    nodes.filter((n) => n.annotations["noderoll.io/scale-down-disabled"]).map((n) => n.name),
    "autoscaler protection left",
  ).toEqual([]);
}

describe("demo cluster", () => {
  it("rolls every group of policies/demo.yaml to the target with every invariant held", async () => {
    const r = loadPolicy(readFileSync("policies/demo.yaml", "utf8"), "policies/demo.yaml");
    if (!r.ok) throw new Error("demo policy invalid");
    const world = World.demo();
    const { result, events, invariants, plan } = await roll(world, r.policy);
    expect(invariants.violations).toEqual([]);
    expect(result).toMatchObject({ result: "success" });
    expect(invariants.started).toEqual(["system", "ingress", "workers"]);
    expect(plan.summary.nodesToReplace).toBe(17);
    for (const g of ["ingress", "workers"]) {
      expect(world.instances(g).every((i) => i.ltVersion === 7 || g === "ingress")).toBe(true);
      expectClean(world, g);
    }
    expect(world.eks.nodegroups.get("system")?.version).toBe("1.33");
    for (const g of ["system", "ingress", "workers"]) {
      const phases = ofType(events, "phase.end")
        .filter((e) => e.group === g)
        .map((e) => e.phase);
      expect(phases).toEqual(["setup", "scale-up", "upgrade", "scale-down"]);
    }
    expect(ofType(events, "lock.release")).toHaveLength(1);
  });
});

describe("kOps behaviours (self-managed)", () => {
  it("starts with a canary when no instance is up to date", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 6 }]);
    const { result, events, invariants } = await roll(
      world,
      policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 3 } }]\n"),
    );
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    const detach = ofType(events, "instance.detach").map((e) => e.t);
    expect(detach).toHaveLength(3);
    expect(detach[0]! < detach[1]!).toBe(true);
    expect(detach[1]).toBe(detach[2]);
    expectClean(world, "w");
  });

  // kOps skips its canary once an instance is up to date; noderoll keeps it in every group, so
  // that the gates judge one replacement before a wave of them (issue 47).
  it("canaries even when some instance is already up to date, and caps surge at the nodes needing update", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 6, upToDate: 4 }]);
    const { result, events, invariants } = await roll(
      world,
      policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 10 } }]\n"),
    );
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    const detach = ofType(events, "instance.detach");
    expect(detach).toHaveLength(2);
    // The canary's surge first; the second once its replacement validated.
    expect(detach[0]!.t < detach[1]!.t).toBe(true);
    const validated = ofType(events, "validation").filter((v) => v.ok && v.t > detach[0]!.t);
    expect(validated.some((v) => v.t <= detach[1]!.t)).toBe(true);
  });

  it("replaces a single node alone first without surge, then keeps the window at maxUnavailable", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 7 }]);
    const { result, events, invariants } = await roll(
      world,
      policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 3 } }]\n"),
    );
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    expect(ofType(events, "instance.detach")).toHaveLength(0);
    const cordons = ofType(events, "node.cordon");
    const terminates = ofType(events, "instance.terminate");
    expect(cordons[1]!.t > terminates[0]!.t).toBe(true);
    expect(maxInFlight(events)).toBe(3);
    expect(terminates).toHaveLength(7);
  });

  it.each([
    [1, 0],
    [2, 1],
    [0, 2],
    [3, 3],
  ])(
    "never has more than maxSurge %i + maxUnavailable %i nodes in flight",
    async (surge, unavailable) => {
      const world = selfManagedWorld([{ name: "w", nodes: 8, upToDate: 1 }]);
      const { result, events, invariants } = await roll(
        world,
        policyFor(
          `groups: [{ name: w, rollingUpdate: { maxSurge: ${surge}, maxUnavailable: ${unavailable} } }]\n`,
        ),
      );
      expect(invariants.violations).toEqual([]);
      expect(result.result).toBe("success");
      expect(maxInFlight(events)).toBeLessThanOrEqual(surge + unavailable);
      expect(maxInFlight(events)).toBeGreaterThanOrEqual(Math.min(surge + unavailable, 2));
      expect(world.instances("w").every((i) => i.ltVersion === 2)).toBe(true);
      expectClean(world, "w");
    },
  );

  it("with drainAndTerminate: false only taints and surges", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
    const { result, events } = await roll(
      world,
      policyFor(
        "groups: [{ name: w, rollingUpdate: { maxSurge: 2, drainAndTerminate: false } }]\n",
      ),
    );
    expect(result.result).toBe("success");
    expect(ofType(events, "node.taint")).toHaveLength(4);
    expect(ofType(events, "instance.detach")).toHaveLength(2);
    expect(ofType(events, "node.cordon")).toHaveLength(0);
    expect(ofType(events, "instance.terminate")).toHaveLength(0);
    expect(ofType(events, "phase.end").find((e) => e.phase === "upgrade")).toMatchObject({
      result: "skipped",
      message: expect.stringMatching(/drainAndTerminate is false/),
    });
  });

  it("never surges a control-plane group, whatever the defaults say", async () => {
    const world = selfManagedWorld([{ name: "cp", nodes: 3 }]);
    const { result, events, invariants } = await roll(
      world,
      policyFor("defaults: { maxSurge: 2 }\ngroups: [{ name: cp, role: control-plane }]\n"),
    );
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    expect(ofType(events, "instance.detach")).toHaveLength(0);
    expect(maxInFlight(events)).toBe(1);
  });

  it("rolls groups in policy order, one at a time", async () => {
    const world = selfManagedWorld([
      { name: "a", nodes: 2 },
      { name: "b", nodes: 2 },
      { name: "c", nodes: 2 },
    ]);
    const { result, invariants } = await roll(
      world,
      policyFor("order: [c, a]\ngroups: [{ name: a }, { name: b }, { name: c }]\n"),
    );
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    expect(invariants.started).toEqual(["c", "a", "b"]);
  });

  it("is not blocked by a NotReady node of another group, but is by one of its own", async () => {
    const world = selfManagedWorld([
      { name: "a", nodes: 3 },
      { name: "b", nodes: 2, upToDate: 2 },
    ]);
    const other = world.nodes("b")[0]!;
    other.ready = false;
    const ok = await roll(world, policyFor("groups: [{ name: a }, { name: b }]\n"), {
      groups: ["a"],
    });
    expect(ok.result.result).toBe("success");
    expect(
      ofType(ok.events, "validation").some(
        (v) => v.ok && v.failures.some((f) => f.includes(other.name)),
      ),
    ).toBe(true);

    const world2 = selfManagedWorld([{ name: "a", nodes: 3, upToDate: 1 }]);
    world2
      .nodes("a")
      .find((n) =>
        world2.instances("a").some((i) => i.id === n.instanceId && i.ltVersion === 2),
      )!.ready = false;
    const blocked = await roll(
      world2,
      policyFor(
        "groups: [{ name: a, rollingUpdate: { validation: { timeout: 2m, count: 1 } } }]\n",
      ),
    );
    expect(blocked.result).toMatchObject({
      result: "failure",
      message: expect.stringMatching(/^ValidationFailed: .*is not Ready/),
    });
  });
});

describe("validation", () => {
  it("needs count consecutive successes: a flapping node of the group holds the roll until it settles", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4, upToDate: 1 }]);
    const fresh = world
      .nodes("w")
      .find((n) => world.instances("w").some((i) => i.id === n.instanceId && i.ltVersion === 2))!;
    // NotReady and Ready in turn, every 13 s, for the first 6 minutes of the roll.
    for (let t = 5_000, ready = false; t < 360_000; t += 13_000, ready = !ready) {
      const state = ready;
      world.clock.after(t, () => world.kube.setNodeReady(fresh, state));
    }
    world.clock.after(361_000, () => world.kube.setNodeReady(fresh, true));
    const count = 3;
    const { result, events } = await roll(
      world,
      policyFor(
        `groups: [{ name: w, rollingUpdate: { validation: { count: ${count}, timeout: 15m } } }]\n`,
      ),
    );
    expect(result.result).toBe("success");
    const seq = events.filter(
      (e) => e.type === "validation" || e.type === "node.cordon" || e.type === "instance.detach",
    );
    expect(
      seq.filter(
        (e) => e.type === "validation" && !e.ok && e.failures.some((f) => f.includes(fresh.name)),
      ).length,
    ).toBeGreaterThan(0);
    // Every step after a failed validation comes only after `count` successes in a row.
    let streak = 0;
    let failedSince = false;
    let checked = 0;
    for (const e of seq) {
      if (e.type === "validation") {
        streak = e.ok ? streak + 1 : 0;
        if (!e.ok) failedSince = true;
      } else if (failedSince) {
        expect(streak, `${e.type} at ${e.t} after ${streak} successes`).toBeGreaterThanOrEqual(
          count,
        );
        failedSince = false;
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
