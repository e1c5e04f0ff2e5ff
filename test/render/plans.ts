// Plans a reviewer reads, built from live-state fixtures: one whose first group is blocked (the
// caution case), inside a weekday window that is closed when planned (a Saturday), and one with
// many groups (the chart falls back to a bar per group).
import { buildPlan } from "../../src/engine/index.js";
import type { Plan } from "../../src/plan/index.js";
import {
  instances,
  managed,
  nodesFor,
  pdb,
  pod,
  policy,
  selfManaged,
  snapshot,
} from "../plan/fixtures.js";

const zones = ["eu-west-1a", "eu-west-1b", "eu-west-1c"];
export const WINDOW =
  'window: { days: [Mon, Tue, Wed, Thu], start: "09:00", end: "16:00", timeZone: Europe/Berlin }\n';

/** system (managed, blocked by a PDB), then ingress-b and batch, which would roll. */
export function blockedFirstPlan(): Plan {
  const system = managed("system", instances("m", 6, zones, 3));
  const ingress = selfManaged("ingress-b", instances("i", 3, zones, 3), { latest: 4 });
  const batch = selfManaged("batch", instances("b", 5, zones, 1), { latest: 2 });
  const nodes = [...nodesFor(system), ...nodesFor(ingress), ...nodesFor(batch)];
  const pods = [pod("coredns-a1", nodes[0]!.name), pod("coredns-b2", nodes[1]!.name)];
  const p = policy(
    `${WINDOW}order: [system, ingress-*, batch]\ngroups:\n  - name: system\n    target: { kubernetesVersion: "1.33", releaseVersion: latest }\n    rollingUpdate: { maxUnavailable: 2 }\n  - name: ingress-b\n    target: { launchTemplateVersion: $Latest }\n    rollingUpdate: { maxSurge: 1, maxUnavailable: 0 }\n  - name: batch\n    target: { launchTemplateVersion: $Latest }\n    rollingUpdate: { maxSurge: 0, maxUnavailable: "20%" }\n`,
  );
  return buildPlan(
    p,
    "policies/prod-eu.yaml",
    snapshot([system, ingress, batch], {
      nodes,
      pods,
      pdbs: [
        pdb("coredns", "coredns", {
          minAvailable: 2,
          expectedPods: 2,
          currentHealthy: 2,
          desiredHealthy: 2,
          disruptionsAllowed: 0,
        }),
      ],
      workloads: [{ id: "Deployment/default/coredns", replicas: 2 }],
    }),
  );
}

/** The same cluster without the blocking PDB: everything rolls. */
export function rollingPlan(): Plan {
  const system = managed("system", instances("m", 6, zones, 3));
  const ingress = selfManaged("ingress-b", instances("i", 3, zones, 3), { latest: 4 });
  const batch = selfManaged("batch", instances("b", 5, zones, 1), { latest: 2 });
  const p = policy(
    `${WINDOW}order: [system, ingress-*, batch]\ngroups:\n  - name: system\n    target: { kubernetesVersion: "1.33", releaseVersion: latest }\n    rollingUpdate: { maxUnavailable: 2 }\n  - name: ingress-b\n    target: { launchTemplateVersion: $Latest }\n    rollingUpdate: { maxSurge: 1, maxUnavailable: 0 }\n  - name: batch\n    target: { launchTemplateVersion: $Latest }\n    rollingUpdate: { maxSurge: 0, maxUnavailable: "20%" }\n`,
  );
  return buildPlan(p, "policies/prod-eu.yaml", snapshot([system, ingress, batch]));
}

/** `count` self-managed groups of `size` nodes, one at a time (many waves in all). */
export function manyGroupsPlan(count: number, size: number): Plan {
  const groups = Array.from({ length: count }, (_, i) =>
    selfManaged(`group-${String(i).padStart(2, "0")}`, instances(`g${i}x`, size, zones, 1), {
      latest: 2,
    }),
  );
  const p = policy(
    `defaults: { maxSurge: 0, maxUnavailable: 1 }\ngroups:\n${groups.map((g) => `  - name: ${g.name}\n    target: { launchTemplateVersion: $Latest }\n`).join("")}`,
  );
  return buildPlan(p, "p.yaml", snapshot(groups));
}

/**
 * system rolls, then workers is blocked by a budget that never allows (unless the run deletes
 * past it), inside an open window (Tuesday, Berlin); `gates` adds the policy's own gates.
 */
export function blockedSecondPlan(options: Parameters<typeof buildPlan>[3] = {}, gates = ""): Plan {
  const system = managed("system", instances("m", 6, zones, 3));
  const workers = selfManaged("workers", instances("w", 8, zones, 4), { latest: 5 });
  const nodes = [...nodesFor(system), ...nodesFor(workers)];
  const pods = [pod("web-a1", nodes[6]!.name), pod("web-b2", nodes[7]!.name)];
  const p = policy(
    `${WINDOW}${gates}order: [system, workers]\ngroups:\n  - name: system\n    target: { kubernetesVersion: "1.33", releaseVersion: latest }\n  - name: workers\n    rollingUpdate: { maxSurge: "25%" }\n`,
  );
  return buildPlan(
    p,
    "policies/prod.yaml",
    snapshot([system, workers], {
      nodes,
      pods,
      takenAt: new Date("2026-11-24T10:00:00Z"),
      pdbs: [
        pdb("web", "web", {
          minAvailable: 2,
          expectedPods: 2,
          currentHealthy: 2,
          desiredHealthy: 2,
          disruptionsAllowed: 0,
        }),
      ],
      workloads: [{ id: "Deployment/default/web", replicas: 2 }],
    }),
    options,
  );
}
