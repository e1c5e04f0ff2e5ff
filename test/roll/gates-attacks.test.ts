// Health gates and rollback, attacked (issue 47; an independent review's findings, each a case
// that failed before its fix): a record a finished roll left is not rolled back by a later halt;
// fixing forward after a halt keeps the last good release to go back to; checkpoints are not
// overshot; a gate's pause never overwrites an operator's abort; nothing is terminated or
// cordoned after a failing verdict; a managed group's inconclusive gate pauses; the rollback's
// gates are the merged ones, minus the failed gate even when its name holds a "/".
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { requestStop } from "../../src/app/control.js";
import { rollbackPolicy } from "../../src/engine/rollback.js";
import { EventLog, type RollEvent } from "../../src/ports/index.js";
import type { BeforeRecord } from "../../src/roll/before.js";
import { LEASE_NAMESPACE, leaseName } from "../../src/roll/lease.js";
import { requestOf } from "../../src/roll/lease-request.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { ofType, policyFor, roll, selfManagedWorld, type GroupSpec } from "./scenarios.js";

const LONG = 48 * 3600_000;
const versions = (w: World, g: string) => w.instances(g).map((i) => i.ltVersion);

async function apply(w: World, text: string, runId: string, onEvent?: (e: RollEvent) => void) {
  const log = new EventLog(w.clock);
  if (onEvent) log.on(onEvent);
  const r = await w.run(planAndApply(policyFor(text), "p.yaml", w, log, { runId }), LONG);
  return { ...r, events: log.events };
}

describe("the rollback record", () => {
  it("of a roll done long ago is history: a later abort --rollback leaves that group alone", async () => {
    const w = selfManagedWorld([
      { name: "a", nodes: 3 },
      { name: "b", nodes: 3 },
    ] as GroupSpec[]);
    const budgets = "rollingUpdate: { maxSurge: 0, maxUnavailable: 1, postDrainDelay: 0s }";
    // Last week: b alone, to version 2, done.
    const first = await apply(w, `groups: [{ name: b, ${budgets} }]\n`, "last-week");
    expect(first.result).toBe("success");
    // Today: both (b has nothing left); an abort with rollback lands while a rolls.
    let asked: Promise<unknown> | undefined;
    const today = await apply(
      w,
      `order: [a, b]\ngroups: [{ name: a, ${budgets} }, { name: b, ${budgets} }]\n`,
      "today",
      (e) => {
        if (e.type !== "instance.terminate" || e.group !== "a" || asked) return;
        asked = requestStop({ ports: w }, policyFor("groups: [{ name: a }]\n"), "p.yaml", {
          action: "abort",
          by: "ops",
          rollback: true,
        });
      },
    );
    await asked;
    expect(today.message).toMatch(/^Aborted: .* Rolled back: a on what it ran before\.$/);
    expect(versions(w, "a")).toEqual([1, 1, 1]);
    // b's record was done by last week's run: it stays on what it runs.
    expect(versions(w, "b")).toEqual([2, 2, 2]);
  });

  it("keeps the last good release when a halted roll is sent forward to another bad one", async () => {
    const w = World.from({
      apiVersion: "noderoll.io/v1",
      kind: "SandboxScenario",
      metadata: { name: "engine" },
      seed: 11,
      cluster: { name: "engine", version: "1.33" },
      zones: ["eu-west-1a", "eu-west-1b", "eu-west-1c"],
      nodeGroups: [
        {
          name: "w",
          type: "self-managed",
          version: "1.33",
          capacity: { cpu: 8, memory: "32Gi", pods: 60 },
          size: { min: 0, max: 18, desired: 6 },
          // Version 1 runs; 2 and 3 are both bad releases.
          launchTemplate: { versions: 3, use: 1 },
          instances: [{ version: 1, count: 6 }],
        },
      ],
      workloads: [{ kind: "Deployment", name: "web", replicas: 12, pdb: { minAvailable: 6 } }],
      faults: {
        badRelease: [
          { group: "w", launchTemplateVersion: 2, effect: "errors" },
          { group: "w", launchTemplateVersion: 3, effect: "errors" },
        ],
      },
      alarms: [{ name: "web-5xx", follows: "badRelease" }],
    } as ScenarioInput);
    const gated = (version: number, extra = "") =>
      `groups: [{ name: w, target: { launchTemplateVersion: ${version} }, rollingUpdate: { maxSurge: 0, maxUnavailable: 2, postDrainDelay: 0s, gates: { bake: 2m, alarms: [web-5xx]${extra} } } }]\n`;
    const halted = await apply(w, gated(2), "to-2");
    expect(halted.message).toMatch(/^GateFailed: w: gate alarm\/web-5xx failed/);
    expect(versions(w, "w")).toContain(1);
    // Fixing forward to 3, itself bad, with a rollback: back to 1, the last good, not to 2.
    const forward = await apply(w, gated(3, ", onFailure: rollback"), "to-3");
    expect(forward.message).toMatch(/Rolled back: w on what it ran before\.$/);
    expect(versions(w, "w")).toEqual([1, 1, 1, 1, 1, 1]);
  });
});

