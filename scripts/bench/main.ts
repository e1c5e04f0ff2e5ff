// `npm run bench`: figures, printed, never asserted. Four parts:
//  1. the sandbox: an EKS-style update of a generated 1,000-node, 30,000-pod cluster;
//  2. plan: wall time, peak memory and API requests on generated clusters of 1k / 5k / 20k nodes;
//  3. roll: noderoll's orchestrated engine vs the lower bound for its budgets vs EKS's own
//     managed update of the same cluster, in virtual time, with requests per replaced node.
//  4. rehearsal: `plan --rehearse` of a generated 5,000-node cluster (the read of every pod and
//     the twin's whole roll), wall time.
// Sizes can be narrowed with BENCH_PLAN_SIZES=1000,5000, BENCH_ROLL_SIZES=100 and
// BENCH_REHEARSAL_NODES=1000; BENCH_PARTS=rehearsal runs only the parts named. The last line is
// the figures as JSON (also written to the file BENCH_JSON names).
import { loadPolicy, type Policy } from "../../src/policy/index.js";
import { buildPlan, observe } from "../../src/engine/index.js";
import { addWorkloads } from "../../src/plan/index.js";
import { apply } from "../../src/engine/apply.js";
import { EventLog } from "../../src/ports/index.js";
import { benchEksUpdate } from "../../src/sandbox/world/bench.js";
import { generateScenario } from "../../src/sandbox/scenarios/generate.js";
import { World } from "../../src/sandbox/world/world.js";
import { observeAndPlan } from "../../src/engine/observe.js";
import { readLiveCluster, rehearsePlan } from "../../src/rehearsal/index.js";
import { writeFileSync } from "node:fs";

/** The figures as JSON, for a machine to compare runs. */
const figures: Record<string, unknown> = {};

const sizes = (name: string, fallback: number[]) =>
  process.env[name] ? process.env[name]!.split(",").map(Number) : fallback;
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;
const rss = () => process.resourceUsage().maxRSS * 1024;

function policyFor(world: World, body = ""): Policy {
  const groups = world.scenario.nodeGroups.map((g) =>
    g.type === "managed"
      ? `  - name: ${g.name}\n    target: { kubernetesVersion: "1.33" }\n`
      : `  - name: ${g.name}\n    target: { launchTemplateVersion: $Latest }\n`,
  );
  const r = loadPolicy(
    `apiVersion: noderoll.io/v1\nkind: UpgradePolicy\nmetadata: { name: bench }\ncluster: { name: ${world.scenario.cluster.name}, region: eu-west-1 }\n${body}groups:\n${groups.join("")}`,
    "bench.yaml",
  );
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
  return r.policy;
}

function requests(world: World, before: Map<string, number>): { kubernetes: number; aws: number } {
  let kubernetes = 0;
  let aws = 0;
  for (const [k, v] of world.calls) {
    const n = v - (before.get(k) ?? 0);
    if (/^(core|policy|apps|coordination)\./.test(k)) kubernetes += n;
    else aws += n;
  }
  return { kubernetes, aws };
}

async function sandboxPart(): Promise<void> {
  const f = await benchEksUpdate(1000, 30);
  console.log(
    `\n## 1. Sandbox: EKS managed update of ${f.nodes} nodes, ${f.pods} pods, ${f.groups} node groups`,
  );
  console.log(
    `build ${f.setupMs} ms, simulate ${f.simulateMs} ms real for ${Math.round(f.virtualSeconds / 60)} virtual minutes; ${f.timersFired} timers, ${f.evictions} evictions, ${f.instancesTerminated} instances replaced; peak RSS ${f.peakRssMiB} MiB`,
  );
}

