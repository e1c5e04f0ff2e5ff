// What a group's plan decides — the contract apply carries out — apart from what live state
// merely happens to be when it is read. Apply takes a plan and, before each group, plans the group
// again from fresh state only to check that the plan's decisions still hold there (as Karpenter's
// disruption controller validates a computed command after a delay and refuses a stale one with
// a typed error instead of recomputing it): the target, the budgets, the settings, the group
// itself (there, of the same kind, in the plan), and no new blocker. Nodes that joined or left,
// and the roll's own progress on resume, are not decisions: they change which nodes remain, not
// what is done to them. The plan's fingerprint is made from the same decisions (render/reviewed.ts).
import type { Finding, GroupPlan } from "./types.js";

/** A decision of the plan, by name: what a refusal names. */
export type Decision = "group" | "kind" | "target" | "budgets" | "settings" | "blockers";

/** The decisions of one group, comparable as JSON. */
export interface GroupDecisions {
  kind: GroupPlan["kind"];
  target: Record<string, string>;
  /** The budgets as asked for (Budgets.spec): their counts follow the group's size and the
   * roll's progress, which are not decisions. */
  budgets: { maxUnavailable: string; maxSurge: string };
  settings: string;
  /** The configuration set first: in the fingerprint, not checked again (a roll that set it
   * already has made progress, not changed its mind). */
  config: string[];
}

export function decisionsOf(g: GroupPlan): GroupDecisions {
  const target: Record<string, string> = {};
  for (const [k, v] of Object.entries(g.target ?? {})) if (v !== undefined) target[k] = String(v);
  return {
    kind: g.kind,
    target,
    budgets: g.budgets.spec ?? {
      maxUnavailable: String(g.budgets.maxUnavailable),
      maxSurge: String(g.budgets.maxSurge),
    },
    settings: JSON.stringify(g.settings ?? null),
    config: g.configChanges.map((c) => `${c.field}=${c.to}`),
  };
}

/** A decision that no longer holds: which, and how it was and is, in words. */
export interface Stale {
  decision: Decision;
  detail: string;
}

/** The keys of two targets that differ, each as it was and as it is ("none" where absent). */
function targetChange(was: Record<string, string>, now: Record<string, string>): string {
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])].filter(
    (k) => was[k] !== now[k],
  );
  const side = (o: Record<string, string>) => keys.map((k) => `${k} ${o[k] ?? "none"}`).join(", ");
  return `planned ${side(was)}, now ${side(now)}`;
}

const blockers = (fs: readonly Finding[]) => fs.filter((f) => f.severity === "blocker");

/**
 * How the plan's decisions for a group no longer hold against the same group planned from fresh
 * state; none when they all do. Budgets resolved from a percentage follow the group's size, so
 * they are compared only when the size is the same (nodes that joined or left are not a change
 * of decision); a different budget for the same size is (the policy, or the live updateConfig
 * a managed group's budget comes from, changed).
 */
export function staleDecisions(planned: GroupPlan, fresh: GroupPlan): Stale[] {
  if (fresh.kind === "missing" && planned.kind !== "missing")
    return [
      { decision: "group", detail: `${planned.name} is gone from the cluster since the plan` },
    ];
  const was = decisionsOf(planned);
  const now = decisionsOf(fresh);
  const out: Stale[] = [];
  if (was.kind !== now.kind)
    out.push({ decision: "kind", detail: `planned as ${was.kind}, now ${now.kind}` });
  if (JSON.stringify(was.target) !== JSON.stringify(now.target))
    out.push({
      decision: "target",
      detail: targetChange(was.target, now.target),
    });
  const b = (x: GroupDecisions["budgets"]) =>
    `maxUnavailable ${x.maxUnavailable}, maxSurge ${x.maxSurge}`;
  if (b(was.budgets) !== b(now.budgets))
    out.push({ decision: "budgets", detail: `planned ${b(was.budgets)}, now ${b(now.budgets)}` });
  if (was.settings !== now.settings)
    out.push({ decision: "settings", detail: "the roll settings differ from the plan's" });
  // By kind: a blocker's words name pods and nodes, which move without its being new.
  const known = new Set(blockers(planned.findings).map((f) => f.code));
  const added = blockers(fresh.findings).filter((f) => !known.has(f.code));
  if (added.length > 0)
    out.push({
      decision: "blockers",
      detail: `new since the plan: ${added.map((f) => f.message).join("; ")}`,
    });
  return out;
}
