// The benchmark is run by `npm run bench`; here only its small form, to keep it working (no
// timing is asserted).
import { expect, it } from "vitest";
import { benchEksUpdate } from "../../src/sandbox/world/bench.js";

it("benchEksUpdate rolls every group of a small generated cluster and reports its figures", async () => {
  const f = await benchEksUpdate(40, 10, 2, 3);
  expect(f).toMatchObject({
    nodes: 40,
    pods: 400,
    groups: 2,
    statuses: { "ng-001": "Successful", "ng-002": "Successful" },
  });
  expect(f.evictions).toBeGreaterThanOrEqual(40 * 9);
  expect(f.virtualSeconds).toBeGreaterThan(0);
  for (const k of ["setupMs", "simulateMs", "peakRssMiB", "heapUsedMiB", "timersFired"] as const)
    expect(f[k]).toBeGreaterThan(0);
});
