// The Kubernetes API face: the JSON API over the sandbox's Cluster port, enough for the real
// adapter (src/adapters/kubernetes) and for kubectl get / cordon / drain. Bearer tokens are
// checked as EKS would (a presigned STS URL) or against the sandbox's static token. Every
// failure is a Status body with the API server's status code and reason; nothing a client
// sends can crash the server.
import type { Lease, Node, Pod, Workload } from "../../ports/cluster.js";
import { KubeApiError } from "../../ports/errors.js";
import type { VirtualClock } from "../model/clock.js";
import type { ApiGate } from "../ports/api-gate.js";
import {
  json,
  RESOURCE_HEADER,
  type Face,
  type WireRequest,
  type WireResponse,
} from "./http-server.js";
import {
  apiGroupDoc,
  apiGroupListDoc,
  apiVersionsDoc,
  RESOURCES,
  resourceListDoc,
  versionDoc,
} from "./kube-discovery.js";
import { PATCH_TYPES, patchNodeBody } from "./kube-patch.js";
import { toTable, wantsTable } from "./kube-table.js";
import {
  fromError,
  KINDS,
  kubeStatus,
  listOptions,
  objectFilter,
  parseBody,
  parseTarget,
  PUBLIC,
  truthy,
  evictionResponse,
  volumeOf,
  type Target,
} from "./kube-request.js";
import {
  WatchHub,
  watchStream,
  type KubeEvents,
  type KubeObject,
  type WatchKind,
  type WatchPlan,
} from "./kube-watch.js";
import { DEFAULT_CREDENTIALS, verifyEksToken, type SandboxCredentials } from "./sts-face.js";
import type { SandboxClusterApi } from "../ports/api.js";

/** The port's call a wire watch is counted and throttled as. */
const WATCH_CALLS: Record<WatchKind, string> = {
  nodes: "core.watchNodes",
  pods: "core.watchPods",
  poddisruptionbudgets: "policy.watchPodDisruptionBudgets",
};

/** The bearer token `serveSandbox` writes into the kubeconfig. */
export const SANDBOX_TOKEN = "noderoll-sandbox-token";

export interface KubernetesFaceOptions {
  /** Static tokens accepted besides EKS tokens (default: SANDBOX_TOKEN). */
  tokens?: string[];
  /** Credentials whose EKS tokens are accepted (default: the sandbox's). */
  credentials?: SandboxCredentials[];
  /** Real milliseconds between BOOKMARK events on watches that allow them. */
  bookmarkMs?: number;
  /** Watch history length; older resourceVersions answer 410 Gone. */
  historyLimit?: number;
}

/** What the Kubernetes face needs of the world. */
export interface KubernetesWireView {
  /** The Cluster port, which answers every resource request. */
  cluster: SandboxClusterApi;
  clusterName: string;
  /** The control plane's version ("1.33"), for /version. */
  version: string;
  clock: VirtualClock;
  /** Counts and throttles watches (they bypass the port's own gate, see #throttleWatch). */
  gate: ApiGate;
  /** The simulator's change events, for the watch history. */
  kube: KubeEvents;
}

export class KubernetesFace implements Face {
  readonly name = "kubernetes";
  readonly hub: WatchHub;
  /** Answer the next N resource requests with 429 + Retry-After (tests of client retries). */
  throttleNext = 0;
  throttleRetryAfter = 1;
  readonly #tokens: Set<string>;

  constructor(
    private readonly view: KubernetesWireView,
    private readonly options: KubernetesFaceOptions = {},
  ) {
    this.hub = new WatchHub(view.kube, options.historyLimit);
    this.#tokens = new Set(options.tokens ?? [SANDBOX_TOKEN]);
  }

  /**
   * The catch-all face: anything no other face took is a Kubernetes request. Every answer's Date
   * header is the world's time, as a real API server's is its own clock's: a client reads the
   * server's clock from it (src/adapters/kubernetes/http.ts), and the world's is not the wall's.
   */
  async handle(req: WireRequest): Promise<WireResponse> {
    const response = await this.#answer(req);
    const date = new Date(this.view.clock.nowMs()).toUTCString();
    return { ...response, headers: { ...response.headers, date } };
  }

