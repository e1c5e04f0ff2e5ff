// STS for the sandbox: GetCallerIdentity (query protocol, XML), and the check the Kubernetes face
// makes of an EKS bearer token — what EKS's authenticator does by calling STS with the
// presigned URL: the URL must be a GetCallerIdentity for this cluster, fresh, and signed with
// credentials STS knows. The token's format is src/protocols/eks-token.ts, shared with the
// client that makes tokens.
import {
  CLUSTER_ID_HEADER,
  decodeEksToken,
  GET_CALLER_IDENTITY,
  presignStsGet,
} from "../../protocols/eks-token.js";
import { signingService } from "./query-protocol.js";
import { RESOURCE_HEADER, type Face, type WireRequest, type WireResponse } from "./http-server.js";

export interface SandboxCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  arn: string;
}

export const SANDBOX_ACCOUNT = "123456789012";
export const DEFAULT_CREDENTIALS: SandboxCredentials = {
  accessKeyId: "AKIASANDBOXNODEROLL1",
  secretAccessKey: "sandbox-secret-access-key-not-a-real-one",
  arn: `arn:aws:iam::${SANDBOX_ACCOUNT}:role/noderoll`,
};

const TOKEN_MAX_AGE_MS = 15 * 60_000;

/** STS hosts of the AWS partitions: aws, aws-us-gov, aws-cn, and the ISO partitions. */
const STS_HOST =
  /^sts(\.[a-z0-9-]+)?\.(amazonaws\.com|amazonaws\.com\.cn|c2s\.ic\.gov|sc2s\.sgov\.gov)$/;

export type TokenCheck = { ok: true; arn: string } | { ok: false; reason: string };

function parseAmzDate(text: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : undefined;
}

/** Verify an EKS token as the authenticator would, re-signing the URL to check its signature. */
export async function verifyEksToken(
  token: string,
  clusterName: string,
  known: SandboxCredentials[],
  now: Date,
): Promise<TokenCheck> {
  const text = decodeEksToken(token);
  if (text === undefined) return { ok: false, reason: "token is not an EKS token (k8s-aws-v1.)" };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: "token does not decode to a URL" };
  }
  // As aws-iam-authenticator does, only STS of a partition is trusted to vouch for the caller
  // (and the sandbox's own loopback STS, when a client is pointed at it explicitly).
  if (!STS_HOST.test(url.hostname) && url.hostname !== "127.0.0.1")
    return { ok: false, reason: `token names ${url.hostname}, not an STS endpoint` };
  const q = url.searchParams;
  if (q.get("Action") !== GET_CALLER_IDENTITY.Action)
    return { ok: false, reason: "token is not a GetCallerIdentity request" };
  const signedHeaders = (q.get("X-Amz-SignedHeaders") ?? "").split(";");
  if (!signedHeaders.includes(CLUSTER_ID_HEADER))
    return { ok: false, reason: `token does not sign ${CLUSTER_ID_HEADER}` };
  const date = parseAmzDate(q.get("X-Amz-Date") ?? "");
  if (!date) return { ok: false, reason: "token has no X-Amz-Date" };
  if (now.getTime() - date.getTime() > TOKEN_MAX_AGE_MS)
    return { ok: false, reason: "token expired" };
  if (date.getTime() - now.getTime() > 5 * 60_000)
    return { ok: false, reason: "token is from the future" };
  const [accessKeyId, , region] = (q.get("X-Amz-Credential") ?? "").split("/");
  const creds = known.find((c) => c.accessKeyId === accessKeyId);
  if (!creds || !region) return { ok: false, reason: "token is signed by unknown credentials" };
  const query: Record<string, string> = {};
  for (const [k, v] of q)
    if (
      k !== "X-Amz-Signature" &&
      !/^X-Amz-(Algorithm|Credential|Date|Expires|SignedHeaders)$/.test(k)
    )
      query[k] = v;
  const expected = await presignStsGet({
    url,
    region,
    clusterName,
    credentials: creds,
    query,
    expiresIn: Number(q.get("X-Amz-Expires") ?? 60),
    at: date,
  });
  if (expected.query["X-Amz-Signature"] !== q.get("X-Amz-Signature"))
    return { ok: false, reason: "token signature does not match (wrong cluster or key)" };
  return { ok: true, arn: creds.arn };
}

function xml(status: number, body: string, resource: string): WireResponse {
  return { status, headers: { "content-type": "text/xml", [RESOURCE_HEADER]: resource }, body };
}

/** STS GetCallerIdentity over the query protocol (form POST, or GET as presigned URLs do). */
export class StsFace implements Face {
  readonly name = "sts";
  private requestNo = 0;

  constructor(private readonly identity: SandboxCredentials = DEFAULT_CREDENTIALS) {}

  handle(req: WireRequest): WireResponse | undefined {
    const params =
      req.method === "POST" && /x-www-form-urlencoded/.test(req.headers["content-type"] ?? "")
        ? new URLSearchParams(req.body)
        : req.query;
    const action = params.get("Action");
    if (req.path !== "/" || !action || signingService(req.headers, params) !== "sts")
      return undefined;
    const id = `sts-${++this.requestNo}`;
    if (action !== "GetCallerIdentity") {
      return xml(
        400,
        `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>InvalidAction</Code><Message>Could not find operation ${action} for version 2011-06-15</Message></Error><RequestId>${id}</RequestId></ErrorResponse>`,
        action,
      );
    }
    return xml(
      200,
      `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>${this.identity.arn}</Arn><UserId>AROASANDBOX:noderoll</UserId><Account>${SANDBOX_ACCOUNT}</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>${id}</RequestId></ResponseMetadata></GetCallerIdentityResponse>`,
      "GetCallerIdentity",
    );
  }
}
