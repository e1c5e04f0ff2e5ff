// The front door both port faces (and the wire's watches) share: every call is counted by
// "service.method" (`world.calls`), a scenario's throttling faults turn a share of calls away,
// and its other faults (faults.ts) are decided here — calls that get no timely answer, watches
// that misbehave, AWS's "try later" refusals — drawing from seeded random streams so a run
// replays exactly. Faults draw from a stream of their own: asking for them changes nothing else
// the world decides at random.
import type { Random } from "../model/random.js";

export interface Throttle {
  api: "kubernetes" | "aws";
  rate: number;
  retryAfter: number;
}

export interface NetworkFault {
  api: "kubernetes" | "aws";
  reset: number;
  lostAnswer: number;
  stall: number;
  slow: number;
  /** Seconds. */
  delay: number;
  timeout: number;
  calls?: string[];
}

export interface WatchFault {
  stall: number;
  gone: number;
  endEarly: number;
  /** Seconds. */
  within: number;
}

export interface TryLaterFault {
  rate: number;
  calls?: string[];
}

export interface Faults {
  network: NetworkFault[];
  watch: WatchFault[];
  tryLater: TryLaterFault[];
}

/** What happens to one call. */
export type CallFault =
  | { kind: "reset" | "lostAnswer" }
  | { kind: "stall"; timeoutMs: number }
  | { kind: "slow"; delayMs: number }
  | { kind: "tryLater" };

/** What happens to one watch, and when. */
export type WatchTrouble = { kind: "stall" | "gone" | "endEarly"; afterMs: number };

/** The writes a roll makes that AWS refuses with "try later" when busy. */
export const TRY_LATER_CALLS = [
  "autoscaling.terminateInstanceInAutoScalingGroup",
  "autoscaling.detachInstances",
  "autoscaling.updateAutoScalingGroup",
  "eks.updateNodegroupConfig",
  "eks.updateNodegroupVersion",
];

/** Running sums: the edges of each fault's share of [0, 1). */
function cumulative(shares: number[]): number[] {
  let sum = 0;
  return shares.map((x) => (sum += x));
}

const NO_FAULTS: Faults = { network: [], watch: [], tryLater: [] };

export class ApiGate {
  /** API calls made through the ports, by "service.method". */
  readonly calls = new Map<string, number>();

  constructor(
    readonly throttles: Throttle[],
    private readonly random: Random,
    readonly faults: Faults = NO_FAULTS,
    /** The faults' own stream (defaults to the world's). */
    private readonly chance: Random = random,
  ) {}

  /** Count the call; return the throttle that turns it away, if one does. */
  admit(name: string, api: Throttle["api"]): Throttle | undefined {
    this.calls.set(name, (this.calls.get(name) ?? 0) + 1);
    for (const t of this.throttles) if (t.api === api && this.random.next() < t.rate) return t;
    return undefined;
  }

  /** Whether the call reaches the server in time, and if not, how it fails. */
  callFault(name: string, api: Throttle["api"]): CallFault | undefined {
    if (api === "aws")
      for (const f of this.faults.tryLater)
        if ((f.calls ?? TRY_LATER_CALLS).includes(name) && this.chance.next() < f.rate)
          return { kind: "tryLater" };
    for (const f of this.faults.network) {
      if (f.api !== api || (f.calls && !f.calls.includes(name))) continue;
      const roll = this.chance.next();
      const edges = cumulative([f.reset, f.lostAnswer, f.stall, f.slow]);
      if (roll < edges[0]!) return { kind: "reset" };
      if (roll < edges[1]!) return { kind: "lostAnswer" };
      if (roll < edges[2]!) return { kind: "stall", timeoutMs: f.timeout * 1000 };
      if (roll < edges[3]!) return { kind: "slow", delayMs: f.delay * 1000 };
    }
    return undefined;
  }

  /** Whether a new watch will misbehave, how, and how long after it opens. */
  watchFault(): WatchTrouble | undefined {
    for (const f of this.faults.watch) {
      const roll = this.chance.next();
      const afterMs = Math.round(this.chance.next() * f.within * 1000);
      const edges = cumulative([f.stall, f.gone, f.endEarly]);
      if (roll < edges[0]!) return { kind: "stall", afterMs };
      if (roll < edges[1]!) return { kind: "gone", afterMs };
      if (roll < edges[2]!) return { kind: "endEarly", afterMs };
    }
    return undefined;
  }
}
