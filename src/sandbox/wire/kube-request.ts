// How the Kubernetes face reads a request and says something went wrong: the resource path
// ("/apis/apps/v1/namespaces/ns/daemonsets/x" and its parts), list options, label and field
// selectors on objects, JSON bodies of the accepted media types, and Status bodies with the API
// server's codes and reasons.
import type { Cluster, EvictionOutcome, ListOptions, Node, Pod } from "../../ports/cluster.js";
import { KubeApiError, NetworkError } from "../../ports/errors.js";
import { parseFieldSelector, parseLabelSelector } from "../ports/selectors.js";
import { json, type WireRequest, type WireResponse } from "./http-server.js";
import type { KubeObject, WatchKind } from "./kube-watch.js";

export interface Target {
  groupVersion: string;
  namespace?: string;
  resource: string;
  name?: string;
  sub?: string;
}

export const KINDS: Record<string, { kind: string; apiVersion: string }> = {
  nodes: { kind: "Node", apiVersion: "v1" },
  pods: { kind: "Pod", apiVersion: "v1" },
  persistentvolumeclaims: { kind: "PersistentVolumeClaim", apiVersion: "v1" },
  persistentvolumes: { kind: "PersistentVolume", apiVersion: "v1" },
  poddisruptionbudgets: { kind: "PodDisruptionBudget", apiVersion: "policy/v1" },
  leases: { kind: "Lease", apiVersion: "coordination.k8s.io/v1" },
  daemonsets: { kind: "DaemonSet", apiVersion: "apps/v1" },
  deployments: { kind: "Deployment", apiVersion: "apps/v1" },
  replicasets: { kind: "ReplicaSet", apiVersion: "apps/v1" },
  statefulsets: { kind: "StatefulSet", apiVersion: "apps/v1" },
};

export const PUBLIC: ReadonlySet<string> = new Set(["/version", "/healthz", "/livez", "/readyz"]);
const NODE_FIELDS = ["metadata.name", "spec.unschedulable"];
const POD_FIELDS = ["spec.nodeName", "metadata.name", "metadata.namespace", "status.phase"];
const FIELDS: Record<WatchKind, string[]> = {
  nodes: NODE_FIELDS,
  pods: POD_FIELDS,
  poddisruptionbudgets: ["metadata.name", "metadata.namespace"],
};

/** A Status body: how the API server says anything went wrong (or an eviction went right). */
export function kubeStatus(
  code: number,
  reason: string,
  message: string,
  resource: string,
  details?: Record<string, unknown>,
  headers: Record<string, string> = {},
): WireResponse {
  const failure = code >= 300;
  return json(
    code,
    {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: failure ? "Failure" : "Success",
      ...(failure && { message, reason }),
      ...(details && { details }),
      code,
    },
    resource,
    headers,
  );
}

export function fromError(e: unknown, resource: string): WireResponse {
  if (e instanceof NetworkError) throw e; // the server's answer never arrives
  if (e instanceof KubeApiError) {
    const retry = e.retryAfterSeconds;
    return kubeStatus(
      e.status,
      e.reason,
      e.message,
      resource,
      retry !== undefined ? { retryAfterSeconds: retry } : undefined,
      e.status === 429 && retry !== undefined ? { "retry-after": String(retry) } : {},
    );
  }
  return kubeStatus(
    500,
    "InternalError",
    `Internal error occurred: ${(e as Error).message}`,
    resource,
  );
}

/** "/apis/apps/v1/namespaces/ns/daemonsets/x" → its parts; undefined for non-resource paths. */
export function parseTarget(path: string): Target | undefined {
  const s = path.split("/").filter(Boolean).map(decodeURIComponent);
  let rest: string[];
  let groupVersion: string;
  if (s[0] === "api" && s.length >= 3) [groupVersion, rest] = [s[1]!, s.slice(2)];
  else if (s[0] === "apis" && s.length >= 4) [groupVersion, rest] = [`${s[1]}/${s[2]}`, s.slice(3)];
  else return undefined;
  let namespace: string | undefined;
  if (rest[0] === "namespaces" && rest.length >= 3) [namespace, rest] = [rest[1], rest.slice(2)];
  if (rest.length > 3) return undefined;
  return { groupVersion, namespace, resource: rest[0]!, name: rest[1], sub: rest[2] };
}

