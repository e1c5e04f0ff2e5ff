// CloudWatch alarms in the simulated account: the scenario's (`alarms`), and those made with
// PutMetricAlarm; their states, set by hand (SetAlarmState) or by what they follow. As the API
// reference has it (https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/):
// - an alarm made with PutMetricAlarm starts INSUFFICIENT_DATA ("Unchecked: Initial alarm
//   creation"); putting one that exists replaces its configuration and keeps its state;
// - SetAlarmState on an alarm that does not exist is ResourceNotFound (HTTP 404); its state holds
//   until the alarm is next evaluated;
// - DescribeAlarms answers in alarm name order, a name that names no alarm simply absent.
//
// The sandbox evaluates only what an alarm follows (`follows: badRelease`, sim/bad-release.ts):
// it goes ALARM the moment a workload pod starts serving on a bad release's node, and OK the
// moment the last one stops — each change an evaluation, which overwrites whatever state was set
// by hand; between changes, a state set by hand holds (real CloudWatch would evaluate again
// within a period, a minute or so: here the next evaluation is the next change). An alarm that
// follows nothing keeps the state it was last set to. Every change of state value is an
// `alarm.state` event in the timeline.
import type { AlarmState } from "../../../ports/signals.js";
import { AwsApiError } from "../../../ports/errors.js";
import type { VirtualClock } from "../../model/clock.js";
import type { Timeline } from "../../model/observers.js";
import type { BadReleases } from "../bad-release.js";

/** What PutMetricAlarm takes (those the sandbox keeps and DescribeAlarms gives back). */
export interface PutMetricAlarmInput {
  AlarmName: string;
  EvaluationPeriods: number;
  ComparisonOperator: string;
  AlarmDescription?: string;
  ActionsEnabled?: boolean;
  AlarmActions?: string[];
  OKActions?: string[];
  InsufficientDataActions?: string[];
  MetricName?: string;
  Namespace?: string;
  Statistic?: string;
  Dimensions?: { Name: string; Value: string }[];
  Period?: number;
  Unit?: string;
  DatapointsToAlarm?: number;
  Threshold?: number;
  TreatMissingData?: string;
}

export interface AlarmRec {
  config: PutMetricAlarmInput;
  /** What it follows (the scenario's alarms); nothing: it changes only when set. */
  follows?: "badRelease";
  state: AlarmState;
  reason: string;
  reasonData?: string;
  /** StateUpdatedTimestamp: its state was last set (or evaluated). */
  updatedAt: number;
  /** StateTransitionedTimestamp: its state value last changed. */
  transitionedAt: number;
  configuredAt: number;
}

export const ALARM_STATES: readonly AlarmState[] = ["OK", "ALARM", "INSUFFICIENT_DATA"];

const OPERATORS: ReadonlySet<string> = new Set([
  "GreaterThanOrEqualToThreshold",
  "GreaterThanThreshold",
  "LessThanThreshold",
  "LessThanOrEqualToThreshold",
  "LessThanLowerOrGreaterThanUpperThreshold",
  "LessThanLowerThreshold",
  "GreaterThanUpperThreshold",
]);

/** What a scenario's alarm that follows a bad release watches, as its configuration says. */
const FOLLOWS_BAD_RELEASE = {
  Namespace: "Sandbox",
  MetricName: "WorkloadPodsOnBadRelease",
  Statistic: "Maximum",
  Period: 60,
  EvaluationPeriods: 1,
  Threshold: 0,
  ComparisonOperator: "GreaterThanThreshold",
};

export interface CloudWatchContext {
  clock: VirtualClock;
  timeline: Timeline;
  /** What alarms with `follows: badRelease` follow. */
  badReleases: BadReleases;
}

export class CloudWatchSim {
  readonly alarms = new Map<string, AlarmRec>();

