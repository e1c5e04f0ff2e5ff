// The sandbox: a simulated EKS cluster (AWS + Kubernetes) in virtual time, behind the same
// ports as the real adapters. Tests, the demo (`npm start`) and `sandbox serve` build on it.
export { benchEksUpdate, type BenchFigures } from "./bench.js";
export { DeadlockError, VirtualClock, type TimerHandle } from "./clock.js";
export { DEMO_SCENARIO_YAML, demoScenario } from "./demo.js";
export { decideEviction, MULTIPLE_PDBS, VIOLATES_PDB } from "./disruption.js";
export { EXCLUDE_LB_LABEL, NODEGROUP_IMAGE_LABEL, NODEGROUP_LABEL, UPDATE_TAINT } from "./eks.js";
export {
  generateScenario,
  generateScenarioInput,
  generateScenarioYaml,
  type GenerateOptions,
} from "./generate.js";
export { Availability, Timeline, type TimelineEvent } from "./observers.js";
export { Random } from "./random.js";
export {
  parseScenario,
  scenarioFrom,
  scenarioSchema,
  type Scenario,
  type ScenarioInput,
  type ScenarioResult,
} from "./scenario.js";
export { World } from "./world.js";
