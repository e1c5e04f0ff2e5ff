// A fleet rolled for real (issue 49), in-process: five sandbox clusters in one account on one
// virtual clock — each an EKS managed node group and a self-managed Auto Scaling group — in
// three stages with a 24 h soak. `fleet apply` runs every virtual hour; between runs the clock
// moves on. Each cluster's roll is the ordinary apply (invariants checked after every event);
// what the fleet knows lives only on the clusters (their fleet Leases), read afresh each run.
import { describe, expect, it } from "vitest";
import { apply, observeAndPlan } from "../../src/engine/index.js";
import { applyFleet, readFleet, type FleetDeps, type FleetMember } from "../../src/app/fleet.js";
import { fleetLeaseName } from "../../src/app/fleet-store.js";
import { loadFleet } from "../../src/fleet/load.js";
import type { FleetRecord } from "../../src/fleet/record.js";
import type { Fleet } from "../../src/fleet/schema.js";
import { EventLog } from "../../src/ports/index.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { Account } from "../../src/sandbox/world/account.js";
import { Invariants } from "../roll/invariants.js";
import { policyFor, ZONES } from "../roll/scenarios.js";

const NAMES = { dev: ["dev-a", "dev-b"], staging: ["staging-a"], prod: ["prod-a", "prod-b"] };
const HOUR = 3_600_000;

function cluster(name: string, seed: number): ScenarioInput {
  return {
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: { name },
    seed,
    cluster: { name, version: "1.33" },
    releases: { "1.33": ["1.33.1-20250715", "1.33.4-20250904"] },
    zones: ZONES.slice(0, 3),
    nodeGroups: [
      {
        name: `${name}-system`,
        type: "managed",
        version: "1.33",
        releaseVersion: "1.33.1-20250715",
        size: { min: 1, max: 6, desired: 2 },
        updateConfig: { maxUnavailable: 1 },
        capacity: { cpu: 4, memory: "16Gi", pods: 40 },
      },
      {
        name: `${name}-workers`,
        type: "self-managed",
        version: "1.33",
        size: { min: 0, max: 6, desired: 2 },
        capacity: { cpu: 4, memory: "16Gi", pods: 40 },
        launchTemplate: { versions: 2, use: "$Latest" },
        instances: [{ version: 1, count: 2 }],
      },
    ],
    workloads: [{ kind: "Deployment", name: "web", replicas: 3, pdb: { maxUnavailable: 1 } }],
  };
}

const FLEET = `apiVersion: noderoll.io/v1
kind: Fleet
metadata: { name: eks }
release: { kubernetesVersion: "1.33", releaseVersion: latest }
stages:
  - { name: dev, policies: [dev-*.yaml], maxConcurrency: 2, soak: 24h }
  - { name: staging, policies: [staging-*.yaml], soak: 24h }
  - { name: prod, policies: [prod-*.yaml], maxConcurrency: 1 }
`;

async function recordOf(account: Account, cluster: string): Promise<FleetRecord> {
  const lease = await account
    .ports(cluster)
    .cluster.getLease("kube-system", fleetLeaseName(cluster));
  return JSON.parse(lease.metadata.annotations!["noderoll.io/fleet"]!) as FleetRecord;
}

function setUp() {
  const all = Object.values(NAMES).flat();
  const account = Account.from(all.map((n, i) => cluster(n, i + 1)));
  const loaded = loadFleet(FLEET, "fleet.yaml");
  if (!loaded.ok) throw new Error("fleet");
  const members: FleetMember[] = Object.entries(NAMES).flatMap(([stage, names]) =>
    names.map((n) => ({
      stage,
      file: `${n}.yaml`,
      policy: policyFor(
        `groups:\n  - { name: ${n}-system }\n  - { name: ${n}-workers, target: { launchTemplateVersion: $Latest } }\n`,
        n,
      ),
    })),
  );
  const invariants = new Map<string, Invariants>();
  const starts: { cluster: string; at: number }[] = [];
  const deps: FleetDeps = {
    runId: "fleet-test",
    connect: async (m) => ({
      ports: account.ports(m.policy.cluster.name),
      drive: (t) => account.run(t),
    }),
    // The ordinary apply, held to the invariants after every event.
    roll: async (m, session, policy) => {
      const name = m.policy.cluster.name;
      starts.push({ cluster: name, at: account.clock.nowMs() });
      const { plan } = await observeAndPlan(policy, m.file, session.ports);
      const inv = new Invariants(account.world(name), plan, {
        deleteAfterDrainTimeout: false,
        order: plan.groups.map((g) => g.name),
      });
      invariants.set(name, inv);
      const log = new EventLog(account.clock);
      log.on(inv.check);
      const r = await apply(policy, plan, session.ports, log, { runId: `fleet-${name}` });
      return { result: r.result, message: r.message };
    },
  };
  return { account, fleet: loaded.fleet as Fleet, members, deps, starts, invariants };
}

describe("a sandbox fleet of 5 clusters in 3 stages with a 24 h soak", () => {
  it("rolls dev, waits out the soak, rolls staging, then prod one at a time, all on the pinned release", async () => {
    const { account, fleet, members, deps, starts, invariants } = setUp();
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
      await Promise.all(
        Object.values(NAMES)
          .flat()
          .map(async (c) => [c, await recordOf(account, c)] as const),
      ),
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
    const { account, fleet, members, deps } = setUp();
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
