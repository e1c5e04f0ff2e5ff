// The SSM face: GetParameters for the public parameters that name the latest EKS optimized AMI
// release of each Kubernetes version (/aws/service/eks/optimized-ami/<version>/<ami-type>/
// recommended/release_version, EKS user guide "Retrieve recommended Amazon Linux AMI IDs":
// https://docs.aws.amazon.com/eks/latest/userguide/retrieve-ami-id.html), answered from the
// Cloud port's latestReleaseVersions — the last release of each version's list in the scenarios,
// the same numbers the in-process port gives. SSM speaks awsJson1_1: POST / with
// `X-Amz-Target: AmazonSSM.<Op>` and a JSON body; errors are a `__type` and a `message`. As SSM
// does, GetParameters takes 1 to 10 names and lists the names it does not have in
// InvalidParameters (SSM API reference, GetParameters).
import type { Eks } from "../../ports/cloud.js";
import { AwsApiError, NetworkError } from "../../ports/errors.js";
import { RESOURCE_HEADER, type Face, type WireRequest, type WireResponse } from "./http-server.js";
import { DEFAULT_CREDENTIALS } from "./sts-face.js";

const TARGET = "AmazonSSM.";
const MAX_NAMES = 10;
/** The Amazon Linux AMI types the user guide lists; the sandbox has one release list for all. */
const RELEASE_PARAMETER = new RegExp(
  "^/aws/service/eks/optimized-ami/(\\d+\\.\\d+)/(amazon-linux-2|amazon-linux-2-arm64|" +
    "amazon-linux-2-gpu|amazon-linux-2023/x86_64/(standard|nvidia|neuron)|" +
    "amazon-linux-2023/arm64/(standard|nvidia))/recommended/release_version$",
);

/** What the SSM face needs: the Cloud port's EKS (an account's: every world's) and the region. */
export interface SsmWireView {
  eks: Pick<Eks, "latestReleaseVersions">;
  region: string;
}

function reply(status: number, value: object, resource: string, id: string): WireResponse {
  return {
    status,
    headers: {
      "content-type": "application/x-amz-json-1.1",
      "x-amzn-requestid": id,
      [RESOURCE_HEADER]: resource,
    },
    body: JSON.stringify(value),
  };
}

function validation(message: string): AwsApiError {
  return new AwsApiError("ValidationException", `1 validation error detected: ${message}`);
}

/** The request's Names: 1 to 10 strings, or a ValidationException as SSM answers. */
function namesOf(body: string): string[] {
  let input: unknown;
  try {
    input = JSON.parse(body || "{}");
  } catch {
    throw new AwsApiError("SerializationException", "The request body is not JSON.");
  }
  const names = (input as { Names?: unknown } | null)?.Names;
  if (!Array.isArray(names) || names.some((n) => typeof n !== "string"))
    throw validation("Value null at 'names' failed to satisfy constraint: Member must not be null");
  if (names.length < 1 || names.length > MAX_NAMES)
    throw validation(
      `Value '[${names.join(", ")}]' at 'names' failed to satisfy constraint: Member must have length ${names.length < 1 ? "greater than or equal to 1" : `less than or equal to ${MAX_NAMES}`}`,
    );
  return [...new Set(names as string[])];
}

export class SsmFace implements Face {
  readonly name = "ssm";
  /** Refuse every call, as SSM refuses a role without ssm:GetParameters (tests of that). */
  denied = false;
  #requestNo = 0;

  constructor(private readonly view: SsmWireView) {}

  async handle(req: WireRequest): Promise<WireResponse | undefined> {
    const target = String(req.headers["x-amz-target"] ?? "");
    if (req.method !== "POST" || req.path !== "/" || !target.startsWith(TARGET)) return undefined;
    const action = target.slice(TARGET.length);
    const id = `ssm-${++this.#requestNo}`;
    try {
      if (action !== "GetParameters")
        throw new AwsApiError("UnknownOperationException", `Unknown operation ${action}`);
      const names = namesOf(req.body);
      if (this.denied)
        throw new AwsApiError(
          "AccessDeniedException",
          `User: ${DEFAULT_CREDENTIALS.arn} is not authorized to perform: ssm:GetParameters on resource: arn:aws:ssm:${this.view.region}::parameter${names[0]} because no identity-based policy allows the ssm:GetParameters action`,
        );
      return reply(200, await this.#parameters(names), action, id);
    } catch (e) {
      if (e instanceof NetworkError) throw e; // the server's answer never arrives
      const err =
        e instanceof AwsApiError
          ? e
          : new AwsApiError("InternalServerError", (e as Error).message, 500);
      return reply(err.status, { __type: err.code, message: err.message }, action, id);
    }
  }

  async #parameters(names: string[]): Promise<object> {
    const versionOf = new Map(names.map((n) => [n, RELEASE_PARAMETER.exec(n)?.[1]]));
    const versions = [...new Set([...versionOf.values()].filter((v) => v !== undefined))];
    const latest = versions.length
      ? ((await this.view.eks.latestReleaseVersions?.(versions)) ?? {})
      : {};
    const release = (name: string) => {
      const version = versionOf.get(name);
      return version !== undefined && Object.hasOwn(latest, version) ? latest[version] : undefined;
    };
    return {
      Parameters: names.flatMap((Name) => {
        const Value = release(Name);
        if (Value === undefined) return [];
        const ARN = `arn:aws:ssm:${this.view.region}::parameter${Name}`;
        return [{ Name, Type: "String", Value, Version: 1, ARN, DataType: "text" }];
      }),
      InvalidParameters: names.filter((n) => release(n) === undefined),
    };
  }
}
