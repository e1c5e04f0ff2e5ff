// The delegated engine for EKS managed node groups: phases reported as EKS goes through them,
// EKS's failures explained in words.
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { EventLog } from "../../src/ports/index.js";
import { eventLine } from "../../src/render/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { ofType, policyFor, roll } from "./scenarios.js";

const LONG = 48 * 3600_000;

const policy = (extra = "") =>
  policyFor(`groups: [{ name: ng, target: { kubernetesVersion: "1.33" }${extra} }]\n`, "test");

describe("EKS managed node groups (delegated)", () => {
  it("reports EKS's four phases in order, the scale-up and the sizes back at the end", async () => {
    const world = World.from(managedScenario({ zones: 3, nodes: 6 }));
    const { result, events, invariants } = await roll(world, policy());
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    expect(ofType(events, "phase.end").map((e) => `${e.phase}:${e.result}`)).toEqual([
      "setup:success",
      "scale-up:success",
      "upgrade:success",
      "scale-down:success",
    ]);
    const resizes = ofType(events, "asg.resize");
    expect(resizes[0]!.to.desired - resizes[0]!.from.desired).toBe(6);
    expect(resizes.at(-1)!.to.desired).toBe(6);
    expect(ofType(events, "instance.terminate")).toHaveLength(6);
    expect(world.eks.nodegroups.get("ng")?.version).toBe("1.33");
  });

  it("sets updateConfig first when the policy's maxUnavailable differs", async () => {
    const world = World.from(managedScenario({ zones: 2, nodes: 4, maxUnavailable: 1 }));
    const { result, events } = await roll(world, policy(", rollingUpdate: { maxUnavailable: 2 }"));
    expect(result.result).toBe("success");
    expect(ofType(events, "eks.update").map((e) => e.updateType)[0]).toBe("ConfigUpdate");
    expect(world.eks.nodegroups.get("ng")?.updateConfig.maxUnavailable).toBe(2);
  });

  it("explains NodeCreationFailure in words when new nodes never become Ready", async () => {
    const world = World.from(
      managedScenario({
        zones: 2,
        nodes: 4,
        extra: { faults: { nodesNeverReady: [{ from: 0 }] } } as never,
      }),
    );
    // The replacements gate would stop the run first (10 minutes): given longer, EKS fails it.
    const { result, events } = await roll(
      world,
      policy(", rollingUpdate: { gates: { replacements: { readyWithin: 2h } } }"),
    );
    expect(result).toMatchObject({
      result: "failure",
      message: expect.stringMatching(
        /^NodeCreationFailure: EKS update .* ended Failed: NodeCreationFailure.*new nodes did not become Ready with the EKS labels/,
      ),
    });
    expect(ofType(events, "phase.end").find((e) => e.result === "failure")).toBeDefined();
  });

  it("stops the run when the replacements gate fails during EKS's update, saying the update goes on", async () => {
    const world = World.from(
      managedScenario({
        zones: 2,
        nodes: 4,
        extra: { faults: { nodesNeverReady: [{ from: 0 }] } } as never,
      }),
    );
    const { result, events, invariants } = await roll(world, policy());
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("failure");
    expect(result.message).toMatch(
      /^GateFailed: ng: gate replacements-ready failed — \d not Ready: .*EKS's update cannot be stopped midway; no group after ng is started\. EKS update \S+ of ng goes on: EKS does not stop it when noderoll stops/,
    );
    // Said once: the update goes on.
    expect(result.message.match(/goes on/g)).toHaveLength(1);
    expect(ofType(events, "gate.verdict").some((v) => v.verdict === "fail")).toBe(true);
  });
});

