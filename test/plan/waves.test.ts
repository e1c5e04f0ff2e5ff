// A wave's drain estimate (src/plan/waves.ts): the longest termination grace among the pods a
// drain moves, plus the evictions; pods it leaves or that have finished add nothing, whatever
// their grace. A Pending pod counts: its init containers may be running, and get their grace.
import { describe, expect, it } from "vitest";
import { waveDrainMs, type PodInfo, type Replacement } from "../../src/plan/index.js";
import { pod } from "./fixtures.js";

const wave: Replacement[] = [
  { instance: "i-1", node: "n1", zone: "eu-west-1a", reasons: [] },
  { instance: "i-2", node: "n2", zone: "eu-west-1b", reasons: [] },
];
const on = (pods: PodInfo[]) => new Map([["n1", pods]]);
const slow = (extra: Partial<PodInfo>) =>
  pod("slow-0", "n1", { terminationGracePeriodSeconds: 600, ...extra });

describe("waveDrainMs", () => {
  it("waits for the longest grace among the pods the drain moves, Pending ones included", () => {
    const fast = pod("fast-0", "n1", { terminationGracePeriodSeconds: 30 });
    expect(waveDrainMs(wave, on([fast]))).toBe(5_000 + 30_000);
    for (const phase of ["Running", "Pending", "Unknown"])
      expect(waveDrainMs(wave, on([fast, slow({ phase })])), phase).toBe(5_000 + 600_000);
  });

  it("adds nothing for pods it does not wait for, whatever their grace", () => {
    const fast = pod("fast-0", "n1", { terminationGracePeriodSeconds: 30 });
    for (const extra of [
      { phase: "Succeeded" },
      { phase: "Failed" },
      { mirror: true },
      { owner: { kind: "DaemonSet", name: "slow" } },
    ]) {
      expect(waveDrainMs(wave, on([fast, slow(extra)])), JSON.stringify(extra)).toBe(35_000);
      expect(waveDrainMs(wave, on([slow(extra)])), JSON.stringify(extra)).toBe(0);
    }
  });
});
