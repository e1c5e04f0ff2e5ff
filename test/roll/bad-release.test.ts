// A bad release never spreads (issue 47): replacements on the bad launch template version crash-
// loop their pods, fire a CloudWatch alarm, or raise the error ratio Prometheus answers — each
// halts the roll within the wave it appears in (no cordon after it); `onFailure: rollback` takes
// the group back to the version it ran before, recorded on the cluster when the roll began.
// Every invariant is held after every event, on the sandbox's virtual clock.
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { requestStop } from "../../src/app/control.js";
import { rollBack } from "../../src/app/rollback.js";
import { runOptions } from "../../src/engine/index.js";
import { LEASE_NAMESPACE, leaseName } from "../../src/roll/lease.js";
import { requestOf } from "../../src/roll/lease-request.js";
import { exitCodeFor } from "../../src/cli/apply.js";
import { EventLog, type RollEvent } from "../../src/ports/index.js";
import { foldEvents, renderProgressMarkdown } from "../../src/render/index.js";
import { GATE_PERIOD_MS } from "../../src/roll/gates.js";
import { readBefore } from "../../src/roll/before.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import type { World } from "../../src/sandbox/world/world.js";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

type Effect = "neverReady" | "crashLoop" | "errors";

/** 6 nodes on template version 1; version 2 is the bad release. */
function badWorld(effect: Effect): World {
  return selfManagedWorld([{ name: "w", nodes: 6 }], {
    workloads: [
      { kind: "Deployment", name: "web", replicas: 12, pdb: { minAvailable: 6 } },
      { kind: "DaemonSet", name: "agent" },
    ],
    faults: { badRelease: [{ group: "w", launchTemplateVersion: 2, effect }] },
    alarms: [{ name: "web-5xx", follows: "badRelease" }],
  } as Partial<ScenarioInput>);
}

const policy = (gates: string, budgets = "maxSurge: 0, maxUnavailable: 2") =>
  policyFor(
    `groups: [{ name: w, rollingUpdate: { ${budgets}, postDrainDelay: 0s, gates: { ${gates} } } }]\n`,
  );

/**
 * When the bad release first showed (a workload pod on a bad node: the following alarm's
 * ALARM), the last cordon, and the first failing verdict.
 */
function timesOf(w: World, events: RollEvent[]) {
  const cordons = ofType(events, "node.cordon").map((e) => Date.parse(e.t));
  const failed = ofType(events, "gate.verdict").find((v) => v.verdict === "fail");
  const fired = w.timeline.of("alarm.state").find((e) => e.to === "ALARM");
  return {
    cordons: cordons.length,
    lastCordon: Math.max(...cordons),
    failedAt: failed ? Date.parse(failed.t) : NaN,
    shownAt: fired ? fired.at : NaN,
  };
}

/** Halted within the wave the signal showed in: no cordon after the verdict, which came within
 * one evaluation period of the signal; most of the group never touched. */
function haltedInWave(w: World, events: RollEvent[]) {
  const t = timesOf(w, events);
  expect(t.lastCordon).toBeLessThan(t.failedAt);
  expect(t.failedAt - t.shownAt).toBeLessThanOrEqual(GATE_PERIOD_MS);
  expect(t.cordons).toBeLessThanOrEqual(3);
}

/** Ready, schedulable nodes of w. */
const serving = (w: World) =>
  w.nodes("w").filter((n) => !n.deleted && n.ready && !n.unschedulable).length;

async function rollWatched(w: World, gates: string, budgets?: string) {
  let lowest = Infinity;
  const r = await roll(w, policy(gates, budgets), {}, undefined, () => {
    lowest = Math.min(lowest, serving(w));
  });
  return { ...r, lowest };
}

describe("a bad release halts the roll within its wave", () => {
  it("whose pods crash-loop on the replacements: the built-in gate", async () => {
    const w = badWorld("crashLoop");
    const r = await rollWatched(w, "bake: 3m");
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.message).toMatch(
      /^GateFailed: w: gate crash-looping-pods failed — \d+ pods?: crash-looping or restarting on replacement nodes \(default\/web-/,
    );
    expect(exitCodeFor(r.result)).toBe(1);
    haltedInWave(w, r.events);
    expect(r.lowest).toBeGreaterThanOrEqual(6 - 2);
  });

  it("that fires a CloudWatch alarm, read in-process", async () => {
    const w = badWorld("errors");
    const r = await rollWatched(w, "bake: 3m, alarms: [web-5xx]");
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.message).toMatch(/^GateFailed: w: gate alarm\/web-5xx failed — ALARM/);
    haltedInWave(w, r.events);
  });

  it("whose error ratio crosses a Prometheus gate's threshold", async () => {
    const w = badWorld("errors");
    const r = await rollWatched(
      w,
      'bake: 3m, prometheus: [{ name: error-rate, address: "http://prometheus.example:9090", query: "sandbox:error_ratio", failAbove: 0.01 }]',
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.message).toMatch(
      /^GateFailed: w: gate prometheus\/error-rate failed — 0\.\d+: sandbox:error_ratio = 0\.\d+, above 0\.01/,
    );
    haltedInWave(w, r.events);
  });

  it("passes a good release through the same gates", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 6 }], {
      workloads: [{ kind: "Deployment", name: "web", replicas: 12, pdb: { minAvailable: 6 } }],
      alarms: [{ name: "web-5xx", follows: "badRelease" }],
    } as Partial<ScenarioInput>);
    const r = await rollWatched(
      w,
      'bake: 1m, alarms: [web-5xx], prometheus: [{ name: error-rate, address: "http://p:9090", query: "sandbox:error_ratio", failAbove: 0.01 }]',
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    const verdicts = ofType(r.events, "gate.verdict");
    expect(new Set(verdicts.map((v) => v.gate))).toEqual(
      new Set([
        "replacements-ready",
        "crash-looping-pods",
        "alarm/web-5xx",
        "prometheus/error-rate",
      ]),
    );
    expect(verdicts.every((v) => v.verdict === "pass")).toBe(true);
  });
});

