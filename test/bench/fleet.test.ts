// The bench's `fleet plan` part (scripts/bench/fleet.ts): what it times is the command a user
// runs — dist/cli.js on the files `sandbox generate --cluster NAME --policy-out` writes, one
// --sandbox per cluster — and what it reports of the plan is what that command printed. Nothing
// here is timed.
import { describe, expect, it } from "vitest";
import { measureFleetCli, measureFleetRead } from "../../scripts/bench/fleet.js";
import { ROOT } from "../helpers/cli.js";

describe("the bench's fleet plan", () => {
  it("runs dist/cli.js fleet plan on every generated cluster and keeps what its JSON said", () => {
    const f = measureFleetCli(10, 20, 2, `${ROOT}dist/cli.js`);
    expect(f).toMatchObject({
      clusters: 10,
      nodesPerCluster: 20,
      clustersInPlan: 10,
      due: 1,
      stages: "dev 1 rolling, staging 3 blocked, prod 6 blocked",
      relaunched: false,
    });
    expect(f.wallMsRuns).toHaveLength(2);
    expect(f.wallMsRuns).toContain(f.wallMs);
  });

  it("reads the same fleet in-process: its requests per cluster and the clusters at once", async () => {
    const f = await measureFleetRead(10, 20);
    expect(f.perCluster).toEqual({ all: 6, kubernetes: 2, eks: 3, autoScaling: 1 });
    expect(f.peakClusters).toBe(8);
    expect(f.due).toBe(1);
  });
});
