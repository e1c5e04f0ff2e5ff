// The API budget of `fleet plan` (issue 49): a fleet of 20 generated sandbox clusters, one
// account, read in-process as the command reads it (through the bench's counted read,
// scripts/bench/fleet-read.ts). What it asks of each cluster is a constant that does not grow
// with the cluster's nodes — two Lease GETs in kube-system (the fleet's record, the roll's lock)
// and, for what the groups run now, one EKS ListNodegroups, one DescribeNodegroup per managed
// group and one DescribeAutoScalingGroups for all the self-managed ones — no node or pod is ever
// listed, and never more than readConcurrency clusters are read at once (exactly that many, so
// the reads do overlap). Nothing here is timed.
import { describe, expect, it } from "vitest";
import {
  accountOf,
  countedRead,
  fleetClusters,
  fleetOf,
  type FleetCluster,
} from "../../scripts/bench/fleet-read.js";
import { writeRecord } from "../../src/app/fleet-store.js";
import { promotionOf } from "../../src/fleet/record.js";
import type { GenerateOptions } from "../../src/sandbox/scenarios/generate.js";

const small = (nodes: number, shape: Partial<GenerateOptions> = {}) =>
  fleetClusters(20, nodes, { groups: 4, podsPerNode: 3, ...shape });

async function read(clusters: FleetCluster[], readConcurrency?: number) {
  const { fleet, members } = fleetOf(clusters);
  return countedRead(accountOf(clusters), fleet, members, readConcurrency);
}

describe("fleet plan's read of 20 clusters", () => {
  it("asks each cluster 2 Kubernetes GETs and 4 AWS calls, at 8 nodes as at 80, and lists nothing", async () => {
    for (const nodes of [8, 80]) {
      const { requests, read: r } = await read(small(nodes));
      // 2 managed and 2 self-managed groups a cluster.
      expect(requests.byCall).toEqual({
        "coordination.getLease": 2 * 20,
        "eks.listNodegroups": 20,
        "eks.describeNodegroup": 2 * 20,
        "autoscaling.describeAutoScalingGroups": 20,
      });
      expect(requests).toMatchObject({ kubernetes: 40, eks: 60, autoScaling: 20, other: 0 });
      const calls = Object.keys(requests.byCall);
      expect(calls.filter((c) => /list(Nodes|Pods)|watch/i.test(c))).toEqual([]);
      // What was read is what the plan shows: every cluster, what its groups run now.
      const views = r.plan.stages.flatMap((s) => s.clusters.map((c) => c.view));
      expect(views).toHaveLength(20);
      expect(views.find((v) => v.cluster === "staging-03")).toMatchObject({
        stage: "staging",
        policyFile: "policies/staging-03.yaml",
        current:
          "staging-03-ng-001 1.32.3-20250519; staging-03-asg-002 launch template 3; staging-03-ng-003 1.32.3-20250519; staging-03-asg-004 launch template 3",
      });
      expect(views.filter((v) => v.unreadable)).toEqual([]);
      expect(r.plan.due.map((d) => d.view.cluster)).toEqual(["dev-01", "dev-02"]);
    }
  });

  it("asks AWS once for the node groups, once per managed group, once for every self-managed one", async () => {
    const cases: [Partial<GenerateOptions>, Record<string, number>][] = [
      [{ groups: 6 }, { eks: 1 + 3, autoScaling: 1 }],
      [
        { groups: 3, kind: "managed" },
        { eks: 1 + 3, autoScaling: 0 },
      ],
      [
        { groups: 5, kind: "self-managed" },
        { eks: 1, autoScaling: 1 },
      ],
    ];
    for (const [shape, perCluster] of cases) {
      const { requests } = await read(small(30, shape));
      expect({ shape, kubernetes: requests.kubernetes / 20 }).toEqual({ shape, kubernetes: 2 });
      expect({ shape, eks: requests.eks / 20, autoScaling: requests.autoScaling / 20 }).toEqual({
        shape,
        ...perCluster,
      });
    }
  });

  it("reads a soaking stage's clusters the same way (their policies read no gates)", async () => {
    const clusters = small(8);
    const { fleet, members } = fleetOf(clusters);
    const account = accountOf(clusters);
    const at = account.clock.now().toISOString();
    for (const name of ["dev-01", "dev-02"])
      await account.run(
        writeRecord(account.ports(name).cluster, name, {
          fleet: "bench",
          promotion: promotionOf(fleet),
          release: { kubernetesVersion: "1.33", releaseVersion: "1.33.4-20250904" },
          stage: "dev",
          state: "succeeded",
          startedAt: at,
          finishedAt: at,
        }),
      );
    const { requests, read: r } = await countedRead(account, fleet, members);
    expect(r.plan.stages[0]?.state.kind).toBe("soaking");
    expect(requests).toMatchObject({ kubernetes: 40, eks: 60, autoScaling: 20, other: 0 });
  });

  it("reads readConcurrency clusters at once, never more (8 unless told)", async () => {
    const clusters = small(8);
    for (const [limit, peak] of [
      [1, 1],
      [3, 3],
      [undefined, 8],
      [40, 20],
    ] as const) {
      const counted = await read(clusters, limit);
      expect({ limit, peak: counted.peakClusters }).toEqual({ limit, peak });
      expect(counted.requests.kubernetes).toBe(40);
    }
  });
});
