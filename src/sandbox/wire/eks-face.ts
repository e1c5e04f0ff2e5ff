// The EKS face: REST-JSON over the sandbox's Cloud port, as the EKS API reference lays out its
// paths (GET /clusters/{name}, /clusters/{name}/node-groups[/{ng}[/update-version|update-config]],
// /clusters/{name}/updates[/{id}]). Errors carry x-amzn-errortype and a {"message"} body, which
// is how the SDK and the aws CLI tell one error from another.
import type { Eks, EksUpdate, Nodegroup } from "../../ports/cloud.js";
import { AwsApiError, NetworkError } from "../../ports/errors.js";
import { json, type Face, type WireRequest, type WireResponse } from "./http-server.js";

type Body = Record<string, unknown>;

/** REST-JSON timestamps are epoch seconds. */
const seconds = (d: Date | undefined) => (d ? d.getTime() / 1000 : undefined);

function updateJson(u: EksUpdate): Body {
  return { ...u, createdAt: seconds(u.createdAt) };
}

function nodegroupJson(n: Nodegroup, region: string): Body {
  return {
    ...n,
    nodegroupArn: `arn:aws:eks:${region}:123456789012:nodegroup/${n.clusterName}/${n.nodegroupName}/sandbox`,
    createdAt: seconds(n.createdAt),
    modifiedAt: seconds(n.modifiedAt),
  };
}

/**
 * Offset-based paging with an opaque nextToken; at most `pageSize` items a page, fewer than a
 * client's maxResults when the scenario says so (the API may always return fewer).
 */
function paginate<T>(
  items: T[],
  q: URLSearchParams,
  pageSize = 100,
): { page: T[]; nextToken?: string } {
  const asked = Math.min(100, Math.max(1, Number(q.get("maxResults") ?? 100) || 100));
  const max = Math.min(asked, pageSize);
  const token = q.get("nextToken");
  const offset = token ? Number(Buffer.from(token, "base64url").toString()) || 0 : 0;
  const page = items.slice(offset, offset + max);
  const next =
    offset + max < items.length
      ? Buffer.from(String(offset + max)).toString("base64url")
      : undefined;
  return { page, ...(next && { nextToken: next }) };
}

export function awsJsonError(
  code: string,
  message: string,
  status: number,
  resource: string,
): WireResponse {
  return json(status, { message }, resource, { "x-amzn-errortype": code });
}

/**
 * What the EKS face needs: the Cloud port's EKS (an account's: every cluster's), the region, and
 * when the scenario starts. DescribeCluster's endpoint and certificate authority are the port's:
 * each served cluster's own TLS front and CA (serve.ts).
 */
export interface EksWireView {
  eks: Eks;
  region: string;
  /** The scenario's start (ISO-8601); the cluster was created 90 days before. */
  start: string;
  /** Ids per page of ListClusters, ListNodegroups and ListUpdates (the scenario's eks.updates). */
  pageSize?: number;
}

export class EksFace implements Face {
  readonly name = "eks";
  /** Answer the next N requests with ThrottlingException (tests of the SDK's retries). */
  throttleNext = 0;
  #requestNo = 0;

  constructor(private readonly view: EksWireView) {}

  async handle(req: WireRequest): Promise<WireResponse | undefined> {
    const parts = req.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== "clusters") return undefined;
    const op = this.#operation(req.method, parts);
    if (!op)
      return awsJsonError(
        "UnknownOperationException",
        `No operation for ${req.method} ${req.path}`,
        404,
        "UnknownOperation",
      );
    const requestId = { "x-amzn-requestid": `eks-${++this.#requestNo}` };
    if (this.throttleNext > 0) {
      this.throttleNext--;
      return awsJsonError("ThrottlingException", "Rate exceeded", 429, op);
    }
    try {
      const body = this.#body(req);
      const value = await this.#run(op, parts, req.query, body);
      return json(200, value, op, requestId);
    } catch (e) {
      if (e instanceof NetworkError) throw e; // the server's answer never arrives
      if (e instanceof AwsApiError) return awsJsonError(e.code, e.message, e.status, op);
      return awsJsonError("ServerException", (e as Error).message, 500, op);
    }
  }

  #operation(method: string, p: string[]): string | undefined {
    const route = `${method} ${p.length} ${p[2] ?? ""} ${p[4] ?? ""}`;
    const table: Record<string, string> = {
      "GET 1  ": "ListClusters",
      "GET 2  ": "DescribeCluster",
      "GET 3 node-groups ": "ListNodegroups",
      "GET 4 node-groups ": "DescribeNodegroup",
      "POST 5 node-groups update-version": "UpdateNodegroupVersion",
      "POST 5 node-groups update-config": "UpdateNodegroupConfig",
      "GET 3 updates ": "ListUpdates",
      "GET 4 updates ": "DescribeUpdate",
    };
    return table[route];
  }

  #body(req: WireRequest): Body {
    if (req.method !== "POST") return {};
    if (!/json/.test(String(req.headers["content-type"] ?? "")))
      throw new AwsApiError(
        "UnsupportedMediaTypeException",
        "The request's content type is not application/json.",
        415,
      );
    try {
      const body: unknown = JSON.parse(req.body || "{}");
      if (body && typeof body === "object" && !Array.isArray(body)) return body as Body;
    } catch {
      /* answered below */
    }
    throw new AwsApiError("SerializationException", "The request body is not a JSON object.", 400);
  }

  async #run(op: string, p: string[], q: URLSearchParams, body: Body): Promise<unknown> {
    const eks = this.view.eks;
    const cluster = p[1]!;
    const region = this.view.region;
    const size = this.view.pageSize;
    switch (op) {
      case "ListClusters": {
        const { page, nextToken } = paginate(await eks.listClusters(), q, size);
        return { clusters: page, ...(nextToken && { nextToken }) };
      }
      case "DescribeCluster": {
        const c = await eks.describeCluster(cluster);
        return {
          cluster: {
            ...c,
            createdAt: seconds(new Date(Date.parse(this.view.start) - 90 * 86_400_000)),
            platformVersion: "eks.1",
          },
        };
      }
      case "ListNodegroups": {
        const { page, nextToken } = paginate(await eks.listNodegroups(cluster), q, size);
        return { nodegroups: page, ...(nextToken && { nextToken }) };
      }
      case "DescribeNodegroup":
        return { nodegroup: nodegroupJson(await eks.describeNodegroup(cluster, p[3]!), region) };
      case "UpdateNodegroupVersion":
        return {
          update: updateJson(
            await eks.updateNodegroupVersion({
              ...(body as object),
              clusterName: cluster,
              nodegroupName: p[3]!,
            }),
          ),
        };
      case "UpdateNodegroupConfig":
        return {
          update: updateJson(
            await eks.updateNodegroupConfig({
              ...(body as object),
              clusterName: cluster,
              nodegroupName: p[3]!,
            }),
          ),
        };
      case "ListUpdates": {
        const ng = q.get("nodegroupName") ?? undefined;
        const ids = await eks.listUpdates({ name: cluster, ...(ng && { nodegroupName: ng }) });
        const { page, nextToken } = paginate(ids, q, size);
        return { updateIds: page, ...(nextToken && { nextToken }) };
      }
      default: {
        const ng = q.get("nodegroupName") ?? undefined;
        const u = await eks.describeUpdate({
          name: cluster,
          updateId: p[3]!,
          ...(ng && { nodegroupName: ng }),
        });
        return { update: updateJson(u) };
      }
    }
  }
}
