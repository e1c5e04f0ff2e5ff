// The owners behind the pods a plan reads: each read once per run (the engine re-plans each
// group just before rolling it, through one Planner), a gone owner (404, or missing from the
// list) standing for nothing, and any other failure failing the read instead of passing for
// "no owner" — whether owners are read one by one or listed a kind at a time.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Planner } from "../../src/engine/index.js";
import { loadPolicy, type Policy } from "../../src/policy/index.js";
import { OwnerCache, type ReadPath } from "../../src/plan/index.js";

import { KubeApiError, type Cluster } from "../../src/ports/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { whole } from "./fixtures.js";

function load(): { policy: Policy; world: World } {
  const r = loadPolicy(readFileSync("policies/mixed.yaml", "utf8"), "policies/mixed.yaml");
  if (!r.ok) throw new Error("policies/mixed.yaml invalid");
  const text = readFileSync("policies/sandbox/mixed.yaml", "utf8");
  return { policy: r.policy, world: World.fromYaml(text, "mixed.yaml") };
}

/**
 * The world's Cluster, its owner reads (GETs by owner, lists by kind) recorded and, when `fail`
 * says so, failed: a GET with the error; a list without the owner when the error is a 404 (it
 * is gone), with the error otherwise.
 */
function recording(world: World, fail?: (kind: string, name: string) => Error | undefined) {
  const reads: string[] = [];
  const getWorkload: Cluster["getWorkload"] = (kind, ns, name) => {
    reads.push(`${kind}/${ns}/${name}`);
    const e = fail?.(kind, name);
    return e ? Promise.reject(e) : world.cluster.getWorkload(kind, ns, name);
  };
  const listWorkloads: Cluster["listWorkloads"] = async (kind, ns, opts) => {
    reads.push(`list ${kind}${opts?.continue ? " (more)" : ""}`);
    const list = await world.cluster.listWorkloads(kind, ns, opts);
    const items = list.items.filter((w) => {
      const e = fail?.(kind, w.metadata.name);
      if (e && !(e instanceof KubeApiError && e.status === 404)) throw e;
      return !e;
    });
    return { ...list, items };
  };
  const cluster = new Proxy(world.cluster as Cluster, {
    get: (target, key) => {
      if (key === "getWorkload") return getWorkload;
      if (key === "listWorkloads") return listWorkloads;
      const v: unknown = Reflect.get(target, key, target);
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { reads, ports: { cloud: world.cloud, cluster, clock: world.clock } };
}

describe.each(["by-node", "cluster-wide"] as const)(
  "owners read by a run's plans (%s)",
  (path: ReadPath) => {
    it("a later group's re-plan reads no owner an earlier plan of the run has read", async () => {
      const { policy, world } = load();
      const { reads, ports } = recording(world);
      const planner = new Planner(policy, "policies/mixed.yaml", {}, path);
      const first = await world.run(planner.observe(ports, ["system"]));
      const firstReads = reads.length;
      expect(firstReads).toBeGreaterThan(0);
      expect(new Set(reads).size).toBe(reads.length);
      const again = await world.run(planner.observe(ports, ["system"]));
      expect(reads.length).toBe(firstReads);
      expect(again.snapshot.workloads).toEqual(first.snapshot.workloads);

      const other = await world.run(planner.observe(ports));
      // A later plan lists a kind again for the owners it has not seen: GETs are never repeated.
      const gets = reads.filter((r) => !r.startsWith("list "));
      expect(new Set(gets).size, "an owner read twice in one run").toBe(gets.length);
      // What the cache gave is what a fresh read gives.
      const fresh = recording(world);
      const alone = await world.run(
        new Planner(policy, "policies/mixed.yaml", {}, path).observe(fresh.ports),
      );
      expect(other.snapshot.workloads).toEqual(alone.snapshot.workloads);
      expect(other.snapshot.pods.all().map((p) => p.workload)).toEqual(
        alone.snapshot.pods.all().map((p) => p.workload),
      );
      if (path === "by-node") expect(reads.length - firstReads).toBeLessThan(fresh.reads.length);
      else expect(reads.length - firstReads).toBeLessThanOrEqual(fresh.reads.length);
    });

    it("a run that plans once keeps no owner, and reads the same owners and workloads", async () => {
      const { policy, world } = load();
      const kept = recording(world);
      const run = new Planner(policy, "policies/mixed.yaml", {}, path);
      const first = await world.run(run.observe(kept.ports));
      const once = recording(world);
      const alone = new Planner(policy, "policies/mixed.yaml", {}, path, false);
      const planned = await world.run(alone.observe(once.ports));
      expect(once.reads).toEqual(kept.reads);
      expect(whole(planned.snapshot)).toEqual(whole(first.snapshot));
      expect(planned.plan).toEqual(first.plan);
      // Asked again, it reads every owner again: nothing was kept.
      await world.run(alone.observe(once.ports));
      expect(once.reads).toEqual([...kept.reads, ...kept.reads]);
    });

    it("an owner that is gone (404) leaves its pods without a workload; the plan goes on", async () => {
      const { policy, world } = load();
      const { ports } = recording(world, (kind) =>
        kind === "ReplicaSet" ? new KubeApiError(404, "NotFound", "not found") : undefined,
      );
      const { snapshot } = await world.run(new Planner(policy, "p.yaml", {}, path).observe(ports));
      expect(snapshot.pods.all().length).toBeGreaterThan(0);
      expect(snapshot.pods.all().some((p) => p.owner?.kind === "ReplicaSet")).toBe(true);
      for (const p of snapshot.pods.all())
        if (p.owner?.kind === "ReplicaSet") expect(p.workload).toBeUndefined();
    });

    it("a Deployment that is gone leaves its ReplicaSets' pods standing for the ReplicaSet", async () => {
      const { policy, world } = load();
      const { ports } = recording(world, (kind) =>
        kind === "Deployment" ? new KubeApiError(404, "NotFound", "not found") : undefined,
      );
      const { snapshot } = await world.run(new Planner(policy, "p.yaml", {}, path).observe(ports));
      const owned = snapshot.pods.all().filter((p) => p.owner?.kind === "ReplicaSet");
      expect(owned.length).toBeGreaterThan(0);
      for (const p of owned)
        expect(p.workload).toBe(`ReplicaSet/${p.namespace}/${p.owner?.name ?? ""}`);
      const ids = new Set(owned.map((p) => p.workload));
      expect(snapshot.workloads.filter((w) => ids.has(w.id)).length).toBe(ids.size);
    });

    it("any other failure to read an owner fails the read instead of passing for no owner", async () => {
      const { policy, world } = load();
      const { ports } = recording(world, (kind) =>
        kind === "ReplicaSet"
          ? new KubeApiError(403, "Forbidden", "replicasets.apps is forbidden")
          : undefined,
      );
      await expect(
        world.run(new Planner(policy, "p.yaml", {}, path).observe(ports)),
      ).rejects.toMatchObject({
        status: 403,
      });
    });
  },
);

describe("the run's cache of owners", () => {
  it("gives an owner's facts only for its kind, namespace and name, whatever else shares its UID", () => {
    const cache = new OwnerCache();
    const rs = { replicas: 3, deployment: { name: "web", uid: "u1" } };
    cache.set("ReplicaSet", "shop", "web-5d8f", "u1", rs);
    // The sandbox gives a Deployment's ReplicaSet the Deployment's UID; a hostile API could
    // give any two owners one UID. Neither may read as the other.
    cache.set("Deployment", "shop", "web", "u1", { replicas: 3 });
    expect(cache.get("ReplicaSet", "shop", "web-5d8f", "u1")).toBe(rs);
    expect(cache.get("Deployment", "shop", "web", "u1")).toEqual({ replicas: 3 });
    expect(cache.get("ReplicaSet", "shop", "web-6a7b", "u1")).toBeUndefined();
    expect(cache.get("ReplicaSet", "other", "web-5d8f", "u1")).toBeUndefined();
    expect(cache.get("StatefulSet", "shop", "web-5d8f", "u1")).toBeUndefined();
    // A later owner of the same kind and UID replaces the first: a miss, never a wrong answer.
    cache.set("ReplicaSet", "other", "db-1", "u1", { replicas: 1 });
    expect(cache.get("ReplicaSet", "shop", "web-5d8f", "u1")).toBeUndefined();
  });

  it("keeps nothing for a run that plans once", () => {
    const cache = new OwnerCache(false);
    cache.set("ReplicaSet", "shop", "web-5d8f", "u1", { replicas: 3 });
    expect(cache.get("ReplicaSet", "shop", "web-5d8f", "u1")).toBeUndefined();
  });
});
