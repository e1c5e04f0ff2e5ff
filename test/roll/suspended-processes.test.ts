// Issue 44, defect 5: capacity that cannot come back. A group whose Launch process is suspended
// (frozen during an incident) launches nothing: a roll would drain and terminate its nodes and
// leave it short. Such a group — and one whose Terminate is suspended — is blocked by the plan,
// replace-all and delete-after-drain-timeout or not. While noderoll rolls a self-managed group it holds AZRebalance itself, marked on
// the group, and gives it back when the roll ends or, after a killed run, on the next one.
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { AwsApiError, EventLog, type RollEvent } from "../../src/ports/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { crashAtEvent, leftovers } from "./crash.js";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

const MARK = "noderoll.io/suspended-processes";
const policy = policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 1 } }]\n");
const marked = (world: World, group = "w") =>
  world.asg(group).tags.find((t) => t.Key === MARK)?.Value;

describe("a suspended Launch or Terminate stops the group (defect 5)", () => {
  it.each([false, true])(
    "Launch suspended (replace-all and delete-after-drain-timeout: %s): the plan is blocked, and apply drains and terminates nothing",
    async (forced) => {
      const world = selfManagedWorld([{ name: "w", nodes: 4, suspended: ["Launch"] }]);
      const before = world.instances("w").map((i) => i.id);
      const { result, plan, events } = await roll(world, policy, {
        replaceAll: forced,
        deleteAfterDrainTimeout: forced,
        ...(forced && { reason: "test" }),
      });
      const g = plan.groups[0]!;
      expect(g.status).toBe("blocked");
      const f = g.findings.find((x) => x.code === "processes-suspended");
      expect(f).toMatchObject({ severity: "blocker", objects: ["w"] });
      expect(f!.message).toMatch(
        /^Auto Scaling group w has a process suspended that a roll needs — Launch/,
      );
      expect(f!.message).toContain(
        "aws autoscaling resume-processes --auto-scaling-group-name w --scaling-processes Launch",
      );
      expect(result).toMatchObject({ result: "failure", message: expect.stringMatching(/Launch/) });
      for (const t of ["node.cordon", "node.drain.start", "instance.detach", "instance.terminate"])
        expect(events.filter((e) => e.type === t)).toEqual([]);
      expect(world.instances("w").map((i) => i.id)).toEqual(before);
      expect(world.nodes("w").filter((n) => n.ready && !n.unschedulable)).toHaveLength(4);
    },
  );

  it("Terminate suspended: blocked, naming it", async () => {
    const world = selfManagedWorld([
      { name: "w", nodes: 3, suspended: ["Terminate", "HealthCheck"] },
    ]);
    const { result, plan } = await roll(world, policy);
    const f = plan.groups[0]!.findings.filter((x) => x.code === "processes-suspended");
    expect(f).toHaveLength(1);
    expect(f[0]!.severity).toBe("blocker");
    expect(f[0]!.message).toMatch(
      /— Terminate \(User suspended at [^)]+\): it terminates none of its InService/,
    );
    expect(f[0]!.message).not.toMatch(/HealthCheck/);
    expect(result.result).toBe("failure");
  });

  it("AddToLoadBalancer suspended: a warning, and the roll goes on", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 3, suspended: ["AddToLoadBalancer"] }]);
    const { result, plan, invariants } = await roll(world, policy);
    expect(plan.groups[0]!.findings.filter((x) => x.code === "processes-suspended")).toEqual([
      expect.objectContaining({ severity: "warning" }),
    ]);
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
  });

  it("an EKS managed node group whose Auto Scaling group has Launch suspended is blocked too", async () => {
    const world = World.from(managedScenario({ group: { suspendedProcesses: ["Launch"] } }));
    const p = policyFor(`groups: [{ name: ng, target: { kubernetesVersion: "1.33" } }]\n`, "test");
    const { result, plan } = await roll(world, p);
    const f = plan.groups[0]!.findings.find((x) => x.code === "processes-suspended");
    expect(f?.severity).toBe("blocker");
    expect(f!.message).toContain(world.asg("ng").name);
    expect(f!.message).toMatch(/NodeCreationFailure/);
    expect(result.result).toBe("failure");
    expect(world.eks.listUpdateIds("ng")).toEqual([]);
  });
});

describe("AZRebalance while noderoll rolls a self-managed group", () => {
  it("is suspended, marked, before the first detach, and resumed with the mark removed at the end", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 6 }]);
    const seen: string[] = [];
    const { result, invariants, events } = await roll(world, policy, {}, undefined, (e) => {
      if (e.type !== "instance.detach" && e.type !== "instance.terminate") return;
      const g = world.asg("w");
      seen.push(`${g.suspended.has("AZRebalance")} ${marked(world)}`);
    });
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    expect(new Set(seen)).toEqual(new Set(["true AZRebalance"]));
    expect(world.asg("w").suspended.size).toBe(0);
    expect(marked(world)).toBeUndefined();
    const notes = ofType(events, "note").map((n) => n.message);
    expect(notes.filter((m) => /AZRebalance suspended while the group rolls/.test(m))).toHaveLength(
      1,
    );
    expect(notes.filter((m) => /AZRebalance resumed/.test(m))).toHaveLength(1);
    expect(leftovers(world)).toEqual([]);
  });

  it("already suspended by someone else: left suspended, unmarked, never touched", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4, suspended: ["AZRebalance"] }]);
    const { result } = await roll(world, policy);
    expect(result.result).toBe("success");
    expect([...world.asg("w").suspended]).toEqual(["AZRebalance"]);
    expect(marked(world)).toBeUndefined();
    expect(world.calls.get("autoscaling.suspendProcesses")).toBeUndefined();
    expect(world.calls.get("autoscaling.resumeProcesses")).toBeUndefined();
  });

  it("is resumed when the roll fails", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }], {
      faults: { nodesNeverReady: [{ group: "w", from: 0 }] },
    } as never);
    const { result } = await roll(
      world,
      policyFor("groups: [{ name: w, rollingUpdate: { validation: { timeout: 10m } } }]\n"),
    );
    expect(result.result).toBe("failure");
    expect(world.asg("w").suspended.has("AZRebalance")).toBe(false);
    expect(marked(world)).toBeUndefined();
  });

  it("without the permission, the roll goes on and says so; nothing is left marked", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
    world.cloud.autoScaling.suspendProcesses = () =>
      Promise.reject(new AwsApiError("AccessDenied", "not authorized", 403));
    const { result, events, invariants } = await roll(world, policy);
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    expect(marked(world)).toBeUndefined();
    expect(ofType(events, "note").map((n) => n.message)).toContainEqual(
      expect.stringMatching(
        /AZRebalance not suspended \(AccessDenied: grant autoscaling:SuspendProcesses/,
      ),
    );
  });
});

