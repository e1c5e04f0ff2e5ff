// The bench's tables, as Markdown on stdout.
import type { BenchFigures } from "../../src/sandbox/world/bench.js";
import { CATEGORIES } from "./critical-path.js";
import type { PlanFigures } from "./plan.js";
import type { CliPlanFigures } from "./plan-cli.js";
import type { WirePlanFigures } from "./plan-wire.js";
import type { RehearsalFigures } from "./rehearsal.js";
import type { RollFigures } from "./roll.js";
import type { HaltFigures } from "./gates.js";
import type { FleetCliFigures, FleetReadFigures } from "./fleet.js";

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const n = (x: number) => x.toLocaleString("en-US");
const min = (x: number) => `${x.toFixed(1)} min`;

export function printSandbox(f: BenchFigures): void {
  console.log(
    `\n## 1. Sandbox: EKS managed update of ${n(f.nodes)} nodes, ${n(f.pods)} pods, ${f.groups} node groups`,
  );
  console.log(
    `build ${s(f.setupMs)}, simulate ${s(f.simulateMs)} real for ${Math.round(f.virtualSeconds / 60)} virtual minutes; ${n(f.timersFired)} timers, ${n(f.evictions)} evictions, ${f.instancesTerminated} instances replaced; peak RSS ${f.peakRssMiB} MiB`,
  );
}

/** Every run's noderoll figure, where the row is the median of several. */
const runsOf = (f: { noderollMsRuns?: number[] }) =>
  f.noderollMsRuns && f.noderollMsRuns.length > 1
    ? ` (runs: ${f.noderollMsRuns.map((x) => (x / 1000).toFixed(1)).join(", ")} s)`
    : "";

/** The plan table so far (its header with the first row). */
export function printPlans(rows: PlanFigures[], header: boolean): void {
  if (header) {
    console.log("\n## 2. Plan on generated clusters (30 pods per node, every node to replace)");
    console.log(
      "Read goes through the sandbox's ports; its serving (the API server's work) is measured apart. noderoll = read − serving + compute. Each row is the median of BENCH_PLAN_RUNS runs (default 3), each in a process of its own, with Node's default heap; every run's noderoll figure is given beside it. A second row with a raised heap limit where asked (BENCH_PLAN_RAISED_SIZES): the sandbox's objects share noderoll's heap in-process, as a real API server's do not.",
    );
    console.log(
      "| nodes | pods | PDBs | build world | read (sandbox serving) | compute | noderoll read + compute | GC build / read / compute | peak RSS | heap limit | Kubernetes requests | AWS requests |",
    );
    console.log("| --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |");
  }
  const f = rows[rows.length - 1] as PlanFigures;
  console.log(
    `| ${n(f.nodes)} | ${n(f.pods)} | ${n(f.pdbs)} | ${s(f.buildMs)} | ${s(f.readMs)} (${s(f.sandboxServeMs)}) | ${s(f.computeMs)} | ${s(f.readMs - f.sandboxServeMs + f.computeMs)}${runsOf(f)} | ${s(f.gcMs.build)} / ${s(f.gcMs.read)} / ${s(f.gcMs.compute)} | ${n(f.peakRssMiB)} MiB | ${n(f.heapLimitMiB)} MiB | ${n(f.requests.kubernetes)} | ${n(f.requests.aws)} |`,
  );
}

