// The Cluster port over the Kubernetes API (KubeHttp): scoped, paginated lists; watches as
// newline-delimited JSON; evictions answered with their HTTP status; merge patches with a
// resourceVersion precondition where asked.
import type {
  Cluster,
  EvictionOutcome,
  Lease,
  List,
  ListOptions,
  Node,
  NodePatch,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodDisruptionBudget,
  WatchEvent,
  WatchOptions,
  Workload,
} from "../../ports/index.js";
import { asNetworkError, KubeApiError } from "../../ports/index.js";
import { KubeHttp, kubeError, retryAfterOf } from "./http.js";
import { PagesAhead } from "./pages-ahead.js";
import { isBudgetRefusal, isSeveralBudgets } from "./retry.js";

const WORKLOAD_PATH: Record<Workload["kind"], string> = {
  Deployment: "deployments",
  ReplicaSet: "replicasets",
  StatefulSet: "statefulsets",
  DaemonSet: "daemonsets",
};

function listQuery(opts: ListOptions = {}) {
  return {
    labelSelector: opts.labelSelector,
    fieldSelector: opts.fieldSelector,
    limit: opts.limit,
    continue: opts.continue,
    resourceVersion: opts.resourceVersion,
  };
}

const ns = (namespace: string | undefined, resource: string, group = "/api/v1") =>
  namespace
    ? `${group}/namespaces/${encodeURIComponent(namespace)}/${resource}`
    : `${group}/${resource}`;

/**
 * A watch as an async iterable of events; a 410 (too old) surfaces as KubeApiError(410), a
 * refusal (429 with Retry-After) as KubeApiError(429), a dead or silent connection as a
 * NetworkError. The server ends it after `timeoutSeconds`; the connection is dead when no byte
 * comes for longer than that (BOOKMARKs keep a quiet watch talking).
 */
async function* watch<T>(
  http: KubeHttp,
  path: string,
  opts: WatchOptions = {},
): AsyncIterable<WatchEvent<T>> {
  const { res, req } = await http.open(
    {
      method: "GET",
      path,
      query: {
        watch: 1,
        allowWatchBookmarks: opts.allowWatchBookmarks ?? true,
        timeoutSeconds: opts.timeoutSeconds,
        labelSelector: opts.labelSelector,
        fieldSelector: opts.fieldSelector,
        resourceVersion: opts.resourceVersion,
      },
    },
    {
      idleMs: KubeHttp.watchIdleMs(opts.timeoutSeconds),
      ...(opts.signal && { signal: opts.signal }),
    },
  );
  if ((res.statusCode ?? 0) >= 300) {
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    throw kubeError(res.statusCode ?? 0, Buffer.concat(chunks).toString("utf8"), retryAfterOf(res));
  }
  let buffer = "";
  try {
    for await (const chunk of res) {
      buffer += (chunk as Buffer).toString("utf8");
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        const event = JSON.parse(line) as {
          type: string;
          object: T & { code?: number; message?: string; reason?: string };
        };
        if (event.type === "ERROR")
          throw new KubeApiError(
            event.object.code ?? 500,
            event.object.reason ?? "Error",
            event.object.message ?? "watch error",
          );
        yield event as WatchEvent<T>;
      }
    }
  } catch (e) {
    if (opts.signal?.aborted) return;
    throw asNetworkError(e) ?? e;
  } finally {
    // A watch given up on (stale, aborted) must not keep its socket; a finished one is pooled.
    if (!res.complete) req.destroy();
  }
}

/** An eviction's refusal as the port says it (exported for the tests of its wire shapes). */
export function evictionOutcome(e: unknown): EvictionOutcome {
  if (!(e instanceof KubeApiError)) throw e;
  const causes = (e as KubeApiError & { causes?: string[] }).causes ?? [];
  switch (e.status) {
    case 429:
      // API throttling (no budget named) stays an error: retried, never a budget's refusal.
      if (!isBudgetRefusal(e)) throw e;
      return {
        status: 429,
        message: e.message,
        causes,
        ...(e.retryAfterSeconds !== undefined && { retryAfterSeconds: e.retryAfterSeconds }),
      };
    case 500:
      if (!isSeveralBudgets(e)) throw e;
      return { status: 500, message: e.message };
    case 404:
      return { status: 404, message: e.message };
    case 403: {
      // An eviction in a namespace being deleted is refused with this cause (Kubernetes API:
      // StatusCause NamespaceTerminating); kubectl drain waits that one out.
      const reasons = (e as KubeApiError & { causeReasons?: string[] }).causeReasons ?? [];
      return {
        status: 403,
        message: e.message,
        ...(reasons.includes("NamespaceTerminating") && { namespaceTerminating: true as const }),
      };
    }
    default:
      throw e;
  }
}

