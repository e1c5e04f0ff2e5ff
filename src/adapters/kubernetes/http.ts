// A small JSON client for the Kubernetes API: connection and credentials come from
// @kubernetes/client-node's KubeConfig (kubeconfig files, client certificates, tokens, exec
// plugins) or from an EKS token source; every call goes through withKubeRetry, so 429 with
// Retry-After is honoured in one place. Answers are the API's own JSON, which is exactly the
// shape of the Cluster port's types.
import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";
import { KubeApiError } from "../../ports/index.js";
import { withKubeRetry, type KubeRetryOptions } from "./retry.js";

export interface KubeHttpOptions {
  kubeConfig: KubeConfig;
  /** Bearer token per request (EKS), overriding the kubeconfig user's. */
  token?: () => Promise<string>;
  retry: KubeRetryOptions;
}

export interface KubeCall {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
}

function queryString(q: KubeCall["query"]): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q ?? {}))
    if (v !== undefined && v !== "") params.set(k, String(v));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export class KubeHttp {
  constructor(private readonly options: KubeHttpOptions) {}

  private async requestOptions(call: KubeCall): Promise<{ url: URL; opts: RequestOptions }> {
    const cluster = this.options.kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error("the kubeconfig names no current cluster");
    const url = new URL(cluster.server.replace(/\/$/, "") + call.path + queryString(call.query));
    const opts: RequestOptions & { headers: Record<string, string> } = {
      method: call.method,
      headers: {},
    };
    await this.options.kubeConfig.applyToHTTPSOptions(opts);
    opts.headers = { ...(opts.headers as Record<string, string>), accept: "application/json" };
    if (this.options.token) opts.headers.authorization = `Bearer ${await this.options.token()}`;
    if (call.body !== undefined)
      opts.headers["content-type"] = call.contentType ?? "application/json";
    return { url, opts };
  }

  /** One raw exchange: the response stream, after the status line. */
  async open(call: KubeCall): Promise<IncomingMessage> {
    const { url, opts } = await this.requestOptions(call);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    // A length, always: Node sends DELETE bodies neither chunked nor sized by default, and the
    // server then reads the body as the next request.
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    if (body !== undefined)
      (opts.headers as Record<string, string>)["content-length"] = String(Buffer.byteLength(body));
    return new Promise((resolve, reject) => {
      const req = send(url, opts, resolve);
      req.on("error", reject);
      req.end(body);
    });
  }

  async json<T>(call: KubeCall, isEviction = false): Promise<T> {
    return withKubeRetry(
      async () => {
        const res = await this.open(call);
        const chunks: Buffer[] = [];
        for await (const c of res) chunks.push(c as Buffer);
        const text = Buffer.concat(chunks).toString("utf8");
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) return (text ? JSON.parse(text) : {}) as T;
        throw kubeError(status, text, res.headers["retry-after"]);
      },
      this.options.retry,
      isEviction,
    );
  }
}

/** A Status body (or anything else) as a KubeApiError. */
export function kubeError(
  status: number,
  text: string,
  retryAfter?: string | string[],
): KubeApiError {
  let body: {
    reason?: string;
    message?: string;
    details?: { retryAfterSeconds?: number; causes?: { message?: string }[] };
  } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = { message: text.trim() };
  }
  const header = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
  const seconds = Number.isFinite(header) ? header : body.details?.retryAfterSeconds;
  const err = new KubeApiError(
    status,
    body.reason ?? String(status),
    body.message ?? `HTTP ${status}`,
    seconds,
  );
  // withKubeRetry reads these like an HTTP client's error.
  Object.assign(err, {
    code: status,
    headers: seconds !== undefined ? { "retry-after": String(seconds) } : {},
    causes: body.details?.causes?.map((c) => c.message ?? "") ?? [],
  });
  return err;
}