describe("checkpoints", () => {
  it.each([
    [10, 5, "20%", 2],
    [20, 5, "10%", 2],
    [4, 3, "50%", 2],
  ])(
    "%i nodes, maxUnavailable %i, a checkpoint at %s: paused after exactly %i",
    async (nodes, unavailable, share, at) => {
      const w = selfManagedWorld([{ name: "w", nodes }]);
      const r = await roll(
        w,
        policyFor(
          `groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: ${unavailable}, postDrainDelay: 0s, gates: { checkpoints: ["${share}"] } } }]\n`,
        ),
      );
      expect(r.invariants.violations).toEqual([]);
      expect(r.result).toMatchObject({ result: "skipped", stop: { kind: "paused" } });
      expect(ofType(r.events, "instance.terminate")).toHaveLength(at);
      expect(ofType(r.events, "node.cordon")).toHaveLength(at);
    },
  );

  it("bounds the surge by the first checkpoint", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 4 }]);
    const r = await roll(
      w,
      policyFor(
        'groups: [{ name: w, rollingUpdate: { maxSurge: 4, postDrainDelay: 0s, gates: { checkpoints: ["25%"] } } }]\n',
      ),
    );
    expect(r.result).toMatchObject({ result: "skipped", stop: { kind: "paused" } });
    expect(ofType(r.events, "instance.detach")).toHaveLength(1);
    expect(ofType(r.events, "instance.terminate")).toHaveLength(1);
  });

  it("a gate's pause never overwrites an operator's abort standing on the Lease", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 4 }]);
    const policy = policyFor(
      'groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 1, postDrainDelay: 0s, gates: { checkpoints: ["50%"] } } }]\n',
    );
    let asked: Promise<unknown> | undefined;
    // The abort lands just before the checkpoint, before the run's next renewal reads it.
    const r = await roll(w, policy, {}, LONG, (e) => {
      if (e.type !== "instance.terminate" || asked) return;
      if (ofType([e], "instance.terminate").length === 0) return;
      asked = requestStop({ ports: w }, policy, "p.yaml", { action: "abort", by: "ops" });
    });
    await asked;
    expect(r.result).toMatchObject({ result: "failure", stop: { kind: "aborted", by: "ops" } });
    const lease = await w.run(w.cluster.getLease(LEASE_NAMESPACE, leaseName("engine")));
    expect(requestOf(lease)).toMatchObject({ action: "abort", by: "ops" });
  });
});

