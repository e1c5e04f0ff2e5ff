// How a plan reads the pods and owners of the nodes to replace: node by node (a field-selected
// pod list per node, an owner GET each) when those nodes are a small share of the cluster, in
// cluster-wide lists of pages when that takes fewer requests — counted here on generated
// clusters — and the same snapshot and plan whichever way is taken.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildPlan, Planner } from "../../src/engine/index.js";
import { readPath, type ReadPath } from "../../src/plan/index.js";
import { loadPolicy } from "../../src/policy/index.js";
import { generatePolicyYaml, generateScenario } from "../../src/sandbox/scenarios/generate.js";
import { World } from "../../src/sandbox/world/world.js";
import { ROOT } from "../helpers/cli.js";
import { snapshot, whole } from "./fixtures.js";

const OPTS = { nodes: 240, groups: 24, podsPerNode: 30, seed: 3 };

function generated() {
  const r = loadPolicy(generatePolicyYaml(OPTS), "generated.yaml");
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
  return { policy: r.policy, world: new World(generateScenario(OPTS)) };
}

/** Plan with a fresh Planner, and the Kubernetes requests it made, by call. */
async function planned(
  world: World,
  policy: ReturnType<typeof generated>["policy"],
  path?: ReadPath,
  groups?: string[],
) {
  const before = new Map(world.calls);
  const out = await world.run(
    new Planner(policy, "generated.yaml", groups ? { groups } : {}, path).observe(world),
  );
  const made = new Map<string, number>();
  for (const [call, n] of world.calls)
    if (!/^(ec2|eks|autoscaling|ssm)\./.test(call) && n > (before.get(call) ?? 0))
      made.set(call, n - (before.get(call) ?? 0));
  const total = [...made.values()].reduce((a, b) => a + b, 0);
  return { ...out, made, total };
}

describe("reading the pods and owners of the nodes to replace", () => {
  it("a cluster-wide plan of a generated cluster takes a few requests per hundred nodes", async () => {
    const { policy, world } = generated();
    const { plan, made, total } = await planned(world, policy);
    expect(plan.summary.nodesToReplace).toBe(OPTS.nodes);
    // 7,200 pods in pages of 500, three owner kinds, the budgets, the nodes' pages;
    // node by node it was one pod list per node and an owner GET per ReplicaSet or StatefulSet.
    expect(made.get("apps.getWorkload") ?? 0).toBe(0);
    expect(made.get("core.listPods")).toBe(Math.ceil((OPTS.nodes * OPTS.podsPerNode) / 500));
    // The budgets alike: the cluster's in pages, not a list per namespace of those pods.
    expect(made.get("policy.listPodDisruptionBudgets")).toBe(1);
    expect(total / OPTS.nodes).toBeLessThan(0.2);
  });

  it("a plan of a small share of the cluster lists pods node by node and GETs owners", async () => {
    const { policy, world } = generated();
    const group = policy.groups[0]!.name;
    const { plan, made } = await planned(world, policy, undefined, [group]);
    const nodes = plan.summary.nodesToReplace;
    expect(nodes).toBe(OPTS.nodes / OPTS.groups);
    expect(made.get("core.listPods")).toBe(nodes);
    expect(made.get("apps.getWorkload")).toBeGreaterThan(0);
    expect(made.get("apps.listWorkloads") ?? 0).toBe(0);
  });

  it("the same snapshot and plan either way", async () => {
    const { policy, world } = generated();
    const byNode = await planned(world, policy, "by-node");
    const wide = await planned(world, policy, "cluster-wide");
    expect(byNode.made.get("core.listPods")).toBe(OPTS.nodes);
    expect(wide.made.get("core.listPods")).toBeLessThan(OPTS.nodes / 10);
    expect(wide.snapshot.workloads.length).toBeGreaterThan(0);
    expect(whole(wide.snapshot)).toEqual(whole(byNode.snapshot));
    expect(JSON.stringify(wide.plan)).toBe(JSON.stringify(byNode.plan));
  });

  it("the same budgets either way when the nodes to replace hold only some namespaces' pods", async () => {
    // The cluster-wide path lists every budget and keeps those of the namespaces whose pods it
    // read, in the per-namespace path's order. No pod of kube-system's or ingress's (each with a
    // budget) is on the demo's workers.
    const r = loadPolicy(readFileSync(`${ROOT}policies/demo.yaml`, "utf8"), "demo.yaml");
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
    const world = World.demo();
    const byNode = await planned(world, r.policy, "by-node", ["workers"]);
    const wide = await planned(world, r.policy, "cluster-wide", ["workers"]);
    const all = [...world.kube.pdbs.keys()].sort();
    const read = [...new Set(byNode.snapshot.pdbs.map((b) => b.namespace))].sort();
    expect(all).toEqual(expect.arrayContaining(["default", "ingress", "kube-system"]));
    expect(read).toEqual(["default"]);
    expect(wide.snapshot.pdbs.length).toBeGreaterThan(1);
    expect(wide.snapshot.pdbs).toEqual(byNode.snapshot.pdbs);
    expect(JSON.stringify(wide.plan)).toBe(JSON.stringify(byNode.plan));
  });

  it("the same plan from what the read found about each pod as from the snapshot's budgets and workloads", async () => {
    // A read's pods carry the budgets that select them and their workload's replicas (asked
    // once per labels object and per owner); pods made otherwise are looked up in the snapshot.
    const { policy, world } = generated();
    const { snapshot: read, plan } = await planned(world, policy, "cluster-wide");
    const pods = read.pods.all();
    expect(pods.filter((p) => (p.budgets?.length ?? 0) > 0).length).toBeGreaterThan(100);
    expect(pods.filter((p) => p.replicas === 1).length).toBeGreaterThan(0);
    expect(pods.every((p) => p.budgets !== undefined)).toBe(true);
    const bare = (list: typeof pods) =>
      list.map(({ budgets: _b, replicas: _r, ...p }) => p as (typeof pods)[number]);
    const looked = {
      ...read,
      pods: { on: (n: string) => bare(read.pods.on(n)), all: () => bare(read.pods.all()) },
    };
    expect(looked.pods.all().some((p) => "budgets" in p || "replicas" in p)).toBe(false);
    const again = buildPlan(policy, "generated.yaml", looked);
    expect(again).toEqual(plan);
    const codes = new Set(plan.groups.flatMap((g) => g.findings.map((f) => f.code)));
    expect(codes).toContain("single-replica");
  });

  it("chooses by the requests each way takes: one per node, or one per 500 pods the nodes hold", () => {
    const s = (nodes: number, capacity?: number) =>
      snapshot([], {
        clusterNodeCount: nodes,
        ...(capacity !== undefined && { clusterPodCapacity: capacity }),
      });
    // 1,000 nodes of 110 pods: 220 pages.
    expect(readPath(220, s(1000, 110_000))).toBe("by-node");
    expect(readPath(221, s(1000, 110_000))).toBe("cluster-wide");
    // Nodes of 20 pods: 40 pages.
    expect(readPath(41, s(1000, 20_000))).toBe("cluster-wide");
    // A capacity the nodes do not say: the kubelet's default of 110 each.
    expect(readPath(221, s(1000))).toBe("cluster-wide");
    expect(readPath(1, s(1, 110))).toBe("by-node");
  });
});