describe("EKS's PodEvictionFailure, explained", () => {
  it("names the pods EKS could not evict and the PDBs that held them, with eviction.blocked events", async () => {
    const world = World.from(
      managedScenario({
        zones: 2,
        nodes: 4,
        workloads: [{ kind: "Deployment", name: "web", replicas: 2, pdb: { minAvailable: 1 } }],
      }),
    );
    // Someone tightens the budget once the update has started: EKS's drain is then refused.
    const tighten = (e: { type: string; updateType?: string }) => {
      if (e.type !== "eks.update" || e.updateType !== "VersionUpdate") return;
      const pdb = world.pdb("default", "web")!;
      delete pdb.minAvailable;
      pdb.maxUnavailable = 0;
      pdb.dirty = true;
    };
    const { result, events } = await roll(world, policy(), {}, 48 * 3600_000, tighten);
    expect(result).toMatchObject({
      result: "failure",
      message: expect.stringMatching(
        /^PodEvictionFailure: EKS update .* ended Failed: PodEvictionFailure.* Pods EKS could not evict: default\/web-[\w-]+ on [\w.-]+ \(PodDisruptionBudget web allows no disruption\)/,
      ),
    });
    const blocked = ofType(events, "eviction.blocked");
    expect(blocked.length).toBeGreaterThan(0);
    expect(blocked.every((b) => b.group === "ng" && b.pdb === "web")).toBe(true);
    // EKS's update has failed: nothing asks these pods again, and the log does not say it will.
    expect(blocked.every((b) => b.final === true)).toBe(true);
    expect(blocked.map(eventLine).every((l) => l?.endsWith("; not retried"))).toBe(true);
  });

  it("names a pod stuck terminating as such, not a budget", async () => {
    const world = World.from(
      managedScenario({
        zones: 2,
        nodes: 4,
        workloads: [{ kind: "Deployment", name: "sticky", replicas: 1, stuckTerminating: true }],
      }),
    );
    const { result, events } = await roll(world, policy(), {}, 48 * 3600_000);
    expect(result).toMatchObject({
      result: "failure",
      message: expect.stringMatching(
        /default\/sticky-[\w-]+ on [\w.-]+ \(none \(the pod is being deleted, due /,
      ),
    });
    const blocked = ofType(events, "eviction.blocked");
    expect(blocked.length).toBeGreaterThan(0);
    // No budget refused it: the line says it could not be evicted, and why.
    expect(eventLine(blocked[0]!)).toMatch(
      /^ng: default\/sticky-[\w-]+ could not be evicted \(PodDisruptionBudget: none \(the pod is being deleted, due .*\); not retried$/,
    );
    // EKS gave up long after the pod's grace ended: held, not merely terminating.
    expect(
      blocked.every((b) => /^none \(the pod is being deleted, due .*: a finalizer/.test(b.pdb)),
    ).toBe(true);
  });
});

describe("a managed group's rollback, as the plan says it", () => {
  it("warns that onFailure: rollback cannot take the group back a Kubernetes minor", async () => {
    const world = World.from(managedScenario({ zones: 2, nodes: 4 }));
    const plan = async (extra: string) =>
      (await world.run(observeAndPlan(policy(extra), "p.yaml", world))).plan.groups[0]!;
    const refused = (await plan(", rollingUpdate: { gates: { onFailure: rollback } }")).findings;
    expect(refused).toContainEqual(
      expect.objectContaining({
        code: "rollback-refused",
        severity: "warning",
        message: expect.stringMatching(
          /^onFailure: rollback cannot take ng back: it would go back from Kubernetes 1\.33 to 1\.32: EKS does not take a node group to an earlier Kubernetes version/,
        ),
      }),
    );
    expect((await plan("")).findings.map((f) => f.code)).not.toContain("rollback-refused");
    const held = await plan(', rollingUpdate: { gates: { checkpoints: ["50%"] } }');
    expect(held.findings.map((f) => f.code)).toContain("checkpoints-ignored");
  });
});

describe("a managed group's rollback after a failed gate", () => {
  it("waits for EKS's update it cannot stop, then leaves the node group on its previous release", async () => {
    const world = World.from(
      managedScenario({
        zones: 2,
        nodes: 4,
        extra: {
          faults: { badRelease: [{ releaseVersion: "1.32.5-20250715", effect: "neverReady" }] },
        } as never,
      }),
    );
    const log = new EventLog(world.clock);
    const p = policyFor(
      'groups: [{ name: ng, target: { releaseVersion: "1.32.5-20250715" }, rollingUpdate: { gates: { onFailure: rollback } } }]\n',
      "test",
    );
    const r = await world.run(planAndApply(p, "p.yaml", world, log, { runId: "m" }), LONG);
    expect(r.result).toBe("failure");
    expect(r.message).toMatch(
      /^GateFailed: ng: gate replacements-ready failed .* Rolled back: ng on what it ran before\.$/,
    );
    // The rollback waited for EKS's update to end before it did anything.
    const notes = ofType(log.events, "note").map((n) => n.message);
    expect(notes.some((m) => /ended Failed; rolling ng to the plan's target/.test(m))).toBe(true);
    expect(world.eks.nodegroups.get("ng")?.releaseVersion).toBe("1.32.3-20250519");
  });
});
