// One roll per cluster, attacked: two runs whose names collide, runs whose clocks disagree by
// minutes, and a run that loses its lease mid-drain. Whatever happens, two runs never touch the
// cluster at once: every change a run makes falls inside the time it holds the lease.
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { type ApplyResult } from "../../src/engine/apply.js";
import type { Policy } from "../../src/policy/index.js";
import { EventLog, KubeApiError, type Clock, type RollEvent } from "../../src/ports/index.js";
import { LEASE_DURATION_SECONDS, RENEW_DEADLINE_MS } from "../../src/roll/lease.js";
import type { World } from "../../src/sandbox/world/world.js";
import { ofType, policyFor, selfManagedWorld } from "./scenarios.js";

const MUTATING = /^(patch|evict|delete|create|update|detach|terminate|set|suspend|resume)/;

interface Run {
  name: string;
  log: EventLog;
  /** Every change this run asked for, with its virtual time (lease writes left out). */
  changes: { t: number; call: string }[];
  done: Promise<ApplyResult>;
}

interface Faults {
  /** The run's wall clock is this far off (its monotonic clock is not). */
  skewMs?: number;
  /** The wall clock steps by stepMs once stepAtMs have passed since the run began. */
  stepAtMs?: number;
  stepMs?: number;
  /** From this long after the run began, lease calls fail with 503 … */
  leaseFailsAfterMs?: number;
  /** … or answer 429 with Retry-After … */
  lease429AfterMs?: number;
  /** … or stall for hangMs, then time out as the adapters' request timeout does. */
  leaseHangsAfterMs?: number;
  hangMs?: number;
  /** From this long after the run began, every lease write lands but its answer is lost. */
  leaseAnswersLostAfterMs?: number;
}

function leaseFault(world: World, start: number, o: Faults): (() => Promise<never>) | undefined {
  const el = world.clock.nowMs() - start;
  if (o.leaseFailsAfterMs !== undefined && el >= o.leaseFailsAfterMs)
    return () => Promise.reject(new KubeApiError(503, "ServiceUnavailable", "lease API down"));
  if (o.lease429AfterMs !== undefined && el >= o.lease429AfterMs)
    return () => Promise.reject(new KubeApiError(429, "TooManyRequests", "slow down", 60));
  return undefined;
}

/** Ports that record every mutating call, with the faults asked for on the lease and the clock. */
function portsOf(world: World, run: Pick<Run, "changes">, o: Faults = {}) {
  const start = world.clock.nowMs();
  const wrap = <T extends object>(target: T, service: string): T =>
    new Proxy(target, {
      get(t, key) {
        const v = Reflect.get(t, key, t) as unknown;
        if (typeof v !== "function") return v && typeof v === "object" ? wrap(v, String(key)) : v;
        return (...args: unknown[]) => {
          const name = String(key);
          const call = () => (v as (...a: unknown[]) => unknown).apply(t, args);
          if (/Lease$/.test(name)) {
            const fault = leaseFault(world, start, o);
            if (fault) return fault();
            // A stalled connection, answered as the adapters' request timeout answers it.
            const hangs = o.leaseHangsAfterMs !== undefined;
            if (hangs && world.clock.nowMs() - start >= o.leaseHangsAfterMs!)
              return world.clock.sleep(o.hangMs!).then(() => {
                throw Object.assign(new Error("no answer within 30 s"), { code: "ETIMEDOUT" });
              });
            const lost = o.leaseAnswersLostAfterMs;
            if (lost !== undefined && name === "updateLease" && world.clock.nowMs() - start >= lost)
              return (call() as Promise<unknown>).then(() => {
                throw Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
              });
          } else if (MUTATING.test(name))
            run.changes.push({ t: Math.floor(world.clock.nowMs()), call: `${service}.${name}` });
          return call();
        };
      },
    });
  const clock: Clock = {
    now: () => {
      const n = world.clock.nowMs();
      const stepped = o.stepAtMs !== undefined && n - start >= o.stepAtMs ? o.stepMs! : 0;
      return new Date(n + (o.skewMs ?? 0) + stepped);
    },
    sleep: (ms, signal) => world.clock.sleep(ms, signal),
    monotonic: () => world.clock.nowMs(),
  };
  return { cloud: wrap(world.cloud, "cloud"), cluster: wrap(world.cluster, "cluster"), clock };
}

