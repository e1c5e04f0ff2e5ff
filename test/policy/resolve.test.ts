// Resolution of effective settings per group: defaults < group, kOps' and EKS's defaults — as
// the planner takes them from the group's kind (src/engine/plan.ts): resolve, then budgets for
// the group's size, then what the kind cannot honour.
import { describe, expect, it } from "vitest";
import { kindOf } from "../../src/kinds/registry.js";
import { loadPolicy, orderGroups, type Group, type Policy } from "../../src/policy/index.js";
import type { GroupKindId } from "../../src/ports/index.js";

function policy(yaml: string): Policy {
  const r = loadPolicy(
    `apiVersion: noderoll.io/v1\nkind: UpgradePolicy\nmetadata: { name: p }\ncluster: { name: c, region: eu-west-1 }\n${yaml}`,
    "p.yaml",
  );
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
  return r.policy;
}

const selfManaged = (size: number, needUpdate = size) => ({
  kind: "self-managed" as const,
  size,
  needUpdate,
});
const managed = (size: number) => ({ kind: "managed" as const, size, needUpdate: size });

/** What the planner asks of a group's kind: its settings, its budgets at `live`'s size, its conflicts. */
function fromKind(
  policy: Policy,
  group: Group,
  live: { kind: GroupKindId; size: number; needUpdate: number },
) {
  const kind = kindOf(live.kind);
  const s = kind.resolve(policy, group);
  const budgets = kind.budgets(s, live);
  return { ...s, budgets, derivation: budgets.derivation, errors: kind.conflicts(s.written) };
}

describe("a group's kind resolving its settings, self-managed (kOps semantics)", () => {
  it("defaults to maxSurge 1 and maxUnavailable 0", () => {
    const p = policy("groups: [{ name: a }]\n");
    const r = fromKind(p, p.groups[0]!, selfManaged(10));
    expect(r.budgets).toMatchObject({ maxSurge: 1, maxUnavailable: 0 });
    expect(r.roll).toMatchObject({
      postDrainDelayMs: 5000,
      intervalMs: 15000,
      drainTimeoutMs: 900_000,
      deleteAfterDrainTimeout: false,
      unmanagedPods: "evict",
      drainAndTerminate: true,
      spreadAcrossZones: true,
    });
    expect(r.roll.validation).toEqual({ timeoutMs: 900_000, count: 2 });
    expect(r.derivation.maxSurge).toBe("kOps default");
  });

  it("defaults maxUnavailable to 1 when maxSurge resolves to 0", () => {
    const p = policy('groups: [{ name: a, rollingUpdate: { maxSurge: "0%" } }]\n');
    expect(fromKind(p, p.groups[0]!, selfManaged(10)).budgets).toMatchObject({
      maxSurge: 0,
      maxUnavailable: 1,
    });
  });

  it("lets the group override defaults key by key, validation included", () => {
    const p = policy(
      'defaults: { maxUnavailable: "39%", maxSurge: 0, interval: 1m, validation: { timeout: 5m, count: 3 } }\ngroups: [{ name: a, rollingUpdate: { interval: 30s, validation: { count: 1 } } }]\n',
    );
    const r = fromKind(p, p.groups[0]!, selfManaged(10));
    expect(r.budgets).toMatchObject({ maxUnavailable: 3, maxSurge: 0 });
    expect(r.roll.intervalMs).toBe(30_000);
    expect(r.roll.validation).toEqual({ timeoutMs: 300_000, count: 1 });
    expect(r.derivation.maxUnavailable).toBe("39% of 10 nodes, rounded down = 3");
  });

  it("takes deleteAfterDrainTimeout and unmanagedPods from defaults, the group's own first", () => {
    const p = policy(
      "defaults: { deleteAfterDrainTimeout: true, unmanagedPods: refuse }\ngroups: [{ name: a }, { name: b, rollingUpdate: { deleteAfterDrainTimeout: false, unmanagedPods: evict } }]\n",
    );
    expect(fromKind(p, p.groups[0]!, selfManaged(3)).roll).toMatchObject({
      deleteAfterDrainTimeout: true,
      unmanagedPods: "refuse",
    });
    expect(fromKind(p, p.groups[1]!, selfManaged(3)).roll).toMatchObject({
      deleteAfterDrainTimeout: false,
      unmanagedPods: "evict",
    });
  });

  it("caps surge at the nodes that need update and says so", () => {
    const p = policy('groups: [{ name: a, rollingUpdate: { maxSurge: "31%" } }]\n');
    const r = fromKind(p, p.groups[0]!, selfManaged(10, 2));
    expect(r.budgets.maxSurge).toBe(2);
    expect(r.derivation.maxSurge).toBe(
      "31% of 10 nodes, rounded up = 2, capped at the 2 nodes that need update",
    );
  });

  it("never surges a control-plane group, noting a surge inherited from defaults", () => {
    const p = policy("defaults: { maxSurge: 3 }\ngroups: [{ name: cp, role: control-plane }]\n");
    const r = fromKind(p, p.groups[0]!, selfManaged(3));
    expect(r.budgets).toMatchObject({ maxSurge: 0, maxUnavailable: 1 });
    expect(r.notes.join()).toMatch(/control-plane group never surges/);
  });

  it("parses maxNodeAge", () => {
    const p = policy("defaults: { maxNodeAge: 30d }\ngroups: [{ name: a }]\n");
    expect(fromKind(p, p.groups[0]!, selfManaged(1)).roll.maxNodeAgeMs).toBe(30 * 86_400_000);
  });
});

