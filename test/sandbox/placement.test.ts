// The scheduler reads nodes through a placement index (flat arrays beside the node list) for
// speed; it must place every pod exactly where scanning the node records would. These tests
// build and roll the same worlds both ways and compare everything that depends on placement.
// The PDB index of the Kubernetes simulator is checked here too: a pod joins the same budgets,
// in the same order, as matching it against every PDB of its namespace.
import { afterEach, describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { EventLog } from "../../src/ports/index.js";
import { matchesSelector } from "../../src/plan/selector.js";
import { generateScenario } from "../../src/sandbox/scenarios/generate.js";
import { Scheduler } from "../../src/sandbox/sim/kube/scheduler.js";
import { World } from "../../src/sandbox/world/world.js";
import { policyFor } from "../roll/scenarios.js";
import { plainScenario } from "./helpers.js";

afterEach(() => {
  Scheduler.indexed = true;
});

/**
 * The same world built and read twice, one after the other: first with the records scanned one
 * by one (the reference), then through the index.
 */
async function both<T>(make: () => World, read: (w: World) => T | Promise<T>): Promise<[T, T]> {
  Scheduler.indexed = false;
  const reference = await read(make());
  Scheduler.indexed = true;
  return [reference, await read(make())];
}

const placement = (w: World) =>
  [...w.kube.pods.values()].map((p) => `${p.namespace}/${p.name} ${p.nodeName ?? "-"}`).sort();

describe("placement index", () => {
  it.each([
    [240, 20],
    [40, 30],
  ])(
    "places a generated cluster's pods exactly as the record scan does (%i nodes, %i pods each)",
    async (nodes, podsPerNode) => {
      const make = () => new World(generateScenario({ nodes, groups: 4, podsPerNode }));
      const [reference, indexed] = await both(make, placement);
      expect(indexed).toHaveLength(nodes * podsPerNode);
      expect(indexed).toEqual(reference);
    },
  );

  it("gives the same roll (events, times, placements) as the record scan", async () => {
    const make = () =>
      new World(
        generateScenario({ nodes: 60, groups: 1, podsPerNode: 12, seed: 4, kind: "self-managed" }),
      );
    const policy = policyFor(
      "defaults: { maxSurge: 6, maxUnavailable: 1 }\ngroups: [{ name: asg-001, target: { launchTemplateVersion: $Latest } }]\n",
      "generated",
    );
    const [reference, indexed] = await both(make, async (w) => {
      const log = new EventLog(w.clock, false);
      const r = await w.run(planAndApply(policy, "p.yaml", w, log, { runId: "t" }), 24 * 3600_000);
      // The lock holder's nonce is random by design (src/roll/lease.ts); nothing else is.
      const timeline = w.timeline.events.map(({ holder: _, ...e }) => e);
      return { result: r.result, timeline, placement: placement(w) };
    });
    expect(indexed.result).toBe("success");
    expect(indexed.timeline.length).toBeGreaterThan(300);
    expect(indexed).toEqual(reference);
  });

  it("agrees with the record scan on taints, tolerations, selectors, cordons and full nodes", async () => {
    const small = { cpu: "1m", memory: "1Mi" };
    const make = () =>
      World.from(
        plainScenario(
          [
            {
              kind: "Deployment",
              name: "a",
              replicas: 30,
              requests: { cpu: "300m", memory: "1Gi" },
            },
            {
              kind: "Deployment",
              name: "b",
              replicas: 12,
              requests: { cpu: "100m", memory: "64Mi" },
              tolerations: [{ key: "old", operator: "Exists" }],
            },
            {
              kind: "Deployment",
              name: "c",
              replicas: 8,
              requests: small,
              nodeSelector: { "topology.kubernetes.io/zone": "eu-west-1b" },
            },
            { kind: "StatefulSet", name: "e", replicas: 6, requests: small, volumes: "zonal" },
            {
              kind: "Deployment",
              name: "f",
              replicas: 6,
              requests: small,
              nodeAffinity: [
                {
                  matchExpressions: [
                    {
                      key: "topology.kubernetes.io/zone",
                      operator: "NotIn",
                      values: ["eu-west-1a"],
                    },
                  ],
                },
              ],
            },
            // Fills the nodes up to their 40 pods: the pod count is what stops the scan.
            { kind: "Deployment", name: "d", replicas: 173, requests: small },
          ],
          6,
        ),
      );
    const [reference, indexed] = await both(make, async (w) => {
      const names = w.kube.nodeList().map((n) => n.name);
      // PreferNoSchedule on two nodes, one cordoned: the scan must weigh and skip them.
      w.kube.patchNode(names[0]!, { taints: [{ key: "old", effect: "PreferNoSchedule" }] });
      w.kube.patchNode(names[3]!, { taints: [{ key: "old", effect: "PreferNoSchedule" }] });
      w.kube.patchNode(names[2]!, { unschedulable: true });
      // The cordoned node emptied: the least loaded, but only for pods that tolerate a cordon.
      for (const p of [...w.kube.nodes.get(names[2]!)!.pods]) w.kube.deletePod(p, 0);
      for (const name of ["a", "b", "c", "d", "e", "f"])
        for (const p of [...w.workload(name).pods].filter((_, i) => i % 3 === 0))
          w.kube.deletePod(p, 0);
      await w.advance(120_000);
      return placement(w);
    });
    // 235 pods, 200 places left beside the cordon: the nodes are full, some pods wait.
    expect(indexed.filter((l) => l.endsWith(" -"))).toHaveLength(35);
    expect(indexed).toEqual(reference);
  });
});

describe("placement index: the spread's count of a workload's pods per node", () => {
  it("counts a terminating pod on its node until it is gone, as the record scan does", async () => {
    // Slow to stop (preStop 40 s): the replacements are placed while the pods they replace are
    // still on their nodes, which the spread must count; once gone, they count no more.
    const make = () =>
      World.from(
        plainScenario(
          [
            { kind: "Deployment", name: "a", replicas: 18, preStop: 40 },
            { kind: "Deployment", name: "b", replicas: 10, preStop: 40 },
          ],
          6,
        ),
      );
    const [reference, indexed] = await both(make, async (w) => {
      const seen: { terminatingBound: number; placed: string[] }[] = [];
      for (const round of [0, 1, 2]) {
        for (const name of ["a", "b"])
          for (const p of [...w.workload(name).pods].filter((_, i) => i % 3 === round))
            w.kube.deletePod(p, 60);
        await w.advance(10_000);
        const terminatingBound = [...w.kube.pods.values()].filter(
          (p) => p.deletionAt !== undefined && p.nodeName !== undefined,
        ).length;
        seen.push({ terminatingBound, placed: placement(w) });
      }
      await w.advance(120_000);
      seen.push({ terminatingBound: 0, placed: placement(w) });
      return seen;
    });
    expect(indexed.slice(0, 3).every((s) => s.terminatingBound > 0)).toBe(true);
    expect(indexed[3]!.placed.filter((l) => l.endsWith(" -"))).toHaveLength(0);
    expect(indexed).toEqual(reference);
  });
});

describe("PDB index", () => {
  it("gives each pod the budgets that select it, in the order they were added", () => {
    const w = World.from(
      plainScenario(
        [
          {
            kind: "StatefulSet",
            name: "db",
            replicas: 3,
            requests: { cpu: "100m", memory: "64Mi" },
          },
          {
            kind: "Deployment",
            name: "web",
            replicas: 4,
            labels: { app: "web", tier: "front" },
            requests: { cpu: "100m", memory: "64Mi" },
            pdb: { maxUnavailable: 1 },
          },
        ],
        3,
        {
          pdbs: [
            {
              name: "db-1-only",
              namespace: "default",
              selector: { matchLabels: { "statefulset.kubernetes.io/pod-name": "db-1" } },
              maxUnavailable: 0,
            },
            {
              name: "front",
              namespace: "default",
              selector: { matchExpressions: [{ key: "tier", operator: "In", values: ["front"] }] },
              maxUnavailable: 1,
            },
            {
              name: "not-db-0",
              namespace: "default",
              selector: {
                matchLabels: { app: "db" },
                matchExpressions: [
                  {
                    key: "statefulset.kubernetes.io/pod-name",
                    operator: "NotIn",
                    values: ["db-0"],
                  },
                ],
              },
              maxUnavailable: 1,
            },
            { name: "elsewhere", namespace: "other", selector: {}, maxUnavailable: 1 },
          ],
        },
      ),
    );
    const pdbs = w.kube.pdbs.get("default")!;
    for (const p of w.kube.pods.values()) {
      const expected = pdbs.filter((b) => matchesSelector(b.selector, p.labels)).map((b) => b.name);
      expect(p.pdbs.map((b) => b.name)).toEqual(expected);
    }
    const of = (name: string) => w.pod(name)!.pdbs.map((b) => b.name);
    expect(of("db-0")).toEqual([]);
    expect(of("db-1")).toEqual(["db-1-only", "not-db-0"]);
    expect(of("db-2")).toEqual(["not-db-0"]);
    expect(of([...w.workload("web").pods][0]!.name)).toEqual(["web", "front"]);
  });
});
