// Which plan was reviewed. The plan comment carries a fingerprint a reader can quote and, in a
// hidden HTML comment (GitHub does not show it), a digest of each group's decisions. On merge,
// apply reads that digest back from the pull request's comment and compares it with the plan
// it is about to carry out: when they differ (`latest` now resolves to a newer AMI, a group
// gained nodes, a budget or a setting changed, a blocker appeared), it says what changed. Times
// and estimates are left out: they move with every read and change nothing apply does.
import { decisionsOf, type GroupPlan, type Plan } from "../plan/index.js";

/** What apply does to a group, in a few comparable words: its decisions (plan/decisions.ts). */
export interface GroupDigest {
  status: GroupPlan["status"];
  nodes: number;
  target: Record<string, string>;
  config: string[];
  /** "maxUnavailable/maxSurge" (absent in a digest an older noderoll wrote). */
  budgets?: string;
  /** A short hash of the roll settings. */
  settings?: string;
}

export interface Reviewed {
  fingerprint: string;
  sha?: string;
  groups: Record<string, GroupDigest>;
}

export function digestOf(g: GroupPlan): GroupDigest {
  const d = decisionsOf(g);
  return {
    status: g.status,
    nodes: g.replacements.length,
    target: d.target,
    config: d.config,
    budgets: `${g.budgets.maxUnavailable}/${g.budgets.maxSurge}`,
    settings: fnv(d.settings).slice(0, 8),
  };
}

/** FNV-1a, 64 bits as two 32-bit halves: a short, stable name for a plan, not a secret. */
function fnv(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  return `${h1.toString(16).padStart(8, "0")}${h2.toString(16).padStart(8, "0")}`.slice(0, 12);
}

function digests(plan: Plan): Record<string, GroupDigest> {
  return Object.fromEntries(plan.groups.map((g) => [g.name, digestOf(g)]));
}

/** The plan's fingerprint: the same whenever apply would do the same. */
export function planFingerprint(plan: Plan): string {
  return fnv(JSON.stringify([plan.cluster.name, plan.options, digests(plan)]));
}

const MARKER = /<!-- noderoll:reviewed ([A-Za-z0-9_-]+) -->/;

/** The hidden marker the plan comment carries (base64url JSON: nothing in it ends a comment). */
export function reviewedMarker(plan: Plan, sha?: string): string {
  const data: Reviewed = {
    fingerprint: planFingerprint(plan),
    ...(sha && { sha }),
    groups: digests(plan),
  };
  return `<!-- noderoll:reviewed ${Buffer.from(JSON.stringify(data)).toString("base64url")} -->`;
}

/** The reviewed plan a comment body carries, if any. */
export function readReviewed(body: string | undefined): Reviewed | undefined {
  const m = body ? MARKER.exec(body) : null;
  if (!m) return undefined;
  try {
    const data = JSON.parse(Buffer.from(m[1] as string, "base64url").toString("utf8")) as Reviewed;
    return typeof data.fingerprint === "string" && data.groups ? data : undefined;
  } catch {
    return undefined;
  }
}

/** The marker itself, to carry it from the plan comment into the apply comment. */
export function reviewedMarkerIn(body: string | undefined): string | undefined {
  return body ? MARKER.exec(body)?.[0] : undefined;
}

function groupChanges(name: string, was: GroupDigest, now: GroupDigest): string[] {
  const out: string[] = [];
  if (was.status !== now.status) out.push(`\`${name}\`: ${was.status} → ${now.status}`);
  for (const key of new Set([...Object.keys(was.target), ...Object.keys(now.target)]))
    if (was.target[key] !== now.target[key])
      out.push(
        `\`${name}\`: ${key} ${was.target[key] ?? "(none)"} → ${now.target[key] ?? "(none)"}`,
      );
  if (was.nodes !== now.nodes)
    out.push(`\`${name}\`: ${was.nodes} → ${now.nodes} nodes to replace`);
  if (was.budgets !== undefined && was.budgets !== now.budgets)
    out.push(
      `\`${name}\`: budgets maxUnavailable/maxSurge ${was.budgets} → ${now.budgets ?? "(none)"}`,
    );
  if (was.settings !== undefined && was.settings !== now.settings)
    out.push(`\`${name}\`: roll settings changed`);
  if (was.config.join() !== now.config.join())
    out.push(
      `\`${name}\`: config ${was.config.join(", ") || "none"} → ${now.config.join(", ") || "none"}`,
    );
  return out;
}

/** How the plan to apply differs from the reviewed one ("reviewed → now"), or nothing. */
export function planDrift(reviewed: Reviewed, plan: Plan): string[] {
  if (reviewed.fingerprint === planFingerprint(plan)) return [];
  const now = digests(plan);
  const out: string[] = [];
  for (const [name, was] of Object.entries(reviewed.groups)) {
    const is = now[name];
    if (!is) out.push(`\`${name}\`: reviewed, not in the plan now`);
    else out.push(...groupChanges(name, was, is));
  }
  for (const name of Object.keys(now))
    if (!reviewed.groups[name]) out.push(`\`${name}\`: in the plan now, not reviewed`);
  return out.length > 0 ? out : ["the options or the cluster differ"];
}
