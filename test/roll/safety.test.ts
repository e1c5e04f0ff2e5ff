// Faults, safety and control: each ends in a clear, named outcome or a completed roll — never a
// hang (world.run throws a DeadlockError if the roll waits with nothing left to happen).
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { planAndApply } from "../../src/app/apply.js";
import { EventLog } from "../../src/ports/index.js";
import { LEASE_NAMESPACE } from "../../src/roll/lease.js";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

const web = (replicas: number, minAvailable: number) => ({
  workloads: [{ kind: "Deployment" as const, name: "web", replicas, pdb: { minAvailable } }],
});

describe("faults", () => {
  it("waits out launch failures for a while and completes", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }], {
      faults: { launchFailures: [{ group: "w", from: 0, for: 300 }] },
    } as never);
    const { result, invariants } = await roll(world, policyFor("groups: [{ name: w }]\n"));
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
  });

  it("stops with NodeCreationFailure naming the instances when new nodes never become Ready", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }], {
      faults: { nodesNeverReady: [{ group: "w", from: 0 }] },
    } as never);
    const { result, invariants } = await roll(
      world,
      policyFor("groups: [{ name: w, rollingUpdate: { validation: { timeout: 10m } } }]\n"),
    );
    expect(invariants.violations).toEqual([]);
    expect(result).toMatchObject({
      result: "failure",
      message: expect.stringMatching(
        /^NodeCreationFailure: w: 4 of 4 nodes Ready after 10 min|^NodeCreationFailure: w: \d of \d nodes Ready after 10 min; instances without a Ready node: i-/,
      ),
    });
  });

  it("completes through API throttling on both sides", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }], {
      faults: {
        throttle: [
          { api: "kubernetes", rate: 0.2, retryAfter: 1 },
          { api: "aws", rate: 0.2, retryAfter: 1 },
        ],
      },
    } as never);
    const { result, invariants } = await roll(world, policyFor("groups: [{ name: w }]\n"));
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
  });

  it("refuses to start a group whose PodDisruptionBudget can never allow a disruption, naming it", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 3 }], web(2, 2) as never);
    const { result, events } = await roll(world, policyFor("groups: [{ name: w }]\n"));
    expect(result).toMatchObject({
      result: "failure",
      message: expect.stringMatching(
        /^PodEvictionFailure: not started, it would fail: PodDisruptionBudget default\/web never allows a disruption/,
      ),
    });
    expect(ofType(events, "node.cordon")).toHaveLength(0);
  });

  it("with deleteAfterDrainTimeout gets past that PodDisruptionBudget, deleting the pods and saying which", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 3 }], web(2, 2) as never);
    const { result, events, invariants } = await roll(
      world,
      policyFor("groups: [{ name: w, rollingUpdate: { drainTimeout: 2m } }]\n"),
      { deleteAfterDrainTimeout: true, reason: "CVE-2026-0001" },
    );
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    expect(ofType(events, "eviction.blocked").length).toBeGreaterThan(0);
    expect(ofType(events, "eviction.blocked").every((e) => e.pdb === "web")).toBe(true);
    expect(ofType(events, "node.drain.end").flatMap((e) => e.deleted ?? []).length).toBeGreaterThan(
      0,
    );
    expect(ofType(events, "roll.start")[0]).toMatchObject({
      replaceAll: false,
      deleteAfterDrainTimeout: true,
      reason: "CVE-2026-0001",
    });
  });
});

describe("one roll per cluster", () => {
  it("stops a second run while the first holds the lease, naming the holder", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
    const policy = policyFor("groups: [{ name: w }]\n");
    const first = planAndApply(policy, "p.yaml", world, new EventLog(world.clock), {
      runId: "first",
      runUrl: "https://github.com/o/r/actions/runs/1",
    });
    const secondLog = new EventLog(world.clock);
    const second = (async () => {
      await world.clock.sleep(60_000);
      return planAndApply(policy, "p.yaml", world, secondLog, { runId: "second" });
    })();
    const [a, b] = await world.run(Promise.all([first, second]));
    expect(a.result).toBe("success");
    expect(b).toMatchObject({
      result: "failure",
      message: expect.stringMatching(
        /^LockHeld: another roll holds cluster lock kube-system\/noderoll-engine: first\/[0-9a-f]{8} \(https:\/\/github\.com\/o\/r\/actions\/runs\/1\); it is renewing it/,
      ),
    });
    expect(ofType(secondLog.events, "node.cordon")).toHaveLength(0);
  });

  it("takes over a lease whose holder stopped renewing it", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 2 }]);
    await world.run(
      world.cluster.createLease(LEASE_NAMESPACE, {
        metadata: { name: "noderoll-engine", namespace: LEASE_NAMESPACE },
        spec: {
          holderIdentity: "ghost",
          leaseDurationSeconds: 300,
          renewTime: new Date(world.clock.nowMs() - 600_000).toISOString(),
        },
      }),
    );
    const { result, events } = await roll(world, policyFor("groups: [{ name: w }]\n"));
    expect(result.result).toBe("success");
    expect(ofType(events, "lock.acquire")[0]).toMatchObject({ takenOver: "ghost" });
  });
});

