// The benchmark behind `npm run bench`: an EKS-style update of every node group of a generated
// cluster (by default 1,000 nodes and 30,000 pods), simulated in virtual time. It reports real
// time and peak memory; it is a figure to print, never a timed assertion.
import { generateScenario } from "../scenarios/generate.js";
import { World } from "./world.js";

export interface BenchFigures {
  nodes: number;
  pods: number;
  groups: number;
  /** Real milliseconds to build the world (scheduling every pod included). */
  setupMs: number;
  /** Real milliseconds to simulate the updates. */
  simulateMs: number;
  /** Virtual time the updates took, in seconds. */
  virtualSeconds: number;
  timersFired: number;
  evictions: number;
  instancesTerminated: number;
  /** Peak resident set size of the process so far, in MiB. */
  peakRssMiB: number;
  heapUsedMiB: number;
  statuses: Record<string, string>;
}

export async function benchEksUpdate(
  nodes = 1000,
  podsPerNode = 30,
  groups = 4,
  seed = 1,
): Promise<BenchFigures> {
  const t0 = performance.now();
  const world = new World(generateScenario({ nodes, groups, podsPerNode, seed, kind: "managed" }));
  const t1 = performance.now();
  const startVirtual = world.clock.nowMs();
  const firedBefore = world.clock.fired;
  const names = [...world.eks.nodegroups.keys()];
  const statuses: Record<string, string> = {};
  await world.run(async () => {
    const updates = await Promise.all(
      names.map((ng) =>
        world.cloud.eks.updateNodegroupVersion({
          clusterName: world.scenario.cluster.name,
          nodegroupName: ng,
          version: "1.33",
        }),
      ),
    );
    for (;;) {
      let open = 0;
      for (const [i, u] of updates.entries()) {
        const d = await world.cloud.eks.describeUpdate({
          name: world.scenario.cluster.name,
          updateId: u.id,
        });
        statuses[names[i] as string] = d.status;
        if (d.status === "InProgress") open++;
      }
      if (open === 0) break;
      await world.clock.sleep(60_000);
    }
  });
  const t2 = performance.now();
  const mem = process.memoryUsage();
  return {
    nodes,
    pods: [...world.kube.workloads.values()].reduce((n, w) => n + w.pods.size, 0),
    groups: names.length,
    setupMs: Math.round(t1 - t0),
    simulateMs: Math.round(t2 - t1),
    virtualSeconds: Math.round((world.clock.nowMs() - startVirtual) / 1000),
    timersFired: world.clock.fired - firedBefore,
    evictions: world.timeline
      .of("node.drain.end")
      .reduce((n, e) => n + ((e.evicted as number) ?? 0), 0),
    instancesTerminated: world.timeline.of("instance.terminated").filter((e) => e.by === "eks")
      .length,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    heapUsedMiB: Math.round(mem.heapUsed / 1024 / 1024),
    statuses,
  };
}
