import { describe, expect, it } from "vitest";
import { parseQueryParams, signingService, toXml } from "../../src/sandbox/wire/query-protocol.js";

describe("AWS query protocol", () => {
  it("parses Auto Scaling member lists and EC2 numbered lists into trees", () => {
    const asg = parseQueryParams(
      new URLSearchParams(
        "Action=DetachInstances&AutoScalingGroupName=w&InstanceIds.member.1=i-a&InstanceIds.member.2=i-b&ShouldDecrementDesiredCapacity=false",
      ),
    );
    expect(asg).toEqual({
      Action: "DetachInstances",
      AutoScalingGroupName: "w",
      InstanceIds: ["i-a", "i-b"],
      ShouldDecrementDesiredCapacity: "false",
    });
    const ec2 = parseQueryParams(
      new URLSearchParams(
        "Action=DescribeInstances&InstanceId.1=i-a&Filter.1.Name=tag:x&Filter.1.Value.1=a&Filter.1.Value.2=b&Filter.2.Name=y&Filter.2.Value.1=c",
      ),
    );
    expect(ec2).toEqual({
      Action: "DescribeInstances",
      InstanceId: ["i-a"],
      Filter: [
        { Name: "tag:x", Value: ["a", "b"] },
        { Name: "y", Value: ["c"] },
      ],
    });
    const tags = parseQueryParams(
      new URLSearchParams("Tags.member.1.Key=k&Tags.member.1.Value=v&Tags.member.1.ResourceId=g"),
    );
    expect(tags).toEqual({ Tags: [{ Key: "k", Value: "v", ResourceId: "g" }] });
  });

  it("writes XML with escaped text and the service's list items", () => {
    expect(toXml({ A: [{ B: "x<y" }, { B: 2 }], C: undefined, D: true }, "member")).toBe(
      "<A><member><B>x&lt;y</B></member><member><B>2</B></member></A><D>true</D>",
    );
    expect(toXml({ items: ["a"] }, "item")).toBe("<items><item>a</item></items>");
  });

  it("finds the signing service in a SigV4 header or a presigned query", () => {
    expect(
      signingService({
        authorization:
          "AWS4-HMAC-SHA256 Credential=AKIA/20261121/eu-west-1/autoscaling/aws4_request, SignedHeaders=host, Signature=x",
      }),
    ).toBe("autoscaling");
    expect(
      signingService(
        {},
        new URLSearchParams("X-Amz-Credential=AKIA/20261121/eu-west-1/sts/aws4_request"),
      ),
    ).toBe("sts");
    expect(signingService({})).toBeUndefined();
  });
});
