// A small JSON client for the Kubernetes API: connection and credentials come from
// @kubernetes/client-node's KubeConfig (kubeconfig files, client certificates, tokens, exec
// plugins) or from an EKS token source. Every request goes through one keep-alive agent with a
// bounded number of sockets (connections are reused, never opened per request) and has a
// deadline: REQUEST_MS for an answer, whole; a watch, an idle deadline past the timeoutSeconds
// it asked the server for. A connection that breaks or stalls fails as a NetworkError, which
// src/ports/resilient.ts retries where that is safe. Every call goes through withKubeRetry, which
// retries a server's 5xx and nothing else: a 429 goes up with its Retry-After for resilient.ts to
// wait out. Closing the client (or aborting the signal it was built with) ends every request and
// watch still open. Answers are the API's own JSON,
// which is exactly the shape of the Cluster port's types.
import { listEnvelope, parseBody, type ListEnvelope } from "./list-body.js";
import {
  Agent as HttpAgent,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { readFileSync } from "node:fs";
import type { KubeConfig } from "@kubernetes/client-node";
import {
  asNetworkError,
  KubeApiError,
  NetworkError,
  retryAfterSeconds,
  type ApiEndpoint,
} from "../../ports/index.js";
import { withKubeRetry, type KubeRetryOptions } from "./retry.js";

/** An answer must have come, whole, within this long. */
export const REQUEST_MS = 30_000;
/** A watch with no bytes for this long past the timeoutSeconds it asked for is dead. */
const WATCH_GRACE_MS = 30_000;
/**
 * Sockets to the API server at most for requests. Watches have a pool of their own: each holds
 * its socket for minutes, and a wide roll window (a pod watch per node draining, the node watch)
 * must not leave a lease renewal queued behind them until its deadline passes.
 */
export const MAX_SOCKETS = 32;

export interface KubeHttpOptions {
  kubeConfig: KubeConfig;
  /** Bearer token per request (EKS), overriding the kubeconfig user's. */
  token?: () => Promise<string>;
  retry: KubeRetryOptions;
  /** Aborting it ends every request and watch in flight (the adapters are closed). */
  signal?: AbortSignal;
  requestTimeoutMs?: number;
}

export interface KubeCall {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
}

export function queryString(q: KubeCall["query"]): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q ?? {}))
    if (v !== undefined && v !== "") params.set(k, String(v));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** TLS settings the agent keeps for every connection it opens. */
const TLS_KEYS = ["ca", "cert", "key", "pfx", "passphrase", "rejectUnauthorized", "servername"];

export class KubeHttp {
  readonly #agents: { request?: HttpAgent; watch?: HttpAgent } = {};
  readonly #open = new Set<ClientRequest>();
  #caData: string | undefined;
  /** The API server's time as read, and this machine's monotonic time when it was. */
  #server: { atMs: number; monoMs: number } | undefined;

  constructor(private readonly options: KubeHttpOptions) {
    options.signal?.addEventListener("abort", () => this.close(), { once: true });
  }

  /**
   * The API server's time now (undefined before its first answer): the Date header of the first
   * answer that had one, moved on by this machine's monotonic clock since, so that setting this
   * machine's clock (NTP) does not move it. A header gives whole seconds, so half a second is
   * added (the server's time was somewhere in that second). Read once: a time that followed each
   * answer would step back and forth by that second, and forward with a server whose clock
   * jumps (the sandbox's world, when idle), and the roll's deadlines are read from it. Only an
   * answer with a JSON body counts — the API server's own, its errors too — not a proxy's error
   * page, which carries the proxy's clock.
   */
  serverNowMs(): number | undefined {
    return this.#server && this.#server.atMs + performance.now() - this.#server.monoMs;
  }

  #noteDate(res: IncomingMessage): void {
    const date = res.headers.date;
    if (this.#server || !date || !/json/i.test(res.headers["content-type"] ?? "")) return;
    const atMs = Date.parse(date) + 500;
    if (Number.isFinite(atMs)) this.#server = { atMs, monoMs: performance.now() };
  }

