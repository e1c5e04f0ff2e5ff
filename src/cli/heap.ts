// A large sandbox world gets the heap it needs: the command line runs itself again with a
// higher limit before it builds one. A world small for the heap is built with the heap free to
// grow (builtWithRoom, at the end).
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
// The decision is made where the world is built (src/cli/sandbox-world.ts), before the command
// has changed anything: from a JSON scenario's value before it is checked (the child checks it,
// once), else from the validated scenario. It throws HeapTooSmall, and main() runs the same
// command line again in a child. The child leads a session of its own, so a Ctrl-C from the
// terminal reaches it once, forwarded from here (the roll's first SIGINT stops it cleanly, a
// second ends it at once: src/cli/apply.ts); an IPC channel tells it when this process is gone,
// killed outright included. (Not while it is stopped: a job suspended with Ctrl-Z and then killed
// with SIGKILL leaves the stopped child behind; `kill %1` without -9 ends both.)
import { spawn } from "node:child_process";
import { constants, totalmem } from "node:os";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import type { ScenarioScale } from "../sandbox/scenarios/scale.js";
import { v8FlagGiven } from "../sandbox/world/pretenuring.js";

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

/** What `worlds` worlds of `scale` keep live, with noderoll's snapshot and plan of them. */
const liveBytes = (scale: ScenarioScale, worlds: number): number =>
  worlds * (scale.pods * LIVE_BYTES_PER_POD + scale.nodes * LIVE_BYTES_PER_NODE);

/** The heap limit for `worlds` worlds of `scale`, when the current one is too small for them. */
export function heapFor(
  scale: ScenarioScale,
  worlds: number,
  limitBytes: number,
  memoryBytes: number,
): HeapChoice | undefined {
  const live = liveBytes(scale, worlds);
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
const RERAISED: ReadonlySet<string> = new Set<string>(["SIGINT", "SIGTERM", "SIGHUP"]);

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

/*
 * V8's heap growing factor while a world is built. After each full (mark-compact) collection V8
 * sets the heap size at which the next one starts: what is live times a factor it picks from how
 * fast the collector ran against the program (at most 4 on a machine with this much memory), no
 * further than halfway from what is live to the heap limit (MemoryController in V8's
 * src/heap/heap-controller.cc). `--heap-growing-percent` replaces the factor, and V8 reads it at
 * each full collection, so setting it at run time counts from the next one.
 *
 * Why: nearly all a world's build makes stays live, so a full collection during the build frees
 * little, and the limit it sets comes round soon after the build, while noderoll reads the world:
 * at 20,000 nodes a full mark of the ~600 MB heap in the middle of the read. With a factor of 16
 * while the world is built, a collection during the build sets the limit halfway to the heap's,
 * and the 20,000-node plan from the command line ends without another: 6 pairs run alternately
 * with the code before, 10.6 s against 11.4 s on average (every run before made that third full
 * collection, none after), peak RSS ~890 against ~860 MiB. Only where the world (noderoll's
 * snapshot of it counted) fills a quarter of the limit or less: at 100,000 nodes in Node's
 * default heap, three quarters of it, the same raise made the read slower (noderoll's read +
 * compute 20.2–20.9 s against 15.1–16.8 s, three in-process runs each): the collections it put
 * off came when the heap was fuller. Set back to V8's own choice once the world
 * stands; left alone where the user gave the flag.
 */
/** Worlds filling at most this share of the heap limit are built with the factor raised. */
const ROOMY_SHARE = 1 / 4;
/** The factor while such a world is built, as --heap-growing-percent gives it (1 + 1500%: 16). */
const GROWING_PERCENT = 1500;

/** Whether `worlds` worlds of `scale` are small enough for the heap to grow freely while built. */
export function roomToGrow(scale: ScenarioScale, worlds: number, limitBytes: number): boolean {
  return liveBytes(scale, worlds) <= limitBytes * ROOMY_SHARE;
}

/**
 * `build()` (of one of `worlds` worlds of `scale`), with V8's heap growing factor raised while it
 * runs where the heap has room for them, and V8's own choice again after it.
 */
export function builtWithRoom<T>(scale: ScenarioScale, worlds: number, build: () => T): T {
  const limit = getHeapStatistics().heap_size_limit;
  if (v8FlagGiven("heap-growing-percent") || !roomToGrow(scale, worlds, limit)) return build();
  setFlagsFromString(`--heap-growing-percent=${GROWING_PERCENT}`);
  try {
    return build();
  } finally {
    setFlagsFromString("--heap-growing-percent=0");
  }
}
