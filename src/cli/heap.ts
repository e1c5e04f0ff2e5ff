// A large sandbox world gets the heap it needs: the command line runs itself again with a
// higher limit before it builds one.
//
// Why: in-process, the sandbox's objects (the API server's memory in a real cluster) share
// noderoll's heap. Node's default limit (about 4 GiB) holds a world of 3 million pods, but only
// just: the collector then marks the whole heap again and again as it nears the limit (at 100,000
// nodes `npm run bench` has measured noderoll's part at 33 s with the default and 24 s with 8 GiB
// in one run, 35 s both in another; a 130,000-node plan took 269 s, and 153 s raised), and a
// larger world runs out of memory. A live cluster is read over the wire, where noderoll's heap
// holds only its own snapshot (1.9 GB at 100,000 nodes); not raised. (`plan --rehearse` of a
// live cluster builds its twin after the read, when it is too late to raise: see the README.)
//
// The decision is made where the world is built (src/cli/sandbox-world.ts), from the validated
// scenario, before the command has changed anything: it throws HeapTooSmall, and main() runs the
// same command line again in a child. The child leads a session of its own, so a Ctrl-C from the
// terminal reaches it once, forwarded from here (the roll's first SIGINT stops it cleanly, a
// second ends it at once: src/cli/apply.ts); an IPC channel tells it when this process is gone,
// killed outright included. (Not while it is stopped: a job suspended with Ctrl-Z and then killed
// with SIGKILL leaves the stopped child behind; `kill %1` without -9 ends both.)
import { spawn } from "node:child_process";
import { constants, totalmem } from "node:os";
import { getHeapStatistics } from "node:v8";
import type { ScenarioScale } from "../sandbox/scenarios/scale.js";

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
/** Not worth a second process for less than this much more. */
const WORTH = 1.25;
const MIB = 1024 * 1024;

export interface HeapChoice {
  fromMiB: number;
  toMiB: number;
}

/** The heap limit for `worlds` worlds of `scale`, when the current one is too small for them. */
export function heapFor(
  scale: ScenarioScale,
  worlds: number,
  limitBytes: number,
  memoryBytes: number,
): HeapChoice | undefined {
  const live = worlds * (scale.pods * LIVE_BYTES_PER_POD + scale.nodes * LIVE_BYTES_PER_NODE);
  if (live <= limitBytes * FULL_SHARE) return undefined;
  const to = Math.min(live * ROOM, memoryBytes * MEMORY_SHARE);
  if (to < limitBytes * WORTH) return undefined;
  return { fromMiB: Math.round(limitBytes / MIB), toMiB: Math.floor(to / MIB) };
}

/** The command must run again with a higher heap limit before it builds its world. */
export class HeapTooSmall extends Error {
  constructor(
    readonly choice: HeapChoice,
    readonly pods: number,
  ) {
    super(`a sandbox world of ${pods} pods needs --max-old-space-size=${choice.toMiB}`);
  }
}

function memoryBytes(): number {
  const limit = process.constrainedMemory();
  return limit > 0 ? Math.min(limit, totalmem()) : totalmem();
}

/** Throws HeapTooSmall where `worlds` worlds of `scale` want more heap than this process has. */
export function checkHeapFor(scale: ScenarioScale, worlds = 1): void {
  if (relaunched()) return;
  const choice = heapFor(scale, worlds, getHeapStatistics().heap_size_limit, memoryBytes());
  if (choice) throw new HeapTooSmall(choice, scale.pods * worlds);
}

/** Forwarded as they come; a stop (Ctrl-Z) is handled apart. */
const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGWINCH", "SIGCONT"] as const;
/**
 * A child ended by one of these ends this process the same way; by another (an abort out of
 * memory, SIGKILL from the kernel's OOM killer, a SIGQUIT's core dump), exit 128 + n, not a
 * second core dump.
 */
const RERAISED = new Set<string>(["SIGINT", "SIGTERM", "SIGHUP"]);

/** This process's Node flags for the child: not a debugger's (its port is taken, here). */
function nodeFlags(): string[] {
  const out: string[] = [];
  const flags = process.execArgv;
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i] as string;
    if (/^--(inspect|debug)/.test(flag)) {
      // "--inspect-port 9230": the port is the next argument.
      if (/^--(inspect|debug)-port$/.test(flag)) i++;
      continue;
    }
    out.push(flag);
  }
  return out;
}

/**
 * `argv` (the script and its arguments) again, in a child with the heap limit `toMiB`; resolves
 * to its exit code.
 */
export function relaunch(e: HeapTooSmall, argv: string[]): Promise<number> {
  process.stderr.write(
    `noderoll: a sandbox world of ${e.pods.toLocaleString("en-US")} pods: running again with --max-old-space-size=${e.choice.toMiB} (the heap limit was ${e.choice.fromMiB.toLocaleString("en-US")} MiB)\n`,
  );
  const flags = [...nodeFlags(), `--max-old-space-size=${e.choice.toMiB}`];
  const child = spawn(process.execPath, [...flags, ...argv], {
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    detached: true,
    env: { ...process.env, [RELAUNCHED_ENV]: "1" },
  });
  const handlers = new Map<NodeJS.Signals, () => void>();
  for (const s of FORWARDED) handlers.set(s, () => void child.kill(s));
  // Ctrl-Z: the child stops too (it is in no job the shell controls), then this process.
  handlers.set("SIGTSTP", () => {
    child.kill("SIGSTOP");
    process.kill(process.pid, "SIGSTOP");
  });
  for (const [s, h] of handlers) process.on(s, h);
  const done = () => {
    for (const [s, h] of handlers) process.off(s, h);
    if (child.connected) child.disconnect();
  };
  return new Promise((resolve, reject) => {
    child.once("error", (err) => {
      done();
      reject(err);
    });
    child.once("exit", (code, signal) => {
      done();
      if (signal && RERAISED.has(signal)) process.kill(process.pid, signal);
      else if (signal)
        process.stderr.write(
          `noderoll: the run with --max-old-space-size=${e.choice.toMiB} ended on ${signal}\n`,
        );
      resolve(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1));
    });
  });
}

/**
 * In the child: when the process that started it is gone (killed outright), stop as on SIGTERM,
 * unless the command listens for that itself (apply, which knows whether it is already stopping:
 * a second SIGTERM would end it at once, leaving the lock).
 */
export function followParent(): void {
  if (!relaunched() || !process.channel) return;
  process.channel.unref();
  process.once("disconnect", () => {
    if (process.listenerCount("disconnect") === 0) process.kill(process.pid, "SIGTERM");
  });
}

/** This process is the relaunched child (what the first one printed is not printed again). */
export const relaunched = (): boolean => Boolean(process.env[RELAUNCHED_ENV]);
