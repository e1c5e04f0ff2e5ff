// Pods bound to a zone (issue 44, defect 7): a nodeSelector or required node affinity on the
// zone label, or a claim bound to a zonal volume. The plan warns where every node of the zone
// that could take them is one the roll replaces (drained, they wait for a new node there, and
// for good if the zone cannot launch one), blocks where the group launches no node in that zone,
// and says nothing where another node of the zone can take them.
import { describe, expect, it } from "vitest";
import { buildPlan, observeAndPlan } from "../../src/engine/index.js";
import { KubeApiError } from "../../src/ports/index.js";
import { policyFor, selfManagedWorld } from "../roll/scenarios.js";
import type {
  ClaimInfo,
  Finding,
  LiveGroup,
  NodeInfo,
  PodInfo,
  PodPlacement,
} from "../../src/plan/index.js";
import { instances, managed, nodesFor, pod, policy, selfManaged, snapshot } from "./fixtures.js";

const A = "eu-west-1a";
const B = "eu-west-1b";
const ZONE = "topology.kubernetes.io/zone";
// Two nodes, one per zone, both to replace.
const g = selfManaged("workers", instances("n", 2, [A, B], 1), { latest: 2 });
const gNodes = nodesFor(g);
const onA = gNodes[0]!.name;
const db = (name: string, placement: PodPlacement, extra: Partial<PodInfo> = {}) =>
  pod(name, onA, {
    owner: { kind: "StatefulSet", name: "db" },
    workload: "StatefulSet/default/db",
    placement,
    ...extra,
  });
const pinned = (name = "db-0") => db(name, { nodeSelector: { [ZONE]: A } });

/** A node outside the policy's groups, in `zone`. */
const other = (zone: string, extra: Partial<NodeInfo> = {}): NodeInfo => ({
  name: `other-${zone}`,
  zone,
  labels: { [ZONE]: zone },
  annotations: {},
  taints: [],
  unschedulable: false,
  ready: true,
  createdAt: new Date(0),
  ...extra,
});

function findings(
  pods: PodInfo[],
  opts: {
    nodes?: NodeInfo[];
    claims?: ClaimInfo[];
    deleteAfterDrainTimeout?: boolean;
    group?: LiveGroup;
    body?: string;
  } = {},
): Finding[] {
  const group = opts.group ?? g;
  const s = snapshot([group], {
    pods,
    nodes: [...nodesFor(group), ...(opts.nodes ?? [])],
    ...(opts.claims && { claims: opts.claims }),
  });
  const body = opts.body ?? `groups: [{ name: ${group.name} }]\n`;
  const options = opts.deleteAfterDrainTimeout ? { deleteAfterDrainTimeout: true } : {};
  return buildPlan(policy(body), "p.yaml", s, options).groups[0]!.findings.filter(
    (f) => f.code === "zone-pinned-pods",
  );
}

