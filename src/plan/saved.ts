// A saved plan: the plan as JSON (docs/plan-json.md) that `noderoll plan --out FILE` writes, with
// a "saved" stamp, and what `noderoll apply FILE` holds it against before carrying it out. As
// Terraform refuses a saved plan gone stale (https://developer.hashicorp.com/terraform/cli/commands/apply,
// "Saved plan mode"), apply refuses the whole file, before anything is written, when one of its
// decisions no longer holds against the plan made afresh from the same policy and options: a
// group's kind, target, budgets, settings or configuration (plan/decisions.ts says what these
// are), the nodes it replaces, a new blocker or error, the groups and their order — or what the
// plan was made from: the noderoll, the policy file's content, the cluster. Each is a change with
// a type, and a sentence a person reads. Engine/contract.ts checks the decisions again before
// each group, as it does for every plan.
import { decisionsOf, type GroupDecisions } from "./decisions.js";
import type { GroupPlan, Plan } from "./types.js";

/** What identifies a saved plan beyond the plan itself (which names its policy file, cluster,
 * options and when it was read). */
export interface SavedStamp {
  /** The noderoll version that made it. */
  noderoll: string;
  /** The policy file's content when it was planned, sha256 in hex. */
  policySha256: string;
  /** The EKS cluster's ARN (DescribeCluster), where the cluster gives one. */
  clusterArn?: string;
}

export type SavedPlan = Plan & { saved: SavedStamp };

type Budget = "maxUnavailable" | "maxSurge";

/** A decision of the saved plan that no longer holds, or a difference in what it was made from. */
export type SavedPlanChange =
  | { what: "noderoll"; was: string; now: string }
  | { what: "policy"; file: string; was: string; now: string }
  | {
      what: "cluster";
      field: "name" | "region" | "ARN" | "Kubernetes API";
      was: string;
      now: string;
    }
  | { what: "option"; option: string; was: string; now: string }
  | { what: "groups"; was: string[]; now: string[] }
  | { what: "kind"; group: string; was: string; now: string }
  | { what: "target"; group: string; key: string; was?: string; now?: string }
  | { what: "budget"; group: string; budget: Budget; was: string; now: string }
  | {
      what: "replacements";
      group: string;
      was: number;
      now: number;
      gone: string[];
      added: string[];
    }
  | { what: "config"; group: string; was: string[]; now: string[] }
  | { what: "settings"; group: string; keys: string[] }
  | { what: "blocker"; group: string; message: string }
  | { what: "error"; group: string; message: string };

/** The file `plan --out` writes: the plan JSON as `plan --format json` prints it, and the stamp. */
export function savedPlanText(plan: Plan, stamp: SavedStamp): string {
  return `${JSON.stringify({ ...plan, saved: stamp }, null, 2)}\n`;
}

/** How the saved plan no longer holds against the plan made now (stamped the same way). */
export function savedPlanChanges(saved: SavedPlan, now: SavedPlan): SavedPlanChange[] {
  const out: SavedPlanChange[] = [];
  const was = saved.saved;
  if (was.noderoll !== now.saved.noderoll)
    out.push({ what: "noderoll", was: was.noderoll, now: now.saved.noderoll });
  if (was.policySha256 !== now.saved.policySha256)
    out.push({
      what: "policy",
      file: saved.policy.file,
      was: was.policySha256,
      now: now.saved.policySha256,
    });
  out.push(...clusterChanges(saved, now), ...optionChanges(saved, now));
  const order = (p: Plan) => p.groups.map((g) => g.name);
  if (order(saved).join() !== order(now).join())
    out.push({ what: "groups", was: order(saved), now: order(now) });
  for (const g of saved.groups) {
    const fresh = now.groups.find((x) => x.name === g.name);
    if (fresh) out.push(...groupChanges(g, fresh));
  }
  return out;
}

type ClusterField = Extract<SavedPlanChange, { what: "cluster" }>["field"];

function clusterChanges(saved: SavedPlan, now: SavedPlan): SavedPlanChange[] {
  const server = (p: Plan) => p.cluster.verified?.server;
  const sides: [ClusterField, string | undefined, string | undefined][] = [
    ["name", saved.cluster.name, now.cluster.name],
    ["region", saved.cluster.region, now.cluster.region],
    ["ARN", saved.saved.clusterArn, now.saved.clusterArn],
  ];
  // How the API was proven may differ run to run (a kubeconfig, EKS itself); its URL, when both
  // runs know it, may not.
  if (server(saved) && server(now)) sides.push(["Kubernetes API", server(saved), server(now)]);
  return sides.flatMap(([field, was, is]) =>
    was !== is ? [{ what: "cluster" as const, field, was: was ?? "none", now: is ?? "none" }] : [],
  );
}

