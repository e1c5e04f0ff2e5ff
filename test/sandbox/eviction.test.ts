// The eviction subresource answers as the real API server does (pkg/registry/core/pod/storage/
// eviction.go), and PDB status is computed as the disruption controller does.
import { describe, expect, it } from "vitest";
import {
  decideEviction,
  MULTIPLE_PDBS,
  VIOLATES_PDB,
} from "../../src/sandbox/sim/kube/disruption.js";
import type { PodRec } from "../../src/sandbox/model/records.js";
import { World } from "../../src/sandbox/world/world.js";
import { plainScenario } from "./helpers.js";

const podsOf = (world: World, name: string) =>
  [...world.workload(name).pods].sort((a, b) => (a.name < b.name ? -1 : 1));
const evict = (world: World, p: PodRec) => world.cluster.evictPod(p.namespace, p.name);

describe("eviction", () => {
  it("201 for a pod no budget selects, and the pod starts terminating", async () => {
    const world = World.from(plainScenario([{ kind: "Deployment", name: "free", replicas: 1 }]));
    const [pod] = podsOf(world, "free");
    expect(await evict(world, pod as PodRec)).toEqual({ status: 201 });
    const got = await world.cluster.getPod("default", (pod as PodRec).name);
    expect(got.metadata.deletionTimestamp).toBeDefined();
  });

  it("201 while the budget allows, then 429 with the API server's message and Retry-After 10 once it is used up", async () => {
    const world = World.from(
      plainScenario([{ kind: "Deployment", name: "web", replicas: 3, pdb: { minAvailable: 2 } }]),
    );
    const [a, b] = podsOf(world, "web");
    const pdb = (await world.cluster.listPodDisruptionBudgets("default")).items[0];
    expect(pdb?.status).toMatchObject({
      disruptionsAllowed: 1,
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 3,
    });
    expect(await evict(world, a as PodRec)).toEqual({ status: 201 });
    const second = await evict(world, b as PodRec);
    expect(second).toEqual({
      status: 429,
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      pdb: "web",
      causes: ["The disruption budget web needs 2 healthy pods and has 2 currently"],
      retryAfterSeconds: 10,
    });
    expect(VIOLATES_PDB).toBe(second.message);
    // Once the replacement is Ready, the budget allows one more.
    await world.advance(60_000);
    expect(await evict(world, b as PodRec)).toEqual({ status: 201 });
  });

  it("429 for every pod when the budget never allows a disruption (maxUnavailable 0)", async () => {
    const world = World.from(
      plainScenario([
        { kind: "Deployment", name: "stubborn", replicas: 2, pdb: { maxUnavailable: 0 } },
      ]),
    );
    for (const p of podsOf(world, "stubborn")) expect((await evict(world, p)).status).toBe(429);
    await world.advance(3600_000);
    for (const p of podsOf(world, "stubborn")) expect((await evict(world, p)).status).toBe(429);
  });

  it("500 when more than one budget selects the pod", async () => {
    const world = World.from(
      plainScenario(
        [{ kind: "Deployment", name: "web", replicas: 3, pdb: { minAvailable: 1 } }],
        3,
        {
          pdbs: [{ name: "web-too", selector: { matchLabels: { app: "web" } }, maxUnavailable: 1 }],
        },
      ),
    );
    const out = await evict(world, podsOf(world, "web")[0] as PodRec);
    expect(out).toEqual({
      status: 500,
      message:
        "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
    });
    expect(out.message).toBe(MULTIPLE_PDBS);
    expect(podsOf(world, "web").every((p) => p.deletionAt === undefined)).toBe(true);
  });

  it("404 for a pod that does not exist", async () => {
    const world = World.from(plainScenario([]));
    expect(await world.cluster.evictPod("default", "nope")).toEqual({
      status: 404,
      message: 'pods "nope" not found',
    });
  });

  it("201 for a Pending pod, even under a budget that allows nothing", async () => {
    const world = World.from(
      plainScenario([
        {
          kind: "Deployment",
          name: "nowhere",
          replicas: 1,
          nodeSelector: { missing: "label" },
          pdb: { maxUnavailable: 0 },
        },
      ]),
    );
    const [pod] = podsOf(world, "nowhere");
    expect(pod?.phase).toBe("Pending");
    expect(await evict(world, pod as PodRec)).toEqual({ status: 201 });
  });

  it("201 for a pod already terminating (no second use of the budget)", async () => {
    const world = World.from(
      plainScenario([
        { kind: "Deployment", name: "web", replicas: 3, preStop: "20s", pdb: { minAvailable: 2 } },
      ]),
    );
    const [a] = podsOf(world, "web");
    expect((await evict(world, a as PodRec)).status).toBe(201);
    expect((await evict(world, a as PodRec)).status).toBe(201);
    expect(world.pdb("default", "web")?.status.disruptionsAllowed).toBe(0);
  });

  it("201 for Succeeded and Failed pods whatever the budget says", () => {
    const world = World.from(
      plainScenario([
        { kind: "Deployment", name: "stubborn", replicas: 1, pdb: { maxUnavailable: 0 } },
      ]),
    );
    const [pod] = podsOf(world, "stubborn");
    for (const phase of ["Succeeded", "Failed"] as const) {
      const d = decideEviction(
        { ...(pod as PodRec), phase, ready: false },
        "x",
        world.clock.nowMs(),
      );
      expect(d.outcome).toEqual({ status: 201 });
    }
    expect(decideEviction(pod, "x", world.clock.nowMs()).outcome.status).toBe(429);
  });

  describe("a Running pod that is not Ready", () => {
    // Replacements take an hour to turn Ready, so they sit Running and not Ready.
    const slow = { ready: "1h", start: "5s" } as const;

    it("IfHealthyBudget: 201 without using the budget when the application is healthy anyway", async () => {
      const world = World.from(
        plainScenario([
          { kind: "Deployment", name: "web", replicas: 3, ...slow, pdb: { minAvailable: 1 } },
        ]),
      );
      const [a] = podsOf(world, "web");
      await evict(world, a as PodRec);
      await world.advance(30_000);
      const fresh = podsOf(world, "web").find((p) => p.phase === "Running" && !p.ready) as PodRec;
      expect(fresh).toBeDefined();
      const before = world.kube.pdbStatus(world.pdb("default", "web")!);
      expect(before).toMatchObject({ currentHealthy: 2, desiredHealthy: 1, disruptionsAllowed: 1 });
      expect(await evict(world, fresh)).toEqual({ status: 201 });
      expect(world.pdb("default", "web")?.disrupted.has(fresh.name)).toBe(false);
    });

    it("IfHealthyBudget: 429 when the application is already short of healthy pods", async () => {
      const world = World.from(
        plainScenario([
          { kind: "Deployment", name: "web", replicas: 3, ...slow, pdb: { minAvailable: 3 } },
        ]),
      );
      const [a] = podsOf(world, "web");
      await world.cluster.deletePod("default", (a as PodRec).name);
      await world.advance(30_000);
      const fresh = podsOf(world, "web").find((p) => p.phase === "Running" && !p.ready) as PodRec;
      expect(world.kube.pdbStatus(world.pdb("default", "web")!)).toMatchObject({
        currentHealthy: 2,
        desiredHealthy: 3,
        disruptionsAllowed: 0,
      });
      expect((await evict(world, fresh)).status).toBe(429);
    });

    it("AlwaysAllow: 201 even when the application is short of healthy pods", async () => {
      const world = World.from(
        plainScenario([
          {
            kind: "Deployment",
            name: "web",
            replicas: 3,
            ...slow,
            pdb: { minAvailable: 3, unhealthyPodEvictionPolicy: "AlwaysAllow" },
          },
        ]),
      );
      const [a, b] = podsOf(world, "web");
      await world.cluster.deletePod("default", (a as PodRec).name);
      await world.advance(30_000);
      const fresh = podsOf(world, "web").find((p) => p.phase === "Running" && !p.ready) as PodRec;
      expect((await evict(world, fresh)).status).toBe(201);
      // A Ready pod is still protected.
      expect((await evict(world, b as PodRec)).status).toBe(429);
    });
  });
});

