// The plan's phases as both plan parts of the bench time them (in-process, plan.ts; over the
// wire, plan-wire.ts): the four steps the Planner takes, each a read or a compute, with its wall
// time, its main thread's and its process's CPU time, and the collector's pauses inside it.
import { PerformanceObserver } from "node:perf_hooks";
import { buildPlan, observe } from "../../src/engine/index.js";
import { addWorkloads } from "../../src/plan/index.js";
import type { Policy } from "../../src/policy/index.js";

export type PhaseKind = "read" | "compute";

/** Milliseconds of CPU time of this thread (its work, the waiting left out). */
export const threadCpuMs = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};

/** Milliseconds of CPU time of every thread of this process (V8's collector's helpers too). */
export const processCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export class Phases {
  readonly wall = { read: 0, compute: 0 };
  readonly threadCpu = { read: 0, compute: 0 };
  readonly processCpu = { read: 0, compute: 0 };
  readonly #windows: { kind: PhaseKind; from: number; to: number }[] = [];
  readonly #gc: { at: number; ms: number }[] = [];
  readonly #observer = new PerformanceObserver((l) => {
    for (const e of l.getEntries()) this.#gc.push({ at: e.startTime, ms: e.duration });
  });

  constructor() {
    this.#observer.observe({ entryTypes: ["gc"] });
  }

  async run<T>(kind: PhaseKind, f: () => T | Promise<T>): Promise<T> {
    const from = performance.now();
    const cpu = threadCpuMs();
    const all = processCpuMs();
    const out = await f();
    const to = performance.now();
    this.wall[kind] += to - from;
    this.threadCpu[kind] += threadCpuMs() - cpu;
    this.processCpu[kind] += processCpuMs() - all;
    this.#windows.push({ kind, from, to });
    return out;
  }

  /** Milliseconds of collector pauses between two marks of performance.now(). */
  gcBetween(from: number, to: number): number {
    return Math.round(this.#gcMs(from, to));
  }

  /** Milliseconds of collector pauses inside the phases of one kind (summed, then rounded). */
  gcIn(kind: PhaseKind): number {
    let ms = 0;
    for (const w of this.#windows) if (w.kind === kind) ms += this.#gcMs(w.from, w.to);
    return Math.round(ms);
  }

  #gcMs(from: number, to: number): number {
    let ms = 0;
    for (const x of this.#gc) if (x.at >= from && x.at < to) ms += x.ms;
    return ms;
  }

  /** Stop observing, once the last entries are delivered (they come on a later turn). */
  async stop(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.#observer.disconnect();
  }
}

/**
 * The plan as the Planner makes it: observe the groups, a draft plan, the pods of the nodes it
 * replaces and their owners and budgets, the plan.
 */
export async function planInPhases(
  phases: Phases,
  policy: Policy,
  ports: Parameters<typeof observe>[1],
) {
  const base = await phases.run("read", () => observe(policy, ports));
  const draft = await phases.run("compute", () => buildPlan(policy, "generated.yaml", base));
  const replace = draft.groups.flatMap((g) => g.replacements.flatMap((x) => x.node ?? []));
  const full = await phases.run("read", () => addWorkloads(base, replace, ports.cluster));
  return phases.run("compute", () => buildPlan(policy, "generated.yaml", full));
}
