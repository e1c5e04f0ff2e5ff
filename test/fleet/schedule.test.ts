// The fleet's decisions from cluster records and time alone (issue 49). A driver plays `fleet
// apply` every hour of virtual time — each due cluster records "rolling", then succeeds (or
// fails) 40 minutes later — and the invariants are checked after every run: no stage starts a
// cluster before the stage above soaked, no stage rolls more than its maxConcurrency, and every
// cluster ends on the release the first stage pinned.
import { describe, expect, it } from "vitest";
import { loadFleet } from "../../src/fleet/load.js";
import { promotionOf, type FleetRecord } from "../../src/fleet/record.js";
import { scheduleFleet, type ClusterView, type FleetPlan } from "../../src/fleet/schedule.js";
import type { Fleet } from "../../src/fleet/schema.js";

const fleetOf = (stages: string): Fleet => {
  const r = loadFleet(
    `apiVersion: noderoll.io/v1
kind: Fleet
metadata: { name: eks }
release: { kubernetesVersion: "1.33", releaseVersion: latest }
stages:
${stages}`,
    "fleet.yaml",
  );
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
  return r.fleet;
};

const FIVE = fleetOf(`  - { name: dev, policies: [dev-*.yaml], maxConcurrency: 2, soak: 24h }
  - { name: staging, policies: [staging-*.yaml], soak: 24h }
  - { name: prod, policies: [prod-*.yaml], maxConcurrency: 1 }
`);
const CLUSTERS = { dev: ["dev-a", "dev-b"], staging: ["staging-a"], prod: ["prod-a", "prod-b"] };
const HOUR = 3_600_000;
const T0 = Date.parse("2026-11-30T08:00:00Z");

/** The clusters and their records, as the sandbox's Leases would hold them. */
class World {
  records = new Map<string, FleetRecord>();
  locked = new Set<string>();
  finishes = new Map<string, { at: number; ok: boolean }>();
  latest = "1.33.4-20250904";
  failing = new Set<string>();
  starts: { cluster: string; stage: string; at: number }[] = [];

  constructor(readonly fleet: Fleet) {}

  views(): ClusterView[] {
    return Object.entries(CLUSTERS).flatMap(([stage, names]) =>
      names.map((cluster) => ({
        stage,
        cluster,
        region: "eu-west-1",
        policyFile: `${cluster}.yaml`,
        record: this.records.get(cluster),
        locked: this.locked.has(cluster),
      })),
    );
  }

  /** Rolls that end by `now` end: the record says how, and the lock is let go. */
  settle(now: number) {
    for (const [cluster, f] of this.finishes)
      if (f.at <= now) {
        const r = this.records.get(cluster)!;
        this.records.set(cluster, {
          ...r,
          state: f.ok ? "succeeded" : "failed",
          finishedAt: new Date(f.at).toISOString(),
        });
        this.locked.delete(cluster);
        this.finishes.delete(cluster);
      }
  }

  /** One `fleet apply`: start what is due, pinning the release at the first start. */
  apply(now: number, retryFailed = false): FleetPlan {
    this.settle(now);
    const promotion = promotionOf(this.fleet);
    const plan = scheduleFleet({
      fleet: this.fleet,
      promotion,
      views: this.views(),
      now: new Date(now),
      retryFailed,
    });
    const release = plan.pinned ?? { ...this.fleet.release, releaseVersion: this.latest };
    for (const d of plan.due) {
      this.records.set(d.view.cluster, {
        fleet: "eks",
        promotion,
        release,
        stage: d.stage.name,
        state: "rolling",
        startedAt: new Date(now).toISOString(),
      });
      this.locked.add(d.view.cluster);
      this.starts.push({ cluster: d.view.cluster, stage: d.stage.name, at: now });
      this.finishes.set(d.view.cluster, {
        at: now + 40 * 60_000,
        ok: !this.failing.has(d.view.cluster),
      });
    }
    return plan;
  }
}

