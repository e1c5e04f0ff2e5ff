// The upgrade policy language: schema, parsing with positions, validation, resolution.
export * from "./budget.js";
export * from "./diagnostic.js";
export * from "./duration.js";
export * from "./gates.js";
export * from "./json-schema.js";
export * from "./order.js";
export * from "./resolve.js";
export * from "./schema.js";
export { MAX_POLICY_BYTES, sizeMessage, type PolicySource } from "./source.js";
export * from "./validate.js";
export * from "./window.js";
export * from "./groups.js";
