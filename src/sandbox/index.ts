// The sandbox: a simulated EKS cluster (AWS + Kubernetes) in virtual time, behind the same
// ports as the real adapters. Tests, the demo (`npm start`) and `sandbox serve` build on it.
//
// Its parts, each in its own folder, imports pointing down the list:
//   wire/       the HTTP faces (Kubernetes, EKS, Auto Scaling, EC2, CloudWatch, Prometheus, STS,
//               GitHub) and `serve`
//   world/      the World: simulators, port faces and starting state put together; an
//               Account of several worlds (clusters) in one AWS account and region
//   ports/      the Cloud, Cluster and Metrics ports served over the simulators
//   sim/        the simulators: EC2, Auto Scaling, EKS, CloudWatch alarms, Kubernetes, a cluster
//               autoscaler, a bad release's effects, Prometheus
//   scenarios/  the scenario format, the demo scenario, the generator
//   model/      records, quantities, the virtual clock, the seeded random stream, observers
export { DeadlockError, VirtualClock, type TimerHandle } from "./model/clock.js";
export { Availability, Timeline, type TimelineEvent } from "./model/observers.js";
export { Random } from "./model/random.js";
export { DEMO_SCENARIO_YAML, demoScenario } from "./scenarios/demo.js";
export {
  generateScenario,
  generateScenarioInput,
  generateScenarioYaml,
  type GenerateOptions,
} from "./scenarios/generate.js";
export {
  parseScenario,
  scenarioFrom,
  scenarioSchema,
  type Scenario,
  type ScenarioInput,
  type ScenarioResult,
} from "./scenarios/schema.js";
export {
  EXCLUDE_LB_LABEL,
  NODEGROUP_IMAGE_LABEL,
  NODEGROUP_LABEL,
  UPDATE_TAINT,
} from "./sim/aws/eks-labels.js";
export { decideEviction, MULTIPLE_PDBS, VIOLATES_PDB } from "./sim/kube/disruption.js";
export { BASELINE_ERROR_RATIO } from "./sim/bad-release.js";
export type { PutMetricAlarmInput, SandboxCloudWatchApi, SandboxMetricAlarm } from "./ports/api.js";
export { benchEksUpdate, type BenchFigures } from "./world/bench.js";
export { Account, type AccountOptions, type AccountScenario } from "./world/account.js";
export { World, type WorldOptions } from "./world/world.js";