describe("after a failing verdict", () => {
  it("nothing is cordoned, detached or terminated: not a node held for its batch", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 24 }], {
      workloads: [{ kind: "Deployment", name: "web", replicas: 24, pdb: { maxUnavailable: 1 } }],
      faults: { badRelease: [{ group: "w", launchTemplateVersion: 2, effect: "errors" }] },
      alarms: [{ name: "web-5xx", follows: "badRelease" }],
    } as Partial<ScenarioInput>);
    const r = await roll(
      w,
      policyFor(
        "groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 8, postDrainDelay: 0s, gates: { alarms: [web-5xx] } } }]\n",
      ),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.message).toMatch(/^GateFailed: w: gate alarm\/web-5xx failed/);
    const failedAt = Date.parse(
      ofType(r.events, "gate.verdict").find((v) => v.verdict === "fail")!.t,
    );
    const after = r.events.filter(
      (e) =>
        ["node.cordon", "instance.detach", "instance.terminate"].includes(e.type) &&
        Date.parse(e.t) >= failedAt,
    );
    expect(after).toEqual([]);
    // What was drained and not terminated is schedulable again (a terminated one's node goes).
    const running = (id?: string) => w.ec2.instances.get(id ?? "")?.state === "running";
    const cordoned = w.nodes("w").filter((n) => !n.deleted && n.unschedulable);
    expect(cordoned.filter((n) => running(n.instanceId))).toEqual([]);
  });

  it.each([
    ["in place", "maxSurge: 0, maxUnavailable: 1", "node.cordon"],
    ["with a surge", "maxSurge: 1", "instance.detach"],
  ])(
    "an alarm firing before the roll stops it before its first write (%s)",
    async (_how, budgets, write) => {
      const w = selfManagedWorld([{ name: "w", nodes: 4 }], {
        alarms: [{ name: "by-hand" }],
      } as Partial<ScenarioInput>);
      await w.run(
        w.cloud.cloudWatch.setAlarmState({
          AlarmName: "by-hand",
          StateValue: "ALARM",
          StateReason: "set by hand",
        }),
      );
      const r = await roll(
        w,
        policyFor(
          `groups: [{ name: w, rollingUpdate: { ${budgets}, gates: { alarms: [by-hand] } } }]\n`,
        ),
      );
      expect(r.result.message).toMatch(/^GateFailed: w: gate alarm\/by-hand failed — ALARM/);
      expect(r.events.filter((e) => e.type === write)).toEqual([]);
      expect(versions(w, "w")).toEqual([1, 1, 1, 1]);
    },
  );
});

describe("managed groups", () => {
  it("pause on an inconclusive gate, as the policy says, and roll nothing back", async () => {
    const w = World.from(managedScenario({ zones: 2, nodes: 4 }));
    const r = await roll(
      w,
      policyFor(
        'groups: [{ name: ng, target: { kubernetesVersion: "1.33" }, rollingUpdate: { gates: { alarms: [nope], onFailure: rollback } } }]\n',
        "test",
      ),
    );
    expect(r.result).toMatchObject({
      result: "skipped",
      stop: { kind: "paused", reason: expect.stringMatching(/^gate alarm\/nope was inconclusive/) },
    });
    expect(r.result.message).toContain("nothing was started on ng");
    expect(ofType(r.events, "eks.update")).toEqual([]);
  });
});

describe("the rollback's gates", () => {
  const record: BeforeRecord = {
    w: {
      kind: "self-managed",
      from: { launchTemplateVersion: 1 },
      to: { launchTemplateVersion: 2 },
      runId: "r",
      at: "",
    },
  };

  it("are the merged ones without the gate that failed, a name with a / included", () => {
    const p = policyFor(
      'defaults: { gates: { alarms: [a, "TargetTracking-table/orders-AlarmHigh", c], onFailure: rollback } }\ngroups: [{ name: w, rollingUpdate: { gates: { bake: 2m } } }]\n',
    );
    const back = rollbackPolicy(p, record, {
      withoutGate: "alarm/TargetTracking-table/orders-AlarmHigh",
    }).policy;
    expect(back.groups[0]!.rollingUpdate?.gates).toMatchObject({
      alarms: ["a", "c"],
      bake: "2m",
      onFailure: "halt",
    });
    expect(back.groups[0]!.target).toEqual({ launchTemplateVersion: 1 });
  });
});
