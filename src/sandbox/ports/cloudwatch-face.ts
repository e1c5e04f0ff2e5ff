// The Cloud port's CloudWatch (src/ports/signals.ts), and the sandbox's own additions to it
// (api.ts: PutMetricAlarm, SetAlarmState, DescribeAlarms' other filters), over the world's
// alarms (sim/aws/cloudwatch.ts): AWS-shaped records and errors, counted and throttled as every
// AWS call of the world is (`cloudwatch.describeAlarms` in `world.calls`).
import type { AlarmState } from "../../ports/signals.js";
import { AwsApiError } from "../../ports/errors.js";
import type { Timeline } from "../model/observers.js";
import type { AlarmRec, CloudWatchSim, PutMetricAlarmInput } from "../sim/aws/cloudwatch.js";
import type { ApiGate } from "./api-gate.js";
import type { SandboxCloudWatchApi, SandboxMetricAlarm } from "./api.js";

export interface CloudWatchView {
  cloudWatch: CloudWatchSim;
  region: string;
  gate: ApiGate;
  timeline: Timeline;
}

type Input<K extends keyof SandboxCloudWatchApi> = Parameters<SandboxCloudWatchApi[K]>[0];

/** DescribeAlarms' AlarmNames: "Maximum number of 100 items" (CloudWatch API reference). */
const MAX_NAMES = 100;

export class SandboxCloudWatch implements SandboxCloudWatchApi {
  constructor(private readonly view: CloudWatchView) {}

  async describeAlarms(input: Input<"describeAlarms">): Promise<SandboxMetricAlarm[]> {
    this.#gate("cloudwatch.describeAlarms");
    const names = input.AlarmNames;
    if (names && input.AlarmNamePrefix !== undefined)
      throw new AwsApiError(
        "InvalidParameterCombination",
        "AlarmNamePrefix and AlarmNames cannot be used together.",
      );
    if (names && names.length > MAX_NAMES)
      throw new AwsApiError(
        "InvalidParameterValue",
        `The collection AlarmNames must not have a size greater than ${MAX_NAMES}.`,
      );
    const types = input.AlarmTypes;
    if (types && !types.includes("MetricAlarm")) return [];
    const prefix = input.AlarmNamePrefix ?? "";
    return this.view.cloudWatch
      .describe(names)
      .filter((a) => a.config.AlarmName.startsWith(prefix))
      .filter((a) => input.StateValue === undefined || a.state === input.StateValue)
      .map((a) => alarmRecord(a, this.view.region));
  }

  async putMetricAlarm(input: PutMetricAlarmInput): Promise<void> {
    this.#gate("cloudwatch.putMetricAlarm");
    this.view.cloudWatch.put(input);
  }

  async setAlarmState(input: Input<"setAlarmState">): Promise<void> {
    this.#gate("cloudwatch.setAlarmState");
    if (!input.StateReason)
      throw new AwsApiError("MissingParameter", "The parameter StateReason is required.");
    this.view.cloudWatch.setState(
      input.AlarmName,
      input.StateValue,
      input.StateReason,
      input.StateReasonData,
    );
  }

  /** Count the call; throw ThrottlingException when a throttling fault turns it away. */
  #gate(name: string): void {
    if (!this.view.gate.admit(name, "aws")) return;
    this.view.timeline.record("api.throttled", { api: "aws", call: name });
    throw new AwsApiError("ThrottlingException", "Rate exceeded");
  }
}

/** An alarm as DescribeAlarms answers it. */
function alarmRecord(a: AlarmRec, region: string): SandboxMetricAlarm {
  return {
    ...structuredClone(a.config),
    AlarmArn: `arn:aws:cloudwatch:${region}:123456789012:alarm:${a.config.AlarmName}`,
    StateValue: a.state as AlarmState,
    StateReason: a.reason,
    ...(a.reasonData !== undefined && { StateReasonData: a.reasonData }),
    StateUpdatedTimestamp: new Date(a.updatedAt),
    StateTransitionedTimestamp: new Date(a.transitionedAt),
    AlarmConfigurationUpdatedTimestamp: new Date(a.configuredAt),
  };
}
