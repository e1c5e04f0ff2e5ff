// Label and field selectors as the API server reads them from a query string, so list and
// watch calls through the Cluster port can be scoped by label and field as the Kubernetes docs
// describe (https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/ and
// .../working-with-objects/field-selectors/). Structured selectors (PDBs, workloads) use the
// core's matcher, src/plan/selector.ts, so both sides agree.
import { KubeApiError } from "../../ports/errors.js";

type Requirement =
  | { key: string; op: "=" | "!="; value: string }
  | { key: string; op: "in" | "notin"; values: string[] }
  | { key: string; op: "exists" | "!exists" };

export type Selector = (labels: Record<string, string>) => boolean;

const everything: Selector = () => true;

/** Parse "a=b,c!=d,e in (x,y),f notin (z),g,!h"; a malformed selector is a 400. */
export function parseLabelSelector(text: string | undefined): Selector {
  if (!text || !text.trim()) return everything;
  const reqs: Requirement[] = [];
  // Split on commas outside parentheses.
  const parts: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of text) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      parts.push(cur);
      cur = "";
    } else cur += ch;
  }
  parts.push(cur);
  for (const raw of parts) {
    const p = raw.trim();
    let m: RegExpExecArray | null;
    if ((m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(p))) {
      const values = (m[3] ?? "").split(",").map((v) => v.trim());
      reqs.push({ key: m[1] as string, op: m[2] as "in" | "notin", values });
    } else if ((m = /^([\w./-]+)\s*(==|=|!=)\s*([\w./-]*)$/.exec(p))) {
      reqs.push({ key: m[1] as string, op: m[2] === "!=" ? "!=" : "=", value: m[3] ?? "" });
    } else if ((m = /^!([\w./-]+)$/.exec(p))) {
      reqs.push({ key: m[1] as string, op: "!exists" });
    } else if ((m = /^([\w./-]+)$/.exec(p))) {
      reqs.push({ key: m[1] as string, op: "exists" });
    } else {
      throw new KubeApiError(400, "BadRequest", `unable to parse requirement: "${p}"`);
    }
  }
  return (labels) => reqs.every((r) => matches(r, labels));
}

function matches(r: Requirement, labels: Record<string, string>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const v = labels[r.key];
  switch (r.op) {
    case "=":
      return has && v === r.value;
    case "!=":
      return !has || v !== r.value;
    case "in":
      return has && r.values.includes(v as string);
    case "notin":
      return !has || !r.values.includes(v as string);
    case "exists":
      return has;
    case "!exists":
      return !has;
  }
}

/** Field selectors: "spec.nodeName=x,status.phase!=Succeeded"; only the fields we serve. */
export function parseFieldSelector(
  text: string | undefined,
  supported: readonly string[],
): { field: string; op: "=" | "!="; value: string }[] {
  if (!text || !text.trim()) return [];
  return text.split(",").map((raw) => {
    const m = /^\s*([\w.]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(raw);
    if (!m) throw new KubeApiError(400, "BadRequest", `invalid field selector: "${raw}"`);
    const field = m[1] as string;
    if (!supported.includes(field))
      throw new KubeApiError(400, "BadRequest", `field label not supported: ${field}`);
    return { field, op: m[2] === "!=" ? "!=" : "=", value: m[3] ?? "" };
  });
}
