// The EKS bearer token, as both sides of it agree: the format the AWS IAM Authenticator for
// Kubernetes defines and EKS's API server accepts. A token is "k8s-aws-v1." followed by the
// base64url of a presigned STS GetCallerIdentity URL whose SigV4 signature covers the
// x-k8s-aws-id header, which names the cluster. The server calls that URL to learn who the caller
// is, so the token never holds the secret key itself.
//
// The client side (src/adapters/aws/eks-token.ts) makes tokens with it; the sandbox's STS face
// (src/sandbox/wire/sts-face.ts) checks them by presigning the same request again and comparing
// signatures, as STS would.
import { SignatureV4 } from "@smithy/signature-v4";
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from "@smithy/types";
import { NodeSha256 } from "./sha256.js";

export const TOKEN_PREFIX = "k8s-aws-v1.";
export const CLUSTER_ID_HEADER = "x-k8s-aws-id";
/** The query of the request a token presigns. */
export const GET_CALLER_IDENTITY = { Action: "GetCallerIdentity", Version: "2011-06-15" };

/** A presigned STS GET for the cluster named, signed at `at`. */
export interface PresignInput {
  url: URL;
  region: string;
  clusterName: string;
  credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  query: Record<string, string>;
  expiresIn: number;
  at: Date;
}

/**
 * A presigned STS GET that signs the cluster name header: how a token is made, and how a token
 * is checked (re-sign and compare).
 */
export async function presignStsGet(
  i: PresignInput,
): Promise<{ path: string; query: Record<string, string> }> {
  const signer = new SignatureV4({
    service: "sts",
    region: i.region,
    credentials: i.credentials,
    sha256: NodeSha256,
    uriEscapePath: true,
  });
  const signed = await signer.presign(
    {
      method: "GET",
      protocol: i.url.protocol,
      hostname: i.url.hostname,
      port: i.url.port ? Number(i.url.port) : undefined,
      path: i.url.pathname || "/",
      query: i.query,
      headers: { host: i.url.host, [CLUSTER_ID_HEADER]: i.clusterName },
    },
    { expiresIn: i.expiresIn, signingDate: i.at },
  );
  return { path: signed.path, query: signed.query as Record<string, string> };
}

/** The token for a presigned URL. */
export function encodeEksToken(url: string): string {
  return TOKEN_PREFIX + Buffer.from(url).toString("base64url");
}

/** The presigned URL a token carries (not yet parsed), or undefined when it is no EKS token. */
export function decodeEksToken(token: string): string | undefined {
  if (!token.startsWith(TOKEN_PREFIX)) return undefined;
  return Buffer.from(token.slice(TOKEN_PREFIX.length), "base64url").toString("utf8");
}
