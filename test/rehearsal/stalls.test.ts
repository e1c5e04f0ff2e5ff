// What only a rehearsal can tell a reviewer: a workload with two replicas and a PDB keeping one
// never reaches zero; a group too small to absorb its own drain leaves pods Pending; the peak of
// extra nodes the roll adds.
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { readLiveCluster } from "../../src/rehearsal/live.js";
import { rehearse } from "../../src/app/rehearse.js";
import type { World } from "../../src/sandbox/world/world.js";
import { policyFor, selfManagedWorld } from "../roll/scenarios.js";
import type { Policy } from "../../src/policy/index.js";

async function rehearsed(world: World, policy: Policy) {
  const { snapshot } = await world.run(observeAndPlan(policy, "p.yaml", world));
  const live = await world.run(readLiveCluster(world));
  return (await rehearse({ policy, file: "p.yaml", snapshot, live, options: {} })).rehearsal;
}

describe("stalls and availability in a rehearsal", () => {
  it("two replicas with a PDB minAvailable 1 never reach zero", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }], {
      workloads: [{ kind: "Deployment", name: "api", replicas: 2, pdb: { minAvailable: 1 } }],
    } as never);
    const r = await rehearsed(world, policyFor("groups: [{ name: w }]\n"));
    expect(r.result).toBe("success");
    const api = r.workloads.find((w) => w.name === "api")!;
    expect(api).toMatchObject({ desired: 2, msAtZero: 0, msBelowPdb: 0 });
    expect(api.minReady).toBeGreaterThanOrEqual(1);
  });

  it("a group that cannot absorb its own drain shows its pods Pending", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 3 }], {
      workloads: [
        { kind: "Deployment", name: "big", replicas: 6, requests: { cpu: 3, memory: "1Gi" } },
      ],
    } as never);
    const r = await rehearsed(
      world,
      policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }]\n"),
    );
    const pending = r.stalls.filter((s) => s.kind === "pending");
    expect(pending.map((s) => s.object)).toContain("Deployment/default/big");
    expect(pending[0]!.forMs).toBeGreaterThanOrEqual(30_000);
    expect(r.peakExtraNodes).toBeGreaterThanOrEqual(0);
  });
});
