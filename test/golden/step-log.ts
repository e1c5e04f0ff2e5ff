// A roll's event log as golden text: one line per event, times relative to the roll's start,
// machines and EKS updates named by stable aliases, and a line diff to show what moved.
import type { RollEvent } from "../../src/ports/index.js";
import type { World } from "../../src/sandbox/world/world.js";

/**
 * Aliases in order of first appearance. A machine is one number: its node is `n3`, its EC2
 * instance `i3`, whichever of the two the log names first. EKS updates are `u1`, `u2`, …; pods
 * keep their namespace and workload, `default/web-p1`. The ids are taken from the world (every
 * instance it ever launched, every node, every update) and from the events' pod fields, not
 * matched by shape, so a change in how the sandbox makes ids or names changes nothing here.
 */
class Aliases {
  /** id → the machine it belongs to, and whether it names the node or the instance. */
  private readonly machineOf = new Map<string, { machine: string; kind: "n" | "i" }>();
  private readonly updates = new Set<string>();
  /** namespace/name → namespace/workload- prefix of its alias. */
  private readonly pods = new Map<string, string>();
  private readonly given = new Map<string, string>();
  private readonly counts = { machine: 0, update: 0, pod: 0 };
  private readonly pattern: RegExp | undefined;

  constructor(world: World, events: RollEvent[]) {
    for (const i of world.ec2.instances.values()) {
      this.machineOf.set(i.id, { machine: i.id, kind: "i" });
      this.machineOf.set(i.nodeName, { machine: i.id, kind: "n" });
    }
    for (const n of world.kube.nodes.values())
      if (!this.machineOf.has(n.name)) this.machineOf.set(n.name, { machine: n.name, kind: "n" });
    for (const ids of world.eks.updateIds.values()) for (const id of ids) this.updates.add(id);
    const workloads = [...world.kube.workloads.values()].sort(
      (a, b) => b.name.length - a.name.length,
    );
    const pod = (key: string) => {
      if (this.pods.has(key)) return;
      const [ns, name] = key.includes("/") ? key.split("/", 2) : ["", key];
      const w = workloads.find((x) => x.namespace === ns && name!.startsWith(`${x.name}-`));
      this.pods.set(key, `${ns ? `${ns}/` : ""}${w ? `${w.name}-` : ""}p`);
    };
    for (const e of events) {
      if ("pod" in e) pod(e.pod);
      if ("deleted" in e) for (const d of e.deleted ?? []) pod(d);
    }
    for (const p of world.kube.pods.values()) pod(`${p.namespace}/${p.name}`);
    const known = [...this.machineOf.keys(), ...this.updates, ...this.pods.keys()]
      .sort((a, b) => b.length - a.length)
      .map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    // Whole names only: `web-1` must not match inside `web-12`.
    this.pattern = known.length
      ? new RegExp(`(?<![\\w.-])(?:${known.join("|")})(?![\\w.-])`, "g")
      : undefined;
  }

  private alias(key: string, make: () => string): string {
    let a = this.given.get(key);
    if (!a) this.given.set(key, (a = make()));
    return a;
  }

  private one(id: string): string {
    if (this.updates.has(id)) return this.alias(id, () => `u${++this.counts.update}`);
    const prefix = this.pods.get(id);
    if (prefix !== undefined) return this.alias(id, () => `${prefix}${++this.counts.pod}`);
    const m = this.machineOf.get(id);
    if (!m) return id;
    return `${m.kind}${this.alias(m.machine, () => String(++this.counts.machine))}`;
  }

  /** Every known id inside `text` replaced, left to right. */
  text(text: string): string {
    return this.pattern ? text.replace(this.pattern, (id) => this.one(id)) : text;
  }
}

function clock(ms: number): string {
  const sign = ms < 0 ? "-" : "+";
  const abs = Math.abs(ms);
  const h = Math.floor(abs / 3600_000);
  const m = Math.floor(abs / 60_000) % 60;
  const s = Math.floor(abs / 1000) % 60;
  const rest = abs % 1000;
  const pad = (x: number) => String(x).padStart(2, "0");
  return `${sign}${pad(h)}:${pad(m)}:${pad(s)}.${String(rest).padStart(3, "0")}`;
}

function value(v: unknown, aliases: Aliases): string {
  if (typeof v === "string") {
    const s = aliases.text(v);
    return /^[\w./:=%$@-]+$/.test(s) ? s : JSON.stringify(s);
  }
  if (Array.isArray(v)) return `[${v.map((x) => value(x, aliases)).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}=${value(x, aliases)}`)
      .join(" ")}}`;
  return String(v);
}

/**
 * One line per event: `+HH:MM:SS.mmm type group key=value …`, the keys in the order the engine
 * wrote them. Strings with spaces are quoted; objects are `{key=value …}`.
 */
export function stepLog(events: RollEvent[], world: World): string[] {
  const aliases = new Aliases(world, events);
  const start = events.length ? Date.parse(events[0]!.t) : 0;
  const width = Math.max(0, ...events.map((e) => e.type.length));
  return events.map((e) => {
    const { t, type, group, ...rest } = e as RollEvent & Record<string, unknown>;
    // A run's lease identity ends in a random nonce (no two runs share one): not the log's shape.
    const nonce = (k: string, v: unknown) =>
      (k === "holder" || k === "takenOver") && typeof v === "string"
        ? v.replace(/\/[0-9a-f]{8}$/, "/<nonce>")
        : v;
    const fields = Object.entries(rest).map(([k, v]) => `${k}=${value(nonce(k, v), aliases)}`);
    return [clock(Date.parse(t) - start), type.padEnd(width), ...(group ? [group] : []), ...fields]
      .join(" ")
      .trimEnd();
  });
}

/** The lines of a longest common subsequence diff: ' ' kept, '-' expected only, '+' actual only. */
function diffLines(expected: string[], actual: string[]): { op: " " | "-" | "+"; line: string }[] {
  const n = expected.length;
  const m = actual.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i]![j] =
        expected[i] === actual[j]
          ? lcs[i + 1]![j + 1]! + 1
          : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: { op: " " | "-" | "+"; line: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && expected[i] === actual[j]) {
      out.push({ op: " ", line: expected[i++]! });
      j++;
    } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      out.push({ op: "-", line: expected[i++]! });
    } else {
      out.push({ op: "+", line: actual[j++]! });
    }
  }
  return out;
}

/**
 * A unified diff (3 lines of context, hunks headed by line numbers), or undefined when the two
 * are equal.
 */
export function unifiedDiff(
  expected: string[],
  actual: string[],
  names = { expected: "golden", actual: "this run" },
): string | undefined {
  const d = diffLines(expected, actual);
  if (d.every((x) => x.op === " ")) return undefined;
  const context = 3;
  const keep = d.map((x, k) =>
    d.slice(Math.max(0, k - context), k + context + 1).some((y) => y.op !== " "),
  );
  const out = [`--- ${names.expected}`, `+++ ${names.actual}`];
  let e = 0;
  let a = 0;
  for (let k = 0; k < d.length;) {
    if (!keep[k]) {
      if (d[k]!.op !== "+") e++;
      if (d[k]!.op !== "-") a++;
      k++;
      continue;
    }
    const hunk: string[] = [];
    const [e0, a0] = [e, a];
    for (; k < d.length && keep[k]; k++) {
      const x = d[k]!;
      hunk.push(`${x.op} ${x.line}`);
      if (x.op !== "+") e++;
      if (x.op !== "-") a++;
    }
    out.push(`@@ -${e0 + 1},${e - e0} +${a0 + 1},${a - a0} @@`, ...hunk);
  }
  return out.join("\n");
}
