// Part 5 of the bench: `noderoll plan` from the command line on a generated scenario file, as a
// newcomer runs it (`sandbox generate --nodes N --policy-out FILE`, then `plan --sandbox FILE`):
// the checked-in dist/cli.js in a process of its own, so Node's start-up, reading and checking
// the file and building the sandbox world are all in its time, as in issue 14's row. Wall time
// is this process's clock around the child's; CPU time, page faults and peak memory are the
// child's own, from process.resourceUsage() at its exit, written by a module it preloads with
// --import (Node passes that flag on to a relaunch with a raised heap, which writes its own).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { generatePolicyYaml, generateScenarioYaml } from "../../src/sandbox/scenarios/generate.js";
import { generatedCluster, medianRun } from "./cluster.js";

export interface CliPlanFigures {
  nodes: number;
  /** The scenario file's size. */
  scenarioMiB: number;
  /** From starting the command to its exit (the median run's). */
  wallMs: number;
  /** Every run's wall time, in the order they ran. */
  wallMsRuns: number[];
  /** CPU time of every thread (V8's collector threads too), user and system. */
  userMs: number;
  systemMs: number;
  /** Pages the process touched first (each a fault the kernel serves). */
  minorPageFaults: number;
  peakRssMiB: number;
  /** Whether the command ran itself again with a raised heap limit (src/cli/heap.ts). */
  relaunched: boolean;
  /** The plan's last line, to show what was planned. */
  summary: string;
}

/** At exit, the process's resource usage in a file of its own (named for its pid). */
const PRELOAD = `import { writeFileSync } from "node:fs";
process.on("exit", () => {
  const file = \`\${process.env.NODEROLL_BENCH_USAGE}.\${process.pid}.json\`;
  writeFileSync(file, JSON.stringify(process.resourceUsage()));
});
`;

/** Where the scenario and policy files of a run in `dir` are. */
const filesIn = (dir: string) => ({
  scenario: join(dir, "scenario.json"),
  policy: join(dir, "policy.yaml"),
});

/** The scenario and policy files of a generated cluster of `nodes` (as the other parts make it). */
export function cliInputs(nodes: number, dir: string): { scenario: string; policy: string } {
  const opts = generatedCluster(nodes);
  const files = filesIn(dir);
  writeFileSync(files.scenario, generateScenarioYaml(opts));
  writeFileSync(files.policy, generatePolicyYaml(opts));
  return files;
}

/** A command line's run, as this process saw it and as it said of itself at its exit. */
export interface MeasuredRun {
  wallMs: number;
  userMs: number;
  systemMs: number;
  minorPageFaults: number;
  peakRssMiB: number;
  relaunched: boolean;
  stdout: string;
}

/**
 * One run of the command line at `cli` with `args`, in `cwd` (default this process's), its
 * figures as the module it preloads writes them into `dir`; a failed run is an error (`what`
 * failed, and its stderr), not a time.
 */
export function runMeasured(
  what: string,
  cli: string,
  args: string[],
  opts: { dir: string; cwd?: string },
): MeasuredRun {
  const { dir, cwd } = opts;
  const preload = join(dir, "usage.mjs");
  writeFileSync(preload, PRELOAD);
  const usage = mkdtempSync(join(dir, "usage-"));
  const started = performance.now();
  const r = spawnSync(process.execPath, ["--import", pathToFileURL(preload).href, cli, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODEROLL_BENCH_USAGE: join(usage, "usage") },
    maxBuffer: 256 * 1024 * 1024,
    ...(cwd && { cwd }),
  });
  const wallMs = Math.round(performance.now() - started);
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}):\n${r.stderr}`);
  const used = readdirSync(usage).map(
    (f) => JSON.parse(readFileSync(join(usage, f), "utf8")) as NodeJS.ResourceUsage,
  );
  rmSync(usage, { recursive: true });
  if (used.length === 0) throw new Error(`${what} wrote no resource usage`);
  const sum = (pick: (u: NodeJS.ResourceUsage) => number) =>
    used.reduce((total, u) => total + pick(u), 0);
  return {
    wallMs,
    userMs: Math.round(sum((u) => u.userCPUTime) / 1000),
    systemMs: Math.round(sum((u) => u.systemCPUTime) / 1000),
    minorPageFaults: sum((u) => u.minorPageFault),
    peakRssMiB: Math.round(Math.max(...used.map((u) => u.maxRSS)) / 1024),
    relaunched: used.length > 1,
    stdout: r.stdout,
  };
}

/** One run of `plan` on the files in `dir` (cliInputs'), by the command line at `cli`. */
export function runCliPlan(
  nodes: number,
  dir: string,
  cli: string,
): Omit<CliPlanFigures, "wallMsRuns"> {
  const files = filesIn(dir);
  const args = ["plan", "--policy", files.policy, "--sandbox", files.scenario];
  const { stdout, ...run } = runMeasured("plan --sandbox", cli, args, { dir });
  return {
    nodes,
    scenarioMiB: Math.round(readFileSync(files.scenario).length / 2 ** 20),
    ...run,
    summary: stdout.trimEnd().split("\n").at(-1) ?? "",
  };
}

/**
 * `runs` runs of the command line's plan of a generated `nodes`-node cluster, each a fresh
 * process: the median run by wall time, with every run's. `cli`: the checked-in bundle.
 */
export function measureCliPlan(
  nodes: number,
  runs: number,
  cli = resolve("dist/cli.js"),
): CliPlanFigures {
  const dir = mkdtempSync(join(tmpdir(), "noderoll-bench-cli-"));
  try {
    cliInputs(nodes, dir);
    const all = Array.from({ length: Math.max(1, runs) }, () => runCliPlan(nodes, dir, cli));
    return { ...medianRun(all, (f) => f.wallMs), wallMsRuns: all.map((f) => f.wallMs) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
