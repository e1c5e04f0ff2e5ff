// The bench's split of a roll's time (scripts/bench/critical-path.ts) and its lower bound
// (scripts/bench/lower-bound.ts), on rolls small enough to check by hand.
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { Planner } from "../../src/engine/observe.js";
import { loadPolicy } from "../../src/policy/index.js";
import { EventLog, type RollEvent } from "../../src/ports/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { criticalPath, type RollTrace, type Split } from "../../scripts/bench/critical-path.js";
import { lowerBound, shutdownOf } from "../../scripts/bench/lower-bound.js";
import { snapshotBefore, traceOf } from "../../scripts/bench/trace.js";

const s = 1000;
const zero: Split = {
  boot: 0,
  registerReady: 0,
  drain: 0,
  waits: 0,
  terminate: 0,
  validation: 0,
  idle: 0,
  other: 0,
};

/**
 * Two nodes, one pod each (preStop 8 s + the sandbox's 2 s shutdown: gone 10 s after its
 * eviction), boots without jitter (60 s boot, 10 s to register, 20 s to Ready: 90 s), instances
 * gone 30 s after termination and their nodes 10 s later; maxSurge 1, maxUnavailable 0,
 * postDrainDelay 5 s, interval 15 s, one validation.
 */
function twoNodes(): World {
  return World.from({
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: { name: "cp" },
    seed: 5,
    cluster: { name: "cp", version: "1.33" },
    zones: ["eu-west-1a"],
    timings: { bootJitter: 0 },
    nodeGroups: [
      {
        name: "w",
        type: "self-managed",
        version: "1.33",
        capacity: { cpu: 4, memory: "16Gi", pods: 20 },
        size: { min: 0, max: 6, desired: 2 },
        launchTemplate: { versions: 2, use: "$Latest" },
        instances: [{ version: 1, count: 2 }],
      },
    ],
    workloads: [
      {
        kind: "Deployment",
        name: "app",
        replicas: 2,
        requests: { cpu: "100m", memory: "64Mi" },
        preStop: 8,
        terminationGracePeriod: 30,
      },
    ],
  });
}

const POLICY = `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata: { name: cp }
cluster: { name: cp, region: eu-west-1 }
defaults: { maxSurge: 1, maxUnavailable: 0, postDrainDelay: 5s, interval: 15s, validation: { count: 1 } }
groups: [{ name: w, target: { launchTemplateVersion: $Latest } }]
`;

describe("the critical-path split of a roll", () => {
  it("accounts for every second of a two-node roll, as worked out by hand", async () => {
    const world = twoNodes();
    const r = loadPolicy(POLICY, "cp.yaml");
    if (!r.ok) throw new Error("policy");
    const planner = new Planner(r.policy, "cp.yaml");
    const { plan } = await world.run(planner.observe(world));
    const before = snapshotBefore(world, "w");
    const log = new EventLog(world.clock);
    const result = await world.run(
      planAndApply(r.policy, "cp.yaml", world, log, { runId: "cp", planner }),
      3600_000,
    );
    expect(result.result).toBe("success");
    const at = (type: RollEvent["type"]) =>
      log.events.filter((e) => e.type === type).map((e) => Date.parse(e.t) - before.start);
    // The roll, as the engine reports it: the canary's replacement boots for 90 s; n1 is
    // drained (10 s), waits 5 s, is terminated; its replacement is Ready 90 s later, at 195 s;
    // n2 (detached for the surge, so not replaced) goes the same way.
    expect(at("node.drain.end")).toEqual([100 * s, 205 * s]);
    expect(at("instance.terminate")).toEqual([105 * s, 210 * s]);
    // After n2's interval the cluster does not validate while its node, NotReady, is still
    // there (deleted 40 s after its termination, at 250 s): the engine validates when the node
    // watch shows it gone, and the roll ends.
    expect(at("validation")).toEqual([0, 90, 195, 250].map((x) => x * s));
    const end = world.clock.nowMs();
    expect(end - before.start).toBe(250 * s);
    const split = criticalPath(traceOf(world, plan.groups[0]!, log.events, before, end));
    // 0–70 boot, 70–90 register/Ready (the canary's replacement; capacity at the floor);
    // 90–100 drain, 100–105 postDrainDelay (n1 out: the window is full);
    // 105–145 boot (n1 goes at 145, its replacement is Ready only at 195: that binds),
    // 145–175 boot, 175–195 register/Ready; then everything has started and each instant
    // goes to what ends last: 195–205 drain, 205–210 postDrainDelay, 210–250 n2's node going
    // (later than the interval, which ends meanwhile).
    expect(split).toEqual({
      ...zero,
      boot: 140 * s,
      registerReady: 40 * s,
      drain: 20 * s,
      waits: 10 * s,
      terminate: 40 * s,
    });
  });

  it("calls time idle when the budgets had room, validation when the engine was validating", () => {
    // Three nodes, window 2, floor 2, one spare Ready node: the budgets allow one node out.
    const trace: RollTrace = {
      start: 0,
      end: 100 * s,
      window: 2,
      floor: 2,
      nodes: [
        { name: "a", ready: -Infinity, replaced: true, cordoned: 30 * s, drainEnd: 40 * s },
        { name: "b", ready: -Infinity, replaced: true, cordoned: 60 * s },
        { name: "spare", ready: -Infinity, replaced: false },
      ],
      validationGaps: [[10 * s, 20 * s]],
    };
    // 0–10 idle, 10–20 validation, 20–30 idle; 30–60: a is out, one Ready node to spare is
    // gone (ready 2 = floor): the window has room, capacity does not, and nothing is booting;
    // 60–100 everything has started, a (waits) and b (drain) never go within the roll: the
    // first to clear is taken.
    expect(criticalPath(trace)).toEqual({
      ...zero,
      idle: 20 * s,
      validation: 10 * s,
      other: 30 * s,
      waits: 40 * s,
    });
  });
});