  /**
   * The API server's URL and the certificate authority TLS verifies it with, as the kubeconfig
   * says (a CA file read once). No CA when TLS is not verified: then it proves nothing.
   */
  endpoint(): ApiEndpoint | undefined {
    const c = this.options.kubeConfig.getCurrentCluster();
    if (!c) return undefined;
    const insecure = c.skipTLSVerify || !c.server.startsWith("https:");
    if (this.#caData === undefined && !insecure)
      this.#caData = c.caData ?? (c.caFile ? readFileSync(c.caFile).toString("base64") : "");
    return {
      server: c.server,
      ...(this.#caData && { caData: this.#caData }),
      ...(insecure && { insecure: true }),
    };
  }

  /** End every request and watch in flight, and the agent's idle connections. */
  close(): void {
    const why = new NetworkError("ECONNABORTED", "the Kubernetes client was closed");
    for (const req of this.#open) req.destroy(why);
    this.#open.clear();
    this.#agents.request?.destroy();
    this.#agents.watch?.destroy();
  }

  /**
   * One keep-alive agent for requests and one for watches, each made from the first call's TLS
   * settings; a proxy keeps its own.
   */
  private agentFor(
    url: URL,
    opts: RequestOptions,
    pool: "request" | "watch",
  ): HttpAgent | undefined {
    if (this.options.kubeConfig.getCurrentCluster()?.proxyUrl) return undefined;
    if (!this.#agents[pool]) {
      const tls = Object.fromEntries(
        TLS_KEYS.flatMap((k) => {
          const v = (opts as Record<string, unknown>)[k];
          return v === undefined ? [] : [[k, v]];
        }),
      );
      const common = {
        keepAlive: true,
        maxSockets: pool === "request" ? MAX_SOCKETS : Infinity,
        maxFreeSockets: 8,
      };
      this.#agents[pool] =
        url.protocol === "https:" ? new HttpsAgent({ ...common, ...tls }) : new HttpAgent(common);
    }
    return this.#agents[pool];
  }

  private async requestOptions(
    call: KubeCall,
    pool: "request" | "watch",
  ): Promise<{ url: URL; opts: RequestOptions }> {
    const cluster = this.options.kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error("the kubeconfig names no current cluster");
    const url = new URL(cluster.server.replace(/\/$/, "") + call.path + queryString(call.query));
    const opts: RequestOptions & { headers: Record<string, string> } = {
      method: call.method,
      headers: {},
    };
    await this.options.kubeConfig.applyToHTTPSOptions(opts);
    const agent = this.agentFor(url, opts, pool);
    if (agent) opts.agent = agent;
    opts.headers = { ...(opts.headers as Record<string, string>), accept: "application/json" };
    if (this.options.token) opts.headers.authorization = `Bearer ${await this.options.token()}`;
    if (call.body !== undefined)
      opts.headers["content-type"] = call.contentType ?? "application/json";
    return { url, opts };
  }

  /**
   * One raw exchange: the response stream, after the status line. `idleMs`: the connection is
   * dead after that long without a byte (watches); `signal` ends it early.
   */
  async open(
    call: KubeCall,
    limits: { idleMs?: number; signal?: AbortSignal } = {},
  ): Promise<{ res: IncomingMessage; req: ClientRequest }> {
    if (this.options.signal?.aborted)
      throw new NetworkError("ECONNABORTED", "the Kubernetes client was closed", 1, false);
    // Only watches ask for an idle deadline instead of a whole-answer one.
    const { url, opts } = await this.requestOptions(call, limits.idleMs ? "watch" : "request");
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    // A length, always: Node sends DELETE bodies neither chunked nor sized by default, and the
    // server then reads the body as the next request.
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    if (body !== undefined)
      (opts.headers as Record<string, string>)["content-length"] = String(Buffer.byteLength(body));
    return new Promise((resolve, reject) => {
      const req = send(url, opts, (res) => {
        this.#noteDate(res);
        resolve({ res, req });
      });
      this.#open.add(req);
      req.on("close", () => this.#open.delete(req));
      req.on("error", (e) => reject(asNetworkError(e) ?? e));
      if (limits.idleMs)
        req.setTimeout(limits.idleMs, () =>
          req.destroy(new NetworkError("ETIMEDOUT", `no bytes for ${limits.idleMs! / 1000} s`)),
        );
      const stop = () => {
        const why: unknown = limits.signal?.reason;
        req.destroy(
          why instanceof NetworkError ? why : new NetworkError("ECONNABORTED", "aborted"),
        );
      };
      if (limits.signal?.aborted) stop();
      limits.signal?.addEventListener("abort", stop, { once: true });
      req.on("close", () => limits.signal?.removeEventListener("abort", stop));
      req.end(body);
    });
  }

  /** A request and its whole answer within REQUEST_MS (`retryAfter`: the seconds it asks for). */
  private async exchange(
    call: KubeCall,
  ): Promise<{ status: number; body: Buffer; retryAfter?: number }> {
    const ms = this.options.requestTimeoutMs ?? REQUEST_MS;
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new NetworkError("ETIMEDOUT", `no answer within ${ms / 1000} s`)),
      ms,
    );
    try {
      const { res } = await this.open(call, { signal: deadline.signal });
      const chunks: Buffer[] = [];
      try {
        for await (const c of res) chunks.push(c as Buffer);
      } catch (e) {
        throw asNetworkError(e) ?? e;
      }
      if (!res.complete) throw new NetworkError("ECONNRESET", "the answer was cut short");
      const retryAfter = retryAfterOf(res);
      return {
        status: res.statusCode ?? 0,
        body: Buffer.concat(chunks),
        ...(retryAfter !== undefined && { retryAfter }),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The answer as JSON. `onList`, for a list: its metadata, before its items are parsed; what
   * it returns is waited for first (a request it sends leaves while the items are parsed).
   */
  async json<T>(
    call: KubeCall,
    isEviction = false,
    onList?: (list: ListEnvelope) => Promise<void> | undefined,
  ): Promise<T> {
    return withKubeRetry(
      async () => {
        const { status, body, retryAfter } = await this.exchange(call);
        if (status >= 200 && status < 300) {
          const list = onList && listEnvelope(body);
          if (list) await onList(list);
          return parseBody(body) as T;
        }
        throw kubeError(status, body.toString("utf8"), retryAfter);
      },
      this.options.retry,
      isEviction,
    );
  }

  /** The idle deadline of a watch that asked the server to end it after `timeoutSeconds`. */
  static watchIdleMs(timeoutSeconds: number | undefined): number {
    return (timeoutSeconds ?? 300) * 1000 + WATCH_GRACE_MS;
  }
}

/** The seconds an answer's Retry-After asks for, a date counted from its own Date header. */
export function retryAfterOf(res: IncomingMessage): number | undefined {
  return retryAfterSeconds(res.headers["retry-after"], res.headers.date, Date.now());
}

/**
 * A Status body (or anything else) as a KubeApiError; `retryAfter`, the seconds its Retry-After
 * header asked for (retryAfterOf), before the body's details.retryAfterSeconds.
 */
export function kubeError(status: number, text: string, retryAfter?: number): KubeApiError {
  let body: {
    reason?: string;
    message?: string;
    details?: {
      retryAfterSeconds?: number;
      causes?: { reason?: string; message?: string }[];
    };
  } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = { message: text.trim() };
  }
  const seconds = retryAfter ?? body.details?.retryAfterSeconds;
  const err = new KubeApiError(
    status,
    body.reason ?? String(status),
    body.message ?? `HTTP ${status}`,
    seconds,
  );
  const causes = body.details?.causes ?? [];
  // withKubeRetry reads the status like an HTTP client's error's code.
  Object.assign(err, {
    code: status,
    causes: causes.map((c) => c.message ?? ""),
    causeReasons: causes.map((c) => c.reason ?? ""),
    // A budget's refusal of an eviction, as opposed to the API server shedding load.
    budget: causes.some((c) => c.reason === "DisruptionBudget"),
  });
  return err;
}
