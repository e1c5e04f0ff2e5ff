// Issue 44, defect 3: a cancelled run released the Lease at once while the EKS update it had
// started went on replacing the system group's nodes; a second apply (`--groups workers`, an
// emergency dispatch) took the Lease and drained worker nodes meanwhile, and the cancelled run's
// last words did not mention the update. The update is recorded on the Lease while it runs: the
// next holder waits for it (or follows it, for its own group), and the stopped run says it goes
// on and how to follow it.
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { loadPolicy } from "../../src/policy/index.js";
import { EventLog, type RollEvent } from "../../src/ports/index.js";
import { inFlightOf } from "../../src/roll/in-flight.js";
import { World } from "../../src/sandbox/world/world.js";
import { readFileSync } from "node:fs";
import { Invariants } from "./invariants.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { ofType } from "./scenarios.js";

const demoPolicy = () => {
  const r = loadPolicy(readFileSync("policies/demo.yaml", "utf8"), "policies/demo.yaml");
  if (!r.ok) throw new Error("demo policy invalid");
  return r.policy;
};

/** Apply the demo, cancelled once EKS's update of system is in its upgrade phase. */
async function cancelledInUpgrade(world: World) {
  const stop = new AbortController();
  const log = new EventLog(world.clock);
  log.on((e: RollEvent) => {
    if (e.type === "phase.start" && e.group === "system" && e.phase === "upgrade") {
      stop.abort();
      world.clock.notify();
    }
  });
  const result = await world.run(
    planAndApply(demoPolicy(), "demo.yaml", world, log, {
      runId: "cancelled",
      signal: stop.signal,
    }),
  );
  return { result, events: log.events };
}

const lease = (world: World) => [...world.kube.leases.values()][0]!;

describe("an EKS update a cancelled run started", () => {
  it("is named in the run's last words, and stays on the Lease it gives back", async () => {
    const world = World.demo();
    const { result, events } = await cancelledInUpgrade(world);
    const id = ofType(events, "eks.update").find((e) => e.updateType === "VersionUpdate")?.updateId;
    expect(result.result).toBe("cancelled");
    expect(result.message).toContain(
      `EKS update ${id} of system goes on: EKS does not stop it when noderoll stops. Follow it with \`aws eks describe-update --name demo --nodegroup-name system --update-id ${id} --region eu-west-1\`; the next run waits for it before rolling anything else.`,
    );
    const l = lease(world);
    expect(l.spec.holderIdentity).toBeUndefined();
    expect(
      inFlightOf({ metadata: { name: l.name, annotations: l.annotations }, spec: l.spec }),
    ).toEqual([{ kind: "managed", group: "system", id }]);
    expect(world.eks.describeUpdate(id as string).update.status).toBe("InProgress");
  });

  it("keeps the next run (--groups workers) from draining anything until it is over", async () => {
    const world = World.demo();
    const { events } = await cancelledInUpgrade(world);
    const id = ofType(events, "eks.update").find((e) => e.updateType === "VersionUpdate")
      ?.updateId as string;
    const policy = demoPolicy();
    const { plan } = await world.run(
      observeAndPlan(policy, "demo.yaml", world, { groups: ["workers"] }),
    );
    const log = new EventLog(world.clock);
    const invariants = new Invariants(world, plan, { order: ["workers"] });
    log.on(invariants.check);
    let updateOverAt: number | undefined;
    let firstCordonAt: number | undefined;
    log.on((e) => {
      if (updateOverAt === undefined && world.eks.describeUpdate(id).update.status !== "InProgress")
        updateOverAt = Date.parse(e.t);
      if (e.type === "node.cordon" && firstCordonAt === undefined) firstCordonAt = Date.parse(e.t);
    });
    const next = await world.run(
      planAndApply(policy, "demo.yaml", world, log, { runId: "emergency", groups: ["workers"] }),
    );
    expect(next.result).toBe("success");
    expect(invariants.violations).toEqual([]);
    expect(ofType(log.events, "note").map((n) => n.message)).toContainEqual(
      expect.stringMatching(
        new RegExp(`^waiting before workers: EKS update ${id} of system goes on`),
      ),
    );
    expect(updateOverAt).toBeDefined();
    expect(firstCordonAt).toBeGreaterThanOrEqual(updateOverAt as number);
    // Over: off the record.
    const l = lease(world);
    expect(l.annotations["noderoll.io/in-flight"]).toBeUndefined();
  });

  it("is followed by the next run that rolls its group, and taken off the record once over", async () => {
    const world = World.demo();
    const { events } = await cancelledInUpgrade(world);
    const id = ofType(events, "eks.update").find((e) => e.updateType === "VersionUpdate")?.updateId;
    const log = new EventLog(world.clock);
    const next = await world.run(
      planAndApply(demoPolicy(), "demo.yaml", world, log, { runId: "next" }),
    );
    expect(next.result).toBe("success");
    expect(ofType(log.events, "note").map((n) => n.message)).toContainEqual(
      expect.stringContaining(`following EKS update ${id} (VersionUpdate) already in progress`),
    );
    expect(world.eks.updates.size).toBe(1); // followed, not started again
    expect(lease(world).annotations["noderoll.io/in-flight"]).toBeUndefined();
  });
});
