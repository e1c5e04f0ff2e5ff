// A fleet rolled for real (issue 49), in-process: five sandbox clusters in one account on one
// virtual clock, in three stages with a 24 h soak (helpers.ts). `fleet apply` runs every virtual
// hour; between runs the clock moves on. Each cluster's roll is the ordinary apply (invariants
// checked after every event); what the fleet knows lives only on the clusters (their fleet
// Leases), read afresh each run.
import { describe, expect, it } from "vitest";
import { applyFleet, holdFleet, readFleet } from "../../src/app/fleet.js";
import { fleetLeaseName } from "../../src/app/fleet-store.js";
import { ALL, fleetWorld, HOUR, IMAGES, recordOf } from "./helpers.js";

describe("a sandbox fleet of 5 clusters in 3 stages with a 24 h soak", () => {
  it("rolls dev, waits out the soak, rolls staging, then prod one at a time, all on the pinned release", async () => {
    const { account, fleet, members, deps, starts, invariants } = fleetWorld();
    const t0 = account.clock.nowMs();
    for (let run = 0; run < 80; run++) {
      // `latest` moves mid-way: every cluster learns of a newer AMI release.
      if (run === 10)
        for (const w of account.worlds) w.eks.releases["1.33"]!.push("1.33.5-20251001");
      await applyFleet(fleet, members, deps);
      await account.advance(HOUR);
    }
    const order = starts.map((s) => s.cluster);
    expect(order).toEqual(["dev-a", "dev-b", "staging-a", "prod-a", "prod-b"]);
    // Each stage starts only after the stage above soaked: its last success + 24 h (read back
    // from the clusters' own records); prod rolls one cluster at a time.
    const records = new Map(
      await Promise.all(ALL.map(async (c) => [c, await recordOf(account, c)] as const)),
    );
    const started = (c: string) => starts.find((s) => s.cluster === c)!.at;
    const finished = (c: string) => Date.parse(records.get(c)!.finishedAt!);
    expect(started("staging-a")).toBeGreaterThanOrEqual(
      Math.max(finished("dev-a"), finished("dev-b")) + 24 * HOUR,
    );
    expect(started("prod-a")).toBeGreaterThanOrEqual(finished("staging-a") + 24 * HOUR);
    expect(started("prod-b")).toBeGreaterThanOrEqual(finished("prod-a"));
    expect(started("staging-a") - t0).toBeLessThan(27 * HOUR); // and not much later: hourly runs
    for (const [name, inv] of invariants) expect(inv.violations, name).toEqual([]);
    for (const w of account.worlds) {
      const ng = w.eks.nodegroups.get(`${w.scenario.cluster.name}-system`);
      expect(ng?.releaseVersion, w.scenario.cluster.name).toBe("1.33.4-20250904");
    }
    const { plan } = await readFleet(fleet, members, deps);
    expect(plan.stages.map((s) => s.state.kind)).toEqual(["soaked", "soaked", "soaked"]);
    expect(plan.pinned).toEqual({ kubernetesVersion: "1.33", releaseVersion: "1.33.4-20250904" });
  }, 120_000);

  it("keeps what it knows on the clusters: a fresh reader on another 'machine' sees the same fleet", async () => {
    const { account, fleet, members, deps } = fleetWorld();
    await applyFleet(fleet, members, deps);
    const lease = await account
      .ports("dev-a")
      .cluster.getLease("kube-system", fleetLeaseName("dev-a"));
    expect(JSON.parse(lease.metadata.annotations!["noderoll.io/fleet"]!)).toMatchObject({
      fleet: "eks",
      stage: "dev",
      state: "succeeded",
      release: { releaseVersion: "1.33.4-20250904" },
    });
    const again = await readFleet(fleet, members, { ...deps });
    expect(again.plan.stages[0]?.state.kind).toBe("soaking");
  }, 60_000);
});

