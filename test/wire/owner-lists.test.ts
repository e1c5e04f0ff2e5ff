// Listing the owners of pods (ReplicaSets, Deployments, StatefulSets, DaemonSets) through the
// product's Kubernetes adapter against `sandbox serve`: the list routes of the wire face, page
// by page with limit and continue, cluster-wide and in one namespace; and the plan a large read
// takes that way (cluster-wide lists of pods and owners) equal to the one node-by-node GETs give.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubernetesCluster } from "../../src/adapters/kubernetes/cluster.js";
import { KubeHttp } from "../../src/adapters/kubernetes/http.js";
import { Planner } from "../../src/engine/index.js";
import { loadPolicy } from "../../src/policy/index.js";
import type { Cluster, Workload } from "../../src/ports/index.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { World } from "../../src/sandbox/world/world.js";
import { whole } from "../plan/fixtures.js";

let world: World;
let server: SandboxServer;
let cluster: Cluster;
const dir = mkdtempSync(join(tmpdir(), "noderoll-owner-lists-"));

beforeAll(async () => {
  world = World.demo();
  const kubeconfig = join(dir, "kubeconfig");
  server = await serveSandbox(world, { speed: 0, instant: false, kubeconfigPath: kubeconfig });
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfig);
  cluster = kubernetesCluster(new KubeHttp({ kubeConfig, retry: { sleep: async () => {} } }));
});
afterAll(() => server?.close());

/** Every item of a kind's list, two to a page, and how many pages it took. */
async function paged(kind: Workload["kind"], namespace?: string) {
  const items: Workload[] = [];
  let pages = 0;
  let cont: string | undefined;
  do {
    const page = await cluster.listWorkloads(kind, namespace, {
      limit: 2,
      ...(cont && { continue: cont }),
    });
    expect(page.items.length).toBeLessThanOrEqual(2);
    items.push(...page.items);
    pages++;
    cont = page.metadata.continue;
  } while (cont);
  return { items, pages };
}

const id = (w: Workload) => `${w.metadata.namespace}/${w.metadata.name}`;

describe("owner lists through the wire face", () => {
  it("lists each kind page by page, in namespace/name order, as GET serves each", async () => {
    for (const kind of ["ReplicaSet", "Deployment", "StatefulSet", "DaemonSet"] as const) {
      const want = [...world.kube.workloads.values()]
        .filter((w) => (kind === "ReplicaSet" ? w.replicaSet : w.kind === kind))
        .map((w) => `${w.namespace}/${kind === "ReplicaSet" ? w.replicaSet : w.name}`)
        .sort();
      expect(want.length, kind).toBeGreaterThan(0);
      const { items, pages } = await paged(kind);
      expect(items.map(id), kind).toEqual(want);
      expect(pages, kind).toBe(Math.ceil(want.length / 2));
      for (const w of items) {
        const one = await cluster.getWorkload(kind, w.metadata.namespace!, w.metadata.name);
        expect(w.kind).toBe(kind);
        expect(w.spec).toEqual(one.spec);
        expect(w.metadata).toEqual(one.metadata);
      }
    }
    const rs = (await paged("ReplicaSet")).items[0]!;
    expect(rs.metadata.ownerReferences?.[0]).toMatchObject({
      kind: "Deployment",
      controller: true,
    });
  });

  it("lists one namespace's owners only", async () => {
    const all = (await paged("Deployment")).items;
    const ns = all[0]!.metadata.namespace!;
    const { items } = await paged("Deployment", ns);
    expect(items.map(id)).toEqual(all.filter((w) => w.metadata.namespace === ns).map(id));
    expect(items.length).toBeLessThan(all.length);
  });

  it("plans the same from cluster-wide lists as from node-by-node reads", async () => {
    const r = loadPolicy(readFileSync("policies/demo.yaml", "utf8"), "policies/demo.yaml");
    if (!r.ok) throw new Error("policies/demo.yaml invalid");
    const ports = { cloud: world.cloud, cluster, clock: world.clock };
    const plan = async (path: "by-node" | "cluster-wide") => {
      const before = new Map(world.calls);
      const out = await new Planner(r.policy, "policies/demo.yaml", {}, path).observe(ports);
      const made = (call: string) => (world.calls.get(call) ?? 0) - (before.get(call) ?? 0);
      return { ...out, gets: made("apps.getWorkload"), lists: made("apps.listWorkloads") };
    };
    const byNode = await plan("by-node");
    const wide = await plan("cluster-wide");
    expect([byNode.gets > 0, byNode.lists]).toEqual([true, 0]);
    expect([wide.gets, wide.lists > 0]).toEqual([0, true]);
    expect(wide.snapshot.pods.all().length).toBeGreaterThan(0);
    expect(wide.snapshot.workloads.length).toBeGreaterThan(0);
    expect(whole(wide.snapshot)).toEqual(whole(byNode.snapshot));
    expect(JSON.stringify(wide.plan)).toBe(JSON.stringify(byNode.plan));
  });
});