  async #answer(req: WireRequest): Promise<WireResponse> {
    try {
      if (!PUBLIC.has(req.path) && !(await this.#authenticated(req)))
        return kubeStatus(401, "Unauthorized", "Unauthorized", "unauthorized");
      return await this.#route(req);
    } catch (e) {
      return fromError(e, "error");
    }
  }

  async #authenticated(req: WireRequest): Promise<boolean> {
    const m = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ""));
    if (!m) return false;
    const token = m[1]!;
    if (this.#tokens.has(token)) return true;
    // Tokens are made with the wall clock by clients, so they are checked against it too.
    const check = await verifyEksToken(
      token,
      this.view.clusterName,
      this.options.credentials ?? [DEFAULT_CREDENTIALS],
      new Date(),
    );
    return check.ok;
  }

  #route(req: WireRequest): Promise<WireResponse> | WireResponse {
    const discovery = this.#discovery(req);
    if (discovery) return discovery;
    const t = parseTarget(req.path);
    const known = t && RESOURCES[t.groupVersion]?.find((r) => r.name === t.resource);
    // Cluster-scoped resources have no namespace; a namespaced one is only listed without one.
    const misplaced =
      known &&
      (known.namespaced
        ? t.namespace === undefined && (t.name || t.resource === "leases")
        : t.namespace !== undefined);
    if (!t || !known || misplaced)
      return kubeStatus(
        404,
        "NotFound",
        "the server could not find the requested resource",
        "unknown",
      );
    const resource = t.sub ? `${t.resource}/${t.sub}` : t.resource;
    if (this.throttleNext > 0) {
      this.throttleNext--;
      const after = this.throttleRetryAfter;
      return kubeStatus(
        429,
        "TooManyRequests",
        "Too many requests, please try again later.",
        resource,
        { retryAfterSeconds: after },
        { "retry-after": String(after) },
      );
    }
    return this.#resource(req, t).catch((e: unknown) => fromError(e, resource));
  }

  #discovery(req: WireRequest): WireResponse | undefined {
    if (req.method !== "GET") return undefined;
    const p = req.path.replace(/\/$/, "") || "/";
    const doc = (value: unknown) =>
      value === undefined ? undefined : json(200, value, "discovery");
    if (p === "/version") return doc(versionDoc(this.view.version));
    if (p === "/healthz" || p === "/livez" || p === "/readyz")
      return {
        status: 200,
        headers: { "content-type": "text/plain", [RESOURCE_HEADER]: "health" },
        body: "ok",
      };
    if (p === "/api") return doc(apiVersionsDoc(String(req.headers.host ?? "127.0.0.1")));
    if (p === "/apis") return doc(apiGroupListDoc());
    const m = /^\/(?:api\/(v1)|apis\/([^/]+)(?:\/([^/]+))?)$/.exec(p);
    if (!m) return undefined;
    if (m[1]) return doc(resourceListDoc("v1"));
    if (m[3]) return doc(resourceListDoc(`${m[2]}/${m[3]}`));
    return doc(apiGroupDoc(m[2]!));
  }

  async #resource(req: WireRequest, t: Target): Promise<WireResponse> {
    const key = `${req.method} ${t.resource}${t.name ? "/name" : ""}${t.sub ? `/${t.sub}` : ""}`;
    switch (key) {
      case "GET nodes":
      case "GET pods":
      case "GET poddisruptionbudgets":
        return truthy(req.query.get("watch")) ? this.#watch(req, t) : this.#list(req, t);
      case "GET daemonsets":
      case "GET deployments":
      case "GET replicasets":
      case "GET statefulsets":
        return this.#list(req, t);
      case "GET nodes/name":
        return this.#shown(req, "nodes", await this.view.cluster.getNode(t.name!));
      case "PATCH nodes/name":
        return this.#patchNode(req, t.name!);
      case "GET pods/name":
        return this.#shown(req, "pods", await this.view.cluster.getPod(t.namespace!, t.name!));
      case "DELETE pods/name":
        return this.#deletePod(req, t.namespace!, t.name!);
      case "POST pods/name/eviction":
        return this.#evict(req, t.namespace!, t.name!);
      case "GET daemonsets/name":
      case "GET deployments/name":
      case "GET replicasets/name":
      case "GET statefulsets/name":
        return this.#workload(t);
      case "GET persistentvolumeclaims/name":
      case "GET persistentvolumes/name":
        return this.#object(t.resource, await volumeOf(this.view.cluster, t));
      case "GET leases/name":
        return this.#object("leases", await this.view.cluster.getLease(t.namespace!, t.name!));
      case "POST leases":
        return this.#createLease(req, t.namespace!);
      case "PUT leases/name":
        return this.#updateLease(req, t.namespace!, t.name!);
      case "DELETE leases/name":
        return this.#deleteLease(t.namespace!, t.name!);
    }
    return kubeStatus(
      405,
      "MethodNotAllowed",
      `the server does not allow this method on the requested resource`,
      t.resource,
    );
  }

  /** An object, or a one-row Table when kubectl asks to print it. */
  #shown(req: WireRequest, resource: string, obj: Node | Pod): WireResponse {
    if (!wantsTable(req.headers.accept)) return this.#object(resource, obj);
    const meta = { resourceVersion: obj.metadata.resourceVersion ?? "" };
    return json(200, toTable(resource, [obj], meta, this.view.clock.nowMs()), resource);
  }

  #object(resource: string, obj: object, status = 200): WireResponse {
    return json(status, { ...KINDS[resource], ...obj }, resource);
  }

  async #list(req: WireRequest, t: Target): Promise<WireResponse> {
    const opts = listOptions(req.query);
    const c = this.view.cluster;
    const { kind, apiVersion } = KINDS[t.resource]!;
    const list =
      t.resource === "nodes"
        ? await c.listNodes(opts)
        : t.resource === "pods"
          ? await c.listPods(t.namespace, opts)
          : t.resource === "poddisruptionbudgets"
            ? await c.listPodDisruptionBudgets(t.namespace, opts)
            : await c.listWorkloads(kind as Workload["kind"], t.namespace, opts);
    const meta = list.metadata.continue
      ? list.metadata
      : { resourceVersion: list.metadata.resourceVersion };
    if (wantsTable(req.headers.accept))
      return json(200, toTable(t.resource, list.items, meta, this.view.clock.nowMs()), t.resource);
    return json(
      200,
      { kind: `${kind}List`, apiVersion, metadata: meta, items: list.items },
      t.resource,
    );
  }

  /**
   * A wire watch is served from the hub, not through the Cluster port, so it passes the gate
   * here: counted as the port's watch call, throttled by the same faults (without a timeline
   * event, unlike the port's).
   */
  #throttleWatch(call: string): void {
    const th = this.view.gate.admit(call, "kubernetes");
    if (th)
      throw new KubeApiError(
        429,
        "TooManyRequests",
        "Too many requests, please try again later.",
        th.retryAfter,
      );
  }

  async #watch(req: WireRequest, t: Target): Promise<WireResponse> {
    const kind = t.resource as WatchKind;
    const resource = `${kind}/watch`;
    this.#throttleWatch(WATCH_CALLS[kind]);
    const filter = objectFilter(kind, t.namespace, req.query) as (o: unknown) => boolean;
    const rvText = req.query.get("resourceVersion") ?? "";
    const { kind: objectKind, apiVersion } = KINDS[kind]!;
    const bookmark = (annotations?: Record<string, string>) => ({
      kind: objectKind,
      apiVersion,
      metadata: { resourceVersion: String(this.hub.last), ...(annotations && { annotations }) },
    });
    let initial: { type: string; object: KubeObject }[];
    const afterInitial: unknown[] = [];
    if (rvText === "" || rvText === "0") {
      const items = await this.#current(kind, t.namespace, req.query);
      initial = items.map((object) => ({ type: "ADDED", object }));
      if (truthy(req.query.get("sendInitialEvents")))
        afterInitial.push({
          type: "BOOKMARK",
          object: bookmark({ "k8s.io/initial-events-end": "true" }),
        });
    } else {
      const rv = Number(rvText);
      if (!Number.isInteger(rv) || rv < 0)
        throw new KubeApiError(400, "BadRequest", `invalid resource version "${rvText}"`);
      const replay = this.hub.since(rv, kind, filter);
      if (!replay) return this.#gone(rv, resource);
      initial = replay.map((e) => ({ type: e.type, object: e.object }));
    }
    // `kubectl get -w` asks for Table rows; everyone else gets the objects.
    const table = wantsTable(req.headers.accept);
    const render = (o: KubeObject) =>
      table
        ? toTable(
            kind,
            [o],
            { resourceVersion: o.metadata.resourceVersion ?? "" },
            this.view.clock.nowMs(),
          )
        : { kind: objectKind, apiVersion, ...o };
    const timeout = Number(req.query.get("timeoutSeconds") ?? 0);
    const stream = watchStream({
      hub: this.hub,
      kind,
      filter,
      initial,
      afterInitial,
      render,
      bookmarks: truthy(req.query.get("allowWatchBookmarks")),
      bookmarkMs: this.options.bookmarkMs ?? 1000,
      bookmarkObject: () => bookmark(),
      ...(timeout > 0 && { timeoutMs: timeout * 1000 }),
      ...this.#trouble(),
    });
    return {
      status: 200,
      headers: { "content-type": "application/json", [RESOURCE_HEADER]: resource },
      stream,
    };
  }

  /** A watch fault the scenario asks for, if this watch meets one. */
  #trouble(): Partial<WatchPlan> {
    const trouble = this.view.gate.watchFault();
    if (!trouble) return {};
    return { trouble, after: (ms, fn) => this.view.clock.after(ms, fn) };
  }

  async #current(
    kind: WatchKind,
    namespace: string | undefined,
    q: URLSearchParams,
  ): Promise<KubeObject[]> {
    const opts = {
      labelSelector: q.get("labelSelector") ?? "",
      fieldSelector: q.get("fieldSelector") ?? "",
    };
    const c = this.view.cluster;
    if (kind === "poddisruptionbudgets") return (await c.listPodDisruptionBudgets(namespace)).items;
    return kind === "nodes"
      ? (await c.listNodes(opts)).items
      : (await c.listPods(namespace, opts)).items;
  }

  /** A too-old resourceVersion: the watch opens, says 410 Expired in an ERROR event, and ends. */
  #gone(rv: number, resource: string): WireResponse {
    const status = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `too old resource version: ${rv} (${this.hub.floor})`,
      reason: "Expired",
      code: 410,
    };
    return {
      status: 200,
      headers: { "content-type": "application/json", [RESOURCE_HEADER]: resource },
      stream: (res) => res.end(JSON.stringify({ type: "ERROR", object: status }) + "\n"),
    };
  }

  async #patchNode(req: WireRequest, name: string): Promise<WireResponse> {
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    const body = parseBody(req, PATCH_TYPES);
    const node = await this.view.cluster.getNode(name);
    const patch = patchNodeBody(node, type, body);
    const { resourceVersion, ...changes } = patch;
    if (Object.keys(changes).length === 0) {
      if (resourceVersion !== undefined && resourceVersion !== node.metadata.resourceVersion)
        throw new KubeApiError(
          409,
          "Conflict",
          `Operation cannot be fulfilled on nodes "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        );
      return this.#object("nodes", node);
    }
    return this.#object("nodes", await this.view.cluster.patchNode(name, patch));
  }

  async #deletePod(req: WireRequest, namespace: string, name: string): Promise<WireResponse> {
    let grace = req.query.get("gracePeriodSeconds") ?? undefined;
    if (req.body.trim()) {
      const body = parseBody(req, ["application/json"]) as { gracePeriodSeconds?: number };
      if (body.gracePeriodSeconds !== undefined) grace = String(body.gracePeriodSeconds);
    }
    const pod = await this.view.cluster.getPod(namespace, name);
    await this.view.cluster.deletePod(
      namespace,
      name,
      grace !== undefined ? { gracePeriodSeconds: Number(grace) } : {},
    );
    const after = await this.view.cluster.getPod(namespace, name).catch(() => pod);
    return this.#object("pods", after);
  }

  async #evict(req: WireRequest, namespace: string, name: string): Promise<WireResponse> {
    const body = parseBody(req, ["application/json"]) as {
      kind?: string;
      metadata?: { name?: string };
      deleteOptions?: { dryRun?: string[] };
    };
    if (body?.kind !== undefined && body.kind !== "Eviction")
      throw new KubeApiError(400, "BadRequest", `expected an Eviction, got ${body.kind}`);
    if (body?.metadata?.name !== undefined && body.metadata.name !== name)
      throw new KubeApiError(
        400,
        "BadRequest",
        `name in URL does not match name in Eviction object`,
      );
    const dryRun =
      req.query.get("dryRun") === "All" || (body?.deleteOptions?.dryRun ?? []).includes("All");
    const r = await this.view.cluster.evictPod(namespace, name, dryRun ? { dryRun } : {});
    return evictionResponse(r, name);
  }

  async #workload(t: Target): Promise<WireResponse> {
    const kind = KINDS[t.resource]!.kind as Workload["kind"];
    return this.#object(
      t.resource,
      await this.view.cluster.getWorkload(kind, t.namespace!, t.name!),
    );
  }

  #leaseBody(req: WireRequest): Lease {
    const body = parseBody(req, ["application/json"]) as Lease | null;
    if (
      !body ||
      typeof body !== "object" ||
      typeof body.metadata?.name !== "string" ||
      !body.metadata.name
    )
      throw new KubeApiError(
        422,
        "Invalid",
        `Lease.coordination.k8s.io "" is invalid: metadata.name: Required value: name or generateName is required`,
      );
    return { metadata: body.metadata, spec: body.spec ?? {} };
  }

  async #createLease(req: WireRequest, namespace: string): Promise<WireResponse> {
    const lease = this.#leaseBody(req);
    return this.#object("leases", await this.view.cluster.createLease(namespace, lease), 201);
  }

  async #updateLease(req: WireRequest, namespace: string, name: string): Promise<WireResponse> {
    const lease = this.#leaseBody(req);
    if (lease.metadata.name !== name)
      throw new KubeApiError(
        400,
        "BadRequest",
        `the name of the object (${lease.metadata.name}) does not match the name on the URL (${name})`,
      );
    return this.#object("leases", await this.view.cluster.updateLease(namespace, lease));
  }

  async #deleteLease(namespace: string, name: string): Promise<WireResponse> {
    const del = this.view.cluster.deleteLease;
    if (!del) throw new KubeApiError(405, "MethodNotAllowed", "leases cannot be deleted here");
    await del.call(this.view.cluster, namespace, name);
    return kubeStatus(200, "", "", "leases", {
      name,
      group: "coordination.k8s.io",
      kind: "leases",
    });
  }
}
