// What stops or hurts, said first. A plan whose first group is blocked rolls nothing after it,
// whatever the counts say, and deleteAfterDrainTimeout deletes pods; a reviewer has to see both before any table.
// GitHub shows `> [!CAUTION]` and `> [!WARNING]` blockquotes as alerts (GitHub docs, "Basic
// writing and formatting syntax", Alerts). The same facts make the check run's title.
import {
  notStartedAfter,
  stopIndex,
  summaryLine,
  type GroupPlan,
  type Plan,
} from "../plan/index.js";
import { alertMarkdown, plural, type Alert } from "./words.js";

export interface StopPoint {
  /** 0-based position of the group apply stops at. */
  index: number;
  group: GroupPlan;
  /** Groups after it that have something to do and so will not be done. */
  notRolled: GroupPlan[];
}

/** The first group apply would stop at (blocked or in error), and what it leaves undone: the
 * plan's rule (plan/summary.ts), the one its counts follow. */
export function stopPoint(plan: Plan): StopPoint | undefined {
  const index = stopIndex(plan.groups);
  if (index < 0) return undefined;
  return {
    index,
    group: plan.groups[index] as GroupPlan,
    notRolled: notStartedAfter(plan.groups, index),
  };
}

/** Pods deleteAfterDrainTimeout deletes at the drain timeout: the pods of PDBs that never allow a disruption. */
export function forcedDeletions(plan: Plan): { group: string; pods: string[] }[] {
  const stop = stopPoint(plan);
  const rolling = stop ? plan.groups.slice(0, stop.index) : plan.groups;
  return rolling.flatMap((g) => {
    const pods = g.findings
      .filter((f) => f.severity !== "blocker")
      .flatMap((f) =>
        f.code === "pdb-blocks"
          ? f.objects.filter((o) => !o.startsWith("PodDisruptionBudget/"))
          : f.code === "multiple-pdbs"
            ? f.objects.map((o) => o.replace(/ \(.*$/, ""))
            : [],
      );
    return pods.length > 0 ? [{ group: g.name, pods: [...new Set(pods)] }] : [];
  });
}

const names = (groups: GroupPlan[]) => groups.map((g) => `\`${g.name}\``);

function andList(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function stopReason(g: GroupPlan): string {
  if (g.status === "error") return g.errors[0] ?? "the group is in error";
  return g.findings.find((f) => f.severity === "blocker")?.message ?? "a preflight check blocks it";
}

/** What stops or hurts first, as alerts: where apply stops, and what is deleted at the drain timeout. */
export function planAlerts(plan: Plan): Alert[] {
  const out: Alert[] = [];
  const stop = stopPoint(plan);
  if (stop) {
    const parts = [
      ...(stop.notRolled.length > 0 ? [`${andList(names(stop.notRolled))} will not roll`] : []),
      ...(stop.index > 0 ? ["the groups before it roll first"] : []),
    ];
    out.push({
      kind: "CAUTION",
      lines: [
        `**apply stops at group ${stop.index + 1} \`${stop.group.name}\`** (${stop.group.status})${parts.length > 0 ? `: ${parts.join("; ")}` : ""}.`,
        "",
        stopReason(stop.group),
      ],
    });
  }
  const deleted = forcedDeletions(plan);
  if (deleted.length > 0) {
    const count = deleted.reduce((n, d) => n + d.pods.length, 0);
    const list = deleted.flatMap((d) => d.pods.slice(0, 10).map((p) => `\`${p}\``));
    const more = count > list.length ? ` and ${count - list.length} more` : "";
    out.push({
      kind: "WARNING",
      lines: [
        `**${plural(count, "pod")} will be deleted** (deleteAfterDrainTimeout), past their PodDisruptionBudgets at the drain timeout: ${list.join(", ")}${more}.`,
      ],
    });
  }
  return out;
}

/** The alerts at the top of a plan's Markdown. */
export function alertLines(plan: Plan): string[] {
  return alertMarkdown(planAlerts(plan));
}

/** The plan check run's title: the stop first, then the Terraform line. */
export function planHeadline(plan: Plan): string {
  const stop = stopPoint(plan);
  const deleted = forcedDeletions(plan).reduce((n, d) => n + d.pods.length, 0);
  const force = deleted > 0 ? `; ${plural(deleted, "pod")} deleted at the drain timeout` : "";
  if (!stop)
    return force
      ? `${summaryLine(plan.summary).replace(/\.$/, "")}${force}`
      : summaryLine(plan.summary);
  const rolled = plan.groups.slice(0, stop.index).filter((g) => g.status === "roll");
  const left =
    stop.notRolled.length > 0
      ? `; ${stop.notRolled.map((g) => g.name).join(", ")} will not roll`
      : "";
  const first = rolled.length > 0 ? ` after rolling ${rolled.map((g) => g.name).join(", ")}` : "";
  return `Apply stops at group ${stop.index + 1} ${stop.group.name} (${stop.group.status})${first}${left}${force}`;
}
