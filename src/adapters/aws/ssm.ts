// The latest EKS AMI release per Kubernetes version (the Cloud port's
// eks.latestReleaseVersions) from the public SSM parameters AWS publishes for the EKS optimized
// AMIs: /aws/service/eks/optimized-ami/<version>/<ami-type>/recommended/<sub-parameter>, whose
// `release_version` sub-parameter names the recommended AMI's release (EKS user guide, "Retrieve
// recommended Amazon Linux AMI IDs": https://docs.aws.amazon.com/eks/latest/userguide/retrieve-ami-id.html;
// the `recommended` value's fields: https://docs.aws.amazon.com/systems-manager/latest/userguide/parameter-store-public-parameters-eks.html).
// The AMI type read is Amazon Linux 2023 x86_64 standard, the one published for every version
// EKS supports (Amazon Linux 2's end at 1.32); the Amazon Linux AMIs of one release share its
// release version.
// GetParameters takes at most 10 names a call (SSM API reference, GetParameters: "Maximum number
// of 10 items"), so more versions are asked in batches; a name SSM does not have comes back in
// InvalidParameters, and its version is simply absent from the answer. The calls go through the
// client cloud.ts makes (its retries, timeouts and abort signal) and its error mapping.
import { GetParametersCommand, type SSMClient } from "@aws-sdk/client-ssm";
import { AwsApiError, isDenied } from "../../ports/errors.js";

/** Names a GetParameters call takes at most. */
export const PARAMETER_NAMES_PER_CALL = 10;

/** The parameter that names the latest EKS AMI release for Kubernetes `version`. */
export function releaseParameter(version: string): string {
  return `/aws/service/eks/optimized-ami/${version}/amazon-linux-2023/x86_64/standard/recommended/release_version`;
}

/** What the role needs to read the parameters (docs/action.md lists it in the roles' policies). */
export const SSM_PERMISSION =
  "the role needs ssm:GetParameters on arn:aws:ssm:*::parameter/aws/service/eks/* to read the latest EKS AMI release (docs/action.md)";

/** A refusal for want of ssm:GetParameters says which permission and where; others as they are. */
export function withPermission(e: unknown): unknown {
  if (!isDenied(e)) return e;
  return new AwsApiError(
    e.code,
    `${e.message.replace(/\.+$/, "")}; ${SSM_PERMISSION}`,
    e.status,
    e.attempts,
  );
}

/**
 * The latest release of each of `versions` (none asked: none answered — the parameters of every
 * version are not listed here); errors are the SDK's (cloud.ts maps them).
 */
export function sdkLatestReleases(client: Pick<SSMClient, "send">) {
  return async (versions: readonly string[] = []): Promise<Record<string, string>> => {
    const byName = new Map([...new Set(versions)].map((v) => [releaseParameter(v), v]));
    const names = [...byName.keys()];
    const out: Record<string, string> = {};
    for (let i = 0; i < names.length; i += PARAMETER_NAMES_PER_CALL) {
      const Names = names.slice(i, i + PARAMETER_NAMES_PER_CALL);
      const r = await client.send(new GetParametersCommand({ Names }));
      for (const p of r.Parameters ?? []) {
        const version = p.Name !== undefined ? byName.get(p.Name) : undefined;
        if (version && p.Value) out[version] = p.Value.trim();
      }
    }
    return out;
  };
}
