// Preflight: every finding appears where its cause is, and not where it is absent.
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/engine/index.js";
import type { Finding, PodInfo } from "../../src/plan/index.js";
import {
  NOW,
  instances,
  managed,
  nodesFor,
  pdb,
  pod,
  policy,
  selfManaged,
  snapshot,
  type SnapshotParts,
} from "./fixtures.js";

const zones = ["eu-west-1a", "eu-west-1b"];
const g = selfManaged("workers", instances("n", 4, zones, 1), { latest: 2 });
const nodes = nodesFor(g);
const node = (i: number) => nodes[i]!.name;
const p = policy("groups: [{ name: workers }]\n");
/** The policy that refuses pods with no controller, as kubectl drain without --force does. */
const refusing = policy("groups: [{ name: workers, rollingUpdate: { unmanagedPods: refuse } }]\n");

function findings(
  extra: SnapshotParts,
  options: { deleteAfterDrainTimeout?: boolean } = {},
  pol = p,
): Finding[] {
  return buildPlan(pol, "p.yaml", snapshot([g], { clusterNodeCount: 40, ...extra }), options)
    .groups[0]!.findings;
}
/** A deletion due in half a minute: a pod terminating as usual. */
const SOON = new Date(NOW.getTime() + 30_000).toISOString();
const codes = (f: Finding[]) => f.map((x) => `${x.severity}:${x.code}`);
const web = (n: number): PodInfo[] =>
  Array.from({ length: n }, (_, i) => pod(`web-${i}`, node(i % 4)));

