// Pause, abort and resume (the health-gates issue): a request written on the cluster's Lease by
// a second "process" — a separate call of the application's pause, on the same world — while a
// roll holds the Lease. The roll stops at its next node boundary (no new cordon, the node in
// flight finished) with exit 3 (paused) or 1 (aborted); the request outlives the roll's renewals
// and its release; every apply refuses while it stands, writing nothing; resume clears it and
// finishes the roll. Virtual time throughout: no wall-clock time is asserted.
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { clearStop, requestStop, resumePolicy, type Asked } from "../../src/app/control.js";
import { exitCodeFor } from "../../src/cli/apply.js";
import { runOptions } from "../../src/engine/index.js";
import { EventLog, type RollEvent } from "../../src/ports/index.js";
import { foldEvents, progressCheckRun, renderProgressMarkdown } from "../../src/render/index.js";
import { LEASE_NAMESPACE, leaseName } from "../../src/roll/lease.js";
import { requestOf } from "../../src/roll/lease-request.js";
import type { World } from "../../src/sandbox/world/world.js";
import { Invariants } from "./invariants.js";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

const NODES = 6;
const policy = policyFor(
  "groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }]\n",
);
const lease = (world: World) =>
  world.run(world.cluster.getLease(LEASE_NAMESPACE, leaseName("engine")));
const upToDate = (world: World) => world.instances("w").filter((i) => i.ltVersion === 2).length;
/** Nodes cordoned and still there: what a stop at a node boundary must not leave. */
const cordoned = (world: World) =>
  world
    .nodes("w")
    .filter((n) => !n.deleted && n.unschedulable)
    .map((n) => n.name);

/**
 * A roll of NODES nodes; at its first drain a second caller asks `action` through the
 * application layer, on the same world (its own call, its own clock reads).
 */
async function rollAsked(action: "pause" | "abort", reason: string) {
  const world = selfManagedWorld([{ name: "w", nodes: NODES }]);
  let asked: Promise<Asked> | undefined;
  const onEvent = (e: RollEvent) => {
    if (e.type !== "node.drain.start" || asked) return;
    asked = requestStop({ ports: world }, policy, "p.yaml", { action, by: "ops@laptop", reason });
  };
  const rolled = await roll(world, policy, {}, 48 * 3600_000, onEvent);
  return { world, rolled, asked: await asked! };
}