describe("a bad release in dev", () => {
  // dev-b's new nodes never turn Ready for the first 6 hours (a subnet without a route, say,
  // fixed then): its gates fail, the fleet halts, staging and prod are not touched; after the
  // fix, --retry-failed rolls dev-b with the release pinned at the start, though latest moved.
  it("halts the fleet; --retry-failed after the fix rolls with the same pinned release", async () => {
    const w = fleetWorld({
      "dev-b": {
        faults: { nodesNeverReady: [{ group: "dev-b-workers", from: 0, for: 6 * 3600 }] },
      },
    });
    const { account, fleet, members, deps, starts } = w;
    const first = await applyFleet(fleet, members, deps);
    expect(first.rolled.map((r) => [r.member.policy.cluster.name, r.result])).toEqual([
      ["dev-a", "success"],
      ["dev-b", "failure"],
    ]);
    for (const w2 of account.worlds) w2.eks.releases["1.33"]!.push("1.33.5-20251001");
    for (let h = 0; h < 8; h++) {
      await account.advance(HOUR);
      const r = await applyFleet(fleet, members, deps);
      expect(r.rolled).toEqual([]);
      expect(r.read.plan.stages.map((s) => s.state.kind)).toEqual(["halted", "blocked", "blocked"]);
    }
    // Staging and prod untouched: never started, their node groups as they were.
    expect(starts.map((s) => s.cluster)).toEqual(["dev-a", "dev-b"]);
    for (const name of ["staging-a", "prod-a", "prod-b"])
      expect(account.world(name).eks.nodegroups.get(`${name}-system`)?.releaseVersion).toBe(
        "1.33.1-20250715",
      );
    // The fix: the fault ends (6 h), and the team replaces the instance that never turned Ready.
    const aws = account.ports("dev-b").cloud.autoScaling;
    const [group] = await aws.describeAutoScalingGroups({
      AutoScalingGroupNames: ["dev-b-workers"],
    });
    const broken = [...account.world("dev-b").ec2.instances.values()].filter(
      (i) => i.state === "running" && i.neverReady,
    );
    expect(broken.length).toBeGreaterThan(0);
    for (const i of broken)
      await aws.terminateInstanceInAutoScalingGroup({
        InstanceId: i.id,
        ShouldDecrementDesiredCapacity: false,
      });
    expect(group?.Instances.length).toBe(2);
    await account.advance(HOUR);
    const retried = await applyFleet(fleet, members, deps, { retryFailed: true });
    expect(retried.rolled.map((r) => [r.member.policy.cluster.name, r.result])).toEqual([
      ["dev-b", "success"],
    ]);
    expect((await recordOf(account, "dev-b")).release.releaseVersion).toBe("1.33.4-20250904");
    expect(account.world("dev-b").eks.nodegroups.get("dev-b-system")?.releaseVersion).toBe(
      "1.33.4-20250904",
    );
    for (const [name, inv] of w.invariants) expect(inv.violations, name).toEqual([]);
  }, 120_000);
});