function optionChanges(saved: Plan, now: Plan): SavedPlanChange[] {
  const said = (p: Plan) => ({
    replaceAll: String(p.options.replaceAll),
    deleteAfterDrainTimeout: String(p.options.deleteAfterDrainTimeout),
    groups: p.options.groups?.join(",") ?? "all",
  });
  const was = said(saved);
  const is = said(now);
  return (Object.keys(was) as (keyof typeof was)[]).flatMap((option) =>
    was[option] !== is[option]
      ? [{ what: "option" as const, option, was: was[option], now: is[option] }]
      : [],
  );
}

/** "2", "25% (2 nodes)", "EKS (6 nodes)": the budget as asked for, and what it came to. */
function budgetSaid(g: GroupPlan, d: GroupDecisions, budget: Budget): string {
  const count = g.budgets[budget];
  const spec = g.budgets.spec ? d.budgets[budget] : undefined;
  if (spec === undefined || spec === String(count) || spec.startsWith(`${count} `))
    return spec ?? String(count);
  return `${spec} (${count} node${count === 1 ? "" : "s"})`;
}

/** The keys of two records whose values differ, as JSON (a saved plan was JSON). */
function differentKeys(was: object, now: object): string[] {
  const a = was as Record<string, unknown>;
  const b = now as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]),
  );
}

function groupChanges(saved: GroupPlan, fresh: GroupPlan): SavedPlanChange[] {
  const group = saved.name;
  const was = decisionsOf(saved);
  const now = decisionsOf(fresh);
  const out: SavedPlanChange[] = [];
  if (was.kind !== now.kind) out.push({ what: "kind", group, was: was.kind, now: now.kind });
  for (const key of differentKeys(was.target, now.target))
    out.push({
      what: "target",
      group,
      key,
      ...(was.target[key] !== undefined && { was: was.target[key] }),
      ...(now.target[key] !== undefined && { now: now.target[key] }),
    });
  for (const budget of ["maxUnavailable", "maxSurge"] as const) {
    const [b0, b1] = [budgetSaid(saved, was, budget), budgetSaid(fresh, now, budget)];
    if (b0 !== b1) out.push({ what: "budget", group, budget, was: b0, now: b1 });
  }
  const ids = (g: GroupPlan) => g.replacements.map((r) => r.instance);
  const gone = ids(saved).filter((i) => !ids(fresh).includes(i));
  const added = ids(fresh).filter((i) => !ids(saved).includes(i));
  if (gone.length + added.length > 0)
    out.push({
      what: "replacements",
      group,
      was: saved.replacements.length,
      now: fresh.replacements.length,
      gone,
      added,
    });
  if (was.config.join("\n") !== now.config.join("\n"))
    out.push({ what: "config", group, was: was.config, now: now.config });
  const keys = differentKeys(saved.settings ?? {}, fresh.settings ?? {});
  if (keys.length > 0) out.push({ what: "settings", group, keys });
  // By kind, as engine/contract.ts: a blocker's words name pods, which move without its being new.
  const blockers = (g: GroupPlan) => g.findings.filter((f) => f.severity === "blocker");
  const known = new Set(blockers(saved).map((f) => f.code));
  for (const f of blockers(fresh).filter((x) => !known.has(x.code)))
    out.push({ what: "blocker", group, message: f.message });
  for (const e of fresh.errors.filter((x) => !saved.errors.includes(x)))
    out.push({ what: "error", group, message: e });
  return out;
}

const list = (xs: string[]) => (xs.length > 0 ? xs.join(", ") : "none");

/** The change in a sentence: what it was in the saved plan, and what it is now. */
export function describeChange(c: SavedPlanChange): string {
  switch (c.what) {
    case "noderoll":
      return `the saved plan was made by noderoll ${c.was}, this is noderoll ${c.now}`;
    case "policy":
      return `the policy ${c.file} changed since the plan was saved (sha256 ${c.was.slice(0, 12)}…, now ${c.now.slice(0, 12)}…)`;
    case "cluster":
      return `the cluster's ${c.field} was ${c.was} in the saved plan, is now ${c.now}`;
    case "option":
      return `the option ${c.option} was ${c.was} in the saved plan, is now ${c.now}`;
    case "groups":
      return `the groups were ${list(c.was)} in the saved plan, are now ${list(c.now)}`;
    case "kind":
      return `group ${c.group}: was ${c.was} in the saved plan, is now ${c.now}`;
    case "target":
      return `group ${c.group}: target ${c.key} was ${c.was ?? "none"} in the saved plan, is now ${c.now ?? "none"}`;
    case "budget":
      return `group ${c.group}: ${c.budget} was ${c.was} in the saved plan, is now ${c.now}`;
    case "replacements": {
      const which = [
        ...(c.gone.length > 0 ? [`no longer: ${c.gone.join(", ")}`] : []),
        ...(c.added.length > 0 ? [`new: ${c.added.join(", ")}`] : []),
      ];
      return `group ${c.group}: the nodes to replace changed: ${c.was} in the saved plan, ${c.now} now (${which.join("; ")})`;
    }
    case "config":
      return `group ${c.group}: the configuration to set was ${list(c.was)} in the saved plan, is now ${list(c.now)}`;
    case "settings":
      return `group ${c.group}: the roll settings ${c.keys.join(", ")} changed since the saved plan`;
    case "blocker":
      return `group ${c.group}: a new blocker: ${c.message}`;
    case "error":
      return `group ${c.group}: a new error: ${c.message}`;
  }
}

