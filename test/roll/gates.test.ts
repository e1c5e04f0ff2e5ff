// Health gates (issue 47): a bad release never spreads. Every invariant is held after every event;
// the world is the sandbox's, on its virtual clock.
import { describe, expect, it } from "vitest";
import { resumePolicy } from "../../src/app/control.js";
import { exitCodeFor } from "../../src/cli/apply.js";
import { runOptions } from "../../src/engine/index.js";
import { EventLog } from "../../src/ports/index.js";
import { GATE_PERIOD_MS } from "../../src/roll/gates.js";
import type { World } from "../../src/sandbox/world/world.js";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

const web = {
  workloads: [{ kind: "Deployment" as const, name: "web", replicas: 6, pdb: { minAvailable: 3 } }],
};

/** A group of `nodes` whose replacements register but never turn Ready. */
const neverReady = (nodes: number): World =>
  selfManagedWorld([{ name: "w", nodes }], {
    ...web,
    faults: { nodesNeverReady: [{ group: "w", from: 0 }] },
  } as never);

/** Ready, schedulable nodes of w now. */
const serving = (w: World) =>
  w.nodes("w").filter((n) => !n.deleted && n.ready && !n.unschedulable).length;

describe("the replacements gate (on by default)", () => {
  it("halts in place after the canary when its replacement never turns Ready", async () => {
    const w = neverReady(6);
    let lowest = Infinity;
    const r = await roll(
      w,
      policyFor(
        "groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 2, postDrainDelay: 0s } }]\n",
      ),
      {},
      undefined,
      () => (lowest = Math.min(lowest, serving(w))),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result).toMatchObject({
      result: "failure",
      message: expect.stringMatching(
        /^GateFailed: w: gate replacements-ready failed — 1 not Ready: ip-[^ ]+ not Ready 10m after launch \(readyWithin\)/,
      ),
    });
    // The canary alone went: no cordon after it.
    expect(ofType(r.events, "node.cordon")).toHaveLength(1);
    expect(lowest).toBeGreaterThanOrEqual(6 - 2);
    // Every verdict is in the event log; the failing one last.
    const verdicts = ofType(r.events, "gate.verdict");
    expect(verdicts.at(-2)).toMatchObject({ gate: "replacements-ready", verdict: "fail" });
    expect(ofType(r.events, "group.end")).toMatchObject([
      {
        group: "w",
        result: "failure",
        message: expect.stringMatching(/^w: gate replacements-ready/),
      },
    ]);
  });

  it("halts with a surge before any node is cordoned, and leaves no mark on the group's nodes", async () => {
    const w = neverReady(4);
    const r = await roll(w, policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 1 } }]\n"));
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.message).toMatch(/^GateFailed: w: gate replacements-ready failed/);
    expect(ofType(r.events, "node.cordon")).toHaveLength(0);
    const old = w.nodes("w").filter((n) => !n.deleted && n.ready);
    expect(old).toHaveLength(4);
    // Our PreferNoSchedule taint would steer pods to the bad replacement: undone.
    expect(
      old.filter((n) => n.unschedulable || n.taints.some((t) => t.key.startsWith("noderoll"))),
    ).toEqual([]);
  });

  it("reads every gate at most once per period", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 6 }], web as never);
    const r = await roll(
      w,
      policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 2, postDrainDelay: 0s } }]\n"),
    );
    expect(r.result.result).toBe("success");
    const ready = ofType(r.events, "gate.verdict").filter((v) => v.gate === "replacements-ready");
    expect(ready.length).toBeGreaterThan(2);
    const times = ready.map((v) => Date.parse(v.t));
    for (let i = 1; i < times.length; i++)
      expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(GATE_PERIOD_MS);
    expect(ready.every((v) => v.verdict === "pass")).toBe(true);
  });
});

describe("bake and checkpoints", () => {
  it("watches the gates for the bake after each wave, a canary first", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 5, upToDate: 1 }], web as never);
    const r = await roll(
      w,
      policyFor(
        "groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 2, postDrainDelay: 0s, gates: { bake: 5m } } }]\n",
      ),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    // 4 to replace: the canary, a wave of 2, a wave of 1 — each baked.
    const bakes = ofType(r.events, "wait.start").filter((e) => /^bake/.test(e.what));
    expect(bakes).toHaveLength(3);
    // No cordon during a bake: waves do not overlap.
    const cordons = ofType(r.events, "node.cordon").map((e) => Date.parse(e.t));
    const starts = bakes.map((b) => Date.parse(b.t));
    expect(cordons.filter((t) => t < starts[0]!)).toHaveLength(1);
    expect(cordons.filter((t) => t > starts[0]! && t < starts[1]!)).toHaveLength(2);
  });

  it("keeps a checkpoint's delay once half the group is replaced", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 4 }], web as never);
    const r = await roll(
      w,
      policyFor(
        'groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 1, postDrainDelay: 0s, gates: { checkpoints: ["50%"], checkpointDelay: 20m } } }]\n',
      ),
    );
    expect(r.result.result).toBe("success");
    const waits = ofType(r.events, "wait.start").filter((e) => /^checkpoint/.test(e.what));
    expect(waits.map((e) => e.what)).toEqual(["checkpoint 50%: gates watched for 20m"]);
    // Two nodes were replaced before it, two after.
    const at = Date.parse(waits[0]!.t);
    const terminated = ofType(r.events, "instance.terminate").map((e) => Date.parse(e.t));
    expect(terminated.filter((t) => t < at)).toHaveLength(2);
    expect(terminated.filter((t) => t > at + 20 * 60_000)).toHaveLength(2);
  });

  it("pauses at a checkpoint with no delay until resumed, as `noderoll pause` would", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 4 }], web as never);
    const policy = policyFor(
      'groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 1, postDrainDelay: 0s, gates: { checkpoints: ["50%"] } } }]\n',
    );
    const r = await roll(w, policy);
    expect(r.invariants.violations).toEqual([]);
    expect(r.result).toMatchObject({
      result: "skipped",
      stop: { kind: "paused", reason: "checkpoint 50% of w reached" },
    });
    expect(exitCodeFor(r.result)).toBe(3);
    expect(r.result.message).toContain("noderoll resume --policy");
    expect(ofType(r.events, "instance.terminate")).toHaveLength(2);
    expect(w.nodes("w").filter((n) => !n.deleted && n.unschedulable)).toEqual([]);
    // It stands: an apply refuses until resumed; resume finishes the group, no pause again at 50%.
    const refused = await roll(w, policy);
    expect(refused.result).toMatchObject({ result: "skipped", stop: { kind: "paused" } });
    expect(ofType(refused.events, "node.cordon")).toHaveLength(0);
    const log = new EventLog(w.clock);
    const resumed = await resumePolicy(
      { ports: w, drive: (t) => w.run(t, 48 * 3600_000) },
      {
        policy,
        file: "p.yaml",
        options: runOptions({}),
        log,
        apply: { runId: "resumed" },
      },
    );
    expect(resumed.result).toBe("success");
    expect(w.instances("w").filter((i) => i.ltVersion === 2)).toHaveLength(4);
  });
});
