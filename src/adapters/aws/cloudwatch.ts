// The CloudWatch port (src/ports/signals.ts) on the AWS SDK v3: DescribeAlarms by name, every
// page of every batch. What the API reference says and this follows
// (https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_DescribeAlarms.html):
// - AlarmNames takes at most 100 names, so more are asked in batches of 100;
// - without AlarmNames the call answers every alarm of the account and region, so no names asks
//   nothing at all;
// - without AlarmTypes only metric alarms are answered, "even if composite alarms exist": both
//   types are asked for, and both lists are read;
// - MaxRecords is at most 100 a page; NextToken says there is more.
// The calls go through the client cloud.ts makes (its retries, timeouts and abort signal) and
// its error mapping (portError), which cloud.ts applies around these functions.
import {
  DescribeAlarmsCommand,
  type CloudWatchClient,
  type CompositeAlarm,
  type MetricAlarm as SdkMetricAlarm,
} from "@aws-sdk/client-cloudwatch";
import type { AlarmState, CloudWatch, MetricAlarm } from "../../ports/signals.js";

/** Names a DescribeAlarms call takes at most (AlarmNames: "Maximum number of 100 items"). */
export const ALARM_NAMES_PER_CALL = 100;

const STATES: ReadonlySet<string> = new Set<AlarmState>(["OK", "ALARM", "INSUFFICIENT_DATA"]);

/** An alarm (metric or composite) as the port carries it. */
function alarm(a: SdkMetricAlarm | CompositeAlarm): MetricAlarm {
  const state = a.StateValue ?? "";
  return {
    AlarmName: a.AlarmName ?? "",
    // A state this code does not know yet (the API adds values) is no state to act on.
    StateValue: STATES.has(state) ? (state as AlarmState) : "INSUFFICIENT_DATA",
    ...(a.StateReason !== undefined && { StateReason: a.StateReason }),
    ...(a.StateUpdatedTimestamp && { StateUpdatedTimestamp: a.StateUpdatedTimestamp }),
  };
}

/** The CloudWatch port over `client`; errors are the SDK's (cloud.ts maps them). */
export function sdkCloudWatch(client: Pick<CloudWatchClient, "send">): CloudWatch {
  return {
    async describeAlarms({ AlarmNames }) {
      const names = [...new Set(AlarmNames)];
      const out: MetricAlarm[] = [];
      for (let i = 0; i < names.length; i += ALARM_NAMES_PER_CALL) {
        const batch = names.slice(i, i + ALARM_NAMES_PER_CALL);
        let NextToken: string | undefined;
        do {
          const r = await client.send(
            new DescribeAlarmsCommand({
              AlarmNames: batch,
              AlarmTypes: ["MetricAlarm", "CompositeAlarm"],
              MaxRecords: 100,
              NextToken,
            }),
          );
          out.push(...(r.MetricAlarms ?? []).map(alarm), ...(r.CompositeAlarms ?? []).map(alarm));
          NextToken = r.NextToken;
        } while (NextToken);
      }
      return out;
    },
  };
}
