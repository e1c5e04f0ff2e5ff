// Node patches as the API server takes them: JSON merge patch, strategic merge patch (for the
// fields kubectl and noderoll touch it behaves as a merge patch: maps merge, spec.taints has no
// merge key so it is replaced, null deletes) and JSON patch (RFC 6902). The patched node is
// compared with the old one to find the NodePatch the Cluster port applies.
import type { Node, NodePatch, Taint } from "../../ports/cluster.js";
import { KubeApiError } from "../../ports/errors.js";

const UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export const PATCH_TYPES = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json",
];

/** RFC 7386: objects merge key by key, null removes, anything else replaces. */
export function mergePatch(target: Json, patch: Json): Json {
  if (patch === null || typeof patch !== "object" || Array.isArray(patch)) return patch;
  const out: { [k: string]: Json } =
    target && typeof target === "object" && !Array.isArray(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith("$")) continue; // strategic-merge directives ($patch, $retainKeys)
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k] ?? null, v);
  }
  return out;
}

function pointer(path: string): string[] {
  if (path === "") return [];
  if (!path.startsWith("/")) throw invalid(`invalid JSON pointer: ${path}`);
  return path
    .slice(1)
    .split("/")
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function invalid(message: string): KubeApiError {
  return new KubeApiError(422, "Invalid", message);
}

/** RFC 6902 add / remove / replace / test (what clients send to nodes). */
export function jsonPatch(doc: Json, ops: unknown): Json {
  if (!Array.isArray(ops))
    throw new KubeApiError(400, "BadRequest", "a JSON patch is an array of operations");
  let root = structuredClone(doc);
  for (const raw of ops as { op?: string; path?: string; value?: Json }[]) {
    const parts = pointer(String(raw.path ?? ""));
    const last = parts.pop();
    let parent: Json = root;
    for (const p of parts) {
      const next: Json | undefined = Array.isArray(parent)
        ? parent[Number(p)]
        : parent && typeof parent === "object"
          ? parent[p]
          : undefined;
      if (next === undefined) throw invalid(`doc is missing path: ${raw.path}`);
      parent = next;
    }
    if (last === undefined) {
      if (raw.op === "replace" || raw.op === "add") root = raw.value ?? null;
      continue;
    }
    applyOp(parent, last, raw);
  }
  return root;
}

function applyOp(
  parent: Json,
  key: string,
  op: { op?: string; path?: string; value?: Json },
): void {
  if (parent === null || typeof parent !== "object")
    throw invalid(`doc is missing path: ${op.path}`);
  const list = Array.isArray(parent) ? parent : undefined;
  const obj = parent as { [k: string]: Json };
  const index = key === "-" ? (list?.length ?? 0) : Number(key);
  const has = list ? index < list.length : Object.hasOwn(obj, key);
  switch (op.op) {
    case "add":
      if (list) list.splice(index, 0, op.value ?? null);
      else obj[key] = op.value ?? null;
      return;
    case "replace":
      if (!has) throw invalid(`doc is missing key: ${op.path}`);
      if (list) list[index] = op.value ?? null;
      else obj[key] = op.value ?? null;
      return;
    case "remove":
      if (!has) throw invalid(`doc is missing key: ${op.path}`);
      if (list) list.splice(index, 1);
      else delete obj[key];
      return;
    case "test": {
      const current = list ? list[index] : obj[key];
      if (JSON.stringify(current) !== JSON.stringify(op.value))
        throw invalid(`testing value ${op.path} failed`);
      return;
    }
    default:
      throw new KubeApiError(400, "BadRequest", `Unexpected kind: ${String(op.op)}`);
  }
}

function mapDiff(
  before: Record<string, string> | undefined,
  after: Record<string, string> | undefined,
): Record<string, string | null> | undefined {
  const out: Record<string, string | null> = {};
  for (const k of Object.keys(before ?? {})) if (!after || !(k in after)) out[k] = null;
  for (const [k, v] of Object.entries(after ?? {})) if (before?.[k] !== v) out[k] = String(v);
  return Object.keys(out).length ? out : undefined;
}

/** The synthetic unschedulable taint follows spec.unschedulable; it is never stored. */
const realTaints = (t: Taint[] | undefined) =>
  (t ?? []).filter((x) => x.key !== UNSCHEDULABLE_TAINT);

/** What changed between the node and its patched version, as the port's NodePatch. */
export function nodePatchFrom(before: Node, after: Node, precondition?: string): NodePatch {
  const patch: NodePatch = {};
  const labels = mapDiff(before.metadata.labels, after.metadata?.labels);
  const annotations = mapDiff(before.metadata.annotations, after.metadata?.annotations);
  if (labels) patch.labels = labels;
  if (annotations) patch.annotations = annotations;
  const taints = realTaints(after.spec?.taints);
  if (JSON.stringify(realTaints(before.spec.taints)) !== JSON.stringify(taints))
    patch.taints = taints;
  const unschedulable = after.spec?.unschedulable === true;
  if (unschedulable !== (before.spec.unschedulable === true)) patch.unschedulable = unschedulable;
  if (precondition !== undefined) patch.resourceVersion = precondition;
  return patch;
}

/** Apply a patch body of the given type to the node; returns the NodePatch to make. */
export function patchNodeBody(node: Node, contentType: string, body: unknown): NodePatch {
  const doc = node as unknown as Json;
  if (contentType === "application/json-patch+json") {
    const after = jsonPatch(doc, body) as unknown as Node;
    return nodePatchFrom(node, after);
  }
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw new KubeApiError(400, "BadRequest", "a merge patch is a JSON object");
  const after = mergePatch(doc, body as Json) as unknown as Node;
  const rv = (body as { metadata?: { resourceVersion?: unknown } }).metadata?.resourceVersion;
  return nodePatchFrom(node, after, typeof rv === "string" ? rv : undefined);
}
