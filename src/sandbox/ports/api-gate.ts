// The front door both port faces (and the wire's watches) share: every call is counted by
// "service.method" (`world.calls`), and a scenario's throttling faults turn a share of calls
// away, drawing from the world's seeded random stream so a run replays exactly.
import type { Random } from "../model/random.js";

export interface Throttle {
  api: "kubernetes" | "aws";
  rate: number;
  retryAfter: number;
}

export class ApiGate {
  /** API calls made through the ports, by "service.method". */
  readonly calls = new Map<string, number>();

  constructor(
    readonly throttles: Throttle[],
    private readonly random: Random,
  ) {}

  /** Count the call; return the throttle that turns it away, if one does. */
  admit(name: string, api: Throttle["api"]): Throttle | undefined {
    this.calls.set(name, (this.calls.get(name) ?? 0) + 1);
    for (const t of this.throttles) if (t.api === api && this.random.next() < t.rate) return t;
    return undefined;
  }
}