describe("pause from a second caller while a roll holds the Lease", () => {
  it("stops at the next node boundary with exit 3, the pause outlives the roll, and resume finishes it", async () => {
    const { world, rolled, asked } = await rollAsked("pause", "incident INC-42");
    // The pause saw the roll holding the cluster, and said so.
    expect(asked.holder?.holder).toMatch(/^test-run\//);
    expect(asked.message).toMatch(
      /holds the cluster: it sees the request within 30 s .* stops at its next node boundary/,
    );
    expect(asked.message).toContain("noderoll resume --policy p.yaml");

    const { result, events, invariants } = rolled;
    expect(invariants.violations).toEqual([]);
    expect(result).toMatchObject({
      result: "skipped",
      stop: { kind: "paused", by: "ops@laptop", reason: "incident INC-42" },
    });
    expect(result.stop).toHaveProperty("at", asked.request.at);
    expect(exitCodeFor(result)).toBe(3);
    expect(result.message).toMatch(
      /^Paused: paused by ops@laptop at \S+ \(reason: incident INC-42\); \d+ nodes? of w left for the next run\./,
    );
    // The roll helper plans policy.yaml: the file resume is to be given.
    expect(result.message).toContain("`noderoll resume --policy policy.yaml`");
    const end = ofType(events, "roll.end")[0]!;
    expect(end.stop).toMatchObject({ kind: "paused", by: "ops@laptop" });
    // The roll said it saw the pause, and stopped well before all nodes were replaced; the node
    // in flight finished (terminated), none is left cordoned.
    expect(ofType(events, "note").map((n) => n.message)).toContainEqual(
      expect.stringMatching(/^a pause requested by ops@laptop .*: no new node starts/),
    );
    expect(upToDate(world)).toBeGreaterThan(0);
    expect(upToDate(world)).toBeLessThan(NODES - 1);
    expect(ofType(events, "node.cordon").length).toBe(ofType(events, "instance.terminate").length);
    expect(cordoned(world)).toEqual([]);

    // The check run and the comment say so.
    const progress = foldEvents(events, rolled.plan);
    expect(progressCheckRun(progress)).toMatchObject({
      conclusion: "neutral",
      output: {
        title: expect.stringMatching(
          /^Paused on request \(noderoll pause\) 1\/6 nodes: Paused: paused by ops@laptop/,
        ),
      },
    });
    expect(renderProgressMarkdown(progress)).toContain("⏸️ paused on request (noderoll pause)");

    // The pause survived the roll's renewals and its release: the Lease is free, and paused.
    expect(ofType(events, "lock.release")).toHaveLength(1);
    const after = await lease(world);
    expect(after.spec.holderIdentity).toBeUndefined();
    expect(requestOf(after)).toEqual(asked.request);

    // Resume: cleared, then an apply that finishes every node.
    const log = new EventLog(world.clock);
    const again = new Invariants(world, rolled.plan, { order: ["w"] });
    log.on(again.check);
    let cleared = "";
    const resumed = await resumePolicy(
      { ports: world, drive: (t) => world.run(t, 48 * 3600_000) },
      {
        policy,
        file: "p.yaml",
        options: runOptions({ replaceAll: false, deleteAfterDrainTimeout: false }),
        log,
        apply: { runId: "resumed" },
      },
      (c) => (cleared = c.message),
    );
    expect(cleared).toMatch(/^cleared a pause requested by ops@laptop/);
    expect(resumed.result).toBe("success");
    expect(exitCodeFor(resumed)).toBe(0);
    expect(again.violations).toEqual([]);
    expect(upToDate(world)).toBe(NODES);
    expect(requestOf(await lease(world))).toBeUndefined();
  });
});

describe("abort from a second caller", () => {
  it("ends the roll as a failure (exit 1), saying who aborted and why", async () => {
    const { world, rolled } = await rollAsked("abort", "bad AMI");
    const { result, invariants } = rolled;
    expect(invariants.violations).toEqual([]);
    expect(result).toMatchObject({
      result: "failure",
      stop: { kind: "aborted", by: "ops@laptop" },
    });
    expect(exitCodeFor(result)).toBe(1);
    expect(result.message).toMatch(/^Aborted: aborted by ops@laptop at \S+ \(reason: bad AMI\);/);
    expect(result.message).toContain("The abort stands");
    expect(upToDate(world)).toBeLessThan(NODES - 1);
    expect(cordoned(world)).toEqual([]);
    const progress = foldEvents(rolled.events, rolled.plan);
    expect(progressCheckRun(progress)).toMatchObject({
      conclusion: "failure",
      output: { title: expect.stringMatching(/^Aborted on request \(noderoll abort\) /) },
    });
    expect(renderProgressMarkdown(progress)).toContain("⏹️ aborted on request (noderoll abort)");
    expect(requestOf(await lease(world))).toMatchObject({ action: "abort", reason: "bad AMI" });
  });
});

describe("apply under a standing pause", () => {
  it("refuses to start, saying who paused, why, when and how to resume, and writes nothing", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 3 }]);
    // No run ever held this cluster: the pause creates the Lease, with no holder.
    const asked = await world.run(
      requestStop({ ports: world }, policy, "p.yaml", {
        action: "pause",
        by: "alice@desk",
        reason: "freeze",
      }),
    );
    expect(asked.holder).toBeUndefined();
    expect(asked.message).toContain("No run holds the cluster now");
    expect((await lease(world)).spec).toEqual({});
    // A second pause leaves the first asker's standing.
    const twice = await world.run(
      requestStop({ ports: world }, policy, "p.yaml", { action: "pause", by: "bob@desk" }),
    );
    expect(twice).toMatchObject({ already: true, request: { by: "alice@desk" } });

    const before = new Map(world.calls);
    const log = new EventLog(world.clock);
    const r = await world.run(
      planAndApply(policy, "p.yaml", world, log, { runId: "refused", lockWaitMs: 600_000 }),
    );
    expect(r).toMatchObject({ result: "skipped", stop: { kind: "paused", by: "alice@desk" } });
    expect(exitCodeFor(r)).toBe(3);
    expect(r.message).toMatch(
      new RegExp(
        `^Paused: paused by alice@desk at ${asked.request.at.replace(/\./g, "\\.")} \\(reason: freeze\\); nothing was started or changed`,
      ),
    );
    expect(r.message).toContain("`noderoll resume --policy p.yaml`");
    const mutating = [...world.calls.entries()].filter(
      ([k, v]) => (before.get(k) ?? 0) !== v && !/\.(list|get|describe|watch)/i.test(k),
    );
    expect(mutating).toEqual([]);
    expect(ofType(log.events, "lock.acquire")).toEqual([]);

    // Cleared: the next apply rolls.
    const cleared = await world.run(clearStop({ ports: world }, policy));
    expect(cleared.cleared).toMatchObject({ by: "alice@desk" });
    const nothing = await world.run(clearStop({ ports: world }, policy));
    expect(nothing.cleared).toBeUndefined();
    expect(nothing.message).toMatch(/nothing to clear/);
    const ok = await world.run(
      planAndApply(policy, "p.yaml", world, new EventLog(world.clock), { runId: "after" }),
      48 * 3600_000,
    );
    expect(ok.result).toBe("success");
  });
});