describe("a group's kind resolving its settings, EKS managed node groups", () => {
  it("sets no updateConfig the policy does not ask for (the live one is kept), and no surge", () => {
    const p = policy("groups: [{ name: m }]\n");
    const r = fromKind(p, p.groups[0]!, managed(6));
    expect(r.budgets).toMatchObject({ maxUnavailable: 1, maxSurge: 0 });
    expect(r.roll).toMatchObject({
      postDrainDelayMs: 60_000,
      drainTimeoutMs: 900_000,
    });
    expect(r.updateConfig).toBeUndefined();
    expect(r.errors).toEqual([]);
  });

  it("maps a percentage to maxUnavailablePercentage", () => {
    const p = policy('groups: [{ name: m, rollingUpdate: { maxUnavailable: "50%" } }]\n');
    const r = fromKind(p, p.groups[0]!, managed(6));
    expect(r.updateConfig).toEqual({ maxUnavailablePercentage: 50 });
    expect(r.budgets.maxUnavailable).toBe(3);
  });

  it("rejects settings written on the group that EKS cannot honour, saying what EKS does", () => {
    const p = policy(
      "groups: [{ name: m, rollingUpdate: { maxSurge: 2, postDrainDelay: 5s, interval: 1m, drainAndTerminate: false, maxUnavailable: 101 } }]\n",
    );
    const r = fromKind(p, p.groups[0]!, managed(6));
    expect(r.errors.map((e) => e.key).sort()).toEqual([
      "drainAndTerminate",
      "interval",
      "maxSurge",
      "maxUnavailable",
      "postDrainDelay",
    ]);
    expect(r.errors.find((e) => e.key === "maxSurge")?.message).toMatch(
      /max\(2 × Availability Zones, maxUnavailable\)/,
    );
    expect(r.errors.find((e) => e.key === "postDrainDelay")?.message).toMatch(/fixed 60 s/);
  });

  it("only notes the same settings when they come from defaults", () => {
    const p = policy(
      "defaults: { maxSurge: 2, postDrainDelay: 5s, maxUnavailable: 0 }\ngroups: [{ name: m, rollingUpdate: { maxUnavailable: 1 } }, { name: n }]\n",
    );
    const r = fromKind(p, p.groups[0]!, managed(6));
    expect(r.errors).toEqual([]);
    expect(r.notes[0]).toMatch(
      /maxSurge, postDrainDelay from defaults do not apply to a managed node group/,
    );
    const n = fromKind(p, p.groups[1]!, managed(6));
    expect(n.budgets.maxUnavailable).toBe(1);
    expect(n.notes.join()).toMatch(/maxUnavailable 0 from defaults is outside EKS's 1–100/);
  });
});

describe("orderGroups", () => {
  const g = (name: string, role: "bastion" | "control-plane" | "apiserver" | "node" = "node") => ({
    name,
    role,
  });

  it("uses kOps' role order by default, alphabetical within a role", () => {
    const out = orderGroups([
      g("web"),
      g("api", "apiserver"),
      g("cp", "control-plane"),
      g("b", "bastion"),
      g("batch"),
    ]);
    expect(out.map((x) => x.name)).toEqual(["b", "cp", "api", "batch", "web"]);
  });

  it("follows an explicit order of names and globs, unmatched groups last by role", () => {
    const out = orderGroups(
      [g("web"), g("ingress-b"), g("ingress-a"), g("system"), g("cp", "control-plane")],
      ["system", "ingress-*"],
    );
    expect(out.map((x) => x.name)).toEqual(["system", "ingress-a", "ingress-b", "cp", "web"]);
  });
});
