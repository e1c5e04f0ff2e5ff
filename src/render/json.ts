// The plan as JSON: the Plan object itself (src/plan/types.ts), whose shape is documented in
// docs/plan-json.md and versioned by `schemaVersion`.
import type { Plan } from "../plan/index.js";

export function renderPlanJson(plan: Plan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}
