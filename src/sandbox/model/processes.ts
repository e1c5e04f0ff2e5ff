// The scaling processes of an EC2 Auto Scaling group, which SuspendProcesses and ResumeProcesses
// name (the EC2 Auto Scaling API reference, "ProcessType"): every one, when a call names none.
export const SCALING_PROCESSES = [
  "Launch",
  "Terminate",
  "AddToLoadBalancer",
  "AlarmNotification",
  "AZRebalance",
  "HealthCheck",
  "InstanceRefresh",
  "ReplaceUnhealthy",
  "ScheduledActions",
] as const;