function start(
  world: World,
  policy: Policy,
  name: string,
  runId: string,
  opts: Faults & { afterMs?: number; lockWaitMs?: number } = {},
): Run {
  const run: Run = { name, log: new EventLog(world.clock), changes: [], done: undefined as never };
  run.done = (async () => {
    if (opts.afterMs) await world.clock.sleep(opts.afterMs);
    return planAndApply(policy, "p.yaml", portsOf(world, run, opts), run.log, {
      runId,
      ...(opts.lockWaitMs !== undefined && { lockWaitMs: opts.lockWaitMs }),
    });
  })();
  return run;
}

const at = (e: RollEvent) => Date.parse(e.t);

/** The span a run held the lease, in virtual time (till the end when it never released). */
function held(run: Run): [number, number] | undefined {
  const acquired = ofType(run.log.events, "lock.acquire")[0];
  if (!acquired) return undefined;
  const released = ofType(run.log.events, "lock.release")[0];
  return [at(acquired), released ? at(released) : Infinity];
}

/** Every change of every run inside its own lease span, and no two spans overlapping. */
function expectExclusive(runs: Run[]): void {
  const spans = runs.map((r) => ({ r, span: held(r) }));
  for (const { r, span } of spans) {
    for (const c of r.changes) {
      expect(span, `${r.name} changed ${c.call} without holding the lease`).toBeDefined();
      expect(c.t, `${r.name}: ${c.call} outside its lease`).toBeGreaterThanOrEqual(span![0]);
      expect(c.t, `${r.name}: ${c.call} outside its lease`).toBeLessThanOrEqual(span![1]);
    }
  }
  const held2 = spans.filter((s) => s.span).map((s) => s.span!);
  for (let i = 0; i < held2.length; i++)
    for (let j = i + 1; j < held2.length; j++) {
      const [a, b] = [held2[i]!, held2[j]!];
      expect(a[1] <= b[0] || b[1] <= a[0], "two runs held the cluster lock at once").toBe(true);
    }
}

const policy = policyFor(
  "groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }]\n",
);

describe("one roll per cluster, attacked", () => {
  it("two runs with the same run id (two containers, both pid 1) never both hold the cluster", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
    const a = start(world, policy, "a", "noderoll-cli-1");
    const b = start(world, policy, "b", "noderoll-cli-1", { afterMs: 45_000 });
    const [ra, rb] = await world.run(Promise.all([a.done, b.done]));
    expect(ra.result).toBe("success");
    expect(rb).toMatchObject({ result: "failure", message: expect.stringMatching(/^LockHeld/) });
    expect(b.changes).toEqual([]);
    expectExclusive([a, b]);
  });

  it.each([
    ["ten minutes ahead", 600_000],
    ["ten minutes behind", -600_000],
    ["an hour ahead", 3600_000],
  ])("a run whose clock is %s does not take a live lease", async (_, skewMs) => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
    const a = start(world, policy, "a", "run-a");
    const b = start(world, policy, "b", "run-b", { afterMs: 45_000, skewMs });
    const [ra, rb] = await world.run(Promise.all([a.done, b.done]));
    expect(ra.result).toBe("success");
    expect(rb.result).toBe("failure");
    expect(b.changes).toEqual([]);
    expectExclusive([a, b]);
  });

  it("a run that can no longer renew stops touching the cluster before another can take over", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 6 }]);
    // a's lease calls fail from 3 minutes on, mid-roll; b waits for the cluster meanwhile.
    const a = start(world, policy, "a", "run-a", { leaseFailsAfterMs: 180_000 });
    const b = start(world, policy, "b", "run-b", { afterMs: 150_000, lockWaitMs: 3600_000 });
    const [ra, rb] = await world.run(Promise.all([a.done, b.done]));
    expect(ra.result).toBe("cancelled");
    expect(
      ofType(a.log.events, "note")
        .map((n) => n.message)
        .join(),
    ).toMatch(/could not be renewed.*stopping everything in flight/);
    expect(rb.result).toBe("success");
    const lastOfA = Math.max(...a.changes.map((c) => c.t));
    const bHolds = at(ofType(b.log.events, "lock.acquire")[0]!);
    expect(lastOfA).toBeLessThan(bHolds);
    // a stopped within its renew deadline; b waited the lease's whole duration unchanged.
    expect(bHolds - lastOfA).toBeGreaterThanOrEqual(
      LEASE_DURATION_SECONDS * 1000 - RENEW_DEADLINE_MS,
    );
    // a never released (it could not), so its span ends when it stopped changing things.
    expect(b.changes.every((c) => c.t >= bHolds)).toBe(true);
    expect(world.instances("w").every((i) => i.ltVersion === 2)).toBe(true);
  });
});

