// The sandbox: a simulated EKS cluster (AWS + Kubernetes) in virtual time, behind the same
// ports as the real adapters. Tests, the demo (`npm start`) and `sandbox serve` build on it.
export { benchEksUpdate, type BenchFigures } from "./world/bench.js";
export { DeadlockError, VirtualClock, type TimerHandle } from "./model/clock.js";
export { DEMO_SCENARIO_YAML, demoScenario } from "./scenarios/demo.js";
export { decideEviction, MULTIPLE_PDBS, VIOLATES_PDB } from "./sim/kube/disruption.js";
export {
  EXCLUDE_LB_LABEL,
  NODEGROUP_IMAGE_LABEL,
  NODEGROUP_LABEL,
  UPDATE_TAINT,
} from "./sim/aws/eks.js";
export {
  generateScenario,
  generateScenarioInput,
  generateScenarioYaml,
  type GenerateOptions,
} from "./scenarios/generate.js";
export { Availability, Timeline, type TimelineEvent } from "./model/observers.js";
export { Random } from "./model/random.js";
export {
  parseScenario,
  scenarioFrom,
  scenarioSchema,
  type Scenario,
  type ScenarioInput,
  type ScenarioResult,
} from "./scenarios/schema.js";
export { World } from "./world/world.js";
