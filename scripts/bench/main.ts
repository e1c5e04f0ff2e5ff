// `npm run bench`: figures, printed and written to out/bench.json, never asserted. Five parts:
//  1. the sandbox: an EKS-style update of a generated 1,000-node, 30,000-pod cluster;
//  2. plan: build, read (the sandbox's serving apart) and compute time, GC, peak memory and
//     requests on generated clusters (BENCH_PLAN_SIZES, default 1k / 5k / 20k / 50k / 100k nodes);
//     then the same over the wire (BENCH_WIRE_SIZES, default 20k / 100k): the sandbox served
//     from a process of its own, read through noderoll's real adapters, as a run reads a cluster;
//     then `noderoll plan --sandbox FILE` from the command line on a generated scenario file
//     (BENCH_CLI_SIZES, default 20k), start-up, the file's check and the world's build included;
//  3. roll: noderoll's self-managed engine against the exact lower bound for its budgets and
//     EKS's own managed update, with requests per replaced node by verb and resource and the
//     roll's time split by what it waited for (BENCH_ROLL_SIZES, default 100 / 1,000);
//  4. rehearsal: `plan --rehearse` of a generated cluster, wall time on top of the plan
//     (BENCH_REHEARSAL_SIZES, default 5,000 nodes);
//  5. fleet: `fleet plan` of BENCH_FLEET_CLUSTERS generated clusters (default 50; "" none) of
//     BENCH_FLEET_NODES nodes each (default 1,000), from the command line (BENCH_PLAN_RUNS runs),
//     then its read in-process with the requests per API and the most clusters read at once
//     (BENCH_FLEET_CLI=0: the read alone).
// Before the first part and after the last, the host's memory: how long a fresh page takes to
// write (memory.ts), what most of the plans' wall time varies by on a shared machine.
// Each measurement runs in a process of its own, with Node's default heap, so every size's
// peak memory is its own and nothing leans on a raised heap limit. In-process, the sandbox's own
// objects (~2 GB at 100k nodes, the API server's memory in a real cluster) share noderoll's heap
// and its garbage collection; the over-the-wire row is the one without them. The plan of the
// sizes in BENCH_PLAN_RAISED_SIZES (default none) is measured once more in-process with an 8 GiB
// heap. Each plan row is the median of BENCH_PLAN_RUNS runs (default 3, each in a fresh
// process): on a shared 2-core machine one run of the 100k plan varies by a third from the next,
// mostly in garbage collection; the row keeps every run's noderoll figure beside the median.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { resolve } from "node:path";
import { benchEksUpdate } from "../../src/sandbox/world/bench.js";
import { medianRun } from "./cluster.js";
import { measureFirstTouch, type MemoryFigures } from "./memory.js";
import { measurePlan, type PlanFigures } from "./plan.js";
import { measureCliPlan, type CliPlanFigures } from "./plan-cli.js";
import { measurePlanWire, servePlanWorld, type WirePlanFigures } from "./plan-wire.js";
import {
  printCliPlans,
  printFleet,
  printHalt,
  printPlans,
  printRehearsal,
  printRolls,
  printSandbox,
  printWirePlans,
} from "./report.js";
import { measureRehearsal, type RehearsalFigures } from "./rehearsal.js";
import { measureRoll, type RollFigures } from "./roll.js";
import { measureHalt, type HaltFigures } from "./gates.js";
import {
  measureFleetCli,
  measureFleetRead,
  type FleetCliFigures,
  type FleetReadFigures,
} from "./fleet.js";

/** Sizes from the environment ("" runs none of that part), or the defaults. */
const sizes = (name: string, fallback: number[]) => {
  const v = process.env[name];
  return v === undefined ? fallback : v.split(",").filter(Boolean).map(Number);
};

/** The heap the second plan measurement of a size runs with. */
const RAISED_HEAP_MIB = 8192;

/** One measurement in a child process: this bundle again, with the part to run. */
function child<T>(...args: string[]): T {
  return childWith<T>([], args);
}

