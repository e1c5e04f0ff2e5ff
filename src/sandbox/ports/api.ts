// The sandbox's own API: the core's ports (src/ports), plus the calls the core never makes but
// a person debugging with the aws CLI or kubectl does, and the sandbox's tests use — served by
// the port faces and the wire faces, never needed by the real adapters.
import type {
  AlarmState,
  AutoScaling,
  Cloud,
  CloudWatch,
  Cluster,
  MetricAlarm,
  Pod,
  ScalingActivity,
} from "../../ports/index.js";
import type { PutMetricAlarmInput } from "../sim/aws/cloudwatch.js";

export type { PutMetricAlarmInput } from "../sim/aws/cloudwatch.js";

export interface SandboxAutoScalingApi extends AutoScaling {
  setDesiredCapacity(input: {
    AutoScalingGroupName: string;
    DesiredCapacity: number;
    HonorCooldown?: boolean;
  }): Promise<void>;
  /** As the API has them: without ScalingProcesses, every process. */
  suspendProcesses(input: {
    AutoScalingGroupName: string;
    ScalingProcesses?: string[];
  }): Promise<void>;
  resumeProcesses(input: {
    AutoScalingGroupName: string;
    ScalingProcesses?: string[];
  }): Promise<void>;
  /** Newest first, as the API returns them. */
  describeScalingActivities(input: {
    AutoScalingGroupName: string;
    MaxRecords?: number;
  }): Promise<ScalingActivity[]>;
}

/** An alarm as DescribeAlarms answers it: its state, and the configuration it was put with. */
export interface SandboxMetricAlarm extends MetricAlarm, Omit<PutMetricAlarmInput, "AlarmName"> {
  AlarmArn: string;
  StateUpdatedTimestamp: Date;
  StateTransitionedTimestamp: Date;
  AlarmConfigurationUpdatedTimestamp: Date;
  StateReasonData?: string;
}

export interface SandboxCloudWatchApi extends CloudWatch {
  /**
   * DescribeAlarms as the API has it, every page: by names (at most 100), by a name prefix, or
   * all; only those in StateValue when given; metric alarms only unless AlarmTypes says
   * otherwise (the sandbox has no composite alarms).
   */
  describeAlarms(input: {
    AlarmNames?: string[];
    AlarmNamePrefix?: string;
    StateValue?: AlarmState;
    AlarmTypes?: string[];
  }): Promise<SandboxMetricAlarm[]>;
  putMetricAlarm(input: PutMetricAlarmInput): Promise<void>;
  /** Unknown alarm: ResourceNotFound (HTTP 404), as CloudWatch answers. */
  setAlarmState(input: {
    AlarmName: string;
    StateValue: AlarmState;
    StateReason: string;
    StateReasonData?: string;
  }): Promise<void>;
}

export interface SandboxCloudApi extends Cloud {
  autoScaling: SandboxAutoScalingApi;
  cloudWatch: SandboxCloudWatchApi;
}

export interface SandboxClusterApi extends Cluster {
  getPod(namespace: string, name: string): Promise<Pod>;
  deleteLease(namespace: string, name: string): Promise<void>;
}