describe("the end of a roll", () => {
  it("goes to what ends last within the roll, not to what outlasts it", () => {
    const trace: RollTrace = {
      start: 0,
      end: 60 * s,
      window: 1,
      floor: 0,
      nodes: [
        {
          name: "a",
          ready: -Infinity,
          replaced: true,
          cordoned: 0,
          drainEnd: 20 * s,
          terminated: 30 * s,
          intervalEnd: 45 * s,
          deleted: 90 * s,
        },
      ],
      validationGaps: [[50 * s, 60 * s]],
    };
    // 0–20 drain, 20–30 postDrainDelay; from 30 a's node is going until 90, after the roll:
    // 30–45 its interval, 45–50 nothing within the roll (the first to clear), 50–60 validation.
    expect(criticalPath(trace)).toEqual({
      ...zero,
      drain: 20 * s,
      waits: 25 * s,
      terminate: 5 * s,
      validation: 10 * s,
    });
  });

  it("goes to the binding constraint when both budgets are full: the later to clear", () => {
    const trace: RollTrace = {
      start: 0,
      end: 100 * s,
      window: 1,
      floor: 1,
      nodes: [
        { name: "a", ready: -Infinity, replaced: true, cordoned: 0, drainEnd: 0, terminated: 0 },
        { name: "b", ready: -Infinity, replaced: true, cordoned: 100 * s },
        { name: "r", launched: 0, registered: 30 * s, ready: 50 * s, replaced: false },
      ],
      validationGaps: [],
    };
    // a (out, terminating) never goes: the window binds over r's boot and registration.
    expect(criticalPath(trace)).toEqual({ ...zero, terminate: 100 * s });
    // a goes at 20: r binds (boot to 30, then registration to 50); then the budgets have room.
    trace.nodes[0]!.deleted = 20 * s;
    expect(criticalPath(trace)).toEqual({
      ...zero,
      boot: 30 * s,
      registerReady: 20 * s,
      idle: 50 * s,
    });
  });
});

describe("the lower bound", () => {
  it("adds up its terms: surge, canary, the waves' slowest pods, boots overlapping intervals", () => {
    const b = lowerBound({
      shutdownMs: [10, 30, 20, 5, 0].map((x) => x * s),
      window: 2,
      canary: true,
      postDrainDelayMs: 5 * s,
      intervalMs: 15 * s,
      count: 2,
      bootMs: 90 * s,
      pdbSerialMs: 0,
    });
    // 3 waves; slowest first: [30, 20 | 10, 5 | 0] → 30 + 10 + 0 = 40 s of pod shutdown.
    expect(b.waves).toBe(3);
    expect(b.terms).toEqual({
      surgeBoot: 90 * s,
      canary: 100 * s,
      podShutdown: 40 * s,
      postDrainDelay: 15 * s,
      validation: 40 * s,
      replacementBoots: 180 * s,
      lastInterval: 15 * s,
    });
    expect(b.totalMs).toBe(480 * s);
    expect(b.binding).toBe("waves");
  });

  it("is the slowest PodDisruptionBudget's turns after the surge when those take longer", () => {
    const input = {
      shutdownMs: [10 * s],
      window: 1,
      canary: false,
      postDrainDelayMs: 0,
      intervalMs: 0,
      count: 1,
      bootMs: 90 * s,
    };
    expect(lowerBound({ ...input, pdbSerialMs: 5 * s })).toMatchObject({
      binding: "waves",
      totalMs: 100 * s,
    });
    expect(lowerBound({ ...input, pdbSerialMs: 600 * s })).toMatchObject({
      binding: "pdb",
      totalMs: 690 * s,
    });
  });

  it("takes a node's slowest pod shutdown as the sandbox times it, DaemonSets aside", () => {
    const world = twoNodes();
    expect(
      shutdownOf(
        world,
        world.nodes("w").map((n) => n.name),
      ),
    ).toEqual([10 * s, 10 * s]);
  });
});
