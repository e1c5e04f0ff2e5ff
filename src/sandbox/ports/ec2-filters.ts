// DescribeInstances' filters, as EC2 applies them: every filter must match (AND), any of a
// filter's values may (OR). The names a roll uses: instance-state-name, tag-key and tag:KEY
// (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeInstances.html); others
// are refused as EC2 refuses a name it does not know.
import type { Ec2Filter } from "../../ports/cloud.js";
import { AwsApiError } from "../../ports/errors.js";
import type { InstanceRec } from "../model/records.js";

type Test = (i: InstanceRec) => boolean;

function test(f: Ec2Filter): Test {
  const values = new Set(f.Values);
  if (f.Name === "instance-state-name") return (i) => values.has(i.state);
  if (f.Name === "tag-key") return (i) => i.tags.some((t) => values.has(t.Key));
  if (f.Name.startsWith("tag:")) {
    const key = f.Name.slice(4);
    return (i) => i.tags.some((t) => t.Key === key && values.has(t.Value));
  }
  throw new AwsApiError("InvalidParameterValue", `The filter '${f.Name}' is invalid`);
}

/** Whether an instance matches every filter (none: every instance does). */
export function instanceFilter(filters: readonly Ec2Filter[] = []): Test {
  const tests = filters.map(test);
  return (i) => tests.every((t) => t(i));
}