describe("onFailure: rollback", () => {
  it("returns a group whose replacements never turn Ready to its previous version", async () => {
    const w = badWorld("neverReady");
    const log = new EventLog(w.clock);
    let lowest = Infinity;
    log.on(() => (lowest = Math.min(lowest, serving(w))));
    const r = await w.run(
      planAndApply(policy("onFailure: rollback"), "p.yaml", w, log, { runId: "bad" }),
      48 * 3600_000,
    );
    expect(r.result).toBe("failure");
    expect(r.message).toMatch(
      /^GateFailed: w: gate replacements-ready failed .* Rolled back: w on what it ran before\.$/,
    );
    // Two rolls in the log: the halted one, then the rollback, each under the Lease.
    expect(ofType(log.events, "roll.end").map((e) => e.result)).toEqual(["failure", "success"]);
    // The comment says the roll failed on the gate, then was rolled back.
    const md = renderProgressMarkdown(foldEvents(log.events, r.plan));
    expect(md).toMatch(/^### noderoll apply · `engine` · ❌ failed/);
    expect(md).toContain("- ↩️ **rollback**: ✅ done — 1 group rolled");
    expect(md).toMatch(/- `w` gates, as last read: ❌ replacements-ready 1 not Ready \(ip-/);
    expect(md).toContain("| 1 | `w` | ASG |");
    // What it ran before was recorded on the cluster when the roll began.
    const record = await w.run(readBefore(w.cluster, "engine"));
    expect(record.w).toMatchObject({
      kind: "self-managed",
      from: { launchTemplateVersion: 1 },
      to: { launchTemplateVersion: 2 },
    });
    // The group ends on version 1, every node Ready, no noderoll mark left.
    const live = w.nodes("w").filter((n) => !n.deleted);
    expect(live).toHaveLength(6);
    expect(live.every((n) => n.ready && !n.unschedulable)).toBe(true);
    expect(w.instances("w").map((i) => i.ltVersion)).toEqual([1, 1, 1, 1, 1, 1]);
    const marks = live.flatMap((n) => [
      ...Object.keys(n.annotations).filter((k) => k.startsWith("noderoll.io/")),
      ...Object.keys(n.labels).filter((k) => k.startsWith("noderoll.io/")),
      ...n.taints.filter((t) => t.key.startsWith("noderoll.io/")).map((t) => t.key),
    ]);
    expect(marks).toEqual([]);
    expect(lowest).toBeGreaterThanOrEqual(6 - 2);
  });

  it("abort --rollback from a second caller stops the roll and returns the group", async () => {
    // A release that looks fine (no gate catches it); a person decides it is not.
    const w = selfManagedWorld([{ name: "w", nodes: 6 }], {
      workloads: [{ kind: "Deployment", name: "web", replicas: 12, pdb: { minAvailable: 6 } }],
    } as Partial<ScenarioInput>);
    const log = new EventLog(w.clock);
    let asked: Promise<unknown> | undefined;
    log.on((e) => {
      if (e.type !== "instance.terminate" || asked) return;
      asked = requestStop({ ports: w }, policy(""), "p.yaml", {
        action: "abort",
        by: "ops@laptop",
        reason: "p99 up since the canary",
        rollback: true,
      });
    });
    const r = await w.run(
      planAndApply(policy(""), "p.yaml", w, log, { runId: "roll" }),
      48 * 3600_000,
    );
    await asked;
    expect(r.result).toBe("failure");
    expect(r.message).toMatch(
      /^Aborted: aborted by ops@laptop at \S+ \(reason: p99 up since the canary\).* Rolled back: w on what it ran before\.$/,
    );
    expect(ofType(log.events, "roll.end").map((e) => e.result)).toEqual(["failure", "success"]);
    expect(w.instances("w").map((i) => i.ltVersion)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(w.nodes("w").filter((n) => !n.deleted && n.ready && !n.unschedulable)).toHaveLength(6);
    // The abort that asked for the rollback is done with: nothing stands on the Lease.
    const lease = await w.run(w.cluster.getLease(LEASE_NAMESPACE, leaseName("engine")));
    expect(requestOf(lease)).toBeUndefined();
  });

  it("says there is nothing to roll back when no roll was recorded", async () => {
    const w = badWorld("neverReady");
    const log = new EventLog(w.clock);
    const r = await w.run(
      rollBack(
        { ports: w },
        {
          policy: policy(""),
          file: "p.yaml",
          options: runOptions({}),
          log,
          apply: { runId: "rb" },
        },
      ),
    );
    expect(r).toMatchObject({
      result: "failure",
      message:
        "Nothing to roll back: no roll of the policy's groups is recorded on the cluster (Lease kube-system/noderoll-engine-rollback).",
    });
    expect(ofType(log.events, "roll.start")).toEqual([]);
  });
});