async function planPart(): Promise<void> {
  console.log("\n## 2. Plan on generated clusters (30 pods per node)");
  console.log(
    "Reading goes through the sandbox's ports (its own work included); planning is noderoll's compute alone.",
  );
  console.log(
    "| nodes | pods | PDBs | build world | read live state | plan compute | heap after | peak RSS | nodes to replace | Kubernetes requests | AWS requests |",
  );
  console.log("| --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |");
  for (const nodes of sizes("BENCH_PLAN_SIZES", [1000, 5000, 20000])) {
    const t0 = performance.now();
    const world = new World(
      generateScenario({
        nodes,
        groups: Math.max(4, Math.round(nodes / 250)),
        podsPerNode: 30,
        seed: 1,
      }),
    );
    const t1 = performance.now();
    const policy = policyFor(world);
    const before = new Map(world.calls);
    let readMs = 0;
    let computeMs = 0;
    const plan = await world.run(async () => {
      let t = performance.now();
      const base = await observe(policy, world);
      readMs += performance.now() - t;
      t = performance.now();
      const draft = buildPlan(policy, "bench.yaml", base);
      computeMs += performance.now() - t;
      t = performance.now();
      const snapshot = await addWorkloads(
        base,
        draft.groups.flatMap((g) => g.replacements.flatMap((r) => (r.node ? [r.node] : []))),
        world.cluster,
      );
      readMs += performance.now() - t;
      t = performance.now();
      const full = buildPlan(policy, "bench.yaml", snapshot);
      computeMs += performance.now() - t;
      return full;
    });
    const r = requests(world, before);
    const pods = [...world.kube.workloads.values()].reduce((n, w) => n + w.pods.size, 0);
    const pdbs = [...world.kube.pdbs.values()].reduce((n, l) => n + l.length, 0);
    const replace = plan.groups.reduce((n, g) => n + g.replacements.length, 0);
    console.log(
      `| ${nodes} | ${pods} | ${pdbs} | ${Math.round(t1 - t0)} ms | ${Math.round(readMs)} ms | ${Math.round(computeMs)} ms | ${mib(process.memoryUsage().heapUsed)} | ${mib(rss())} | ${replace} | ${r.kubernetes} | ${r.aws} |`,
    );
  }
}

/**
 * A perfect executor's time for these budgets: the surge boots once, then every wave of
 * `window` nodes waits postDrainDelay, interval and validation, and — maxUnavailable being 0 —
 * for its replacements to boot before the next wave may take capacity away. Drains and API
 * latency count as zero.
 */
function lowerBoundMs(
  nodes: number,
  window: number,
  s: { postDrainDelayMs: number; intervalMs: number; count: number; bootMs: number },
): number {
  return (
    s.bootMs +
    Math.ceil(nodes / window) *
      (s.postDrainDelayMs + s.intervalMs + (s.count - 1) * 10_000 + s.bootMs)
  );
}

async function rollPart(): Promise<void> {
  console.log("\n## 3. Rolling every node, virtual time");
  console.log(
    "| nodes | budgets | noderoll (orchestrated) | lower bound for the budgets | EKS managed update | requests per replaced node | real time |",
  );
  console.log("| --: | --- | --: | --: | --: | --: | --: |");
  for (const nodes of sizes("BENCH_ROLL_SIZES", [100, 1000])) {
    const surge = Math.max(1, Math.round(nodes / 10));
    const world = new World(
      generateScenario({ nodes, groups: 1, podsPerNode: 30, seed: 2, kind: "self-managed" }),
    );
    const policy = policyFor(
      world,
      `defaults: { maxSurge: ${surge}, maxUnavailable: 0, postDrainDelay: 5s, interval: 15s, validation: { count: 1 } }\n`,
    );
    const before = new Map(world.calls);
    const log = new EventLog(world.clock, false);
    const t0 = performance.now();
    const start = world.clock.nowMs();
    const result = await world.run(
      apply(policy, "bench.yaml", world, log, { runId: "bench" }),
      30 * 24 * 3600_000,
    );
    const virtual = world.clock.nowMs() - start;
    const real = performance.now() - t0;
    const r = requests(world, before);
    const bound = lowerBoundMs(nodes, surge, {
      postDrainDelayMs: 5000,
      intervalMs: 15_000,
      count: 1,
      bootMs:
        world.scenario.timings.boot * 1000 +
        world.scenario.timings.register * 1000 +
        world.scenario.timings.nodeReady * 1000,
    });
    const eks = new World(
      generateScenario({
        nodes,
        groups: 1,
        podsPerNode: 30,
        seed: 2,
        kind: "managed",
        maxUnavailablePercentage: Math.max(1, Math.round((100 * surge) / nodes)),
      }),
    );
    const ng = [...eks.eks.nodegroups.keys()][0] as string;
    const eksStart = eks.clock.nowMs();
    await eks.run(
      async () => {
        const u = await eks.cloud.eks.updateNodegroupVersion({
          clusterName: eks.scenario.cluster.name,
          nodegroupName: ng,
          version: "1.33",
        });
        while (
          (await eks.cloud.eks.describeUpdate({ name: eks.scenario.cluster.name, updateId: u.id }))
            .status === "InProgress"
        )
          await eks.clock.sleep(30_000);
      },
      30 * 24 * 3600_000,
    );
    const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
    console.log(
      `| ${nodes} | maxSurge ${surge}, maxUnavailable 0 | ${minutes(virtual)} (${result.result}) | ${minutes(bound)} | ${minutes(eks.clock.nowMs() - eksStart)} (maxUnavailable ${Math.round((100 * surge) / nodes)}%) | ${((r.kubernetes + r.aws) / nodes).toFixed(1)} (${r.kubernetes} Kubernetes, ${r.aws} AWS) | ${Math.round(real)} ms |`,
    );
  }
}

