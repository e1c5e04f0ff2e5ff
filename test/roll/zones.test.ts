// Issue 44, defect 7, whole rolls in virtual time: StatefulSet pods tied to one zone (a
// nodeSelector on the zone label, or zonal volumes' node affinity), and that zone has no
// capacity during the roll. Before, apply drained the zone's only node, reported success, and
// the pods stayed Pending. Now the plan warns, and apply does not report success while pods it
// moved cannot be scheduled: it waits for them (the group's validation timeout), then fails
// naming them, their zone and the scheduler's reason. A node for them in time, the roll succeeds;
// a pod Pending for reasons of its own before the roll does not fail it.
import { describe, expect, it } from "vitest";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { ofType, policyFor, roll, selfManagedWorld, ZONES } from "./scenarios.js";

const [A] = ZONES as [string];
const ZONE = "topology.kubernetes.io/zone";
type Extra = Parameters<typeof selfManagedWorld>[1];

const pinned = {
  kind: "StatefulSet" as const,
  name: "db",
  replicas: 2,
  nodeSelector: { [ZONE]: A },
};
const outage = (forS: string) => ({ launchFailures: [{ zone: A, from: 0, for: forS }] });
const world = (extra: Extra) => selfManagedWorld([{ name: "workers", nodes: 3 }], extra);
const policy = policyFor("groups: [{ name: workers }]\n");

const podsOf = (w: World, name: string) =>
  [...w.workload(name).pods].map((p) => ({
    name: p.name,
    zone: p.nodeName ? w.kube.nodes.get(p.nodeName)?.zone : undefined,
  }));

describe("pods bound to a zone with no capacity during the roll", () => {
  it("a nodeSelector on the zone: the plan warns; apply fails naming the pods, their zone and why", async () => {
    const w = world({ workloads: [pinned], faults: outage("10h") });
    const r = await roll(w, policy);
    const warning = r.plan.groups[0]!.findings.find((f) => f.code === "zone-pinned-pods");
    expect(warning).toMatchObject({
      severity: "warning",
      objects: ["default/db-0", "default/db-1"],
    });
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(
      /^PodsUnschedulable: 2 pods the roll of workers moved could not be scheduled within 15 min/,
    );
    for (const pod of ["db-0", "db-1"])
      expect(r.result.message).toContain(
        `default/${pod} (zone ${A} by nodeSelector ${ZONE}=${A}; 0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.)`,
      );
    const notes = ofType(r.events, "note").map((e) => e.message);
    expect(notes).toContain(
      "workers: 2 pods moved by the roll cannot be scheduled yet (default/db-0, default/db-1); waiting up to 15 min",
    );
    expect(ofType(r.events, "group.end")).toMatchObject([{ group: "workers", result: "failure" }]);
    expect(podsOf(w, "db")).toEqual([
      { name: "db-0", zone: undefined },
      { name: "db-1", zone: undefined },
    ]);
    expect(r.invariants.violations).toEqual([]);
  });

  it("zonal volumes: the pod whose volume is in the zone is named, with the volume and the scheduler's reason", async () => {
    const volumes = {
      kind: "StatefulSet" as const,
      name: "db",
      replicas: 3,
      volumes: "zonal" as const,
    };
    const w = world({ workloads: [volumes], faults: outage("10h") });
    const inA = podsOf(w, "db").find((p) => p.zone === A)!.name;
    const r = await roll(w, policy);
    expect(
      r.plan.groups[0]!.findings.find((f) => f.code === "zone-pinned-pods")?.objects,
    ).toHaveLength(3);
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(
      new RegExp(
        `^PodsUnschedulable: 1 pod the roll of workers moved could not be scheduled within 15 min: default/${inA} \\(zone ${A} by volume pvc-\\S+ of claim data-${inA}; 0/3 nodes are available: 3 node\\(s\\) had volume node affinity conflict\\.\\)`,
      ),
    );
    // The others went back to their volumes' zones.
    expect(
      podsOf(w, "db")
        .filter((p) => p.zone === undefined)
        .map((p) => p.name),
    ).toEqual([inA]);
  });

  it("a node that can take them joins their zone within the wait: they go there, and the roll succeeds", async () => {
    // The zone is out of the workers' instance type; an operator scales another group there
    // once apply says it waits (not the workers' own AZ rebalancing, which a roll may suspend).
    const w = selfManagedWorld(
      [
        { name: "workers", nodes: 3 },
        { name: "spare", nodes: 0, zones: 1 },
      ],
      {
        workloads: [pinned],
        faults: { launchFailures: [{ zone: A, group: "workers", from: 0, for: "10h" }] },
      },
    );
    let added = false;
    const r = await roll(w, policy, {}, undefined, (e) => {
      if (added || e.type !== "note" || !e.message.includes("cannot be scheduled yet")) return;
      added = true;
      w.autoScaling.setCapacity(w.autoScaling.group("spare"), { max: 1, desired: 1 }, "operator");
    });
    expect(added).toBe(true);
    expect(r.result.result).toBe("success");
    expect(podsOf(w, "db")).toEqual([
      { name: "db-0", zone: A },
      { name: "db-1", zone: A },
    ]);
  });

  it("with capacity, the roll succeeds and the pods stay in their zone", async () => {
    const w = world({ workloads: [pinned] });
    const r = await roll(w, policy);
    expect(r.result.result).toBe("success");
    expect(podsOf(w, "db").map((p) => p.zone)).toEqual([A, A]);
    expect(ofType(r.events, "note").some((e) => e.message.includes("cannot be scheduled"))).toBe(
      false,
    );
  });

  it("a pod Pending for reasons of its own before the roll does not fail it", async () => {
    const nowhere = {
      kind: "Deployment" as const,
      name: "nowhere",
      replicas: 1,
      nodeSelector: { pool: "none" },
    };
    const w = world({ workloads: [nowhere, { kind: "Deployment", name: "web", replicas: 3 }] });
    const r = await roll(w, policy);
    expect(r.result.result).toBe("success");
    expect(podsOf(w, "nowhere")).toEqual([{ name: expect.any(String), zone: undefined }]);
  });

  it("an EKS managed node group (MINIMAL, no surge): EKS reports success, apply does not while the pods it drained are stranded", async () => {
    const w = World.from(
      managedScenario({
        zones: 3,
        nodes: 3,
        workloads: [pinned],
        group: { updateConfig: { maxUnavailable: 1, updateStrategy: "MINIMAL" } },
        extra: { faults: outage("10h") as never },
      }),
    );
    const r = await roll(
      w,
      policyFor("groups: [{ name: ng, target: { kubernetesVersion: '1.33' } }]\n", "test"),
    );
    expect(r.plan.groups[0]!.findings.find((f) => f.code === "zone-pinned-pods")?.severity).toBe(
      "warning",
    );
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(
      /^PodsUnschedulable: 2 pods the roll of ng moved could not be scheduled/,
    );
    expect(w.timeline.of("eks.update").at(-1)).toMatchObject({ status: "Successful" });
  });
});