/** The plan-over-the-wire table so far (its header with the first row). */
export function printWirePlans(rows: WirePlanFigures[], header: boolean): void {
  if (header) {
    console.log(
      "\n### Plan over the wire: the sandbox in a process of its own, noderoll's real adapters",
    );
    console.log(
      "`sandbox serve` (Kubernetes over TLS, EKS, Auto Scaling, EC2) in a child process; noderoll reads it over HTTP as it reads a real cluster and parses every response, and its heap and peak RSS are its own. server = the server's main-thread CPU time during the read; noderoll's read = its main thread's CPU time during the read (receiving, parsing, building the snapshot, GC pauses); the read's wall time is that and the waits on the server, which shares the machine's two cores (the adapter asks for each page while it parses the one before, so the two overlap); noderoll = its read + compute. Every thread's CPU time of both processes during the read in the last column (V8's collector threads). Median of BENCH_PLAN_RUNS runs, Node's default heap.",
    );
    console.log(
      "| nodes | pods | build world | read wall (server) | noderoll's read | compute | noderoll read + compute | GC read / compute | peak RSS (server's) | Kubernetes requests | AWS requests | CPU, all threads: noderoll / server |",
    );
    console.log("| --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |");
  }
  const f = rows.at(-1) as WirePlanFigures;
  console.log(
    `| ${n(f.nodes)} | ${n(f.pods)} | ${s(f.buildMs)} | ${s(f.readMs)} (${s(f.serverMs)}) | ${s(f.readCpuMs)} | ${s(f.computeMs)} | ${s(f.noderollMs)}${runsOf(f)} | ${s(f.gcMs.read)} / ${s(f.gcMs.compute)} | ${n(f.peakRssMiB)} MiB (${n(f.serverPeakRssMiB)} MiB) | ${n(f.requests.kubernetes)} | ${n(f.requests.aws)} | ${s(f.readProcessCpuMs.noderoll)} / ${s(f.readProcessCpuMs.server)} |`,
  );
}