describe("PodDisruptionBudget status, as the disruption controller computes it", () => {
  const status = (world: World, name: string) => world.kube.pdbStatus(world.pdb("default", name)!);

  it("percentages scale against the controllers' replicas, rounding up", () => {
    const world = World.from(
      plainScenario([
        { kind: "Deployment", name: "half", replicas: 4, pdb: { minAvailable: "50%" } },
        { kind: "Deployment", name: "quarter", replicas: 5, pdb: { maxUnavailable: "25%" } },
        { kind: "StatefulSet", name: "db", replicas: 3, pdb: { maxUnavailable: 1 } },
      ]),
    );
    expect(status(world, "half")).toEqual({
      expectedPods: 4,
      desiredHealthy: 2,
      currentHealthy: 4,
      disruptionsAllowed: 2,
    });
    // 25% of 5 rounds up to 2 unavailable: desired 3.
    expect(status(world, "quarter")).toEqual({
      expectedPods: 5,
      desiredHealthy: 3,
      currentHealthy: 5,
      disruptionsAllowed: 2,
    });
    expect(status(world, "db")).toEqual({
      expectedPods: 3,
      desiredHealthy: 2,
      currentHealthy: 3,
      disruptionsAllowed: 1,
    });
  });

  it("a bare pod under a maxUnavailable budget allows nothing (no controller to scale from)", async () => {
    const world = World.from(
      plainScenario([{ kind: "Pod", name: "lonely", pdb: { maxUnavailable: 1 } }]),
    );
    expect(status(world, "lonely").disruptionsAllowed).toBe(0);
    expect((await world.cluster.evictPod("default", "lonely")).status).toBe(429);
  });

  it("an integer minAvailable counts the pods that exist", () => {
    const world = World.from(
      plainScenario([{ kind: "Deployment", name: "web", replicas: 2, pdb: { minAvailable: 2 } }]),
    );
    expect(status(world, "web")).toEqual({
      expectedPods: 2,
      desiredHealthy: 2,
      currentHealthy: 2,
      disruptionsAllowed: 0,
    });
  });
});

describe("eviction, the rarer answers", () => {
  it("403 when more than 2,000 granted evictions are unconfirmed", async () => {
    const world = World.from(
      plainScenario([{ kind: "Deployment", name: "web", replicas: 3, pdb: { minAvailable: 1 } }]),
    );
    const pdb = world.pdb("default", "web")!;
    for (let i = 0; i <= 2000; i++) pdb.disrupted.set(`ghost-${i}`, world.clock.nowMs());
    const out = await world.cluster.evictPod("default", [...world.workload("web").pods][0]!.name);
    expect(out).toEqual({
      status: 403,
      message:
        'poddisruptionbudget.policy "web" is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller',
    });
  });
});
