// The ports: how the core (plan, roll engine) talks to the world. Implemented by the real
// adapters (src/adapters) and by the sandbox (src/sandbox).
export type * from "./cloud.js";
export type * from "./cluster.js";
export * from "./clock.js";
export * from "./errors.js";
export * from "./resilient.js";
export * from "./paginate.js";
export * from "./objects.js";
