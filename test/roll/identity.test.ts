// Issue 44, defect 1: the Kubernetes API a run reads must be the EKS cluster the policy names, and
// every group the policy names must be that cluster's, before anything is planned or changed. A
// kubeconfig for another cluster made every instance of the policy's groups look like one with
// no node — free to terminate undrained: all three of `small`'s web nodes went at once.
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { EventLog, type Cluster } from "../../src/ports/index.js";
import type { World } from "../../src/sandbox/world/world.js";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

const web = {
  workloads: [{ kind: "Deployment" as const, name: "web", replicas: 3, pdb: { minAvailable: 2 } }],
};

/** Cluster `small` (one group, 3 instances, web behind a PDB) and another, `big`, in the region. */
function twoClusters(): { small: World; big: World } {
  const small = selfManagedWorld([{ name: "small-workers", nodes: 3 }], {
    metadata: { name: "small" },
    cluster: { name: "small", version: "1.33" },
    ...web,
  } as never);
  const big = selfManagedWorld([{ name: "big-workers", nodes: 5 }], {
    metadata: { name: "big" },
    cluster: { name: "big", version: "1.33" },
    seed: 12,
  } as never);
  return { small, big };
}

const smallPolicy = () =>
  policyFor(
    "groups: [{ name: small-workers, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }]\n",
    "small",
  );

/** `small`'s AWS with `big`'s Kubernetes API: a kubeconfig for the wrong cluster. */
const crossed = (small: World, cluster: Cluster) => ({
  cloud: small.cloud,
  cluster,
  clock: small.clock,
});

