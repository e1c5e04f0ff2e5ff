// A PodDisruptionBudget that never opens: its pods were scheduled long ago and never became
// Ready, so it allows no disruption. The plan says so before anything runs; the rehearsal shows
// what that does to the roll — EKS's drain held by the budget until its 15 minutes run out,
// and the PodEvictionFailure the update then ends with.
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { readLiveCluster } from "../../src/rehearsal/live.js";
import { rehearse } from "../../src/app/rehearse.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { policyFor } from "../roll/scenarios.js";

const YEAR_S = 365 * 86_400;

describe("a rehearsal with a PodDisruptionBudget that never opens", () => {
  it("the plan shows the closed PDB; the rehearsal the stall and the PodEvictionFailure", async () => {
    const live = World.from(
      managedScenario({
        zones: 2,
        nodes: 4,
        workloads: [
          // Never Ready (a readiness probe that never passes): the budget stays at 0 healthy.
          {
            kind: "Deployment",
            name: "stuck",
            replicas: 2,
            ready: YEAR_S,
            pdb: { minAvailable: 1 },
          },
          { kind: "Deployment", name: "web", replicas: 2, pdb: { minAvailable: 1 } },
        ],
      }),
    );
    // A new version of `stuck` rolled out: its new pods never pass their readiness probe. An
    // hour on, they have had all the time they could need to become Ready.
    for (const p of [...live.kube.workloads.get("Deployment/default/stuck")!.pods])
      live.kube.deletePod(p, 0);
    await live.advance(3600_000);
    const policy = policyFor(
      `groups: [{ name: ng, target: { kubernetesVersion: "1.33" } }]\n`,
      "test",
    );
    const { plan, snapshot } = await live.run(observeAndPlan(policy, "p.yaml", live));
    const closed = plan.groups[0]!.findings.find((f) => f.code === "pdb-closed-now");
    expect(closed?.message).toMatch(
      /PodDisruptionBudget default\/stuck allows no disruption right now \(0 healthy, 1 required\)/,
    );

    const state = await live.run(readLiveCluster(live));
    const { rehearsal: r } = await rehearse({
      policy,
      file: "p.yaml",
      snapshot,
      live: state,
      options: {},
    });
    expect(r.result).toBe("failure");
    expect(r.message).toMatch(/^PodEvictionFailure: /);
    expect(r.message).toMatch(/PodDisruptionBudget stuck allows no disruption/);
    const stalls = r.stalls.filter((s) => s.kind === "pdb");
    expect(stalls.length).toBeGreaterThan(0);
    expect(stalls.every((s) => s.by === "stuck" && /^default\/stuck-/.test(s.object))).toBe(true);
    // EKS gives a drain 15 minutes before it gives up.
    expect(Math.max(...stalls.map((s) => s.forMs))).toBeGreaterThanOrEqual(14 * 60_000);
    const stuck = r.workloads.find((w) => w.name === "stuck")!;
    expect(stuck).toMatchObject({ desired: 2, minReady: 0 });
    expect(r.timings.values).toBeDefined();
  });
});