export function listOptions(q: URLSearchParams): ListOptions {
  const opts: ListOptions = {};
  for (const k of ["labelSelector", "fieldSelector", "continue", "resourceVersion"] as const) {
    const v = q.get(k);
    if (v) opts[k] = v;
  }
  const limit = Number(q.get("limit") ?? 0);
  if (limit > 0) opts.limit = limit;
  return opts;
}

function fieldOf(o: KubeObject, field: string): string {
  const p = o as Pod;
  if (field === "metadata.name") return o.metadata.name;
  if (field === "metadata.namespace") return o.metadata.namespace ?? "";
  if (field === "spec.nodeName") return p.spec.nodeName ?? "";
  if (field === "status.phase") return p.status.phase;
  return String((o as Node).spec.unschedulable ?? false);
}

export function objectFilter(kind: WatchKind, namespace: string | undefined, q: URLSearchParams) {
  const labels = parseLabelSelector(q.get("labelSelector") ?? undefined);
  const fields = parseFieldSelector(q.get("fieldSelector") ?? undefined, FIELDS[kind]);
  return (o: KubeObject) =>
    (namespace === undefined || o.metadata.namespace === namespace) &&
    labels(o.metadata.labels ?? {}) &&
    fields.every((f) => (fieldOf(o, f.field) === f.value) === (f.op === "="));
}

export function parseBody(req: WireRequest, allowed: string[]): unknown {
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (!allowed.includes(type))
    throw new KubeApiError(
      415,
      "UnsupportedMediaType",
      `the body of the request was in an unknown format - accepted media types include: ${allowed.join(", ")}`,
    );
  try {
    return JSON.parse(req.body) as unknown;
  } catch (e) {
    throw new KubeApiError(
      400,
      "BadRequest",
      `the object provided is unrecognized: ${(e as Error).message}`,
    );
  }
}

export const truthy = (v: string | null) => v === "1" || v === "true";

/** An eviction's answer as the API server sends it: a Status, 429 with the budget's causes and
 * Retry-After (https://kubernetes.io/docs/concepts/scheduling-eviction/api-eviction/). */
export function evictionResponse(r: EvictionOutcome, name: string): WireResponse {
  const resource = "pods/eviction";
  switch (r.status) {
    case 201:
      return kubeStatus(201, "", "", resource);
    case 429:
      return kubeStatus(
        429,
        "TooManyRequests",
        r.message,
        resource,
        {
          causes: r.causes.map((message) => ({ reason: "DisruptionBudget", message })),
          ...(r.retryAfterSeconds !== undefined && { retryAfterSeconds: r.retryAfterSeconds }),
        },
        r.retryAfterSeconds !== undefined ? { "retry-after": String(r.retryAfterSeconds) } : {},
      );
    case 500:
      return kubeStatus(500, "InternalError", `Internal error occurred: ${r.message}`, resource);
    case 404:
      return kubeStatus(404, "NotFound", r.message, resource, { name, kind: "pods" });
    case 403:
      // An eviction in a namespace being deleted carries the NamespaceTerminating cause, as the
      // API server's namespace lifecycle admission answers it.
      return kubeStatus(
        403,
        "Forbidden",
        r.message,
        resource,
        r.namespaceTerminating
          ? {
              name,
              kind: "pods",
              causes: [
                {
                  reason: "NamespaceTerminating",
                  message: r.message,
                  field: "metadata.namespace",
                },
              ],
            }
          : undefined,
      );
  }
}

/** A PersistentVolumeClaim (namespaced) or a PersistentVolume (not), by its name. */
export function volumeOf(cluster: Cluster, t: Target): Promise<object> {
  return t.namespace !== undefined
    ? cluster.getPersistentVolumeClaim(t.namespace, t.name as string)
    : cluster.getPersistentVolume(t.name as string);
}
