// A large sandbox world gets the heap it needs: the command line runs itself again with a
// higher limit before it builds one.
//
// Why: in-process, the sandbox's objects (the API server's memory in a real cluster) share
// noderoll's heap. Node's default limit (about 4 GiB) holds a world of 3 million pods, but only
// just: the collector then marks the whole heap again and again as it nears the limit (at 100,000
// nodes the plan took 33 s with the default and 24 s with 8 GiB, `npm run bench`), and a larger
// world runs out of memory. A live cluster is read over the wire, where noderoll's heap holds
// only its own snapshot (1.9 GB at 100,000 nodes), so nothing is raised there.
//
// The child runs in a process group of its own, so that a Ctrl-C reaches it once, from here:
// the roll's first SIGINT stops it cleanly and a second one ends it at once (src/cli/apply.ts).
import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { totalmem } from "node:os";
import { parseArgs } from "node:util";
import { getHeapStatistics } from "node:v8";
import { scenarioScale, type ScenarioScale } from "../sandbox/scenarios/scale.js";

/** Set in the child: it never raises again. */
export const RELAUNCHED_ENV = "NODEROLL_HEAP_RAISED";

/**
 * What a world keeps per pod and per node, with noderoll's snapshot and plan of it (measured at
 * 20,000 nodes: world ~670 bytes a pod, snapshot ~210, plan ~40; nodes are a small part).
 */
const LIVE_BYTES_PER_POD = 1_000;
const LIVE_BYTES_PER_NODE = 4_000;
/** Raised when the world would fill more than this share of the limit. */
const FULL_SHARE = 1 / 3;
/** The limit asked for, as a multiple of what is live: the collector's room to work. */
const ROOM = 2.5;
/** Never more than this share of the machine's (or the container's) memory. */
const MEMORY_SHARE = 0.75;
const MIB = 1024 * 1024;

export interface HeapChoice {
  fromMiB: number;
  toMiB: number;
}

/** The heap limit to run a world of `scale` with, when the current one is too small for it. */
export function heapFor(
  scale: ScenarioScale,
  limitBytes: number,
  memoryBytes: number,
): HeapChoice | undefined {
  const live = scale.pods * LIVE_BYTES_PER_POD + scale.nodes * LIVE_BYTES_PER_NODE;
  if (live <= limitBytes * FULL_SHARE) return undefined;
  const to = Math.min(live * ROOM, memoryBytes * MEMORY_SHARE);
  // Not worth a second process for less than a quarter more.
  if (to < limitBytes * 1.25) return undefined;
  return { fromMiB: Math.round(limitBytes / MIB), toMiB: Math.floor(to / MIB) };
}

/** The scenario file a command builds a world from (not "demo"); undefined for the rest. */
export function scenarioFileOf(command: string | undefined, rest: string[]): string | undefined {
  const serve = command === "sandbox" && rest[0] === "serve";
  if (command !== "plan" && command !== "apply" && !serve) return undefined;
  const option = serve ? "scenario" : "sandbox";
  const { values } = parseArgs({
    args: serve ? rest.slice(1) : rest,
    strict: false,
    options: { [option]: { type: "string" } },
  });
  const file = values[option];
  return typeof file === "string" && file !== "demo" ? file : undefined;
}

function memoryBytes(): number {
  const limit = process.constrainedMemory();
  return limit > 0 ? Math.min(limit, totalmem()) : totalmem();
}

/** The heap to relaunch with for this command, if any (files that cannot be read: none). */
export function heapChoiceFor(command: string | undefined, rest: string[]): HeapChoice | undefined {
  if (process.env[RELAUNCHED_ENV]) return undefined;
  const file = scenarioFileOf(command, rest);
  if (file === undefined) return undefined;
  let scale: ScenarioScale | undefined;
  try {
    if (!statSync(file).isFile()) return undefined;
    scale = scenarioScale(readFileSync(file, "utf8"));
  } catch {
    return undefined; // the command itself says what is wrong with the file
  }
  if (!scale) return undefined;
  const choice = heapFor(scale, getHeapStatistics().heap_size_limit, memoryBytes());
  if (choice)
    process.stderr.write(
      `noderoll: a sandbox world of ${scale.pods.toLocaleString("en-US")} pods: running again with --max-old-space-size=${choice.toMiB} (the heap limit was ${choice.fromMiB.toLocaleString("en-US")} MiB)\n`,
    );
  return choice;
}

const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP", "SIGWINCH"] as const;

/**
 * This command again (`argv`: the script and its arguments), in a child with the heap limit
 * `toMiB`; resolves to its exit code. A signal that ended the child ends this process the same way.
 */
export function relaunch(toMiB: number, argv: string[]): Promise<number> {
  const args = [...process.execArgv, `--max-old-space-size=${toMiB}`, ...argv];
  const child = spawn(process.execPath, args, {
    stdio: "inherit",
    detached: true,
    env: { ...process.env, [RELAUNCHED_ENV]: "1" },
  });
  const forward = (signal: NodeJS.Signals) => () => void child.kill(signal);
  const handlers = FORWARDED.map((s) => [s, forward(s)] as const);
  for (const [s, h] of handlers) process.on(s, h);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      for (const [s, h] of handlers) process.off(s, h);
      if (signal) process.kill(process.pid, signal);
      resolve(code ?? 1);
    });
  });
}
