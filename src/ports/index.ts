// The ports: how the core (plan, roll engine) talks to the world — Cloud, Cluster, Clock and the
// Reporter the engine's events go to. Implemented by the real adapters (src/adapters), the
// sandbox (src/sandbox) and the renderers.
export type * from "./cloud.js";
export type * from "./cluster.js";
export type * from "./signals.js";
export * from "./clock.js";
export * from "./errors.js";
export * from "./resilient.js";
export * from "./paginate.js";
export * from "./objects.js";
export * from "./derived.js";
export * from "./reporter.js";