export function kubernetesCluster(http: KubeHttp): Cluster {
  const pages = new PagesAhead(http);
  return {
    endpoint: http.endpoint(),
    listNodes: (opts) =>
      pages.list<List<Node>>({ method: "GET", path: "/api/v1/nodes", query: listQuery(opts) }),
    getNode: (name) =>
      http.json<Node>({ method: "GET", path: `/api/v1/nodes/${encodeURIComponent(name)}` }),
    watchNodes: (opts) => watch<Node>(http, "/api/v1/nodes", opts),
    patchNode: (name, patch: NodePatch) => {
      const metadata = {
        ...(patch.labels && { labels: patch.labels }),
        ...(patch.annotations && { annotations: patch.annotations }),
        ...(patch.resourceVersion && { resourceVersion: patch.resourceVersion }),
      };
      const spec = {
        ...(patch.taints && { taints: patch.taints }),
        ...(patch.unschedulable !== undefined && { unschedulable: patch.unschedulable }),
      };
      return http.json<Node>({
        method: "PATCH",
        path: `/api/v1/nodes/${encodeURIComponent(name)}`,
        body: { metadata, spec },
        contentType: "application/merge-patch+json",
      });
    },
    listPods: (namespace, opts) =>
      pages.list<List<Pod>>({ method: "GET", path: ns(namespace, "pods"), query: listQuery(opts) }),
    deletePod: async (namespace, name, opts) => {
      await http.json({
        method: "DELETE",
        path: `${ns(namespace, "pods")}/${encodeURIComponent(name)}`,
        body: {
          apiVersion: "v1",
          kind: "DeleteOptions",
          ...(opts?.gracePeriodSeconds !== undefined && {
            gracePeriodSeconds: opts.gracePeriodSeconds,
          }),
        },
      });
    },
    evictPod: async (namespace, name, opts) => {
      const body = {
        apiVersion: "policy/v1",
        kind: "Eviction",
        metadata: { name, namespace },
        ...(opts?.dryRun && { deleteOptions: { dryRun: ["All"] } }),
      };
      try {
        await http.json(
          {
            method: "POST",
            path: `${ns(namespace, "pods")}/${encodeURIComponent(name)}/eviction`,
            body,
          },
          true,
        );
        return { status: 201 };
      } catch (e) {
        return evictionOutcome(e);
      }
    },
    watchPods: (namespace, opts) => watch<Pod>(http, ns(namespace, "pods"), opts),
    listPodDisruptionBudgets: (namespace, opts) =>
      pages.list<List<PodDisruptionBudget>>({
        method: "GET",
        path: ns(namespace, "poddisruptionbudgets", "/apis/policy/v1"),
        query: listQuery(opts),
      }),
    watchPodDisruptionBudgets: (namespace, opts) =>
      watch<PodDisruptionBudget>(
        http,
        ns(namespace, "poddisruptionbudgets", "/apis/policy/v1"),
        opts,
      ),
    getWorkload: (kind, namespace, name) =>
      http.json<Workload>({
        method: "GET",
        path: `${ns(namespace, WORKLOAD_PATH[kind], "/apis/apps/v1")}/${encodeURIComponent(name)}`,
      }),
    listWorkloads: (kind, namespace, opts) =>
      pages.list<List<Workload>>({
        method: "GET",
        path: ns(namespace, WORKLOAD_PATH[kind], "/apis/apps/v1"),
        query: listQuery(opts),
      }),
    getPersistentVolumeClaim: (namespace, name) =>
      http.json<PersistentVolumeClaim>({
        method: "GET",
        path: `${ns(namespace, "persistentvolumeclaims")}/${encodeURIComponent(name)}`,
      }),
    getPersistentVolume: (name) =>
      http.json<PersistentVolume>({
        method: "GET",
        path: `/api/v1/persistentvolumes/${encodeURIComponent(name)}`,
      }),
    getLease: (namespace, name) =>
      http.json<Lease>({
        method: "GET",
        path: `${ns(namespace, "leases", "/apis/coordination.k8s.io/v1")}/${encodeURIComponent(name)}`,
      }),
    createLease: (namespace, lease) =>
      http.json<Lease>({
        method: "POST",
        path: ns(namespace, "leases", "/apis/coordination.k8s.io/v1"),
        body: { apiVersion: "coordination.k8s.io/v1", kind: "Lease", ...lease },
      }),
    updateLease: (namespace, lease) =>
      http.json<Lease>({
        method: "PUT",
        path: `${ns(namespace, "leases", "/apis/coordination.k8s.io/v1")}/${encodeURIComponent(lease.metadata.name)}`,
        body: { apiVersion: "coordination.k8s.io/v1", kind: "Lease", ...lease },
      }),
  };
}
