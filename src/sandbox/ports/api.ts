// The sandbox's own API: the core's ports (src/ports), plus the calls the core never makes but
// a person debugging with the aws CLI or kubectl does, and the sandbox's tests use — served by
// the port faces and the wire faces, never needed by the real adapters.
import type { AutoScaling, Cloud, Cluster, Pod, ScalingActivity } from "../../ports/index.js";

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

export interface SandboxCloudApi extends Cloud {
  autoScaling: SandboxAutoScalingApi;
}

export interface SandboxClusterApi extends Cluster {
  getPod(namespace: string, name: string): Promise<Pod>;
  deleteLease(namespace: string, name: string): Promise<void>;
}
