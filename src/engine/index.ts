// The two things noderoll does, over the ports: plan (observe live state, plan each group
// through its kind) and apply (roll the groups in order, each planned again just before).
export * from "./apply.js";
export * from "./observe.js";
export * from "./plan.js";
