// A wave's drain estimate (src/plan/waves.ts): the longest termination grace among the pods a
// drain moves, plus the evictions; pods it leaves or that have finished add nothing, whatever
// their grace. A Pending pod counts: its init containers may be running, and get their grace. A
// pod already being deleted takes what is left of its deletion; one held past it, the timeout.
import { describe, expect, it } from "vitest";
import { waveDrainMs, type PodInfo, type Replacement } from "../../src/plan/index.js";
import { NOW, pod } from "./fixtures.js";

const wave: Replacement[] = [
  { instance: "i-1", node: "n1", zone: "eu-west-1a", reasons: [] },
  { instance: "i-2", node: "n2", zone: "eu-west-1b", reasons: [] },
];
const TIMEOUT_MS = 900_000;
const on = (pods: PodInfo[]) => ({
  podsByNode: new Map([["n1", pods]]),
  now: NOW,
  timeoutMs: TIMEOUT_MS,
});
const due = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const slow = (extra: Partial<PodInfo>) =>
  pod("slow-0", "n1", { terminationGracePeriodSeconds: 600, ...extra });

describe("waveDrainMs", () => {
  it("waits for the longest grace among the pods the drain moves, Pending ones included", () => {
    const fast = pod("fast-0", "n1", { terminationGracePeriodSeconds: 30 });
    expect(waveDrainMs(wave, on([fast]), 0)).toBe(5_000 + 30_000);
    for (const phase of ["Running", "Pending", "Unknown"])
      expect(waveDrainMs(wave, on([fast, slow({ phase })]), 0), phase).toBe(5_000 + 600_000);
  });

  it("adds nothing for pods it does not wait for, whatever their grace", () => {
    const fast = pod("fast-0", "n1", { terminationGracePeriodSeconds: 30 });
    for (const extra of [
      { phase: "Succeeded" },
      { phase: "Failed" },
      { mirror: true },
      { owner: { kind: "DaemonSet", name: "slow" } },
    ]) {
      expect(waveDrainMs(wave, on([fast, slow(extra)]), 0), JSON.stringify(extra)).toBe(35_000);
      expect(waveDrainMs(wave, on([slow(extra)]), 0), JSON.stringify(extra)).toBe(0);
    }
  });

  it("asks nothing of a pod already being deleted, waits what is left of its deletion, and the whole timeout for one held past it", () => {
    const fast = pod("fast-0", "n1", { terminationGracePeriodSeconds: 30 });
    // Its deletion due in 20 s: the drain evicts nothing for it, whatever its grace.
    expect(waveDrainMs(wave, on([slow({ deletionTimestamp: due(20_000) })]), 0)).toBe(20_000);
    expect(waveDrainMs(wave, on([fast, slow({ deletionTimestamp: due(20_000) })]), 0)).toBe(35_000);
    // Due ten minutes from now: longer than the grace of the pod evicted beside it.
    expect(waveDrainMs(wave, on([fast, slow({ deletionTimestamp: due(600_000) })]), 0)).toBe(
      5_000 + 600_000,
    );
    // Due moments ago: gone any time now (the minute's slack for clock skew).
    expect(waveDrainMs(wave, on([slow({ deletionTimestamp: due(-30_000) })]), 0)).toBe(0);
    // Held past its deletion (a finalizer, an unreachable kubelet): the drain waits out its timeout.
    expect(waveDrainMs(wave, on([fast, slow({ deletionTimestamp: due(-120_000) })]), 0)).toBe(
      TIMEOUT_MS,
    );
    // A finished pod held by its finalizer (a Job's): the drain waits for it all the same.
    expect(
      waveDrainMs(wave, on([slow({ phase: "Succeeded", deletionTimestamp: due(-120_000) })]), 0),
    ).toBe(TIMEOUT_MS);
    // A wave six minutes on waits what is left then: four of the ten minutes.
    expect(waveDrainMs(wave, on([slow({ deletionTimestamp: due(600_000) })]), 360_000)).toBe(
      240_000,
    );
    expect(waveDrainMs(wave, on([slow({ deletionTimestamp: due(600_000) })]), 900_000)).toBe(0);
    // Not a pod the drain waits for: nothing, held or not.
    const ds = { owner: { kind: "DaemonSet", name: "slow" }, deletionTimestamp: due(-120_000) };
    expect(waveDrainMs(wave, on([fast, slow(ds)]), 0)).toBe(35_000);
  });
});