describe("preflight", () => {
  it("finds nothing to say about a well-behaved workload", () => {
    expect(
      findings({
        pods: web(3),
        pdbs: [
          pdb("web", "web", {
            minAvailable: 2,
            expectedPods: 3,
            currentHealthy: 3,
            desiredHealthy: 2,
          }),
        ],
        workloads: [{ id: "Deployment/default/web", replicas: 3 }],
      }),
    ).toEqual([]);
  });

  it("blocks on a PDB that never allows a disruption, unless deleteAfterDrainTimeout", () => {
    const pdbs = [
      pdb("web", "web", {
        minAvailable: 3,
        expectedPods: 3,
        currentHealthy: 3,
        desiredHealthy: 3,
        disruptionsAllowed: 0,
      }),
    ];
    const f = findings({
      pods: web(3),
      pdbs,
      workloads: [{ id: "Deployment/default/web", replicas: 3 }],
    });
    expect(codes(f)).toEqual(["blocker:pdb-blocks"]);
    expect(f[0]!.message).toMatch(
      /PodDisruptionBudget default\/web never allows a disruption \(minAvailable 3 of 3 pods\): draining default\/web-0, default\/web-1, default\/web-2 would fail with PodEvictionFailure/,
    );
    expect(
      codes(
        findings(
          { pods: web(3), pdbs, workloads: [{ id: "Deployment/default/web", replicas: 3 }] },
          { deleteAfterDrainTimeout: true },
        ),
      ),
    ).toEqual(["warning:pdb-blocks"]);
    const plan = buildPlan(p, "p.yaml", snapshot([g], { pods: web(3), pdbs }));
    expect(plan.groups[0]!.status).toBe("blocked");
    expect(plan.summary.blocked).toBe(1);
  });

  it("blocks on maxUnavailable: 0 and only warns on a PDB closed for now", () => {
    expect(
      codes(
        findings({
          pods: web(2),
          pdbs: [pdb("web", "web", { maxUnavailable: 0, disruptionsAllowed: 0 })],
        }),
      ),
    ).toContain("blocker:pdb-blocks");
    expect(
      codes(
        findings({
          pods: web(2),
          pdbs: [pdb("web", "web", { minAvailable: 1, disruptionsAllowed: 0, currentHealthy: 1 })],
        }),
      ),
    ).toEqual(["warning:pdb-closed-now"]);
  });

  it("asks budgets of the pods a drain moves: Running, Unknown and Pending ones (likely Running by the drain), not finished ones, nor mirror or DaemonSet pods (left)", () => {
    const pdbs = [pdb("a", "web", {}), pdb("b", "web", {})];
    const cases: [Partial<PodInfo>, boolean][] = [
      [{ phase: "Running" }, true],
      [{ phase: "Unknown" }, true],
      [{ phase: "Pending" }, true],
      [{ phase: "Succeeded" }, false],
      [{ phase: "Failed" }, false],
      [{ mirror: true }, false],
      [{ owner: { kind: "DaemonSet", name: "web" } }, false],
    ];
    for (const [extra, held] of cases) {
      const f = findings({ pods: [pod("web-0", node(0), extra)], pdbs });
      expect(codes(f).includes("blocker:multiple-pdbs"), JSON.stringify(extra)).toBe(held);
    }
  });

  it("asks no budget about a pod already being deleted (the eviction API lets it go), yet still waits for it and, with unmanagedPods: refuse, refuses it without a controller", () => {
    const going = (name: string, extra: Partial<PodInfo> = {}) =>
      pod(name, node(0), { deletionTimestamp: SOON, ...extra });
    const shut = [pdb("web", "web", { minAvailable: 2, expectedPods: 2, disruptionsAllowed: 0 })];
    const closed = [pdb("web", "web", { maxUnavailable: 1, disruptionsAllowed: 0 })];
    const two = [pdb("a", "web", {}), pdb("b", "web", {})];
    for (const pdbs of [shut, closed, two]) {
      // Beside a pod that asks: the finding names that one alone.
      const f = findings({ pods: [going("web-0"), pod("web-1", node(1))], pdbs });
      expect(f.length, pdbs[0]!.name).toBe(1);
      expect(f[0]!.objects.filter((o) => o.includes("web-0"))).toEqual([]);
      expect(f[0]!.objects.some((o) => o.includes("web-1"))).toBe(true);
      expect(findings({ pods: [going("web-0")], pdbs })).toEqual([]);
    }
    // The drain still moves it: with unmanagedPods: refuse, a pod with no controller is refused
    // as kubectl drain (without --force) does.
    const bare = going("job-0", { owner: undefined, workload: undefined });
    const refused = findings({ pods: [bare] }, {}, refusing);
    expect(codes(refused)).toContain("blocker:unmanaged-pods");
    // Already being deleted: the finding says to wait for it, not to delete it.
    expect(refused[0]!.message).toBe(
      "pods with no controller, already being deleted: default/job-0; wait until they are gone; or set unmanagedPods: evict, as kOps drains (unmanagedPods: refuse is kubectl drain without --force)",
    );
    const cron = pod("cron", node(1), { owner: undefined });
    const both = findings({ pods: [bare, cron] }, {}, refusing);
    expect(both[0]!.message).toMatch(
      /would not come back once their node is drained: default\/cron; delete them .*; pods with no controller, already being deleted: default\/job-0; wait until/,
    );
    expect(both[0]!.objects).toEqual(["default/job-0", "default/cron"]);
    // deleteAfterDrainTimeout does not get past the refusal: only unmanagedPods: evict does.
    expect(
      codes(findings({ pods: [bare] }, { deleteAfterDrainTimeout: true }, refusing)),
    ).toContain("blocker:unmanaged-pods");
    // By default (unmanagedPods: evict, as kOps drains) they are a warning: evicted, or waited for.
    const evicted = findings({ pods: [bare, cron] });
    expect(evicted.filter((f) => f.code === "unmanaged-pods")).toEqual([
      {
        code: "unmanaged-pods",
        severity: "warning",
        message:
          "pods with no controller are evicted like the rest, and nothing brings them back: default/cron; pods with no controller already being deleted are waited for: default/job-0; run them under a controller (a Deployment, a StatefulSet), or set unmanagedPods: refuse to stop the group instead",
        objects: ["default/job-0", "default/cron"],
      },
    ]);
    expect(findings({ pods: [bare] })[0]!.message).toMatch(
      /^pods with no controller already being deleted are waited for: default\/job-0;/,
    );
  });

  it("counts a pod being deleted among a whole-number minAvailable's expected pods only until it goes for good", () => {
    // minAvailable 1 of 2 expected, one of them a ReplicaSet's being deleted (its replacement
    // is the other): closed now, and once that pod is gone (1 of 1) never open.
    const pods = [pod("web-0", node(0), { deletionTimestamp: SOON }), pod("web-1", node(1))];
    const closed = { disruptionsAllowed: 0, currentHealthy: 1, expectedPods: 2 };
    const workloads = [{ id: "Deployment/default/web", replicas: 1 }];
    const f = findings({
      pods,
      pdbs: [pdb("web", "web", { minAvailable: 1, ...closed })],
      workloads,
    });
    expect(codes(f)).toEqual(["blocker:pdb-blocks", "warning:single-replica"]);
    expect(f[0]!.message).toMatch(/\(minAvailable 1 of 1 pod once the 1 being deleted is gone\)/);
    // Never below the workload's replicas: with 2, the budget was read after the pod being
    // deleted had gone (2 expected: the other and its replacement), and still allows one.
    expect(
      codes(
        findings({
          pods,
          pdbs: [pdb("web", "web", { minAvailable: 1, ...closed })],
          workloads: [{ id: "Deployment/default/web", replicas: 2 }],
        }),
      ),
    ).toEqual(["warning:pdb-closed-now"]);
    // A budget over two workloads expects both workloads' replicas once their pods being
    // deleted are gone (2 + 2), not the larger of them: minAvailable 3 of 4 is only closed now.
    const shop = (name: string, extra: Partial<PodInfo> = {}) => {
      const app = name.replace(/-[0-9]+$/, "");
      return pod(name, node(Number(name.at(-1)) % 4), {
        labels: { tier: "shop" },
        workload: `Deployment/default/${app}`,
        owner: { kind: "ReplicaSet", name: `${app}-rs` },
        ...extra,
      });
    };
    const shopPods = ["api", "cart"].flatMap((app) => [
      shop(`${app}-0`, { deletionTimestamp: SOON }),
      shop(`${app}-1`),
      shop(`${app}-2`),
    ]);
    const both = (replicas: number) =>
      findings({
        pods: shopPods,
        pdbs: [
          {
            ...pdb("shop", "shop", { minAvailable: 3, ...closed, expectedPods: 3 }),
            selector: { matchLabels: { tier: "shop" } },
          },
        ],
        workloads: ["api", "cart"].map((app) => ({ id: `Deployment/default/${app}`, replicas })),
      });
    expect(codes(both(2))).toEqual(["warning:pdb-closed-now"]);
    // With one replica each, 2 pods once gone: minAvailable 3 is never met.
    expect(codes(both(1))).toContain("blocker:pdb-blocks");
    // Its workload not read: it does not leave either.
    expect(
      codes(findings({ pods, pdbs: [pdb("web", "web", { minAvailable: 1, ...closed })] })),
    ).toEqual(["warning:pdb-closed-now"]);
    // A bare pod leaves for good too.
    const bare = { owner: undefined, workload: undefined, deletionTimestamp: SOON };
    expect(
      codes(
        findings({
          pods: [pod("web-0", node(0), bare), pod("web-1", node(1))],
          pdbs: [pdb("web", "web", { minAvailable: 1, ...closed })],
        }),
      ),
    ).toContain("blocker:pdb-blocks");
    // A StatefulSet makes its pod again once it is gone: expected again, closed only for now.
    const sts = { kind: "StatefulSet", name: "web" };
    expect(
      codes(
        findings({
          pods: [
            pod("web-0", node(0), { owner: sts, deletionTimestamp: SOON }),
            pod("web-1", node(1), { owner: sts }),
          ],
          pdbs: [pdb("web", "web", { minAvailable: 1, ...closed })],
        }),
      ),
    ).toEqual(["warning:pdb-closed-now"]);
    // Not being deleted: it will count again once healthy, so the budget is only closed now.
    expect(
      codes(findings({ pods: web(2), pdbs: [pdb("web", "web", { minAvailable: 1, ...closed })] })),
    ).toEqual(["warning:pdb-closed-now"]);
    // A percentage or maxUnavailable counts the workload's replicas, not the pods selected.
    for (const spec of [{ minAvailable: "50%" }, { maxUnavailable: 1 }])
      expect(codes(findings({ pods, pdbs: [pdb("web", "web", { ...spec, ...closed })] }))).toEqual([
        "warning:pdb-closed-now",
      ]);
  });

  it("blocks, unless deleteAfterDrainTimeout, on pods still there over a minute after their deletion was due", () => {
    const at = (msBeforeNow: number) => new Date(NOW.getTime() - msBeforeNow).toISOString();
    const stuck = pod("web-0", node(0), { deletionTimestamp: at(120_000) });
    const f = findings({ pods: [stuck] });
    expect(codes(f)).toEqual(["blocker:stuck-terminating"]);
    expect(f[0]!.objects).toEqual([`default/web-0 (deletion due ${at(120_000)})`]);
    expect(f[0]!.message).toMatch(/finalizer/);
    expect(codes(findings({ pods: [stuck] }, { deleteAfterDrainTimeout: true }))).toEqual([
      "warning:stuck-terminating",
    ]);
    // A finished pod held the same way: the drain waits for it too. A DaemonSet's or a mirror
    // pod it leaves alone.
    const done = pod("job-0", node(0), { phase: "Succeeded", deletionTimestamp: at(120_000) });
    expect(codes(findings({ pods: [done] }))).toEqual(["blocker:stuck-terminating"]);
    const ds = { kind: "DaemonSet", name: "agent" };
    for (const extra of [{ owner: ds }, { mirror: true }])
      expect(
        findings({ pods: [pod("a-0", node(0), { ...extra, deletionTimestamp: at(120_000) })] }),
      ).toEqual([]);
    // Still within its grace, or only just past it: terminating as usual.
    for (const ms of [-30_000, 30_000])
      expect(findings({ pods: [pod("web-0", node(0), { deletionTimestamp: at(ms) })] })).toEqual(
        [],
      );
  });

  it("with unmanagedPods: refuse still refuses a pod with no controller while it is Pending (nothing brings it back), not once it has finished", () => {
    const bare = (phase: string) =>
      pod("job-0", node(0), { owner: undefined, workload: undefined, phase });
    for (const phase of ["Running", "Pending", "Unknown"]) {
      expect(codes(findings({ pods: [bare(phase)] }, {}, refusing)), phase).toContain(
        "blocker:unmanaged-pods",
      );
      // By default the drain evicts it, and says so.
      expect(codes(findings({ pods: [bare(phase)] })), phase).toContain("warning:unmanaged-pods");
    }
    for (const phase of ["Succeeded", "Failed"]) {
      expect(codes(findings({ pods: [bare(phase)] }, {}, refusing)), phase).not.toContain(
        "blocker:unmanaged-pods",
      );
      expect(codes(findings({ pods: [bare(phase)] })), phase).not.toContain(
        "warning:unmanaged-pods",
      );
    }
  });

  it("blocks on pods that several PDBs select", () => {
    const pdbs = [pdb("a", "web", {}), pdb("b", "web", {})];
    const f = findings({ pods: web(1), pdbs });
    expect(codes(f)).toEqual(["blocker:multiple-pdbs"]);
    expect(f[0]!.objects).toEqual(["default/web-0 (default/a, default/b)"]);
    expect(
      codes(findings({ pods: web(1), pdbs: [pdbs[0]!, { ...pdbs[1]!, namespace: "other" }] })),
    ).toEqual([]);
  });

  it("warns of downtime for single-replica workloads and bare pods, not for replicated ones; bare pods block as kubectl drain refuses them with unmanagedPods: refuse", () => {
    const parts = {
      pods: [
        pod("legacy-0", node(0)),
        pod("bare", node(1), { owner: undefined, workload: undefined }),
      ],
      workloads: [{ id: "Deployment/default/legacy", replicas: 1 }],
    };
    const f = findings(parts, {}, refusing);
    expect(codes(f)).toEqual(["blocker:unmanaged-pods", "warning:single-replica"]);
    expect(f[0]!.objects).toEqual(["default/bare"]);
    expect(f[0]!.message).toMatch(/no controller would not come back/);
    expect(f[1]!.objects).toEqual(["Deployment/default/legacy", "Pod/default/bare"]);
    // By default (unmanagedPods: evict) the bare pod is evicted: a warning, the group rolls.
    const evicted = findings(parts);
    expect(codes(evicted)).toEqual(["warning:unmanaged-pods", "warning:single-replica"]);
    expect(evicted[0]!.objects).toEqual(["default/bare"]);
    expect(evicted[0]!.message).toMatch(
      /^pods with no controller are evicted like the rest, and nothing brings them back: default\/bare;/,
    );
    expect(buildPlan(p, "p.yaml", snapshot([g], parts)).groups[0]!.status).toBe("roll");
    expect(
      findings({ pods: web(2), workloads: [{ id: "Deployment/default/web", replicas: 2 }] }),
    ).toEqual([]);
  });

  it("blocks on pods that tolerate every taint, but not on a pod with a specific toleration, nor on DaemonSets", () => {
    const all = pod("agent-0", node(0), { tolerations: [{ operator: "Exists" }] });
    expect(
      codes(
        findings({ pods: [all], workloads: [{ id: "Deployment/default/agent", replicas: 3 }] }),
      ),
    ).toEqual(["blocker:tolerates-everything"]);
    const specific = pod("agent-0", node(0), {
      tolerations: [{ key: "dedicated", operator: "Exists" }],
    });
    expect(
      findings({ pods: [specific], workloads: [{ id: "Deployment/default/agent", replicas: 3 }] }),
    ).toEqual([]);
    const ds = pod("agent-0", node(0), {
      tolerations: [{ operator: "Exists" }],
      owner: { kind: "DaemonSet", name: "agent" },
      workload: "DaemonSet/default/agent",
    });
    expect(findings({ pods: [ds] })).toEqual([]);
  });

  it("warns when a preStop sleep is not shorter than the grace period", () => {
    const w = { workloads: [{ id: "Deployment/default/web", replicas: 3 }] };
    const long = pod("web-0", node(0), {
      terminationGracePeriodSeconds: 30,
      containers: [{ name: "app", readinessProbe: true, preStopSleepSeconds: 30 }],
    });
    expect(codes(findings({ pods: [long], ...w }))).toEqual(["warning:prestop-exceeds-grace"]);
    const short = pod("web-0", node(0), {
      terminationGracePeriodSeconds: 30,
      containers: [{ name: "app", readinessProbe: true, preStopSleepSeconds: 20 }],
    });
    expect(findings({ pods: [short], ...w })).toEqual([]);
  });

  it("notes workloads without a readiness probe", () => {
    const f = findings({
      pods: [pod("web-0", node(0), { containers: [{ name: "app", readinessProbe: false }] })],
      workloads: [{ id: "Deployment/default/web", replicas: 3 }],
    });
    expect(codes(f)).toEqual(["info:no-readiness-probe"]);
  });

  it("warns when a surge grows the cluster by 10% or more at once", () => {
    const big = buildPlan(
      policy("groups: [{ name: workers, rollingUpdate: { maxSurge: 4 } }]\n"),
      "p.yaml",
      snapshot([g], { clusterNodeCount: 40 }),
    ).groups[0]!;
    expect(codes(big.findings)).toEqual(["warning:surge-burst"]);
    expect(big.findings[0]!.message).toMatch(/launches 4 nodes at once, 10% of the cluster's 40/);
    const small = buildPlan(
      policy("groups: [{ name: workers, rollingUpdate: { maxSurge: 3 } }]\n"),
      "p.yaml",
      snapshot([g], { clusterNodeCount: 40 }),
    ).groups[0]!;
    expect(small.findings).toEqual([]);
  });

  it("warns when EKS's scale-up would push a managed group past the nodes a group may hold, and blocks a group that is neither ACTIVE nor UPDATING", () => {
    const m = managed("system", instances("m", 6, zones, 1), { max: 448 });
    const mp = policy('groups: [{ name: system, target: { kubernetesVersion: "1.33" } }]\n');
    expect(
      codes(buildPlan(mp, "p.yaml", snapshot([m], { clusterNodeCount: 1000 })).groups[0]!.findings),
    ).toEqual(["warning:nodegroup-size-limit"]);
    const ok = managed("system", instances("m", 6, zones, 1), { max: 10 });
    expect(
      buildPlan(mp, "p.yaml", snapshot([ok], { clusterNodeCount: 1000 })).groups[0]!.findings,
    ).toEqual([]);
    const findings = (status: string) =>
      codes(
        buildPlan(
          mp,
          "p.yaml",
          snapshot([managed("system", instances("m", 6, zones, 1), { status })], {
            clusterNodeCount: 1000,
          }),
        ).groups[0]!.findings,
      );
    expect(findings("DEGRADED")).toEqual(["blocker:group-degraded"]);
    // An update in progress (an earlier run's) is followed, not refused.
    expect(findings("UPDATING")).toEqual(["warning:update-in-progress"]);
  });

  it("looks only at pods on nodes that would be replaced", () => {
    const fresh = selfManaged(
      "workers",
      [...instances("n", 2, zones, 1), ...instances("u", 2, zones, 2)],
      { latest: 2 },
    );
    const freshNodes = nodesFor(fresh);
    const pods = [pod("legacy-0", freshNodes[3]!.name)];
    const plan = buildPlan(
      p,
      "p.yaml",
      snapshot([fresh], { pods, workloads: [{ id: "Deployment/default/legacy", replicas: 1 }] }),
    );
    expect(plan.groups[0]!.findings).toEqual([]);
  });
});
