// Progress of a roll, folded from its events: per group, the state of each of the four phases
// and how many nodes are done. Rendered into the check run, the PR comment and the job summary,
// so a reader never needs to know which engine ran.
import {
  PHASES,
  type GroupKindId,
  type Phase,
  type Result,
  type RollEvent,
} from "../ports/index.js";

export type PhaseState = "pending" | "running" | Result;

export interface GroupProgress {
  name: string;
  kind?: GroupKindId | "missing";
  phases: Record<Phase, PhaseState>;
  nodes: number;
  toReplace: number;
  replaced: number;
  result?: Result;
  message?: string;
}

export interface Progress {
  cluster?: string;
  policy?: string;
  reason?: string;
  force: boolean;
  startedAt?: string;
  endedAt?: string;
  result?: Result;
  message?: string;
  groups: GroupProgress[];
  /** The phase that last changed, "group/phase", so reporters can flush on phase changes. */
  lastPhaseChange?: string;
  blocked: string[];
  /** Pods deleted past their PodDisruptionBudgets because of force ("ns/name"). */
  forced: string[];
}

const emptyPhases = (): Record<Phase, PhaseState> => ({
  setup: "pending",
  "scale-up": "pending",
  upgrade: "pending",
  "scale-down": "pending",
});

export function emptyProgress(): Progress {
  return { force: false, groups: [], blocked: [], forced: [] };
}

function group(p: Progress, name: string): GroupProgress {
  let g = p.groups.find((x) => x.name === name);
  if (!g) {
    g = { name, phases: emptyPhases(), nodes: 0, toReplace: 0, replaced: 0 };
    p.groups.push(g);
  }
  return g;
}

/** Apply one event (mutates and returns the same object: reporters fold long logs). */
export function applyEvent(p: Progress, e: RollEvent): Progress {
  switch (e.type) {
    case "roll.start":
      Object.assign(p, {
        cluster: e.cluster,
        policy: e.policy,
        reason: e.reason,
        force: e.force,
        startedAt: e.t,
      });
      for (const name of e.groups) group(p, name);
      break;
    case "roll.end":
      Object.assign(p, { result: e.result, message: e.message, endedAt: e.t });
      break;
    case "group.start":
      Object.assign(group(p, e.group), { kind: e.kind, nodes: e.nodes, toReplace: e.replace });
      break;
    case "group.end":
      Object.assign(group(p, e.group), { result: e.result, message: e.message });
      break;
    case "phase.start":
      group(p, e.group).phases[e.phase] = "running";
      p.lastPhaseChange = `${e.group}/${e.phase}/start`;
      break;
    case "phase.end":
      group(p, e.group).phases[e.phase] = e.result;
      p.lastPhaseChange = `${e.group}/${e.phase}/${e.result}`;
      break;
    case "instance.terminate":
      group(p, e.group).replaced += 1;
      break;
    case "node.drain.end":
      for (const pod of e.deleted ?? []) if (!p.forced.includes(pod)) p.forced.push(pod);
      break;
    case "eviction.blocked":
      if (!p.blocked.includes(`${e.pod} (${e.pdb})`)) p.blocked.push(`${e.pod} (${e.pdb})`);
      break;
    default:
      break;
  }
  return p;
}

export function foldEvents(events: readonly RollEvent[]): Progress {
  return events.reduce(applyEvent, emptyProgress());
}

const PHASE_ICON: Record<PhaseState, string> = {
  pending: "·",
  running: "⏳",
  success: "✅",
  failure: "❌",
  cancelled: "⏹️",
  skipped: "—",
};

export function renderProgressMarkdown(p: Progress, title = "noderoll apply"): string {
  const state = p.result
    ? { success: "✅ done", failure: "❌ failed", cancelled: "⏹️ cancelled", skipped: "— skipped" }[
        p.result
      ]
    : "⏳ in progress";
  const out = [`### ${title} · \`${p.policy ?? "?"}\` · ${state}`, ""];
  if (p.reason) out.push(`**Reason:** ${p.reason}${p.force ? " · **force**" : ""}`, "");
  else if (p.force) out.push("**force**", "");
  out.push(
    `| group | ${PHASES.join(" | ")} | nodes replaced |`,
    `| --- | ${PHASES.map(() => ":-:").join(" | ")} | --: |`,
  );
  for (const g of p.groups) {
    out.push(
      `| \`${g.name}\` | ${PHASES.map((ph) => `${PHASE_ICON[g.phases[ph]]} ${g.phases[ph]}`).join(" | ")} | ${g.replaced} / ${g.toReplace} |`,
    );
  }
  out.push("");
  for (const g of p.groups) if (g.message) out.push(`- \`${g.name}\`: ${g.message}`);
  if (p.blocked.length > 0)
    out.push(
      `- Evictions refused by PodDisruptionBudgets: ${p.blocked.slice(0, 20).join(", ")}${p.blocked.length > 20 ? ` and ${p.blocked.length - 20} more` : ""}`,
    );
  if (p.forced.length > 0)
    out.push(
      `- **force**: deleted past their PodDisruptionBudgets after the drain timeout: ${p.forced
        .slice(0, 20)
        .map((x) => `\`${x}\``)
        .join(", ")}${p.forced.length > 20 ? ` and ${p.forced.length - 20} more` : ""}`,
    );
  if (p.message) out.push("", p.message);
  return `${out.join("\n")}\n`;
}

export function renderProgressLine(e: RollEvent): string | undefined {
  switch (e.type) {
    case "phase.start":
      return `${e.group}: ${e.phase} …`;
    case "phase.end":
      return `${e.group}: ${e.phase} ${e.result}${e.message ? ` (${e.message})` : ""}`;
    case "group.end":
      return `${e.group}: ${e.result}${e.message ? ` (${e.message})` : ""}`;
    case "roll.end":
      return `roll ${e.result}${e.message ? `: ${e.message}` : ""}`;
    default:
      return undefined;
  }
}
