// Planning: live state + policy → what apply would do. Pure.
export * from "./plan.js";
export * from "./preflight.js";
export * from "./schedule.js";
export * from "./select.js";
export * from "./selector.js";
export * from "./snapshot.js";
export * from "./types.js";
export * from "./read.js";