/** The same API, but an implementation that cannot say where it is. */
function withoutEndpoint(c: Cluster): Cluster {
  return new Proxy(c, {
    get(t, key) {
      if (key === "endpoint") return undefined;
      const v = Reflect.get(t, key, t) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
}

describe("the Kubernetes API is the policy's cluster's", () => {
  it("plan refuses an API that is another cluster's, naming both, and reads no further", async () => {
    const { small, big } = twoClusters();
    const plan = small.run(observeAndPlan(smallPolicy(), "p.yaml", crossed(small, big.cluster)));
    await expect(plan).rejects.toThrow(
      /^The Kubernetes API at https:\/\/big\.eu-west-1\.eks\.sandbox\.invalid is not EKS cluster small's \(DescribeCluster small: endpoint https:\/\/small\.eu-west-1\.eks\.sandbox\.invalid\).*; 0 of the 3 instances of the policy's groups are nodes there\. Nothing was planned or changed\. Use a kubeconfig for small \(aws eks update-kubeconfig --name small --region eu-west-1\)/,
    );
    expect(small.calls.get("core.listPods") ?? 0).toBe(0);
    expect(big.calls.get("core.listPods") ?? 0).toBe(0);
  });

  it("apply refuses it before its first write: no Lease, no instance of small touched", async () => {
    const { small, big } = twoClusters();
    const log = new EventLog(small.clock);
    const result = await small.run(
      planAndApply(smallPolicy(), "p.yaml", crossed(small, big.cluster), log, { runId: "wrong" }),
    );
    expect(result).toMatchObject({
      result: "failure",
      message: expect.stringMatching(/^ClusterMismatch: The Kubernetes API at https:\/\/big\./),
    });
    expect(ofType(log.events, "lock.acquire")).toHaveLength(0);
    expect(big.calls.get("coordination.createLease") ?? 0).toBe(0);
    expect(small.calls.get("autoscaling.terminateInstanceInAutoScalingGroup") ?? 0).toBe(0);
    expect(small.instances("small-workers").map((i) => i.lifecycle)).toEqual([
      "InService",
      "InService",
      "InService",
    ]);
    expect(small.downtimeSeconds("web")).toBe(0);
  });

  it("an API that cannot say where it is: the instances decide, and none of small's is a node there", async () => {
    const { small, big } = twoClusters();
    const log = new EventLog(small.clock);
    const result = await small.run(
      planAndApply(smallPolicy(), "p.yaml", crossed(small, withoutEndpoint(big.cluster)), log, {
        runId: "wrong",
      }),
    );
    expect(result.message).toMatch(
      /^ClusterMismatch: The Kubernetes API this run reads is not EKS cluster small's .*; 0 of the 3 instances of the policy's groups are nodes there/,
    );
    expect(small.calls.get("autoscaling.terminateInstanceInAutoScalingGroup") ?? 0).toBe(0);
  });

  it("the right API without an endpoint to compare is proven by its nodes, and rolls", async () => {
    const { small } = twoClusters();
    const { plan } = await small.run(
      observeAndPlan(smallPolicy(), "p.yaml", crossed(small, withoutEndpoint(small.cluster))),
    );
    expect(plan.cluster.verified).toEqual({ by: "nodes", found: 3, judged: 3 });
    const proven = await small.run(observeAndPlan(smallPolicy(), "p.yaml", small));
    expect(proven.plan.cluster.verified).toEqual({
      by: "endpoint",
      server: "https://small.eu-west-1.eks.sandbox.invalid",
    });
  });
});

describe("every group the policy names is the cluster's", () => {
  it("a group tagged for another cluster, or untagged with no node here, is an error; apply leaves it alone", async () => {
    const w = selfManagedWorld([
      { name: "theirs", nodes: 2 },
      { name: "untagged", nodes: 2 },
      { name: "ours", nodes: 2 },
    ]);
    // Retag as the scenario would: `theirs` names cluster other; `untagged` has no cluster tag
    // and its nodes are gone from this cluster.
    const asg = (n: string) => w.autoScaling.group(n);
    asg("theirs").tags = [{ Key: "kubernetes.io/cluster/other", Value: "owned" }];
    asg("untagged").tags = [];
    for (const n of w.nodes("untagged")) w.kube.deleteNode(n.name);
    const policy = policyFor("groups: [{ name: theirs }, { name: untagged }, { name: ours }]\n");
    const { plan } = await w.run(observeAndPlan(policy, "p.yaml", w));
    const byName = Object.fromEntries(plan.groups.map((g) => [g.name, g]));
    expect(byName.theirs).toMatchObject({
      status: "error",
      errors: [
        expect.stringMatching(
          /^Auto Scaling group theirs belongs to cluster other \(its tags say so\), not to engine/,
        ),
      ],
    });
    expect(byName.untagged).toMatchObject({
      status: "error",
      errors: [
        expect.stringMatching(
          /does not say it belongs to cluster engine, and none of its instances is a node of it.*kubernetes\.io\/cluster\/engine=owned/,
        ),
      ],
    });
    expect(byName.ours?.status).toBe("roll");
    const { result } = await roll(w, policy, { groups: ["theirs"] });
    expect(result.result).toBe("failure");
    expect(w.calls.get("autoscaling.terminateInstanceInAutoScalingGroup") ?? 0).toBe(0);
    expect(w.calls.get("autoscaling.detachInstances") ?? 0).toBe(0);
  });

  it("an untagged group whose instances are nodes of the cluster is the cluster's", async () => {
    const w = selfManagedWorld([{ name: "untagged", nodes: 2 }]);
    w.autoScaling.group("untagged").tags = [];
    const { plan } = await w.run(
      observeAndPlan(policyFor("groups: [{ name: untagged }]\n"), "p.yaml", w),
    );
    expect(plan.groups[0]).toMatchObject({ status: "roll", errors: [] });
  });
});

describe("an instance with no node", () => {
  it("is replaced without a drain, but counted as serving: never more than maxUnavailable out at once", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 4 }]);
    const old = new Set(w.instances("w").map((i) => i.id));
    // Three of the four lose their nodes (never joined, say); one still has its node, so the
    // group is the cluster's (a group none of whose instances is a node is not: identity.ts).
    const gone = w.nodes("w").slice(0, 3);
    const noNode = new Set(gone.map((n) => n.instanceId));
    for (const n of gone) w.kube.deleteNode(n.name);
    const policy = policyFor(
      "groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }]\n",
    );
    let worst = 0;
    const { result, plan, invariants, events } = await roll(w, policy, {}, undefined, () => {
      const out = [...noNode].filter((id) => w.ec2.instances.get(id)?.lifecycle !== "InService");
      const back = w
        .nodes("w")
        .filter((n) => !n.deleted && n.ready && !old.has(n.instanceId)).length;
      worst = Math.max(worst, out.length - back);
    });
    expect(plan.groups[0]?.replacements.map((r) => r.down)).toEqual([
      "no-node",
      "no-node",
      "no-node",
      undefined,
    ]);
    expect(plan.groups[0]?.findings).toContainEqual(
      expect.objectContaining({ code: "no-node", severity: "warning" }),
    );
    expect(result.result).toBe("success");
    expect(invariants.violations).toEqual([]);
    expect(worst).toBe(1);
    // Only the one node there was is drained.
    expect(ofType(events, "node.drain.start")).toHaveLength(1);
  });

  it("all of a group's instances with no node: not the cluster's to roll, whatever its tag says", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 3 }]);
    for (const n of w.nodes("w")) w.kube.deleteNode(n.name);
    const { plan } = await w.run(observeAndPlan(policyFor("groups: [{ name: w }]\n"), "p.yaml", w));
    expect(plan.groups[0]).toMatchObject({
      status: "error",
      errors: [
        expect.stringMatching(
          /^Auto Scaling group w's tags say it is cluster engine's \(engine\), but none of its 3 instances is a node of engine: none ever joined it, or they are another cluster's nodes/,
        ),
      ],
    });
  });

  it("whose node vanished after the plan, the instance still running: refused, not terminated; the next run replaces it", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 3 }]);
    const policy = policyFor(
      "groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }]\n",
    );
    let victim: { node: string; instance: string } | undefined;
    const { result, events } = await roll(w, policy, {}, undefined, (e) => {
      if (e.type !== "instance.terminate" || victim) return;
      const n = w
        .nodes("w")
        .find((x) => !x.deleted && x.instanceId !== e.instance && !x.unschedulable);
      if (!n) return;
      victim = { node: n.name, instance: n.instanceId };
      w.kube.deleteNode(n.name);
    });
    expect(victim).toBeDefined();
    expect(result).toMatchObject({
      result: "failure",
      message: expect.stringMatching(
        new RegExp(
          `^StalePlan: w: node ${victim!.node} of instance ${victim!.instance} is gone from the cluster since the plan`,
        ),
      ),
    });
    expect(ofType(events, "instance.terminate").map((e) => e.instance)).not.toContain(
      victim!.instance,
    );
    expect(w.ec2.instances.get(victim!.instance)?.lifecycle).toBe("InService");
    const next = await roll(w, policy, { runId: "next" });
    expect(
      next.plan.groups[0]?.replacements.find((r) => r.instance === victim!.instance)?.down,
    ).toBe("no-node");
    expect(next.result.result).toBe("success");
    expect(next.invariants.violations).toEqual([]);
  });

  it("with maxUnavailable 0 and nothing to surge with, blocks the group, saying why", async () => {
    // One instance up to date, with its node; the two to replace have none: no surge can make
    // room (only an instance with a node is detached), and the budget allows nothing out.
    const w = selfManagedWorld([{ name: "w", nodes: 3, upToDate: 1 }]);
    const outdated = new Set(
      w
        .instances("w")
        .filter((i) => i.ltVersion === 1)
        .map((i) => i.id),
    );
    for (const n of w.nodes("w")) if (outdated.has(n.instanceId)) w.kube.deleteNode(n.name);
    const { plan } = await w.run(
      observeAndPlan(
        policyFor("groups: [{ name: w, rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }]\n"),
        "p.yaml",
        w,
      ),
    );
    expect(plan.groups[0]).toMatchObject({ status: "blocked" });
    expect(plan.groups[0]?.findings).toContainEqual(
      expect.objectContaining({
        code: "no-node",
        severity: "blocker",
        message: expect.stringMatching(/maxUnavailable is 0 and no surge can make room/),
      }),
    );
  });
});