function printRoll(f: RollFigures): void {
  const b = f.lowerBound;
  const waves = Object.entries(b.terms)
    .map(([k, v]) => `${k} ${s(v)}`)
    .join(" + ");
  const pdb = `surgeBoot ${s(b.terms.surgeBoot)} + canary ${s(b.terms.canary)} + pdbSerial ${s(b.pdbSerial)}`;
  console.log(
    `\n${n(f.nodes)} nodes — lower bound ${min(f.lowerBoundMinutes)}, the larger of ${b.waves} waves: ${waves}${b.binding === "waves" ? " (binds)" : ""}; and the slowest PodDisruptionBudget: ${pdb}${b.binding === "pdb" ? " (binds)" : ""}`,
  );
  const total = CATEGORIES.reduce((a, c) => a + f.criticalPath[c], 0);
  console.log(
    `where the ${min(f.virtualMinutes)} went: ${CATEGORIES.map(
      (c) => `${c} ${min(f.criticalPath[c])} (${Math.round((100 * f.criticalPath[c]) / total)}%)`,
    ).join(", ")}`,
  );
  const perNode = Object.entries(f.requests.byVerb)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${(v / f.replaced).toFixed(2)}`);
  console.log(`requests per replaced node: ${perNode.join(", ")}`);
  console.log(
    `health gates read (an alarm and a Prometheus gate, green throughout): ${f.gates.alarmReadsPer30s} DescribeAlarms and ${f.gates.queriesPer30s} Prometheus queries per gate per 30 s of roll time, never two of one gate closer than ${f.gates.shortestGapSeconds} s (the budget: one a gate every 30 s)`,
  );
}

/** A bad release's roll: how soon its alarm stopped the cordons. */
export function printHalt(f: HaltFigures): void {
  console.log(
    `\nA bad release, ${n(f.nodes)} nodes (its replacements fire the CloudWatch alarm the roll reads): ${f.result}; ${f.cordoned} nodes cordoned; the failing verdict ${f.alarmToVerdictSeconds} s after the alarm, the last cordon ${f.alarmToLastCordonSeconds} s after it (the budget: at most one 30 s period)`,
  );
}

/** Roll rows, each followed by its bound's terms, its time split and its requests. */
export function printRolls(rows: RollFigures[], header: boolean): void {
  if (header) {
    console.log("\n## 3. Rolling every node, virtual time");
    console.log(
      "| nodes | budgets | noderoll | lower bound | noderoll / bound | EKS managed update | requests per replaced node | pods evicted per replaced node | real time |",
    );
    console.log("| --: | --- | --: | --: | --: | --: | --: | --: | --: |");
  }
  for (const f of rows) {
    console.log(
      `| ${n(f.nodes)} | maxSurge ${f.budgets.maxSurge}, maxUnavailable ${f.budgets.maxUnavailable} | ${min(f.virtualMinutes)} (${f.result}) | ${min(f.lowerBoundMinutes)} | ${(f.virtualMinutes / f.lowerBoundMinutes).toFixed(2)} | ${min(f.eksMinutes)} (${f.eksBudget}) | ${f.requestsPerReplacedNode} (${n(f.requests.kubernetes)} Kubernetes, ${n(f.requests.aws)} AWS) | ${f.podsEvictedPerReplacedNode} | ${s(f.realMs)} |`,
    );
    printRoll(f);
  }
}

/** The command line's plan table so far (its header with the first row). */
export function printCliPlans(rows: CliPlanFigures[], header: boolean): void {
  if (header) {
    console.log("\n### Plan from the command line on a scenario file");
    console.log(
      "`noderoll plan --policy P --sandbox S` (dist/cli.js) on the files `sandbox generate --policy-out` writes, in a fresh process: Node's start-up, reading and checking the scenario, building the sandbox world, the read, the plan and its text all in the wall time. CPU time is every thread's; page faults are pages touched the first time. Median of BENCH_PLAN_RUNS runs by wall time.",
    );
    console.log(
      "| nodes | scenario file | wall | CPU user / system | page faults | peak RSS | plan |",
    );
    console.log("| --: | --: | --: | --: | --: | --: | --- |");
  }
  const f = rows.at(-1) as CliPlanFigures;
  const runs = f.wallMsRuns.length > 1 ? ` (runs: ${f.wallMsRuns.map(s).join(", ")})` : "";
  console.log(
    `| ${n(f.nodes)} | ${n(f.scenarioMiB)} MiB | ${s(f.wallMs)}${runs} | ${s(f.userMs)} / ${s(f.systemMs)} | ${n(f.minorPageFaults)} | ${n(f.peakRssMiB)} MiB${f.relaunched ? " (relaunched)" : ""} | ${f.summary} |`,
  );
}

/** A rehearsal's row: `plan --rehearse`'s wall time on top of the plan, and what it found. */
export function printRehearsal(f: RehearsalFigures, header: boolean): void {
  if (header)
    console.log(
      "\n## 4. Rehearsal (plan --rehearse: read every pod, build the twin, roll it), wall time\n| nodes | wall | result | virtual | groups | stalls | peak extra nodes | peak RSS |\n| --: | --: | --- | --: | --: | --: | --: | --: |",
    );
  console.log(
    `| ${n(f.nodes)} | ${s(f.wallMs)} | ${f.result} | ${f.virtualMinutes} min | ${f.groups} | ${f.stalls} | ${f.peakExtraNodes} | ${n(f.peakRssMiB)} MiB |`,
  );
}

/** `fleet plan` of many clusters: from the command line, then its read in-process, counted. */
export function printFleet(cli: FleetCliFigures | undefined, read: FleetReadFigures): void {
  console.log(
    `\n## 5. fleet plan of ${n(read.clusters)} clusters of ${n(read.nodesPerCluster)} nodes (${n(read.podsPerCluster)} pods, ${read.groupsPerCluster} groups each), three stages`,
  );
  if (cli) {
    const runs = cli.wallMsRuns.length > 1 ? ` (runs: ${cli.wallMsRuns.map(s).join(", ")})` : "";
    console.log(
      `command line (\`fleet plan --fleet F --sandbox S ×${cli.clusters} --format json\`, ${n(cli.scenariosMiB)} MiB of scenario files, the worlds' build included): ${s(cli.wallMs)} wall${runs}; ${s(cli.userMs)} user / ${s(cli.systemMs)} system CPU, ${n(cli.minorPageFaults)} page faults, ${n(cli.peakRssMiB)} MiB peak${cli.relaunched ? " (relaunched with a raised heap)" : ""}; the plan: ${cli.clustersInPlan} clusters, ${cli.due} due (${cli.stages})`,
    );
  }
  const r = read.requests;
  const calls = Object.entries(r.byCall)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${n(v)}`)
    .join(", ");
  console.log(
    `in-process: build the ${read.clusters} worlds ${s(read.buildMs)}; read ${read.readMs.toFixed(1)} ms; ${n(r.kubernetes + r.eks + r.autoScaling + r.other)} requests (${n(r.kubernetes)} Kubernetes, ${n(r.eks)} EKS, ${n(r.autoScaling)} Auto Scaling, ${n(r.other)} other: ${calls}), ${read.perCluster.all} a cluster (${read.perCluster.kubernetes} Kubernetes, ${read.perCluster.eks} EKS, ${read.perCluster.autoScaling} Auto Scaling); at most ${read.peakClusters} clusters read at once (readConcurrency ${read.readConcurrency}); ${read.due} due; ${n(read.peakRssMiB)} MiB peak`,
  );
}