describe("soaked green", () => {
  // The fleet's soak reads each done cluster's gates every run (here a CloudWatch alarm its
  // policy names): an alarm during the soak halts the fleet before staging starts; an alarm
  // that cannot be judged holds the stage past its soak time.
  const gated = (alarm: string) => (n: string) =>
    `defaults:\n  gates: { alarms: [${alarm}-${n}] }\ngroups:\n  - { name: ${n}-system }\n  - { name: ${n}-workers, target: { launchTemplateVersion: $Latest } }\n`;

  it("an alarm raised while dev soaks halts the fleet; staging never starts", async () => {
    const w = fleetWorld({}, { policyBody: gated("api-5xx"), alarms: ["api-5xx"] });
    const { account, fleet, members, deps, starts } = w;
    await applyFleet(fleet, members, deps);
    await account.advance(3 * HOUR);
    const green = await readFleet(fleet, members, deps);
    expect(green.plan.stages[0]?.state.kind).toBe("soaking");
    account
      .world("dev-b")
      .cloudWatch.setState("api-5xx-dev-b", "ALARM", "5xx above 1% for 5 minutes");
    for (let h = 0; h < 30; h++) {
      await account.advance(HOUR);
      await applyFleet(fleet, members, deps);
    }
    const { plan } = await readFleet(fleet, members, deps);
    expect(plan.stages[0]?.state).toEqual({
      kind: "halted",
      why: expect.stringMatching(
        /^gates failing on dev-b while it soaks: alarm\/api-5xx-dev-b ALARM \(5xx above 1%/,
      ),
    });
    expect(starts.map((s) => s.cluster)).toEqual(["dev-a", "dev-b"]);
  }, 120_000);

  it("a gate that cannot be judged holds the stage past its soak, until it can", async () => {
    const w = fleetWorld({}, { policyBody: gated("api-5xx"), alarms: ["api-5xx"] });
    const { account, fleet, members, deps, starts } = w;
    await applyFleet(fleet, members, deps);
    account.world("dev-a").cloudWatch.setState("api-5xx-dev-a", "INSUFFICIENT_DATA", "no data");
    for (let h = 0; h < 30; h++) {
      await account.advance(HOUR);
      await applyFleet(fleet, members, deps);
    }
    const { plan } = await readFleet(fleet, members, deps);
    expect(plan.stages[0]?.state).toMatchObject({
      kind: "soaking",
      pending: expect.stringMatching(
        /^gates of dev-a inconclusive: alarm\/api-5xx-dev-a INSUFFICIENT_DATA/,
      ),
    });
    expect(starts.map((s) => s.cluster)).toEqual(["dev-a", "dev-b"]);
    account.world("dev-a").cloudWatch.setState("api-5xx-dev-a", "OK", "data again");
    const next = await applyFleet(fleet, members, deps);
    expect(next.rolled.map((r) => r.member.policy.cluster.name)).toEqual(["staging-a"]);
  }, 120_000);
});

describe("fleet pause and resume", () => {
  it("a pause on the clusters stops every later start, from any run; resume releases it", async () => {
    const { account, fleet, members, deps, starts } = fleetWorld();
    await applyFleet(fleet, members, deps);
    const said = await holdFleet(fleet, members, deps, {
      by: "oncall@host",
      reason: "incident 42",
    });
    expect(said).toEqual(ALL.map((cluster) => ({ cluster })));
    for (let h = 0; h < 30; h++) {
      await account.advance(HOUR);
      const r = await applyFleet(fleet, members, deps);
      expect(r.rolled).toEqual([]);
      expect(r.read.plan.paused).toMatchObject({ by: "oncall@host", reason: "incident 42" });
    }
    expect(starts.map((s) => s.cluster)).toEqual(["dev-a", "dev-b"]);
    await holdFleet(fleet, members, deps, undefined);
    const resumed = await applyFleet(fleet, members, deps);
    expect(resumed.read.plan.paused).toBeUndefined();
    expect(resumed.rolled.map((r) => r.member.policy.cluster.name)).toEqual(["staging-a"]);
  }, 120_000);
});

describe("$Latest pinned by content", () => {
  // A launch template's version numbers are each cluster's own: what dev tested is the AMI its
  // groups' $Latest ran. A newer image published everywhere after dev started is not what
  // staging and prod get; a cluster with no version of the tested image fails, saying so.
  const publish = (w: ReturnType<typeof fleetWorld>, cluster: string, imageId: string) => {
    for (const t of w.account.world(cluster).ec2.templates.values())
      if (t.name.startsWith(`${cluster}-workers`))
        t.versions.push({
          number: t.versions.length + 1,
          imageId,
          kubernetesVersion: "1.33",
          createdAt: w.account.clock.nowMs(),
        });
  };
  const running = (w: ReturnType<typeof fleetWorld>, cluster: string) =>
    new Set(
      [...w.account.world(cluster).ec2.instances.values()]
        .filter((i) => i.state === "running" && i.asg === `${cluster}-workers`)
        .map((i) => i.imageId),
    );

  it("staging and prod roll to the version running dev's image, not the newer one", async () => {
    const w = fleetWorld();
    await applyFleet(w.fleet, w.members, w.deps);
    for (const c of ["staging-a", "prod-a", "prod-b"]) publish(w, c, "ami-00000000000000003");
    for (let h = 0; h < 60; h++) {
      await w.account.advance(HOUR);
      await applyFleet(w.fleet, w.members, w.deps);
    }
    expect((await recordOf(w.account, "prod-b")).state).toBe("succeeded");
    for (const c of ALL) expect([c, [...running(w, c)]]).toEqual([c, [IMAGES[1]]]);
    const { plan } = await readFleet(w.fleet, w.members, w.deps);
    expect(plan.images).toEqual([IMAGES[1]]);
  }, 120_000);

  it("a cluster whose template has no version of the tested image fails, naming it", async () => {
    const w = fleetWorld({}, {});
    await applyFleet(w.fleet, w.members, w.deps);
    // staging-a's template is rebuilt from another pipeline: no version runs dev's image.
    for (const t of w.account.world("staging-a").ec2.templates.values())
      if (t.name.startsWith("staging-a-workers"))
        for (const v of t.versions) v.imageId = "ami-0000000000000bad0";
    for (let h = 0; h < 30; h++) {
      await w.account.advance(HOUR);
      await applyFleet(w.fleet, w.members, w.deps);
    }
    const r = await recordOf(w.account, "staging-a");
    expect(r.state).toBe("failed");
    expect(r.message).toMatch(
      /^staging-a-workers: no version of its launch template runs the fleet's pinned AMI \(ami-00000000000000002, what the first stage rolled\)/,
    );
    expect(w.starts.map((s) => s.cluster)).not.toContain("prod-a");
  }, 120_000);
});

describe("the fleet's clock", () => {
  // A live session's clock follows the API server's only from its first answer; before it, the
  // runner's own (here a year ahead). The soak is judged on the cluster's time, read after.
  it("judges a soak by the cluster's time, asked once the cluster has answered", async () => {
    const w = fleetWorld();
    await applyFleet(w.fleet, w.members, w.deps);
    const skewed: typeof w.deps = {
      ...w.deps,
      connect: async (m) => {
        const session = await w.deps.connect(m);
        let answered = false;
        const { cluster, clock } = session.ports;
        const ports = {
          ...session.ports,
          cluster: new Proxy(cluster, {
            get: (t, k) =>
              k === "getLease"
                ? (...a: Parameters<typeof cluster.getLease>) =>
                    t.getLease(...a).finally(() => (answered = true))
                : Reflect.get(t, k, t),
          }),
          clock: {
            ...clock,
            now: () => (answered ? clock.now() : new Date(clock.now().getTime() + 365 * 24 * HOUR)),
          },
        };
        return { ...session, ports };
      },
    };
    const { plan } = await readFleet(w.fleet, w.members, skewed);
    expect(plan.stages[0]?.state.kind).toBe("soaking");
    expect(plan.due).toEqual([]);
  }, 60_000);
});