/** What must hold after every run. */
function invariants(w: World, fleet: Fleet) {
  const stages = fleet.stages.map((s) => s.name);
  for (const s of w.starts) {
    const above = stages[stages.indexOf(s.stage) - 1];
    if (!above) continue;
    const soak = (fleet.stages[stages.indexOf(above)]?.soak === "24h" ? 24 : 0) * HOUR;
    const upstreamDone = CLUSTERS[above as keyof typeof CLUSTERS].map((c) =>
      Date.parse(w.records.get(c)?.finishedAt ?? "9999-01-01"),
    );
    expect(s.at, `${s.cluster} started before ${above} soaked`).toBeGreaterThanOrEqual(
      Math.max(...upstreamDone) + soak,
    );
  }
  for (const stage of fleet.stages) {
    const rolling = CLUSTERS[stage.name as keyof typeof CLUSTERS].filter((c) => w.locked.has(c));
    expect(rolling.length).toBeLessThanOrEqual(Number(stage.maxConcurrency ?? 1));
  }
}

describe("a fleet of 5 clusters in 3 stages with a 24 h soak", () => {
  it("rolls dev, waits out the soak, rolls staging, then prod one at a time, all on one release", () => {
    const w = new World(FIVE);
    const log: string[] = [];
    for (let h = 0; h < 96; h++) {
      const now = T0 + h * HOUR;
      // `latest` moves mid-way: the fleet keeps the release it pinned.
      if (h === 30) w.latest = "1.33.5-20251001";
      const plan = w.apply(now);
      invariants(w, FIVE);
      for (const d of plan.due) log.push(`+${h}h ${d.view.cluster}`);
    }
    expect(log).toEqual([
      "+0h dev-a",
      "+0h dev-b",
      "+25h staging-a", // dev finished at +0h40m, soaked 24 h: the run at +25h starts staging
      "+50h prod-a",
      "+51h prod-b", // one at a time
    ]);
    const releases = new Set([...w.records.values()].map((r) => r.release.releaseVersion));
    expect(releases).toEqual(new Set(["1.33.4-20250904"]));
    expect([...w.records.values()].every((r) => r.state === "succeeded")).toBe(true);
  });

  it("says why a stage waits, until when it soaks, and what the next run starts", () => {
    const w = new World(FIVE);
    w.apply(T0);
    const plan = w.apply(T0 + 2 * HOUR);
    const soaking = { kind: "soaking", until: "2026-12-01T08:40:00.000Z" };
    expect(plan.stages.map((s) => [s.stage.name, s.state])).toEqual([
      ["dev", soaking],
      ["staging", { kind: "blocked", by: { stage: "dev", state: soaking } }],
      ["prod", { kind: "blocked", by: { stage: "dev", state: soaking } }],
    ]);
    expect(plan.due).toEqual([]);
    expect(plan.pinned).toEqual({ kubernetesVersion: "1.33", releaseVersion: "1.33.4-20250904" });
  });
});

describe("failure", () => {
  it("a bad release in dev halts the fleet; --retry-failed reruns it with the same release", () => {
    const w = new World(FIVE);
    w.failing.add("dev-a");
    for (let h = 0; h < 48; h++) w.apply(T0 + h * HOUR);
    const halted = w.apply(T0 + 48 * HOUR);
    expect(halted.stages[0]?.state.kind).toBe("halted");
    expect(halted.stages[1]?.state).toEqual({
      kind: "blocked",
      by: {
        stage: "dev",
        state: {
          kind: "halted",
          why: expect.stringMatching(/^1 cluster failed \(failureThreshold 0\)/),
        },
      },
    });
    expect(w.starts.map((s) => s.cluster)).toEqual(["dev-a", "dev-b"]);
    // The fix: the same pinned release, even though latest moved.
    w.failing.clear();
    w.latest = "1.33.9-20260101";
    const retried = w.apply(T0 + 49 * HOUR, true);
    expect(retried.due.map((d) => d.view.cluster)).toEqual(["dev-a"]);
    expect(w.records.get("dev-a")?.release.releaseVersion).toBe("1.33.4-20250904");
    for (let h = 50; h < 160; h++) w.apply(T0 + h * HOUR);
    expect([...w.records.values()].every((r) => r.state === "succeeded")).toBe(true);
    expect(new Set([...w.records.values()].map((r) => r.release.releaseVersion)).size).toBe(1);
  });

  it("failures within the threshold are tolerated: the stage ends when the rest are done", () => {
    const tolerant =
      fleetOf(`  - { name: dev, policies: [dev-*.yaml], maxConcurrency: 2, failureThreshold: 1 }
  - { name: staging, policies: [staging-*.yaml] }
  - { name: prod, policies: [prod-*.yaml] }
`);
    const w = new World(tolerant);
    w.failing.add("dev-b");
    w.apply(T0);
    const plan = w.apply(T0 + HOUR);
    expect(plan.stages[0]?.state.kind).toBe("soaked");
    expect(plan.due.map((d) => d.view.cluster)).toEqual(["staging-a"]);
  });
});

