// The CloudWatch actions the face serves (cloudwatch-face.ts), each reading its parameters —
// typed already in JSON and CBOR, text in the query protocol's form — calling the port, and
// giving back its result as the API reference shapes it
// (https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_Operations.html).
import type { AlarmState } from "../../ports/signals.js";
import { AwsApiError } from "../../ports/errors.js";
import type { PutMetricAlarmInput, SandboxCloudWatchApi } from "../ports/api.js";
import { pageOf } from "./query-face.js";

/** A call's parameters: JSON's or CBOR's object, or the query protocol's tree of text. */
export type Input = Record<string, unknown>;

/** `maxPage`: alarms a DescribeAlarms page holds at most, whatever MaxRecords asks (the API may
 * always return fewer). */
type Action = (cw: SandboxCloudWatchApi, input: Input, maxPage: number) => Promise<object>;

/** DescribeAlarms' MaxRecords: 1 to 100, 50 when not given. */
const DEFAULT_RECORDS = 50;

function str(input: Input, key: string): string | undefined {
  const v = input[key];
  return typeof v === "string" ? v : undefined;
}

/** A number, given as one (JSON, CBOR) or as text (query). */
function num(input: Input, key: string): number | undefined {
  const v = input[key];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN;
  if (!Number.isFinite(n))
    throw new AwsApiError(
      "InvalidParameterValue",
      `The value ${String(v)} for parameter ${key} is not a number.`,
    );
  return n;
}

function bool(input: Input, key: string): boolean | undefined {
  const v = input[key];
  return v === undefined ? undefined : v === true || v === "true";
}

function strings(input: Input, key: string): string[] | undefined {
  const v = input[key];
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === "string");
}

function need(input: Input, key: string): string {
  const v = str(input, key);
  if (v === undefined)
    throw new AwsApiError("MissingParameter", `The parameter ${key} is required.`);
  return v;
}

/** PutMetricAlarm's parameters the sandbox keeps, those given. */
function putInput(input: Input): PutMetricAlarmInput {
  const out: Record<string, unknown> = {
    AlarmName: str(input, "AlarmName"),
    EvaluationPeriods: num(input, "EvaluationPeriods"),
    ComparisonOperator: str(input, "ComparisonOperator"),
    AlarmDescription: str(input, "AlarmDescription"),
    ActionsEnabled: bool(input, "ActionsEnabled"),
    AlarmActions: strings(input, "AlarmActions"),
    OKActions: strings(input, "OKActions"),
    InsufficientDataActions: strings(input, "InsufficientDataActions"),
    MetricName: str(input, "MetricName"),
    Namespace: str(input, "Namespace"),
    Statistic: str(input, "Statistic"),
    Period: num(input, "Period"),
    Unit: str(input, "Unit"),
    DatapointsToAlarm: num(input, "DatapointsToAlarm"),
    Threshold: num(input, "Threshold"),
    TreatMissingData: str(input, "TreatMissingData"),
  };
  const dimensions = input.Dimensions;
  if (Array.isArray(dimensions))
    out.Dimensions = dimensions.map((d: Input) => ({
      Name: str(d, "Name") ?? "",
      Value: str(d, "Value") ?? "",
    }));
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out as unknown as PutMetricAlarmInput;
}

export const CLOUDWATCH_ACTIONS: Record<string, Action> = {
  async DescribeAlarms(cw, input, maxPage) {
    const AlarmNames = strings(input, "AlarmNames");
    const AlarmNamePrefix = str(input, "AlarmNamePrefix");
    const StateValue = str(input, "StateValue") as AlarmState | undefined;
    const AlarmTypes = strings(input, "AlarmTypes");
    const max = num(input, "MaxRecords") ?? DEFAULT_RECORDS;
    if (!Number.isInteger(max) || max < 1 || max > 100)
      throw new AwsApiError(
        "InvalidParameterValue",
        `The value ${max} for parameter MaxRecords is not valid: it must be from 1 to 100.`,
      );
    const alarms = await cw.describeAlarms({
      ...(AlarmNames && { AlarmNames }),
      ...(AlarmNamePrefix !== undefined && { AlarmNamePrefix }),
      ...(StateValue && { StateValue }),
      ...(AlarmTypes && { AlarmTypes }),
    });
    const { page, next } = pageOf(alarms, str(input, "NextToken"), Math.min(max, maxPage));
    return {
      MetricAlarms: page,
      ...(AlarmTypes?.includes("CompositeAlarm") && { CompositeAlarms: [] }),
      ...(next && { NextToken: next }),
    };
  },
  async PutMetricAlarm(cw, input) {
    await cw.putMetricAlarm(putInput(input));
    return {};
  },
  async SetAlarmState(cw, input) {
    const StateReasonData = str(input, "StateReasonData");
    await cw.setAlarmState({
      AlarmName: need(input, "AlarmName"),
      StateValue: need(input, "StateValue") as AlarmState,
      StateReason: need(input, "StateReason"),
      ...(StateReasonData !== undefined && { StateReasonData }),
    });
    return {};
  },
};
