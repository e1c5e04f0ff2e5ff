// The ETA a terminal shows moves with the waits (issue 48, item 4): a drain a PodDisruptionBudget
// holds takes the place of the drain the plan predicted for its node. Forced past the budget, the
// roll goes on at the drain's timeout: the ETA counts that wait down, and is never less than it.
// Not forced, nothing knows when the budget allows: the line says what it waits for and when the
// drain times out. (test/render/apply-agrees.test.ts: the same against a real plan and roll.)
// Virtual time: the events carry their moments, and the status line is given `now`.
import { describe, expect, it } from "vitest";
import type { RollEvent } from "../../src/ports/index.js";
import {
  applyEvent,
  emptyProgress,
  heartbeatLine,
  statusLine,
  type Progress,
} from "../../src/render/index.js";

const T0 = Date.parse("2026-01-05T09:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();
const MIN = 60_000;
const DRAIN_TIMEOUT = 15 * MIN;

/** A roll of one group of 8 nodes planned at 12 minutes, 3 replaced, a drain held since +5m. */
function heldRoll(forced: boolean): Progress {
  const p = emptyProgress();
  p.estimatedMs = 20 * MIN;
  p.groups.push({
    name: "workers",
    phases: {
      setup: "pending",
      "scale-up": "pending",
      upgrade: "pending",
      "scale-down": "pending",
    },
    nodes: 8,
    toReplace: 8,
    replaced: 0,
    estimatedMs: 12 * MIN,
    drainTimeoutMs: DRAIN_TIMEOUT,
    deleteAfterDrainTimeout: forced,
  });
  p.groups.push({
    name: "batch",
    phases: {
      setup: "pending",
      "scale-up": "pending",
      upgrade: "pending",
      "scale-down": "pending",
    },
    nodes: 4,
    toReplace: 4,
    replaced: 0,
    estimatedMs: 8 * MIN,
  });
  const events: RollEvent[] = [
    {
      type: "roll.start",
      t: at(0),
      cluster: "c",
      policy: "p",
      groups: ["workers", "batch"],
      replaceAll: false,
      deleteAfterDrainTimeout: forced,
    },
    { type: "group.start", t: at(0), group: "workers", kind: "self-managed", nodes: 8, replace: 8 },
    { type: "phase.start", t: at(0), group: "workers", phase: "upgrade" },
    ...[1, 2, 3].map((i): RollEvent => ({
      type: "instance.terminate",
      t: at(i * MIN),
      group: "workers",
      instance: `i-${i}`,
      decrement: false,
    })),
    { type: "node.drain.start", t: at(5 * MIN), group: "workers", node: "n4" },
    {
      type: "eviction.blocked",
      t: at(5 * MIN + 2000),
      group: "workers",
      node: "n4",
      pod: "default/web-1",
      pdb: "web",
    },
  ];
  for (const e of events) applyEvent(p, e);
  return p;
}

/** The ETA on the line, in ms ("~12m30s"). */
function eta(line: string): number {
  const m = /ETA ~(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?/.exec(line);
  if (!m) throw new Error(`no ETA in: ${line}`);
  return (Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * MIN + Number(m[3] ?? 0) * 1000;
}

describe("the ETA while a PodDisruptionBudget holds a drain", () => {
  it("forced: counts down the wait to the drain's timeout, never below it", () => {
    const p = heldRoll(true);
    const lines = [6, 10, 14].map((m) => statusLine(p, new Date(T0 + m * MIN)));
    const etas = lines.map(eta);
    // Different at each moment: the wait is in it, and the wait runs down.
    expect(new Set(etas).size).toBe(3);
    [6, 10, 14].forEach((m, i) => {
      const waitLeft = 5 * MIN + DRAIN_TIMEOUT - m * MIN;
      // The wait, the 5 of 8 nodes left of workers, and batch.
      expect(etas[i]).toBeGreaterThanOrEqual(waitLeft + 8 * MIN);
    });
    expect(lines[0]).toContain(
      "PodDisruptionBudget web holds a drain: what is left is deleted at its timeout in 14m",
    );
  });

  it("not forced: says what it waits for and when the drain times out, and that moves", () => {
    const p = heldRoll(false);
    const early = statusLine(p, new Date(T0 + 6 * MIN));
    const late = statusLine(p, new Date(T0 + 14 * MIN));
    expect(early).not.toBe(late);
    expect(early).toMatch(
      /ETA ~\d+m\d*s? once PodDisruptionBudget web allows; the drain times out in 14m$/,
    );
    expect(late).toMatch(/; the drain times out in 6m$/);
    // The heartbeat (off a TTY) says it once: the ETA, then what holds the drain until when.
    const beat = heartbeatLine(p, new Date(T0 + 14 * MIN));
    expect(beat).toMatch(
      /· ETA ~[\dms]+ once web allows · .*PodDisruptionBudget web holds default\/web-1 on n4 since 09:05:02; at 09:20:00 its drain times out and the roll stops/,
    );
    expect(beat.match(/times out/g)).toHaveLength(1);
  });
});
