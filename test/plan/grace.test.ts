// Pods slower to stop than the drain waits (issue 44, defect 8): a Deployment whose pods take an
// hour to stop (terminationGracePeriodSeconds 3600 and a long preStop) on a group whose drains
// wait 15 minutes. The plan blocks the group (the drain would fail and leave its node cordoned,
// on every run) and says how to fix it; a grace period alone that long is a warning; with
// deleteAfterDrainTimeout the drain goes on at its timeout, and the estimate says so; otherwise the estimate counts the
// whole grace period.
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/engine/index.js";
import type { Finding, LiveGroup, PodInfo } from "../../src/plan/index.js";
import { instances, managed, nodesFor, pod, policy, selfManaged, snapshot } from "./fixtures.js";

const zones = ["eu-west-1a", "eu-west-1b"];
const g = selfManaged("workers", instances("n", 2, zones, 1), { latest: 2 });
const node = (i: number) => nodesFor(g)[i]!.name;
const hour = (extra: Partial<PodInfo> = {}, name = "slow-0", on = 0) =>
  pod(name, node(on), {
    terminationGracePeriodSeconds: 3600,
    containers: [{ name: "app", readinessProbe: true, preStopSleepSeconds: 3500 }],
    ...extra,
  });

function plan(
  body: string,
  pods: PodInfo[],
  options: { deleteAfterDrainTimeout?: boolean } = {},
  group: LiveGroup = g,
) {
  return buildPlan(policy(body), "p.yaml", snapshot([group], { pods }), options).groups[0]!;
}
const graceOf = (f: Finding[]) => f.filter((x) => x.code === "grace-exceeds-drain-timeout");
const FIFTEEN = "groups: [{ name: workers, rollingUpdate: { drainTimeout: 15m } }]\n";

describe("pods slower to stop than the drain waits", () => {
  it("blocks the group when a preStop sleep outlasts drainTimeout, naming the pods and the fix", () => {
    const p = plan(FIFTEEN, [hour(), hour({}, "slow-1", 1), pod("web-0", node(0))]);
    expect(p.status).toBe("blocked");
    const [f, ...rest] = graceOf(p.findings);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ severity: "blocker", objects: ["default/slow-0", "default/slow-1"] });
    expect(f!.message).toContain("the drain cannot finish within drainTimeout 15m");
    expect(f!.message).toContain(
      "Deployment/default/slow (2 pods): preStop sleep 58m20s, terminationGracePeriodSeconds 3600 (1h)",
    );
    expect(f!.message).toContain("raise the group's drainTimeout above 1h");
  });

  it("warns when only the grace period is that long: the pod may use it", () => {
    const p = plan(FIFTEEN, [hour({ containers: [{ name: "app", readinessProbe: true }] })]);
    expect(p.status).toBe("roll");
    expect(graceOf(p.findings)).toMatchObject([
      { severity: "warning", objects: ["default/slow-0"] },
    ]);
    // A preStop the grace period cuts short proves nothing past the grace.
    const cut = hour({ terminationGracePeriodSeconds: 600 });
    expect(graceOf(plan(FIFTEEN, [cut]).findings)).toEqual([]);
  });

  it("finds nothing once drainTimeout is above the grace period, and the estimate counts the whole grace", () => {
    const p = plan("groups: [{ name: workers, rollingUpdate: { drainTimeout: 90m } }]\n", [hour()]);
    expect(graceOf(p.findings)).toEqual([]);
    expect(p.status).toBe("roll");
    const first = p.schedule.waves.find((w) => w.nodes.includes(node(0)))!;
    expect(first.durationMs).toBeGreaterThanOrEqual(3600_000);
    expect(p.schedule.estimatedMs).toBeGreaterThanOrEqual(3600_000);
  });

  it("with deleteAfterDrainTimeout: a warning that says what happens, and the drain's estimate ends at the timeout", () => {
    const blocked = plan(FIFTEEN, [hour()]);
    const forced = plan(FIFTEEN, [hour()], { deleteAfterDrainTimeout: true });
    expect(forced.status).toBe("roll");
    const [f] = graceOf(forced.findings);
    expect(f?.severity).toBe("warning");
    expect(f?.message).toMatch(
      /^with deleteAfterDrainTimeout: at the drain timeout their node is terminated with them still stopping/,
    );
    const wave = (p: typeof forced) => p.schedule.waves.find((w) => w.nodes.includes(node(0)))!;
    expect(wave(blocked).durationMs).toBeGreaterThanOrEqual(3600_000);
    expect(wave(forced).durationMs).toBeLessThan(wave(blocked).durationMs - 2700_000);
    expect(wave(forced).durationMs).toBeGreaterThanOrEqual(900_000);
    // The policy's key does the same as the run's option.
    const byPolicy = plan(
      "groups: [{ name: workers, rollingUpdate: { drainTimeout: 15m, deleteAfterDrainTimeout: true } }]\n",
      [hour()],
    );
    expect(byPolicy.status).toBe("roll");
    expect(graceOf(byPolicy.findings)).toEqual(graceOf(forced.findings));
    expect(wave(byPolicy).durationMs).toBe(wave(forced).durationMs);
  });

  it("a managed group: EKS's fixed 15 minutes, shorten the grace or set deleteAfterDrainTimeout", () => {
    const m = managed("system", instances("m", 2, zones, 1));
    const mine = pod("slow-0", nodesFor(m)[0]!.name, {
      terminationGracePeriodSeconds: 3600,
      containers: [{ name: "app", readinessProbe: true, preStopSleepSeconds: 3500 }],
    });
    const p = plan(
      "groups: [{ name: system, target: { kubernetesVersion: '1.33' } }]\n",
      [mine],
      {},
      m,
    );
    const [f] = graceOf(p.findings);
    expect(f?.severity).toBe("blocker");
    expect(f?.message).toContain("within drainTimeout 15m");
    expect(f?.message).toContain("EKS gives each drain a fixed 15 minutes, which cannot be raised");
  });

  it("leaves out pods already being deleted and those of nodes whose drains leave them (unreachable)", () => {
    const deleting = hour({ deletionTimestamp: "2026-11-21T10:30:00Z" });
    expect(graceOf(plan(FIFTEEN, [deleting]).findings)).toEqual([]);
    const nodes = nodesFor(g).map((n, i) =>
      i === 0 ? { ...n, ready: false, unreachable: true as const } : n,
    );
    const s = snapshot([g], { pods: [hour(), hour({}, "slow-1", 1)], nodes });
    const p = buildPlan(policy(FIFTEEN), "p.yaml", s).groups[0]!;
    expect(p.replacements.find((r) => r.node === node(0))?.down).toBe("unreachable");
    expect(graceOf(p.findings).flatMap((f) => f.objects)).toEqual(["default/slow-1"]);
  });
});
