// A self-managed Auto Scaling group's settings, with kOps' semantics
// (https://kops.sigs.k8s.io/operations/rolling-update/): maxSurge defaults to 1 and rounds up,
// never past the nodes that need update; maxUnavailable defaults to 1 when maxSurge is 0 (else
// 0), rounds down, and a percentage resolves to at least 1 (kOps' settings.go). A control-plane
// group never surges.
import {
  defaultUnavailable,
  describeBudget,
  isPercent,
  KOPS_DEFAULTS,
  resolveSurge,
  resolveUnavailable,
  roundedDown,
  rollSettings,
  surgeOf,
  writtenSettings,
  type Budget,
  type Group,
  type Policy,
} from "../../policy/index.js";
import type { BudgetFacts, GroupSettings, ResolvedBudgets } from "../kind.js";

export function resolveSelfManaged(policy: Policy, group: Group): GroupSettings {
  const w = writtenSettings(policy, group);
  const notes: string[] = [];
  if (w.role === "control-plane" && w.merged.maxSurge !== undefined && w.own.maxSurge === undefined)
    notes.push("maxSurge from defaults does not apply: a control-plane group never surges");
  return { role: w.role, written: w, roll: rollSettings(w.merged), notes };
}

function surgeBudget(s: GroupSettings, facts: BudgetFacts): { surge: number; text: string } {
  if (s.role === "control-plane") return { surge: 0, text: "control-plane groups never surge" };
  const written = s.written.merged.maxSurge;
  const value: Budget = written ?? KOPS_DEFAULTS.maxSurge;
  const surge = resolveSurge(value, facts.size, facts.needUpdate);
  let text =
    written === undefined ? "kOps default" : describeBudget(value, facts.size, "up", surge);
  if (surge < surgeOf(value, facts.size))
    text += `, capped at the ${facts.needUpdate} node${facts.needUpdate === 1 ? "" : "s"} that need update`;
  return { surge, text };
}

function unavailableText(value: Budget | undefined, resolved: number, surge: number, size: number) {
  if (value === undefined) return `kOps default when maxSurge is ${surge === 0 ? "0" : "not 0"}`;
  const atLeastOne = isPercent(value) && resolved === 1 && roundedDown(value, size) === 0;
  return (
    describeBudget(value, size, "down", resolved) +
    (atLeastOne ? " (a percentage: at least 1)" : "")
  );
}

export function selfManagedBudgets(s: GroupSettings, facts: BudgetFacts): ResolvedBudgets {
  const { surge, text } = surgeBudget(s, facts);
  const written = s.written.merged.maxUnavailable;
  const value: Budget = written ?? defaultUnavailable(surge === 0);
  const unavailable = resolveUnavailable(value, facts.size);
  return {
    maxUnavailable: unavailable,
    maxSurge: surge,
    derivation: {
      maxUnavailable: unavailableText(written, unavailable, surge, facts.size),
      maxSurge: text,
    },
    spec: {
      maxUnavailable: String(written ?? "kOps default"),
      maxSurge:
        s.role === "control-plane"
          ? "none (control-plane)"
          : String(s.written.merged.maxSurge ?? "kOps default"),
    },
  };
}
