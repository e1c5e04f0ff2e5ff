// Adversarial review of issue 44, defect 2 (someone else's EKS update reported as ours).
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { EventLog } from "../../src/ports/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { ofType, policyFor } from "../roll/scenarios.js";

const policy = () =>
  policyFor(`groups: [{ name: ng, target: { kubernetesVersion: "1.33" } }]\n`, "test");

/** The world's ports, with someone clicking "Update" in the console (to 1.32.5) just before
 * noderoll's own UpdateNodegroupVersion reaches EKS. */
function racedPorts(world: World) {
  let raced = false;
  const eks = new Proxy(world.cloud.eks, {
    get(t, key) {
      const v = Reflect.get(t, key, t) as unknown;
      if (key === "updateNodegroupVersion")
        return async (input: Parameters<typeof t.updateNodegroupVersion>[0]) => {
          if (!raced) {
            raced = true;
            world.eks.updateNodegroupVersion({
              clusterName: "test",
              nodegroupName: "ng",
              releaseVersion: "1.32.5-20250715",
            });
          }
          return t.updateNodegroupVersion(input);
        };
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
  return { cloud: { ...world.cloud, eks }, cluster: world.cluster, clock: world.clock };
}

describe("a foreign update that starts as noderoll starts its own", () => {
  // EKS refuses noderoll's UpdateNodegroupVersion (ResourceInUseException: an update is in
  // progress). startVersionUpdate (src/kinds/managed/roll.ts) then takes *any* VersionUpdate in
  // progress for its own ("got no clear answer; following EKS update …"), without the
  // takesToTarget check theUpdate makes: someone else's update to 1.32.5 is followed, reported as
  // the roll's (eks.update events), recorded on the Lease as noderoll's in-flight work, and the
  // run then fails "EKS update X ... ended Successful, but the node group is at ... Run apply
  // again". Issue 44: "apply waits for it, then rolls to the policy's target, or fails naming
  // the foreign update" — and the foreign update is never reported as the roll's own.
  it("is waited out, not followed as the roll's own; the group ends at the policy's target", async () => {
    const world = World.from(managedScenario({ zones: 2, nodes: 4 }));
    const log = new EventLog(world.clock);
    const result = await world.run(
      planAndApply(policy(), "p.yaml", racedPorts(world), log, { runId: "ours" }),
      12 * 3600_000,
    );
    const updates = [...world.eks.updates.values()].map((u) => u.update);
    const foreign = updates.find((u) =>
      u.params.some((p) => p.type === "ReleaseVersion" && p.value === "1.32.5-20250715"),
    );
    const ng = world.eks.nodegroups.get("ng");
    expect({
      result: result.result,
      message: result.message,
      reportedAsOurs: ofType(log.events, "eks.update").some((e) => e.updateId === foreign?.id),
      at: [ng?.version, ng?.releaseVersion],
    }).toEqual({
      result: "success",
      message: expect.anything(),
      reportedAsOurs: false,
      at: ["1.33", "1.33.1-20250715"],
    });
  });
});

describe("someone else's updateConfig change in progress (a ConfigUpdate)", () => {
  /** ng with someone's ConfigUpdate under way that takes 20 minutes. */
  function world(): World {
    const w = World.from(
      managedScenario({ zones: 2, nodes: 4, extra: { timings: { configUpdate: "20m" } } as never }),
    );
    w.eks.updateNodegroupConfig("ng", { updateConfig: { maxUnavailable: 2 } });
    return w;
  }

  // docs/command-line.md: `--max-duration`: "start no node after this long ... the next run continues"; the
  // foreign VersionUpdate path (waitOut) honours the run's stop. The ConfigUpdate path in
  // theUpdate (src/kinds/managed/roll.ts) waits with awaitSuccess, which never asks
  // job.stopReason(), and then starts UpdateNodegroupVersion 15 minutes past the deadline
  // (likewise past the window's end).
  it("--max-duration reached while waiting for it: no version update is started after it", async () => {
    const w = world();
    const log = new EventLog(w.clock);
    const start = w.clock.nowMs();
    const result = await w.run(
      planAndApply(policy(), "p.yaml", w, log, { runId: "ours", maxDurationMs: 5 * 60_000 }),
      12 * 3600_000,
    );
    const late = [...w.eks.updates.values()]
      .map((u) => u.update)
      .filter((u) => u.type === "VersionUpdate" && u.createdAt.getTime() > start + 5 * 60_000)
      .map((u) => u.createdAt.toISOString());
    expect({ result: result.result, late }).toEqual({
      result: expect.not.stringMatching(/^success$/),
      late: [],
    });
  });

  // Issue 44, defect 2's title: "Someone else's EKS update reported as ours". The foreign
  // ConfigUpdate's end is reported as an eks.update event of the roll (the check run and the PR
  // comment show it as the roll's), where a foreign VersionUpdate's is a note.
  it("is not reported as the roll's own eks.update", async () => {
    const w = world();
    const foreign = [...w.eks.updates.values()][0]!.update.id;
    const log = new EventLog(w.clock);
    await w.run(planAndApply(policy(), "p.yaml", w, log, { runId: "ours" }), 12 * 3600_000);
    expect(ofType(log.events, "eks.update").map((e) => e.updateId)).not.toContain(foreign);
  });
});
