// What a rehearsal watches while the twin rolls, in virtual time: pods left Pending (per
// workload, and for how long), the extra nodes the roll adds at its peak, and the API load it
// causes — sampled every few virtual seconds, since none of it shows in the roll's events.
import type { World } from "../sandbox/world/world.js";

const EVERY_MS = 5_000;

/** Shorter waits are how drains and scheduling go, not stalls (here and in report.ts). */
export const STALL_MS = 30_000;

export interface PendingStall {
  workload: string;
  fromMs: number;
  forMs: number;
  maxPods: number;
}

export class RehearsalWatch {
  private readonly start: number;
  private readonly baseline: number;
  private stopped = false;
  peakExtraNodes = 0;
  peakRequestsPerMinute = 0;
  private readonly calls: { at: number; total: number }[] = [];
  private readonly open = new Map<string, { from: number; max: number }>();
  readonly pending: PendingStall[] = [];

  constructor(private readonly world: World) {
    this.start = world.clock.nowMs();
    this.baseline = this.instances();
    this.tick();
  }

  private instances(): number {
    let n = 0;
    for (const i of this.world.ec2.instances.values())
      if (i.state === "pending" || i.state === "running") n++;
    return n;
  }

  private totalCalls(): number {
    let n = 0;
    for (const v of this.world.calls.values()) n += v;
    return n;
  }

  private tick = (): void => {
    if (this.stopped) return;
    const now = this.world.clock.nowMs();
    this.peakExtraNodes = Math.max(this.peakExtraNodes, this.instances() - this.baseline);
    this.sampleCalls(now);
    this.samplePending(now);
    this.world.clock.after(EVERY_MS, this.tick);
  };

  private sampleCalls(now: number): void {
    this.calls.push({ at: now, total: this.totalCalls() });
    while (this.calls.length > 1 && now - this.calls[0]!.at > 60_000) this.calls.shift();
    const first = this.calls[0]!;
    this.peakRequestsPerMinute = Math.max(
      this.peakRequestsPerMinute,
      this.totalCalls() - first.total,
    );
  }

  private samplePending(now: number): void {
    const by = new Map<string, number>();
    for (const p of this.world.kube.pending) {
      const key = p.workload?.key ?? `Pod/${p.namespace}/${p.name}`;
      by.set(key, (by.get(key) ?? 0) + 1);
    }
    for (const [key, n] of by) {
      const o = this.open.get(key) ?? { from: now, max: 0 };
      o.max = Math.max(o.max, n);
      this.open.set(key, o);
    }
    for (const [key, o] of [...this.open]) if (!by.has(key)) this.close(key, o, now);
  }

  private close(key: string, o: { from: number; max: number }, now: number): void {
    this.open.delete(key);
    // A pod is Pending for a scheduler pass whenever it is replaced: only a wait counts.
    if (now - o.from >= STALL_MS)
      this.pending.push({
        workload: key,
        fromMs: o.from - this.start,
        forMs: now - o.from,
        maxPods: o.max,
      });
  }

  stop(): void {
    const now = this.world.clock.nowMs();
    for (const [key, o] of [...this.open]) this.close(key, o, now);
    this.stopped = true;
  }
}
