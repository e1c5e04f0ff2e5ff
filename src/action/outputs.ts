// The step's outputs and its result, as their own module: the flows that set them (run.ts,
// fleet-plan.ts) share the types without importing one another.
import type { PolicyResult } from "./context.js";

/** The step's outputs, set once at the end whatever happened. */
export type Outputs = Record<
  | "plan-json"
  | "has-changes"
  | "valid"
  | "nodes-replaced"
  | "groups-rolled"
  | "groups-blocked"
  | "comment-url"
  | "check-run-url"
  | "summary"
  | "events-file"
  | "fleet-due"
  | "fleet-json",
  string
>;

export function emptyOutputs(): Outputs {
  return {
    "plan-json": "",
    "has-changes": "false",
    valid: "true",
    "nodes-replaced": "0",
    "groups-rolled": "",
    "groups-blocked": "",
    "comment-url": "",
    "check-run-url": "",
    summary: "",
    "events-file": "",
    "fleet-due": "",
    "fleet-json": "",
  };
}

/** The `result` output: the worst of the policies' results, or what the run as a whole did. */
export type RunResult = PolicyResult;
