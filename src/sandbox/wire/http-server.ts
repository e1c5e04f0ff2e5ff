// The sandbox's HTTP front: one loopback server, many faces (Kubernetes, EKS, Auto Scaling,
// EC2, CloudWatch, Prometheus, STS, GitHub). Each face is a function that may answer a request; every request is
// logged and counted so tests and benchmarks can say "plan made 14 requests, none mutating".
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NetworkError } from "../../ports/errors.js";

export interface WireRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
  /** The body's bytes, for a face that reads a binary protocol (CBOR) or a compressed body. */
  raw?: Buffer;
}

export interface WireResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** The body as bytes instead, for a binary protocol (CBOR). */
  bytes?: Uint8Array;
  /** Streaming answers (watches) write themselves; the face then returns no body. */
  stream?: (res: ServerResponse) => void;
  /**
   * A network fault (the scenario's faults.network): reset the connection, or never answer
   * (the client's own timeout ends the exchange).
   */
  drop?: "reset" | "stall";
}

/** A face answers the requests it owns and returns undefined for the others. */
export type Face = {
  name: string;
  handle(req: WireRequest): Promise<WireResponse | undefined> | WireResponse | undefined;
};

export interface LoggedRequest {
  face: string;
  method: string;
  path: string;
  /** The raw query string ("limit=500&fieldSelector=…"), so tests can check pagination. */
  query: string;
  status: number;
  /** What the face calls the thing acted on: "nodes", "pods/eviction", "check-runs", … */
  resource: string;
}

const MAX_BODY = 8 * 1024 * 1024;

export class RequestLog {
  readonly entries: LoggedRequest[] = [];

  add(entry: LoggedRequest): void {
    this.entries.push(entry);
  }

  /** Counts per "METHOD resource", for reports. */
  counts(face?: string): Record<string, number> {
    const out: Record<string, number> = {};
    for (const e of this.entries) {
      if (face && e.face !== face) continue;
      const key = `${e.method} ${e.resource}`;
      out[key] = (out[key] ?? 0) + 1;
    }
    return out;
  }

  mutating(face?: string): LoggedRequest[] {
    return this.entries.filter((e) => (!face || e.face === face) && isMutating(e));
  }
}

/** A request that may change state: any non-read HTTP verb, or an AWS action that writes. */
export function isMutating(e: Pick<LoggedRequest, "method" | "resource">): boolean {
  if (e.method === "GET" || e.method === "HEAD") return false;
  // AWS query and JSON-RPC calls are all POSTs; the action name says whether they write.
  return (
    !/^(Describe|List|Get)/.test(e.resource) &&
    !/^(SelfSubjectAccessReview|TokenReview)$/.test(e.resource)
  );
}

export interface WireServer {
  url: string;
  port: number;
  log: RequestLog;
  close(): Promise<void>;
  server: Server;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error("request body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Which face owns a response, and what it calls the resource (set by the face). */
export const RESOURCE_HEADER = "x-sandbox-resource";

/** The first face that answers, or a plain 404; a face that throws answers 500. */
async function answer(
  faces: Face[],
  request: WireRequest,
): Promise<{ face: string; response: WireResponse }> {
  for (const face of faces) {
    try {
      const response = await face.handle(request);
      if (response) return { face: face.name, response };
    } catch (e) {
      if (e instanceof NetworkError)
        return {
          face: face.name,
          response: { status: 0, drop: e.code === "ETIMEDOUT" ? "stall" : "reset" },
        };
      return {
        face: face.name,
        response: {
          status: 500,
          headers: { "content-type": "text/plain" },
          body: `sandbox error: ${(e as Error).message}`,
        },
      };
    }
  }
  return {
    face: "none",
    response: {
      status: 404,
      headers: { "content-type": "text/plain" },
      body: "404 page not found\n",
    },
  };
}

export async function startWireServer(
  faces: Face[],
  options: { port?: number } = {},
): Promise<WireServer> {
  const log = new RequestLog();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const raw = await readBody(req).catch(() => undefined);
    if (raw === undefined) {
      res.writeHead(413).end();
      return;
    }
    const request: WireRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: raw.toString("utf8"),
      raw,
    };
    const { face, response } = await answer(faces, request);
    const resource = response.headers?.[RESOURCE_HEADER] ?? url.pathname;
    log.add({
      face,
      method: request.method,
      path: url.pathname,
      query: url.search.replace(/^\?/, ""),
      status: response.status,
      resource,
    });
    if (response.drop === "reset") return void req.socket.destroy();
    // A stalled answer: nothing is written; the client gives up on its own.
    if (response.drop === "stall") return;
    const headers = { ...response.headers };
    delete headers[RESOURCE_HEADER];
    if (response.stream) {
      res.writeHead(response.status, headers);
      response.stream(res);
      return;
    }
    res.writeHead(response.status, headers).end(response.bytes ?? response.body ?? "");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(
  status: number,
  value: unknown,
  resource: string,
  extra: Record<string, string> = {},
): WireResponse {
  return {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      [RESOURCE_HEADER]: resource,
      ...extra,
    },
    body: JSON.stringify(value),
  };
}