describe("converging from cluster state alone", () => {
  it("a roll whose run was lost (its record says rolling, no lock) is due again, as a resume", () => {
    const w = new World(FIVE);
    w.apply(T0);
    // The runner died: nothing finishes, the locks expire.
    w.finishes.clear();
    w.locked.clear();
    const plan = w.apply(T0 + HOUR);
    expect(plan.due.map((d) => [d.view.cluster, d.resume])).toEqual([
      ["dev-a", true],
      ["dev-b", true],
    ]);
  });

  it("a roll still holding its lock is left alone and counts against maxConcurrency", () => {
    const w = new World(FIVE);
    w.apply(T0);
    expect(w.apply(T0 + 10 * 60_000).due).toEqual([]);
  });

  it("a cluster that cannot be read is neither done nor free: its stage does not end", () => {
    const w = new World(FIVE);
    for (let h = 0; h < 3; h++) w.apply(T0 + h * HOUR);
    const views = w
      .views()
      .map((v) => (v.cluster === "dev-b" ? { ...v, unreadable: "timeout" } : v));
    const plan = scheduleFleet({
      fleet: FIVE,
      promotion: promotionOf(FIVE),
      views,
      now: new Date(T0 + 30 * HOUR),
    });
    expect(plan.stages[0]?.clusters[1]?.state).toEqual({ kind: "unreadable", why: "timeout" });
    expect(plan.stages[0]?.state.kind).toBe("rolling");
    expect(plan.due).toEqual([]);
  });

  it("a new release in the fleet file is a new promotion: every cluster is due again", () => {
    const w = new World(FIVE);
    for (let h = 0; h < 96; h++) w.apply(T0 + h * HOUR);
    const next = { ...FIVE, release: { ...FIVE.release, kubernetesVersion: "1.34" } };
    const plan = scheduleFleet({
      fleet: next,
      promotion: promotionOf(next),
      views: w.views(),
      now: new Date(T0 + 100 * HOUR),
    });
    expect(plan.pinned).toBeUndefined();
    expect(plan.due.map((d) => d.view.cluster)).toEqual(["dev-a", "dev-b"]);
  });

  it("a paused fleet starts nothing, and says so", () => {
    const w = new World(FIVE);
    const plan = scheduleFleet({
      fleet: FIVE,
      promotion: promotionOf(FIVE),
      views: w.views(),
      now: new Date(T0),
      paused: { at: new Date(T0).toISOString(), reason: "incident 42" },
    });
    expect(plan.due).toEqual([]);
    expect(plan.paused?.reason).toBe("incident 42");
  });

  it("gates failing while a stage soaks halt it", () => {
    const w = new World(FIVE);
    for (let h = 0; h < 3; h++) w.apply(T0 + h * HOUR);
    const views = w
      .views()
      .map((v) =>
        v.cluster === "dev-a"
          ? { ...v, gates: { verdict: "fail" as const, detail: "alarm api-5xx" } }
          : v,
      );
    const plan = scheduleFleet({
      fleet: FIVE,
      promotion: promotionOf(FIVE),
      views,
      now: new Date(T0 + 30 * HOUR),
    });
    expect(plan.stages[0]?.state).toEqual({
      kind: "halted",
      why: "gates failing on dev-a while it soaks: alarm api-5xx",
    });
    expect(plan.due).toEqual([]);
  });
});