function childWith<T>(nodeArgs: string[], args: string[]): T {
  const r = spawnSync(process.execPath, [...nodeArgs, process.argv[1] as string, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`bench ${args.join(" ")} failed (exit ${r.status})`);
  return JSON.parse(r.stdout) as T;
}

/** noderoll's own time in a plan: the read without the sandbox's serving, and the compute. */
const noderollMs = (f: PlanFigures) => f.readMs - f.sandboxServeMs + f.computeMs;

/**
 * BENCH_PLAN_RUNS runs (default 3) of `run`, each in a fresh process: the one whose noderoll
 * time is the median (the lower middle one of an even count), with every run's.
 */
function median<T>(
  run: () => T,
  ms: (f: T) => number,
): T & { noderollMs: number; noderollMsRuns: number[] } {
  const count = Math.max(1, Number(process.env.BENCH_PLAN_RUNS ?? 3));
  const runs = Array.from({ length: count }, run);
  const middle = medianRun(runs, ms);
  return { ...middle, noderollMs: ms(middle), noderollMsRuns: runs.map(ms) };
}

/** The in-process plan of `n` nodes (with `nodeArgs` for Node), the median of its runs. */
const medianPlan = (nodeArgs: string[], n: number): PlanFigures =>
  median(() => childWith<PlanFigures>(nodeArgs, ["plan", String(n)]), noderollMs);

async function part(args: string[]): Promise<unknown> {
  const [name, n] = args;
  if (name === "sandbox") return benchEksUpdate(Number(n), 30);
  if (name === "memory") return measureFirstTouch();
  if (name === "plan") return measurePlan(Number(n));
  if (name === "plan-wire") return measurePlanWire(Number(n));
  if (name === "roll") return measureRoll(Number(n));
  if (name === "halt") return measureHalt(Number(n));
  if (name === "rehearsal") return measureRehearsal(Number(n));
  if (name === "fleet-read") return measureFleetRead(Number(n), Number(args[2]));
  throw new Error(`unknown bench part ${name}`);
}

function machine() {
  const list = cpus();
  return {
    cpus: list.length,
    model: list[0]?.model ?? "unknown",
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    loadAverage: loadAverage(),
  };
}

const loadAverage = () => loadavg().map((x) => Math.round(x * 100) / 100);

/** The host's memory as the header and the footer say it (memory.ts). */
const touch = (f: MemoryFigures) =>
  `first write of a fresh page ${f.firstTouchUsPerPage} µs (written again: ${f.rewriteUsPerPage} µs)`;

/** Part 5: each fleet size from the command line, then read in-process (each in a process). */
function measureFleets(): { cli?: FleetCliFigures; read: FleetReadFigures }[] {
  const out: { cli?: FleetCliFigures; read: FleetReadFigures }[] = [];
  const nodes = Number(process.env.BENCH_FLEET_NODES ?? 1000);
  const runs = Number(process.env.BENCH_PLAN_RUNS ?? 3);
  for (const clusters of sizes("BENCH_FLEET_CLUSTERS", [50])) {
    const cli =
      process.env.BENCH_FLEET_CLI === "0" ? undefined : measureFleetCli(clusters, nodes, runs);
    const read = child<FleetReadFigures>("fleet-read", String(clusters), String(nodes));
    out.push({ ...(cli && { cli }), read });
    printFleet(cli, read);
  }
  return out;
}

async function main(): Promise<void> {
  const m = machine();
  const memoryAtStart = child<MemoryFigures>("memory");
  console.log(
    `noderoll bench — ${new Date().toISOString()}, Node ${m.node}, ${m.cpus} × ${m.model}, ${m.memoryGiB} GiB, load average ${m.loadAverage.join(" ")}, ${touch(memoryAtStart)}`,
  );
  const sandbox = child<Awaited<ReturnType<typeof benchEksUpdate>>>("sandbox", "1000");
  printSandbox(sandbox);
  const plan: PlanFigures[] = [];
  for (const n of sizes("BENCH_PLAN_SIZES", [1000, 5000, 20000, 50000, 100000])) {
    plan.push(medianPlan([], n));
    printPlans(plan, plan.length === 1);
    if (!sizes("BENCH_PLAN_RAISED_SIZES", []).includes(n)) continue;
    plan.push(medianPlan([`--max-old-space-size=${RAISED_HEAP_MIB}`], n));
    printPlans(plan, false);
  }
  const planOverWire: WirePlanFigures[] = [];
  for (const n of sizes("BENCH_WIRE_SIZES", [20000, 100000])) {
    planOverWire.push(
      median(
        () => child<WirePlanFigures>("plan-wire", String(n)),
        (f) => f.noderollMs,
      ),
    );
    printWirePlans(planOverWire, planOverWire.length === 1);
  }
  const planCli: CliPlanFigures[] = [];
  for (const n of sizes("BENCH_CLI_SIZES", [20000])) {
    planCli.push(measureCliPlan(n, Number(process.env.BENCH_PLAN_RUNS ?? 3)));
    printCliPlans(planCli, planCli.length === 1);
  }
  const roll: RollFigures[] = [];
  for (const n of sizes("BENCH_ROLL_SIZES", [100, 1000])) {
    roll.push(child<RollFigures>("roll", String(n)));
    printRolls(roll.slice(-1), roll.length === 1);
  }
  const halt: HaltFigures[] = [];
  for (const n of sizes("BENCH_HALT_SIZES", [100])) {
    halt.push(child<HaltFigures>("halt", String(n)));
    printHalt(halt.at(-1) as HaltFigures);
  }
  const rehearsal: RehearsalFigures[] = [];
  for (const n of sizes("BENCH_REHEARSAL_SIZES", [5000])) {
    const f = child<RehearsalFigures>("rehearsal", String(n));
    rehearsal.push(f);
    printRehearsal(f, rehearsal.length === 1);
  }
  const fleet = measureFleets();
  const memoryAtEnd = child<MemoryFigures>("memory");
  console.log(`\nAt the end: load average ${loadAverage().join(" ")}, ${touch(memoryAtEnd)}`);
  const out = resolve("out/bench.json");
  mkdirSync(resolve("out"), { recursive: true });
  const json = {
    machine: { ...m, loadAverageAtEnd: loadAverage(), memoryAtStart, memoryAtEnd },
    sandbox: {
      nodes: sandbox.nodes,
      pods: sandbox.pods,
      buildMs: sandbox.setupMs,
      simulateMs: sandbox.simulateMs,
      virtualMinutes: Math.round(sandbox.virtualSeconds / 60),
      peakRssMiB: sandbox.peakRssMiB,
    },
    plan,
    planOverWire,
    planCli,
    roll,
    halt,
    rehearsal,
    fleet,
  };
  writeFileSync(out, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`\nFigures written to ${out}`);
}

const args = process.argv.slice(2);
// The sandbox server of a plan over the wire: it answers its parent over IPC until told to close.
if (args[0] === "serve-plan") await servePlanWorld(Number(args[1]), args[2] as string);
else if (args.length > 0) process.stdout.write(JSON.stringify(await part(args)));
else await main();