describe("one roll per cluster, attacked harder", () => {
  const waiting = { afterMs: 150_000, lockWaitMs: 3600_000 };

  it.each([
    ["stall until the request timeout (30 s)", { leaseHangsAfterMs: 180_000, hangMs: 30_000 }],
    // A client that retries underneath (the Kubernetes adapter backs off from a 5xx up to 8
    // times; a proxy in between may retry too) makes one renewal last past every deadline.
    [
      "take 5 minutes to fail (a client retrying underneath)",
      { leaseHangsAfterMs: 180_000, hangMs: 300_000 },
    ],
    ["are throttled (429, Retry-After 60)", { lease429AfterMs: 180_000 }],
    [
      "fail while its wall clock steps back 10 minutes",
      { leaseFailsAfterMs: 180_000, stepAtMs: 185_000, stepMs: -600_000 },
    ],
  ])("a holder whose renewals %s stops before the waiting run takes over", async (_, faults) => {
    const world = selfManagedWorld([{ name: "w", nodes: 6 }]);
    const a = start(world, policy, "a", "run-a", faults as Faults);
    const b = start(world, policy, "b", "run-b", waiting);
    const [ra, rb] = await world.run(Promise.all([a.done, b.done]));
    expect(ra.result).toBe("cancelled");
    expect(rb.result).toBe("success");
    const bHolds = at(ofType(b.log.events, "lock.acquire")[0]!);
    expect(a.changes.filter((c) => c.t >= bHolds)).toEqual([]);
  });

  it.each([5_000, 12_000, 25_000, 155_000])(
    "a waiting run whose wall clock steps 10 minutes forward %i ms in does not take a live lease",
    async (stepAtMs) => {
      const world = selfManagedWorld([{ name: "w", nodes: 6 }]);
      const a = start(world, policy, "a", "run-a");
      const b = start(world, policy, "b", "run-b", { ...waiting, stepAtMs, stepMs: 600_000 });
      const [ra, rb] = await world.run(Promise.all([a.done, b.done]));
      expect(ra.result).toBe("success");
      expect(rb.result).toBe("success");
      expectExclusive([a, b]);
    },
  );

  it.each([181_000, 185_000, 195_000, 205_000])(
    "a lease deleted %i ms into the roll is waited out, not taken at once",
    async (deleteAt) => {
      const world = selfManagedWorld([{ name: "w", nodes: 6 }]);
      const a = start(world, policy, "a", "run-a");
      const b = start(world, policy, "b", "run-b", waiting);
      void (async () => {
        await world.clock.sleep(deleteAt);
        await world.cluster.deleteLease("kube-system", "noderoll-engine");
      })();
      const [ra, rb] = await world.run(Promise.all([a.done, b.done]));
      expect(ra.result).toBe("cancelled");
      expect(rb.result).toBe("success");
      const bHolds = at(ofType(b.log.events, "lock.acquire")[0]!);
      expect(a.changes.filter((c) => c.t >= bHolds)).toEqual([]);
    },
  );

  it("a holder whose renewals land but whose answers are lost keeps the lock (the record moved)", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 6 }]);
    const a = start(world, policy, "a", "run-a", { leaseAnswersLostAfterMs: 60_000 });
    const b = start(world, policy, "b", "run-b", waiting);
    const [ra, rb] = await world.run(Promise.all([a.done, b.done]));
    expect(ra.result).toBe("success");
    expect(rb.result).toBe("success");
    expectExclusive([a, b]);
  });

  it("a hold longer than any roll (an operator's freeze) is refused at once, never taken over", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 2 }]);
    await world.run(
      world.cluster.createLease("kube-system", {
        metadata: { name: "noderoll-engine", namespace: "kube-system" },
        spec: { holderIdentity: "ops-freeze", leaseDurationSeconds: 86_400 },
      }),
    );
    const b = start(world, policy, "b", "run-b", { lockWaitMs: 0 });
    const r = await world.run(b.done);
    expect(r).toMatchObject({
      result: "failure",
      message: expect.stringMatching(/held by ops-freeze for longer than any roll runs: a hold/),
    });
    expect(b.changes).toEqual([]);
  });
});