describe("AZRebalance's resumption denied", () => {
  it("the roll still succeeds, says what to run, and the mark stays for the next run, which resumes it", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 3 }]);
    const resume = world.cloud.autoScaling.resumeProcesses.bind(world.cloud.autoScaling);
    world.cloud.autoScaling.resumeProcesses = () =>
      Promise.reject(new AwsApiError("AccessDenied", "not authorized", 403));
    const r = await roll(world, policy);
    expect(r.result.result).toBe("success");
    expect(ofType(r.events, "note").map((n) => n.message)).toContainEqual(
      expect.stringContaining(
        "could not resume AZRebalance, suspended for the roll (AccessDenied); the next run tries again, or: aws autoscaling resume-processes --auto-scaling-group-name w --scaling-processes AZRebalance",
      ),
    );
    expect(marked(world)).toBe("AZRebalance");
    world.cloud.autoScaling.resumeProcesses = resume;
    await world.advance(10 * 60_000);
    const again = await roll(world, policy);
    expect(again.plan.groups[0]!.replacements).toEqual([]);
    expect(again.result.result).toBe("success");
    expect(leftovers(world)).toEqual([]);
  });
});

/** A run of `policy` on `world` killed right after the first event `when` picks. */
async function killedWhen(world: World, when: (e: RollEvent) => boolean): Promise<void> {
  const dying = crashAtEvent(world, 1);
  const log = new EventLog(world.clock);
  log.on((e) => {
    if (when(e)) dying.onEvent(e);
  });
  await world.run(
    Promise.race([planAndApply(policy, "p.yaml", dying.ports, log, { runId: "dies" }), dying.died]),
  );
}

describe("a run killed with AZRebalance suspended", () => {
  it("leaves the mark; the next run rolls on with it held and resumes it at the end", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 6 }]);
    await killedWhen(world, (e) => e.type === "instance.terminate");
    expect(world.asg("w").suspended.has("AZRebalance")).toBe(true);
    expect(marked(world)).toBe("AZRebalance");
    const { plan } = await world.run(observeAndPlan(policy, "p.yaml", world));
    expect(plan.groups[0]!.cleanup).toContainEqual({
      mark: "suspended-process",
      objects: ["AZRebalance"],
    });
    let held = true;
    const again = await roll(world, policy, {}, undefined, (e) => {
      if (e.type === "instance.terminate") held &&= world.asg("w").suspended.has("AZRebalance");
    });
    expect(again.invariants.violations).toEqual([]);
    expect(again.result.result).toBe("success");
    expect(held).toBe(true);
    // Adopted, not suspended again.
    expect(world.timeline.of("asg.suspend")).toHaveLength(1);
    await world.advance(10 * 60_000);
    expect(leftovers(world)).toEqual([]);
  });

  it("after its last termination: the next run, with nothing left to replace, resumes it", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 2, upToDate: 1 }]);
    let terminated = 0;
    await killedWhen(world, (e) => e.type === "instance.terminate" && ++terminated === 1);
    await world.advance(10 * 60_000);
    expect(marked(world)).toBe("AZRebalance");
    const again = await roll(world, policy);
    expect(again.plan.groups[0]!.replacements).toEqual([]);
    expect(again.result.result).toBe("success");
    expect(world.asg("w").suspended.has("AZRebalance")).toBe(false);
    expect(leftovers(world)).toEqual([]);
  });

  it("cancelled: the mark stays for the next run, which resumes it", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
    const stop = new AbortController();
    const log = new EventLog(world.clock);
    log.on((e) => {
      if (e.type === "node.drain.start") stop.abort();
    });
    const r = await world.run(
      planAndApply(policy, "p.yaml", world, log, { runId: "cancelled", signal: stop.signal }),
    );
    expect(r.result).toBe("cancelled");
    expect(marked(world)).toBe("AZRebalance");
    const again = await roll(world, policy);
    expect(again.result.result).toBe("success");
    await world.advance(10 * 60_000);
    expect(leftovers(world)).toEqual([]);
  });

  it("a group blocked since gets it back all the same, though it is not rolled", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
    await killedWhen(world, (e) => e.type === "instance.detach");
    expect(marked(world)).toBe("AZRebalance");
    world.asg("w").suspended.add("Launch");
    const again = await roll(world, policy);
    expect(again.plan.groups[0]!.status).toBe("blocked");
    expect(again.result.result).toBe("failure");
    expect([...world.asg("w").suspended]).toEqual(["Launch"]);
    expect(marked(world)).toBeUndefined();
  });
});