describe("stopping early", () => {
  it("on cancellation finishes the node in flight, stops, and the next run completes", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 6 }]);
    const policy = policyFor(
      "groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }]\n",
    );
    const controller = new AbortController();
    const log = new EventLog(world.clock);
    log.on((e) => {
      if (e.type === "instance.terminate" && ofType(log.events, "instance.terminate").length === 2)
        controller.abort();
    });
    const r = await world.run(
      planAndApply(policy, "p.yaml", world, log, { runId: "a", signal: controller.signal }),
    );
    expect(r).toMatchObject({
      result: "cancelled",
      message: expect.stringMatching(/Run apply again to continue/),
    });
    const again = await roll(world, policy);
    expect(again.invariants.violations).toEqual([]);
    expect(again.result.result).toBe("success");
    expect(world.instances("w").every((i) => i.ltVersion === 2)).toBe(true);
  });

  it("stops between nodes at --max-duration and says how to continue", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 6 }]);
    const policy = policyFor(
      "groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }]\n",
    );
    const r = await roll(world, policy, { maxDurationMs: 5 * 60_000 });
    // A deadline defers the rest (skipped, not cancelled: nobody stopped the run), typed as such
    // from the engine to the event log.
    expect(r.result).toMatchObject({
      result: "skipped",
      stop: { kind: "deadline", at: expect.any(String) },
      message: expect.stringMatching(
        /^Deadline: --max-duration reached.*left for the next run\. Run apply again to continue/,
      ),
    });
    expect(ofType(r.events, "roll.end")[0]?.stop).toMatchObject({ kind: "deadline" });
    const terminated = ofType(r.events, "instance.terminate").length;
    expect(terminated).toBeGreaterThan(0);
    expect(terminated).toBeLessThan(6);
    expect(world.nodes("w").filter((n) => !n.deleted && n.unschedulable)).toEqual([]);
  });

  it("does not start outside the maintenance window unless told to, and says when it opens", async () => {
    // The scenario starts on Monday 2026-01-05 09:00 UTC.
    const world = selfManagedWorld([{ name: "w", nodes: 2 }]);
    const policy = policyFor(
      'window: { days: [Sat], start: "02:00", end: "05:00", timeZone: Europe/Berlin }\ngroups: [{ name: w }]\n',
    );
    const closed = await roll(world, policy);
    expect(closed.result).toMatchObject({
      result: "skipped",
      stop: {
        kind: "window-closed",
        nextOpening: "2026-01-10T01:00:00.000Z",
        nextOpeningLocal: "Sat 10 Jan 02:00 Europe/Berlin",
      },
      // On the window's own clock, its zone named, then UTC (issue 48, item 6).
      message: expect.stringMatching(
        /maintenance window is closed \(next opening Sat 10 Jan 02:00 Europe\/Berlin, 2026-01-10T01:00:00.000Z\); nothing was started/,
      ),
    });
    expect(ofType(closed.events, "node.taint")).toHaveLength(0);
    const emergency = await roll(world, policy, { ignoreWindow: true });
    expect(emergency.result.result).toBe("success");
  });

  it("plans nothing and changes nothing during plan", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 3 }]);
    const before = new Map(world.calls);
    await world.run(observeAndPlan(policyFor("groups: [{ name: w }]\n"), "p.yaml", world));
    const mutating = [...world.calls.entries()].filter(
      ([k, v]) => (before.get(k) ?? 0) !== v && !/\.(list|get|describe|watch)/i.test(k),
    );
    expect(mutating).toEqual([]);
  });
});

describe("other actors", () => {
  it("respects a desired-capacity change made by someone else during the roll", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
    world.clock.after(
      4 * 60_000,
      () =>
        void world.cloud.autoScaling.setDesiredCapacity({
          AutoScalingGroupName: "w",
          DesiredCapacity: 6,
        }),
    );
    const { result, invariants } = await roll(
      world,
      policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 1 } }]\n"),
    );
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    expect(world.sizes("w").desired).toBe(6);
    const ours = [...world.calls.entries()].filter(([k]) =>
      /setDesiredCapacity|updateAutoScalingGroup/.test(k),
    );
    expect(ours).toEqual([[expect.stringMatching(/setDesiredCapacity/), 1]]);
    expect(world.instances("w").every((i) => i.ltVersion === 2)).toBe(true);
    expect(
      world
        .nodes("w")
        .filter(
          (n) =>
            !n.deleted && n.annotations["cluster-autoscaler.kubernetes.io/scale-down-disabled"],
        ),
    ).toEqual([]);
  });
});

describe("review findings, kept fixed", () => {
  it("after a stopped run, the node it left cordoned goes first, so the capacity floor holds", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
    const last = world.nodes("w").at(-1)!;
    await world.run(
      world.cluster.patchNode(last.name, {
        unschedulable: true,
        annotations: { "noderoll.io/cordoned": "dead-run" },
      }),
    );
    const { result, invariants, events } = await roll(
      world,
      policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }]\n"),
    );
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    expect(ofType(events, "node.cordon")[0]!.node).toBe(last.name);
  });

  it("switches the group to the policy's launch template version, so the roll converges", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 3, upToDate: 3 }]);
    const policy = policyFor("groups: [{ name: w, target: { launchTemplateVersion: 1 } }]\n");
    const { result } = await roll(world, policy);
    expect(result.result).toBe("success");
    expect(world.asg("w").ltVersion).toBe("1");
    expect(world.instances("w").every((i) => i.ltVersion === 1)).toBe(true);
    const { plan } = await world.run(observeAndPlan(policy, "p.yaml", world));
    expect(plan.summary).toMatchObject({ groupsToRoll: 0, configChanges: 0 });
  });

  it("starts no further group once the deadline has passed", async () => {
    const world = selfManagedWorld([
      { name: "a", nodes: 2 },
      { name: "b", nodes: 2 },
    ]);
    const r = await roll(
      world,
      policyFor("groups: [{ name: a, rollingUpdate: { maxSurge: 0 } }, { name: b }]\n"),
      { maxDurationMs: 60_000 },
    );
    expect(r.result.result).toBe("skipped");
    expect(r.invariants.started).not.toContain("b");
  });
});
