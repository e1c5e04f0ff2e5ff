// A raw error from the AWS SDK, Node's sockets or the Kubernetes client, with the hint that
// gets a person going again: where credentials come from (or try the sandbox), which region and
// account a missing cluster was looked for in, which API and endpoint refused a connection.
export interface HintContext {
  cluster?: string;
  region?: string;
  kubeconfig?: string;
  env?: NodeJS.ProcessEnv;
}

interface ErrorLike {
  name?: string;
  code?: string;
  message?: string;
  address?: string;
  port?: number;
  cause?: unknown;
}

/**
 * The error, or a cause in its chain, that has a socket error code: the first that also says
 * where (address or hostname: Node's own), else the first (a port's NetworkError).
 */
function socketError(e: unknown): ErrorLike | undefined {
  let first: ErrorLike | undefined;
  for (let cur = e as ErrorLike | undefined, i = 0; cur && i < 5; cur = cur.cause as ErrorLike, i++)
    if (typeof cur.code === "string" && /^E[A-Z]+$/.test(cur.code)) {
      if (cur.address !== undefined || (cur as { hostname?: string }).hostname !== undefined)
        return cur;
      first ??= cur;
    }
  return first;
}

/** Which API an endpoint belongs to, from the standard AWS_ENDPOINT_URL_* variables. */
function apiAt(host: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith("AWS_ENDPOINT_URL") || !value) continue;
    try {
      const u = new URL(value);
      if (`${u.hostname}:${u.port}` === host) {
        const service = name.replace(/^AWS_ENDPOINT_URL_?/, "").replace(/_/g, " ") || "AWS";
        return `the ${service} API (${name}=${value})`;
      }
    } catch {
      // not a URL: not ours to judge
    }
  }
  return undefined;
}

function refused(s: ErrorLike, ctx: HintContext): string {
  const host = `${s.address ?? "?"}:${s.port ?? "?"}`;
  const api =
    apiAt(host, ctx.env ?? {}) ??
    (ctx.kubeconfig
      ? `probably the Kubernetes API named in ${ctx.kubeconfig}`
      : "an AWS API (AWS_ENDPOINT_URL_*) or the cluster's Kubernetes endpoint from EKS");
  return `nothing answers at ${host}: ${api}. Check that endpoint, or try the built-in sandbox: --sandbox demo`;
}

/** A hint for a raw error, or undefined when there is nothing useful to add. */
export function hintFor(e: unknown, ctx: HintContext = {}): string | undefined {
  const err = (e ?? {}) as ErrorLike;
  const text = `${err.name ?? ""} ${err.message ?? ""}`;
  if (err.name === "CredentialsProviderError" || /Could not load credentials/i.test(text))
    return "no AWS credentials were found. Set AWS_PROFILE (after `aws sso login`) or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; in GitHub Actions use aws-actions/configure-aws-credentials. To try noderoll without AWS: --sandbox demo";
  if (
    (err.name === "ResourceNotFoundException" || err.code === "ResourceNotFoundException") &&
    /cluster/i.test(err.message ?? "")
  )
    return `EKS has no cluster "${ctx.cluster ?? "?"}" in region ${ctx.region ?? "?"} of the account these credentials belong to: check cluster.name and cluster.region in the policy, and the account with \`aws sts get-caller-identity\``;
  const s = socketError(e);
  if (s?.code === "ECONNREFUSED") return refused(s, ctx);
  if (s?.code === "ENOTFOUND" || s?.code === "EAI_AGAIN")
    return `the name ${(s as { hostname?: string }).hostname ?? "?"} does not resolve: check the endpoint and the network`;
  return undefined;
}