describe("pods bound to a zone the roll empties", () => {
  it("warns, naming the pods, the zone and why, when the zone's only nodes are replaced", () => {
    const [f, ...rest] = findings([pinned("db-0"), pinned("db-1")]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ severity: "warning", objects: ["default/db-0", "default/db-1"] });
    expect(f!.message).toContain(
      `default/db-0 (${A}: nodeSelector ${ZONE}=${A}), default/db-1 (${A}: nodeSelector ${ZONE}=${A})`,
    );
    expect(f!.message).toContain("Pending until a new node of workers is Ready in their zone");
    expect(f!.message).toContain("stay Pending if the zone cannot launch one");
  });

  it("says nothing where another node of the zone can take them", () => {
    expect(findings([pinned()], { nodes: [other(A)] })).toEqual([]);
    // The legacy label binds alike.
    const legacy = db("db-0", { nodeSelector: { "failure-domain.beta.kubernetes.io/zone": A } });
    const legacyNode = other(A, { labels: { "failure-domain.beta.kubernetes.io/zone": A } });
    expect(findings([legacy], { nodes: [legacyNode] })).toEqual([]);
    expect(findings([legacy])).toHaveLength(1);
  });

  it("does not count a node of the zone that could not take them", () => {
    for (const [why, node] of [
      ["cordoned", other(A, { unschedulable: true })],
      ["not Ready", other(A, { ready: false })],
      ["tainted", other(A, { taints: [{ key: "gpu", effect: "NoSchedule" }] })],
      ["another pool", other(A, { labels: { [ZONE]: A, pool: "b" } })],
      ["another zone", other(B)],
    ] as const) {
      const p = db("db-0", {
        nodeSelector: { [ZONE]: A, ...(why === "another pool" && { pool: "a" }) },
      });
      expect(findings([p], { nodes: [node] }), why).toHaveLength(1);
    }
    // Tolerated, the tainted node can take them.
    const tolerant = pinned();
    tolerant.tolerations = [{ key: "gpu", operator: "Exists" }];
    const tainted = other(A, { taints: [{ key: "gpu", effect: "NoSchedule" }] });
    expect(findings([tolerant], { nodes: [tainted] })).toEqual([]);
  });

  it("reads required node affinity: In, NotIn, and a term that allows any zone", () => {
    const affinity = (values: string[], operator: "In" | "NotIn" = "In") =>
      db("db-0", { affinity: [{ matchExpressions: [{ key: ZONE, operator, values }] }] });
    const [f] = findings([affinity([A])]);
    expect(f?.message).toContain(`default/db-0 (${A}: required node affinity)`);
    expect(findings([affinity([B], "NotIn")])[0]?.message).toContain(
      `(${A}: required node affinity)`,
    );
    expect(findings([affinity([A, B])])[0]?.message).toContain(
      `(${A} or ${B}: required node affinity)`,
    );
    expect(findings([affinity([A, B])], { nodes: [other(B)] })).toEqual([]);
    const anyZone = db("db-0", {
      affinity: [
        { matchExpressions: [{ key: ZONE, operator: "In", values: [A] }] },
        { matchExpressions: [{ key: "pool", operator: "Exists" }] },
      ],
    });
    expect(findings([anyZone])).toEqual([]);
  });

  it("reads a claim's zonal volume (its node affinity), and its node must meet it", () => {
    const claims: ClaimInfo[] = [
      {
        namespace: "default",
        name: "data-db-0",
        volume: "pvc-1",
        nodeAffinity: [{ matchExpressions: [{ key: ZONE, operator: "In", values: [A] }] }],
      },
      { namespace: "default", name: "scratch", volume: "pvc-2" },
    ];
    const withVolume = db("db-0", { claims: ["data-db-0", "scratch"] });
    const [f] = findings([withVolume], { claims });
    expect(f?.message).toContain(`default/db-0 (${A}: volume pvc-1 of claim data-db-0)`);
    expect(findings([withVolume], { claims, nodes: [other(A)] })).toEqual([]);
    // A volume with no node affinity (or a claim not read) binds nothing.
    expect(findings([db("db-0", { claims: ["scratch"] })], { claims })).toEqual([]);
  });

  it("blocks where the group launches no node in that zone, unless deleteAfterDrainTimeout", () => {
    const moved = { ...g, zones: [B] };
    const [f] = findings([pinned()], { group: moved });
    expect(f).toMatchObject({ severity: "blocker", objects: ["default/db-0"] });
    expect(f!.message).toContain(`workers launches no node (its zones: ${B})`);
    expect(f!.message).toContain("nothing the roll does gives them a node");
    const [forced] = findings([pinned()], { group: moved, deleteAfterDrainTimeout: true });
    expect(forced?.severity).toBe("warning");
    expect(forced?.message).toMatch(
      /^with deleteAfterDrainTimeout: they are drained all the same, and stay Pending/,
    );
    // Its advice to set deleteAfterDrainTimeout goes with it set: one statement per fact.
    expect(f!.message).toMatch(/, or set deleteAfterDrainTimeout$/);
    expect(forced?.message).not.toContain("set deleteAfterDrainTimeout");
    expect(forced?.message).toMatch(/; add capacity in that zone first$/);
  });

  it("says when the new node comes only after the drain (no surge), and applies to managed groups", () => {
    const noSurge =
      "groups: [{ name: workers, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }]\n";
    expect(findings([pinned()], { body: noSurge })[0]?.message).toContain(
      "their node's replacement, launched only after the drain (no surge)",
    );
    const m = managed("system", instances("m", 2, [A, B], 1));
    const onManaged = pod("db-0", nodesFor(m)[0]!.name, {
      owner: { kind: "StatefulSet", name: "db" },
      placement: { nodeSelector: { [ZONE]: A } },
    });
    const body = "groups: [{ name: system, target: { kubernetesVersion: '1.33' } }]\n";
    const [f] = findings([onManaged], { group: m, body });
    expect(f?.message).toContain(
      "Pending until a new node of system is Ready in their zone (the surge's",
    );
  });

  it("says so when claims could not be read", () => {
    const s = snapshot([g], {
      pods: [db("db-0", { claims: ["data-db-0"] })],
      claimsUnread: "get on persistentvolumeclaims is forbidden",
    });
    const f = buildPlan(policy("groups: [{ name: workers }]\n"), "p.yaml", s).groups[0]!.findings;
    expect(f.filter((x) => x.code === "zone-pinned-pods")).toMatchObject([
      {
        severity: "info",
        message: expect.stringContaining("get on persistentvolumeclaims is forbidden"),
      },
    ]);
  });
});

describe("reading what binds pods to zones", () => {
  const world = () =>
    selfManagedWorld([{ name: "workers", nodes: 3 }], {
      workloads: [
        { kind: "StatefulSet", name: "db", replicas: 3, volumes: "zonal" },
        { kind: "Deployment", name: "web", replicas: 3 },
      ],
    });
  const p = policyFor("groups: [{ name: workers }]\n");

  it("reads the claims the pods to move name and their volumes, one GET each, and finds their zones", async () => {
    const w = world();
    const { plan, snapshot: s } = await w.run(observeAndPlan(p, "p.yaml", w));
    expect(w.calls.get("core.getPersistentVolumeClaim")).toBe(3);
    expect(w.calls.get("core.getPersistentVolume")).toBe(3);
    expect(s.claims?.map((c) => c.name)).toEqual(["data-db-0", "data-db-1", "data-db-2"]);
    const [f] = plan.groups[0]!.findings.filter((x) => x.code === "zone-pinned-pods");
    expect(f?.objects).toEqual(["default/db-0", "default/db-1", "default/db-2"]);
    expect(f?.message).toMatch(
      /default\/db-0 \(eu-west-1[abc]: volume pvc-\S+ of claim data-db-0\)/,
    );
  });

  it("plans on when claims may not be read (403), and says so", async () => {
    const w = world();
    const cluster = new Proxy(w.cluster, {
      get(t, key, r) {
        if (key === "getPersistentVolumeClaim")
          return () => Promise.reject(new KubeApiError(403, "Forbidden", "forbidden"));
        const v = Reflect.get(t, key, r) as unknown;
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(t) : v;
      },
    });
    const ports = { cloud: w.cloud, cluster, clock: w.clock };
    const { plan } = await w.run(observeAndPlan(p, "p.yaml", ports));
    const found = plan.groups[0]!.findings.filter((x) => x.code === "zone-pinned-pods");
    expect(found.map((x) => x.severity)).toEqual(["info"]);
    expect(plan.groups[0]!.status).toBe("roll");
  });
});