/**
 * `plan --rehearse` of a generated cluster as a user pays for it, on top of the plan: the read
 * of every node, pod and PDB, the twin built from it, and apply run on the twin to the end.
 * Budgets a cluster this size would have: 10% surge per group, none unavailable.
 */
async function rehearsalPart(): Promise<void> {
  const nodes = Number(process.env.BENCH_REHEARSAL_NODES ?? 5000);
  console.log(`\n## 4. Rehearsal (plan --rehearse) of ${nodes} nodes, 30 pods per node`);
  const world = new World(
    generateScenario({
      nodes,
      groups: Math.max(4, Math.round(nodes / 250)),
      podsPerNode: 30,
      seed: 1,
    }),
  );
  const policy = policyFor(world, `defaults: { maxSurge: "10%", maxUnavailable: 0 }\n`);
  const planned = await world.run(observeAndPlan(policy, "bench.yaml", world));
  const t0 = performance.now();
  // The live cluster (here the sandbox) is read in its own virtual time; the twin runs in its own.
  const live = await world.run(readLiveCluster(world));
  const { plan } = await rehearsePlan(
    world,
    { policy, file: "bench.yaml", ...planned, options: {} },
    { live },
  );
  const wallMs = Math.round(performance.now() - t0);
  const r = plan.rehearsal!;
  console.log(
    `${Math.round(wallMs / 100) / 10} s wall (under 60 s wanted) for ${r.groups.length} groups rehearsed: ${r.result} in ${(r.durationMs / 60_000).toFixed(1)} virtual min, peak ${r.peakExtraNodes} extra nodes, ${r.stalls.length} stalls; peak RSS ${mib(rss())}`,
  );
  figures.rehearsal = {
    nodes,
    wallMs,
    result: r.result,
    virtualMs: r.durationMs,
    peakRssMiB: Math.round(rss() / 1024 / 1024),
  };
}

const PARTS: Record<string, () => Promise<void>> = {
  sandbox: sandboxPart,
  plan: planPart,
  roll: rollPart,
  rehearsal: rehearsalPart,
};
const chosen = process.env.BENCH_PARTS?.split(",") ?? Object.keys(PARTS);

console.log(`noderoll bench — Node ${process.version}, ${new Date().toISOString()}`);
for (const name of chosen) {
  const part = PARTS[name];
  if (!part)
    throw new Error(`BENCH_PARTS: no part "${name}"; parts: ${Object.keys(PARTS).join(", ")}`);
  await part();
}
const json = JSON.stringify({ node: process.version, at: new Date().toISOString(), ...figures });
console.log(`\n${json}`);
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, `${json}\n`);
