// Progress while live state is read, shared by the command line and the action. Reading a big
// cluster takes a while (its nodes' pods and their owners); a terminal that says nothing for a
// minute looks hung. The read reports how far it has got through the core's one progress
// callback (OnProgress, src/plan/read.ts), whoever implements the ports — a live cluster or a
// sandbox — and a line says so every few seconds of wall time.
import type { OnProgress, ReadProgress } from "../plan/index.js";

type Phase = ReadProgress["phase"];

const n = (x: number) => x.toLocaleString("en-US");
const of = (p: ReadProgress) => (p.total === undefined ? n(p.done) : `${n(p.done)}/${n(p.total)}`);

const PHASE: Record<Exclude<Phase, "nodes">, (p: ReadProgress) => string> = {
  groups: (p) => `groups ${of(p)} read`,
  // Without a total the pods come from a cluster-wide list, counted as they are listed.
  pods: (p) =>
    p.total === undefined ? `${n(p.done)} pods listed` : `pods of ${of(p)} nodes to replace read`,
  budgets: (p) => `PDBs of ${of(p)} namespaces read`,
  owners: (p) => `owners ${of(p)} looked up`,
};

/** The line for the latest report of each phase so far (`current`: the phase reported last). */
export function readLine(
  latest: ReadonlyMap<Phase, ReadProgress>,
  current: Phase | undefined,
  elapsedMs: number,
): string {
  const parts = ["reading live state", `${Math.round(elapsedMs / 1000)}s`];
  const nodes = latest.get("nodes");
  if (nodes) parts.push(`${n(nodes.done)} nodes listed`);
  const now = current && current !== "nodes" ? latest.get(current) : undefined;
  if (current && current !== "nodes" && now) parts.push(PHASE[current](now));
  return parts.join(" · ");
}

/**
 * Run `read` with a progress callback, writing a line at most every `everyMs` of wall time:
 * from a timer (a call that hangs still shows the time passing) and from the callback itself
 * (a read that never yields to the timers, as a sandbox's can, still shows how far it got).
 */
export async function withReadProgress<T>(
  write: (line: string) => void,
  read: (onProgress: OnProgress) => Promise<T>,
  everyMs = 5000,
): Promise<T> {
  const latest = new Map<Phase, ReadProgress>();
  let current: Phase | undefined;
  const started = Date.now();
  let written = started;
  const tick = () => {
    const now = Date.now();
    if (now - written < everyMs) return;
    written = now;
    write(`${readLine(latest, current, now - started)}\n`);
  };
  const timer = setInterval(tick, Math.max(1, Math.floor(everyMs / 5)));
  timer.unref();
  try {
    return await read((p) => {
      latest.set(p.phase, p);
      current = p.phase;
      tick();
    });
  } finally {
    clearInterval(timer);
  }
}
