// The bearer token EKS's API server accepts (the AWS IAM authenticator's format), made without
// the aws CLI: a presigned STS GetCallerIdentity URL carrying the cluster name in the signed
// x-k8s-aws-id header, base64url-encoded behind "k8s-aws-v1.". The server calls that URL to
// learn who we are, so the token never holds the secret key itself.
import { SignatureV4 } from "@smithy/signature-v4";
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from "@smithy/types";
import { NodeSha256 } from "./sha256.js";

export const TOKEN_PREFIX = "k8s-aws-v1.";
export const CLUSTER_ID_HEADER = "x-k8s-aws-id";
/** The authenticator accepts a token for 15 minutes; refresh a minute before that. */
export const TOKEN_LIFETIME_MS = 14 * 60_000;
/** What `aws eks get-token` asks for: the URL itself need only live until the server uses it. */
const PRESIGN_SECONDS = 60;

export interface EksTokenOptions {
  clusterName: string;
  region: string;
  credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** STS endpoint; defaults to AWS_ENDPOINT_URL_STS, AWS_ENDPOINT_URL or the regional one. */
  stsEndpoint?: string;
  now?: () => Date;
}

export function stsEndpointFor(region: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.AWS_ENDPOINT_URL_STS ?? env.AWS_ENDPOINT_URL ?? `https://sts.${region}.amazonaws.com`;
}

/** One token, valid for the cluster named, signed at `at`. */
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
 * A presigned STS GET that signs the cluster name header: how a token is made, and how the
 * sandbox checks one (it re-signs and compares, as STS would).
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

/** One token, valid for the cluster named, signed at `at`. */
export async function createEksToken(options: EksTokenOptions, at: Date): Promise<string> {
  const endpoint = new URL(options.stsEndpoint ?? stsEndpointFor(options.region));
  const signed = await presignStsGet({
    url: endpoint,
    region: options.region,
    clusterName: options.clusterName,
    credentials: options.credentials,
    query: { Action: "GetCallerIdentity", Version: "2011-06-15" },
    expiresIn: PRESIGN_SECONDS,
    at,
  });
  const query = new URLSearchParams(signed.query).toString();
  const url = `${endpoint.protocol}//${endpoint.host}${signed.path}?${query}`;
  return TOKEN_PREFIX + Buffer.from(url).toString("base64url");
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
