// The bearer token EKS's API server accepts, made without the aws CLI, and kept fresh. The
// format (a presigned STS GetCallerIdentity URL behind "k8s-aws-v1.") is in
// src/protocols/eks-token.ts, which the sandbox's STS face shares to check tokens.
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from "@smithy/types";
import { encodeEksToken, GET_CALLER_IDENTITY, presignStsGet } from "../../protocols/eks-token.js";

export { CLUSTER_ID_HEADER, TOKEN_PREFIX } from "../../protocols/eks-token.js";

/** The authenticator accepts a token for 15 minutes; refresh a minute before that. */
export const TOKEN_LIFETIME_MS = 14 * 60_000;
/** What `aws eks get-token` asks for: the URL itself need only live until the server uses it. */
const PRESIGN_SECONDS = 60;

export interface EksTokenOptions {
  clusterName: string;
  region: string;
  credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /**
   * The STS endpoint the token names, only when asked for (a test, a private endpoint the
   * cluster's authenticator is configured to accept). Never taken from AWS_ENDPOINT_URL_STS:
   * the token is read by the cluster's authenticator, not by this process.
   */
  stsEndpoint?: string;
  now?: () => Date;
}

/**
 * The regional STS endpoint of the region's partition — the hosts aws-iam-authenticator accepts
 * in a token (its STS host check, by partition: aws and aws-us-gov under amazonaws.com, China
 * under amazonaws.com.cn, the ISO partitions under their own domains).
 */
export function stsEndpointFor(region: string): string {
  const suffix = region.startsWith("cn-")
    ? "amazonaws.com.cn"
    : region.startsWith("us-isob-")
      ? "sc2s.sgov.gov"
      : region.startsWith("us-iso-")
        ? "c2s.ic.gov"
        : "amazonaws.com";
  return `https://sts.${region}.${suffix}`;
}

/** One token, valid for the cluster named, signed at `at`. */
export async function createEksToken(options: EksTokenOptions, at: Date): Promise<string> {
  const endpoint = new URL(options.stsEndpoint ?? stsEndpointFor(options.region));
  const signed = await presignStsGet({
    url: endpoint,
    region: options.region,
    clusterName: options.clusterName,
    credentials: options.credentials,
    query: { ...GET_CALLER_IDENTITY },
    expiresIn: PRESIGN_SECONDS,
    at,
  });
  const query = new URLSearchParams(signed.query).toString();
  const url = `${endpoint.protocol}//${endpoint.host}${signed.path}?${query}`;
  return encodeEksToken(url);
}

/** Hands out a cached token and makes a new one before the old one expires. */
export class EksTokenSource {
  private cached?: { token: string; madeAt: number };

  constructor(private readonly options: EksTokenOptions) {}

  async token(): Promise<string> {
    const now = (this.options.now ?? (() => new Date()))();
    if (!this.cached || now.getTime() - this.cached.madeAt >= TOKEN_LIFETIME_MS) {
      this.cached = { token: await createEksToken(this.options, now), madeAt: now.getTime() };
    }
    return this.cached.token;
  }
}