  constructor(
    private readonly ctx: CloudWatchContext,
    scenario: readonly { name: string; follows?: "badRelease" }[],
  ) {
    const now = ctx.clock.nowMs();
    for (const a of scenario)
      this.alarms.set(a.name, {
        config: a.follows
          ? { AlarmName: a.name, ...FOLLOWS_BAD_RELEASE }
          : { AlarmName: a.name, EvaluationPeriods: 1, ComparisonOperator: "GreaterThanThreshold" },
        ...(a.follows && { follows: a.follows }),
        state: "OK",
        reason: a.follows ? `Threshold Crossed: ${ctx.badReleases.reason()}` : "Set at the start",
        updatedAt: now,
        transitionedAt: now,
        configuredAt: now,
      });
    ctx.badReleases.onChange((bad, why) => {
      for (const a of this.alarms.values())
        if (a.follows === "badRelease")
          this.#set(a, bad ? "ALARM" : "OK", `Threshold Crossed: ${why}`, undefined, "cloudwatch");
    });
  }

  /** The alarms named (all without names), in name order. */
  describe(names?: readonly string[]): AlarmRec[] {
    const all = names
      ? [...new Set(names)].flatMap((n) => this.alarms.get(n) ?? [])
      : [...this.alarms.values()];
    return all.sort((a, b) => (a.config.AlarmName < b.config.AlarmName ? -1 : 1));
  }

  put(input: PutMetricAlarmInput): void {
    checkPut(input);
    const now = this.ctx.clock.nowMs();
    const old = this.alarms.get(input.AlarmName);
    if (old) {
      old.config = { ...input };
      old.configuredAt = now;
      return;
    }
    this.alarms.set(input.AlarmName, {
      config: { ...input },
      state: "INSUFFICIENT_DATA",
      reason: "Unchecked: Initial alarm creation",
      updatedAt: now,
      transitionedAt: now,
      configuredAt: now,
    });
    this.ctx.timeline.record("alarm.create", { alarm: input.AlarmName });
  }

  /** SetAlarmState: holds until what the alarm follows next changes. */
  setState(name: string, state: string, reason: string, reasonData?: string): void {
    if (!ALARM_STATES.includes(state as AlarmState))
      throw new AwsApiError(
        "InvalidParameterValue",
        `1 validation error detected: Value '${state}' at 'stateValue' failed to satisfy constraint: Member must satisfy enum value set: [INSUFFICIENT_DATA, ALARM, OK]`,
      );
    if (reason.length > 1023)
      throw new AwsApiError(
        "InvalidParameterValue",
        "The StateReason is longer than 1023 characters.",
      );
    if (reasonData !== undefined && !isJson(reasonData))
      throw new AwsApiError("InvalidFormat", "StateReasonData is not valid JSON.");
    const alarm = this.alarms.get(name);
    if (!alarm) throw new AwsApiError("ResourceNotFound", `Alarm ${name} does not exist.`, 404);
    this.#set(alarm, state as AlarmState, reason, reasonData, "client");
  }

  #set(a: AlarmRec, state: AlarmState, reason: string, data: string | undefined, by: string) {
    const now = this.ctx.clock.nowMs();
    const from = a.state;
    a.state = state;
    a.reason = reason;
    if (data === undefined) delete a.reasonData;
    else a.reasonData = data;
    a.updatedAt = now;
    if (from === state) return;
    a.transitionedAt = now;
    const alarm = a.config.AlarmName;
    this.ctx.timeline.record("alarm.state", { alarm, from, to: state, by, reason });
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** PutMetricAlarm's required parameters and the values it takes. */
function checkPut(input: PutMetricAlarmInput): void {
  for (const key of ["AlarmName", "EvaluationPeriods", "ComparisonOperator"] as const)
    if (input[key] === undefined || input[key] === "")
      throw new AwsApiError("MissingParameter", `The parameter ${key} is required.`);
  if (input.AlarmName.length > 255)
    throw new AwsApiError("InvalidParameterValue", "The AlarmName is longer than 255 characters.");
  if (!Number.isInteger(input.EvaluationPeriods) || input.EvaluationPeriods < 1)
    throw new AwsApiError(
      "InvalidParameterValue",
      `The value ${input.EvaluationPeriods} for parameter EvaluationPeriods is not valid: it must be at least 1.`,
    );
  if (!OPERATORS.has(input.ComparisonOperator))
    throw new AwsApiError(
      "InvalidParameterValue",
      `The value ${input.ComparisonOperator} for parameter ComparisonOperator is not valid.`,
    );
}
