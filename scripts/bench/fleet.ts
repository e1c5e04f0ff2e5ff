// Part 6 of the bench (issue 49): `fleet plan` of a fleet of generated clusters (default 50 of
// 1,000 nodes each, 30 pods a node: 50,000 nodes and 1.5 million pods in all), three stages over
// their 50 generated policies. Measured twice:
//  - from the command line, as the 20,000-node plan is (plan-cli.ts): the checked-in
//    dist/cli.js in a process of its own, `fleet plan --fleet fleet.yaml --sandbox … ×50 --format
//    json`, in a directory holding the files `sandbox generate --cluster NAME --policy-out`
//    writes; Node's start-up, reading and checking the 50 scenario files and building the 50
//    worlds are all in its wall time;
//  - in-process, in a process of its own: the same clusters built as one account (timed apart),
//    then the read alone (fleet-read.ts), with its requests per API and the most clusters read
//    at once.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generatePolicyYaml, generateScenarioYaml } from "../../src/sandbox/scenarios/generate.js";
import { medianRun } from "./cluster.js";
import {
  accountOf,
  countedRead,
  FLEET_YAML,
  fleetClusters,
  fleetOf,
  policyFile,
  type FleetCluster,
  type FleetRequests,
} from "./fleet-read.js";
import { runMeasured, type MeasuredRun } from "./plan-cli.js";

/** The clusters' scale: how many, of how many nodes and pods each. */
interface FleetShape {
  clusters: number;
  nodesPerCluster: number;
  podsPerCluster: number;
  groupsPerCluster: number;
}

export interface FleetReadFigures extends FleetShape {
  /** Generating the scenarios and building the account's worlds. */
  buildMs: number;
  /** The read of every cluster and the schedule (readFleet), the sandbox's serving included. */
  readMs: number;
  requests: FleetRequests;
  /** Requests per cluster, in all and by API. */
  perCluster: { all: number; kubernetes: number; eks: number; autoScaling: number };
  /** The most clusters being read at once, and readFleet's limit (its default). */
  peakClusters: number;
  readConcurrency: number;
  due: number;
  peakRssMiB: number;
}

export interface FleetCliFigures extends FleetShape, Omit<MeasuredRun, "stdout"> {
  /** The scenario files' size, all of them. */
  scenariosMiB: number;
  /** Every run's wall time, in the order they ran. */
  wallMsRuns: number[];
  /** What the JSON plan said: clusters in it, of them due now, and the stages. */
  clustersInPlan: number;
  due: number;
  stages: string;
}

/** readFleet's default, which `fleet plan` uses. */
const READ_CONCURRENCY = 8;

const shapeOf = (clusters: FleetCluster[]): FleetShape => {
  const { opts } = clusters[0] as FleetCluster;
  return {
    clusters: clusters.length,
    nodesPerCluster: opts.nodes,
    podsPerCluster: opts.nodes * opts.podsPerNode,
    groupsPerCluster: opts.groups,
  };
};

/** In-process: the account built, then `fleet plan`'s read of it, counted. */
export async function measureFleetRead(count: number, nodes: number): Promise<FleetReadFigures> {
  const clusters = fleetClusters(count, nodes);
  const { fleet, members } = fleetOf(clusters);
  const started = performance.now();
  const account = accountOf(clusters);
  const buildMs = Math.round(performance.now() - started);
  const counted = await countedRead(account, fleet, members);
  const { requests } = counted;
  const per = (x: number) => Math.round((x / count) * 100) / 100;
  const all = requests.kubernetes + requests.eks + requests.autoScaling + requests.other;
  return {
    ...shapeOf(clusters),
    buildMs,
    readMs: Math.round(counted.readMs * 10) / 10,
    requests,
    perCluster: {
      all: per(all),
      kubernetes: per(requests.kubernetes),
      eks: per(requests.eks),
      autoScaling: per(requests.autoScaling),
    },
    peakClusters: counted.peakClusters,
    readConcurrency: READ_CONCURRENCY,
    due: counted.read.plan.due.length,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

/** The fleet's files in `dir`, as `sandbox generate --cluster NAME --policy-out` writes them. */
export function fleetInputs(clusters: readonly FleetCluster[], dir: string): string[] {
  mkdirSync(join(dir, "policies"), { recursive: true });
  mkdirSync(join(dir, "scenarios"), { recursive: true });
  writeFileSync(join(dir, "fleet.yaml"), FLEET_YAML);
  return clusters.map((c) => {
    const scenario = `scenarios/${c.name}.yaml`;
    writeFileSync(join(dir, scenario), generateScenarioYaml(c.opts));
    writeFileSync(join(dir, policyFile(c)), generatePolicyYaml(c.opts));
    return scenario;
  });
}

interface FleetJson {
  stages: { name: string; state: { kind: string }; clusters: unknown[] }[];
  due: unknown[];
}

/**
 * `runs` runs of `fleet plan` from the command line on `count` generated clusters of `nodes`,
 * each a fresh process: the median run by wall time, with every run's. `cli`: the bundle.
 */
export function measureFleetCli(
  count: number,
  nodes: number,
  runs: number,
  cli = resolve("dist/cli.js"),
): FleetCliFigures {
  const dir = mkdtempSync(join(tmpdir(), "noderoll-bench-fleet-"));
  try {
    const clusters = fleetClusters(count, nodes);
    const scenarios = fleetInputs(clusters, dir);
    const args = ["fleet", "plan", "--fleet", "fleet.yaml", "--format", "json"];
    for (const s of scenarios) args.push("--sandbox", s);
    const all = Array.from({ length: Math.max(1, runs) }, () =>
      runMeasured("fleet plan", cli, args, { dir, cwd: dir }),
    );
    const { stdout, ...median } = medianRun(all, (r) => r.wallMs);
    const plan = JSON.parse(stdout) as FleetJson;
    const bytes = scenarios.reduce((sum, s) => sum + readFileSync(join(dir, s)).length, 0);
    return {
      ...shapeOf(clusters),
      scenariosMiB: Math.round(bytes / 2 ** 20),
      ...median,
      wallMsRuns: all.map((r) => r.wallMs),
      clustersInPlan: plan.stages.reduce((sum, s) => sum + s.clusters.length, 0),
      due: plan.due.length,
      stages: plan.stages.map((s) => `${s.name} ${s.clusters.length} ${s.state.kind}`).join(", "),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
