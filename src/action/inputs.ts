// The action's inputs (action.yml), read and checked before anything else happens. A wrong
// value is an InputError that names the input and what it accepts.
import { forceSplit } from "../engine/index.js";
import { parseDuration } from "../policy/index.js";
import { MODES, type Mode } from "./route.js";

export interface ActionInputs {
  /** Paths or globs, as written (one per line or comma-separated). */
  policy: string[];
  mode: Mode;
  token: string;
  /** kOps' --force: every node of the groups, whatever its version (dispatch). */
  replaceAll: boolean;
  /** EKS's force: what a drain leaves at its timeout is deleted (dispatch). */
  deleteAfterDrainTimeout: boolean;
  groups?: string[];
  reason?: string;
  kubeconfig?: string;
  maxDurationMs?: number;
  comment: boolean;
  checkRun: boolean;
  ignoreWindow: boolean;
  /** auto: rehearse pull requests' plans of clusters up to REHEARSE_AUTO_MAX_NODES nodes. */
  rehearse: "auto" | boolean;
  /** Refs besides the default branch that may apply (globs). */
  applyRefs: string[];
  /** Label the pull request as tfcmt does (labels.ts). */
  labels: boolean;
  /** Where the roll's event log goes, as written (relative: to the workspace); absent: RUNNER_TEMP. */
  eventsFile?: string;
  /** A fleet file (issue 49): `mode: fleet-plan` reads it; otherwise `policy` is one of its clusters. */
  fleet?: string;
  /** A fleet's failed clusters are due again, under the same release. */
  retryFailed: boolean;
}

export class InputError extends Error {}

/** GitHub's default for `max-duration`: stop starting nodes well before the 6-hour job limit. */
export const DEFAULT_MAX_DURATION = "5h30m";

/** How the runner passes an input: INPUT_<NAME> with spaces as underscores, upper-cased. */
export function inputFromEnv(env: NodeJS.ProcessEnv = process.env): (name: string) => string {
  return (name) => (env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] ?? "").trim();
}

function list(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function bool(get: (name: string) => string, name: string, fallback: boolean): boolean {
  const v = get(name).toLowerCase();
  if (v === "") return fallback;
  if (["true", "yes", "on", "1"].includes(v)) return true;
  if (["false", "no", "off", "0"].includes(v)) return false;
  throw new InputError(`input ${name} must be true or false, not "${get(name)}"`);
}

/** What a fleet allows: its plan, or the apply of one cluster, every group of it. */
function checkFleet(fleet: string, mode: Mode, groups: readonly string[]): void {
  if (mode === "fleet-plan" && !fleet)
    throw new InputError("mode fleet-plan needs input fleet: the fleet file to plan");
  if (!fleet) return;
  if (!["auto", "apply", "fleet-plan"].includes(mode))
    throw new InputError(
      `with input fleet, mode is fleet-plan (list what is due), apply or auto (roll the cluster of input policy if the fleet says it is due), not "${mode}"; pause and resume a fleet with noderoll fleet pause|resume`,
    );
  if (groups.length > 0 && mode !== "fleet-plan")
    throw new InputError(
      "input groups does not go with input fleet: a fleet rolls every group of a cluster to its release",
    );
}

export function readInputs(get: (name: string) => string): ActionInputs {
  const mode = (get("mode") || "auto").toLowerCase() as Mode;
  if (!MODES.includes(mode))
    throw new InputError(
      `input mode must be ${MODES.slice(0, -1).join(", ")} or ${MODES.at(-1)}, not "${get("mode")}"`,
    );
  const fleet = get("fleet").replace(/^\.\//, "");
  const policy = list(get("policy")).map((p) => p.replace(/^\.\//, ""));
  if (policy.length === 0 && mode !== "fleet-plan")
    throw new InputError("input policy is required: a policy file, several, or a glob");
  const maxText = get("max-duration") || DEFAULT_MAX_DURATION;
  const maxDurationMs = parseDuration(maxText);
  if (maxDurationMs === undefined || maxDurationMs <= 0)
    throw new InputError(`input max-duration takes a duration such as 5h30m, not "${maxText}"`);
  const groups = list(get("groups"));
  if (get("groups") !== "" && groups.length === 0)
    throw new InputError(
      `input groups "${get("groups")}" names no group; name groups (comma-separated), or leave it empty to roll every group`,
    );
  // A workflow written for the old input must not roll as if it had not asked: refused, saying
  // what each of its meanings is called now.
  if (bool(get, "force", false)) throw new InputError(forceSplit((n) => `input ${n}`));
  checkFleet(fleet, mode, groups);
  const reason = get("reason");
  const kubeconfig = get("kubeconfig");
  const eventsFile = get("events-file");
  return {
    policy,
    mode,
    token: get("github-token"),
    replaceAll: bool(get, "replace-all", false),
    deleteAfterDrainTimeout: bool(get, "delete-after-drain-timeout", false),
    ...(groups.length > 0 && { groups }),
    ...(reason && { reason }),
    ...(kubeconfig && { kubeconfig }),
    maxDurationMs,
    comment: bool(get, "comment", true),
    checkRun: bool(get, "check-run", true),
    ignoreWindow: bool(get, "ignore-window", false),
    rehearse:
      get("rehearse").toLowerCase() === "auto" || get("rehearse") === ""
        ? "auto"
        : bool(get, "rehearse", false),
    applyRefs: list(get("apply-refs")),
    labels: bool(get, "labels", false),
    ...(eventsFile && { eventsFile }),
    ...(fleet && { fleet }),
    retryFailed: bool(get, "retry-failed", false),
  };
}
