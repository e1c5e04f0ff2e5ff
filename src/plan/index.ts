// The plan: what apply would do to each group, as data (the contract between plan and apply),
// the live state it is computed from, and the pieces of planning every kind of group shares.
// Pure, through the ports. Planning a policy — which needs the kinds — is src/engine/plan.ts.
export * from "./claims.js";
export * from "./limit.js";
export * from "./marks.js";
export * from "./owners.js";
export * from "./pdb-index.js";
export * from "./placement.js";
export * from "./decisions.js";
export * from "./finding.js";
export * from "./identity.js";
export * from "./preflight.js";
export * from "./read.js";
export * from "./select.js";
export * from "./selector.js";
export * from "./snapshot.js";
export * from "./summary.js";
export * from "./suspended.js";
export * from "./types.js";
export * from "./waves.js";
export * from "./window.js";
export * from "./zones.js";
export * from "./rehearsal.js";
