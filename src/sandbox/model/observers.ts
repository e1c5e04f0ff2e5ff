// What the tests read after a run: a timeline of what happened (virtual timestamps) and, per
// workload, how many replicas were available over time, so a test can say "this roll caused
// N seconds of downtime for web" — the cost of voluntary disruptions that the Kubernetes docs
// describe (https://kubernetes.io/docs/concepts/workloads/pods/disruptions/), made measurable.
import type { VirtualClock } from "./clock.js";

export interface TimelineEvent {
  /** ISO-8601 virtual time. */
  t: string;
  /** Milliseconds since the epoch, virtual. */
  at: number;
  type: string;
  group?: string;
  [key: string]: unknown;
}

export class Timeline {
  readonly events: TimelineEvent[] = [];
  #listeners: ((e: TimelineEvent) => void)[] = [];
  constructor(private readonly clock: VirtualClock) {}

  record(type: string, data: Record<string, unknown> = {}): TimelineEvent {
    const at = this.clock.nowMs();
    const e: TimelineEvent = { t: new Date(at).toISOString(), at, type, ...data };
    this.events.push(e);
    for (const l of this.#listeners) l(e);
    return e;
  }
  /** Called for every event as it is recorded (for invariant checks after every event). */
  subscribe(listener: (e: TimelineEvent) => void): () => void {
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }
  of(type: string, group?: string): TimelineEvent[] {
    return this.events.filter((e) => e.type === type && (group === undefined || e.group === group));
  }
  first(type: string, match: Record<string, unknown> = {}): TimelineEvent | undefined {
    return this.events.find(
      (e) => e.type === type && Object.entries(match).every(([k, v]) => e[k] === v),
    );
  }
}

export interface AvailabilitySample {
  at: number;
  available: number;
}

interface Series {
  desired: number;
  available: number;
  samples: AvailabilitySample[];
  /** Start of the current outage (no replica available), if in one. */
  downSince?: number;
  downMs: number;
  minAvailable: number;
}

/** Available replicas (Running, Ready, not terminating) per workload key over virtual time. */
export class Availability {
  #series = new Map<string, Series>();
  #since: number;
  constructor(private readonly clock: VirtualClock) {
    this.#since = clock.nowMs();
  }

  track(key: string, desired: number, available: number): void {
    const now = this.clock.nowMs();
    this.#series.set(key, {
      desired,
      available,
      samples: [{ at: now, available }],
      downMs: 0,
      minAvailable: available,
      ...(available === 0 && desired > 0 ? { downSince: now } : {}),
    });
  }

  change(key: string, delta: number): void {
    const s = this.#series.get(key);
    if (!s) return;
    const now = this.clock.nowMs();
    s.available += delta;
    s.samples.push({ at: now, available: s.available });
    if (s.available < s.minAvailable) s.minAvailable = s.available;
    if (s.available === 0 && s.downSince === undefined && s.desired > 0) s.downSince = now;
    if (s.available > 0 && s.downSince !== undefined) {
      s.downMs += now - s.downSince;
      s.downSince = undefined;
    }
  }

  /** Restart the measurement here (after the initial start-up of a scenario, say). */
  reset(): void {
    const now = this.clock.nowMs();
    this.#since = now;
    for (const s of this.#series.values()) {
      s.samples = [{ at: now, available: s.available }];
      s.downMs = 0;
      s.minAvailable = s.available;
      if (s.downSince !== undefined) s.downSince = now;
    }
  }

  /** Seconds during which the workload had no available replica, up to now. */
  downtimeSeconds(key: string): number {
    const s = this.#series.get(this.#key(key));
    if (!s) throw new Error(`no workload "${key}" is tracked`);
    const open = s.downSince !== undefined ? this.clock.nowMs() - s.downSince : 0;
    return (s.downMs + open) / 1000;
  }
  minAvailable(key: string): number {
    return this.#series.get(this.#key(key))?.minAvailable ?? 0;
  }
  available(key: string): number {
    return this.#series.get(this.#key(key))?.available ?? 0;
  }
  samples(key: string): AvailabilitySample[] {
    return this.#series.get(this.#key(key))?.samples ?? [];
  }
  keys(): string[] {
    return [...this.#series.keys()];
  }
  get since(): number {
    return this.#since;
  }

  /** Accept "web", "default/web" or "Deployment/default/web". */
  #key(key: string): string {
    if (this.#series.has(key)) return key;
    const matches = [...this.#series.keys()].filter(
      (k) => k.endsWith(`/${key}`) && k.split("/").length - key.split("/").length <= 2,
    );
    return matches.length === 1 ? (matches[0] as string) : key;
  }
}