/** What is wrong with a file given as a saved plan, starting "is …" (the caller names the file). */
export class NotASavedPlan extends Error {}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const at = (v: unknown, key: string): unknown => (isObject(v) ? v[key] : undefined);

function need(ok: boolean, path: string, what: string): void {
  if (!ok)
    throw new NotASavedPlan(
      `is not a saved plan noderoll can read: ${path} is missing or not ${what}`,
    );
}
const str = (v: unknown, path: string) => need(typeof v === "string", path, "a string");
const num = (v: unknown, path: string) => need(typeof v === "number", path, "a number");
const bool = (v: unknown, path: string) => need(typeof v === "boolean", path, "true or false");
function each(v: unknown, path: string, check: (x: unknown, path: string) => void): void {
  need(Array.isArray(v), path, "a list");
  (v as unknown[]).forEach((x, i) => check(x, `${path}[${i}]`));
}

/** A group as apply and the comparison read it. */
function checkGroup(g: unknown, path: string): void {
  need(isObject(g), path, "an object");
  for (const k of ["name", "kind", "status"]) str(at(g, k), `${path}.${k}`);
  num(at(g, "nodes"), `${path}.nodes`);
  for (const b of ["maxUnavailable", "maxSurge"])
    num(at(at(g, "budgets"), b), `${path}.budgets.${b}`);
  each(at(g, "replacements"), `${path}.replacements`, (r, p) =>
    str(at(r, "instance"), `${p}.instance`),
  );
  each(at(g, "findings"), `${path}.findings`, (f, p) => {
    for (const k of ["code", "severity", "message"]) str(at(f, k), `${p}.${k}`);
  });
  each(at(g, "errors"), `${path}.errors`, str);
  each(at(g, "configChanges"), `${path}.configChanges`, (c, p) => {
    for (const k of ["field", "to"]) str(at(c, k), `${p}.${k}`);
  });
  each(at(g, "cleanup"), `${path}.cleanup`, (c, p) => str(at(c, "mark"), `${p}.mark`));
  for (const k of ["target", "settings"])
    need(at(g, k) === undefined || isObject(at(g, k)), `${path}.${k}`, "an object");
}

/** The saved plan a file holds, or NotASavedPlan saying what is wrong with it. */
export function readSavedPlan(text: string): SavedPlan {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new NotASavedPlan(`is not JSON (${(e as Error).message})`);
  }
  if (!isObject(data)) throw new NotASavedPlan("is not a saved plan: not a JSON object");
  num(data.schemaVersion, "schemaVersion");
  if (data.schemaVersion !== 1)
    throw new NotASavedPlan(
      `is a plan of schemaVersion ${String(data.schemaVersion)}; this noderoll reads schemaVersion 1`,
    );
  if (data.saved === undefined)
    throw new NotASavedPlan(
      'is a plan without the "saved" stamp (as `plan --format json` prints it), not a saved plan: save one with `noderoll plan --out FILE`',
    );
  str(at(data.saved, "noderoll"), "saved.noderoll");
  need(
    /^[0-9a-f]{64}$/.test(String(at(data.saved, "policySha256"))),
    "saved.policySha256",
    "a sha256",
  );
  const arn = at(data.saved, "clusterArn");
  need(arn === undefined || typeof arn === "string", "saved.clusterArn", "a string");
  str(at(data.policy, "file"), "policy.file");
  str(at(data.policy, "name"), "policy.name");
  for (const k of ["name", "region"]) str(at(data.cluster, k), `cluster.${k}`);
  str(data.takenAt, "takenAt");
  for (const k of ["replaceAll", "deleteAfterDrainTimeout"])
    bool(at(data.options, k), `options.${k}`);
  const groups = at(data.options, "groups");
  if (groups !== undefined) each(groups, "options.groups", str);
  need(isObject(data.summary), "summary", "an object");
  each(data.groups, "groups", checkGroup);
  return data as unknown as SavedPlan;
}
