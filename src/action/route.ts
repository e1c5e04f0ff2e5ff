// What a workflow event asks of noderoll: plan, apply, or nothing — decided from the event and
// the inputs alone, before anything is read or changed. Deny by default: only a reviewed merge
// (a push to the default branch), a deliberate dispatch from the default branch, and a schedule
// with `mode: apply` may apply; every other event plans (or is refused), whatever the inputs say.
// `apply-refs` may allow more refs for pushes and dispatches, explicitly. `mode: pause|abort|
// resume|rollback` is a dispatch's alone, from a ref that may apply, with a reason (as a forced
// roll). `mode: fleet-plan` reads a fleet's clusters on any event (it changes nothing); with a
// `fleet` input, the apply of one cluster comes from the same events as any apply, and a
// schedule applies whatever the mode (the fleet, read whole, says whether the cluster is due).
import { matchesGlob } from "node:path";
import { forced } from "../engine/index.js";

/** What the `mode` input may say: pause, abort and resume act on the cluster's Lease. */
export const MODES = [
  "auto",
  "plan",
  "apply",
  "pause",
  "resume",
  "abort",
  "rollback",
  "fleet-plan",
] as const;
export type Mode = (typeof MODES)[number];
type ControlMode = Extract<Mode, "pause" | "resume" | "abort" | "rollback">;
const CONTROL_MODES: readonly Mode[] = ["pause", "resume", "abort", "rollback"];
const isControl = (m: Mode): m is ControlMode => CONTROL_MODES.includes(m);

export interface RouteInputs {
  mode: Mode;
  replaceAll: boolean;
  deleteAfterDrainTimeout: boolean;
  groups?: string[];
  reason?: string;
  /** Refs besides the default branch that a push or dispatch may apply from (globs allowed). */
  applyRefs?: string[];
  /** A `fleet` input names a fleet file: this job plans it, or rolls one cluster of it. */
  fleet?: boolean;
}

export interface EventContext {
  eventName: string;
  payload: Record<string, unknown>;
  sha: string;
  ref: string;
}

export type Trigger = "push" | "dispatch" | "schedule";

export type Decision =
  | { kind: "plan"; pullRequest?: number; headSha: string; warning?: string }
  | {
      kind: "apply";
      sha: string;
      trigger: Trigger;
      replaceAll: boolean;
      deleteAfterDrainTimeout: boolean;
      groups?: string[];
      reason?: string;
      changedFiles?: string[];
      /** `mode: resume`: a pause or an abort on the cluster's Lease is cleared first. */
      resume?: true;
      /** `mode: rollback`: the groups a roll changed go back to what they ran before. */
      rollback?: true;
    }
  /** `mode: pause|abort`: the request written on each policy's cluster's Lease. */
  | { kind: "control"; action: "pause" | "abort"; sha: string; reason: string }
  /** `mode: fleet-plan`: every cluster of the fleet read, what is due now said; nothing changed. */
  | { kind: "fleet-plan"; pullRequest?: number; headSha: string }
  | { kind: "skip"; why: string }
  | { kind: "refuse"; why: string };

/** The events that may apply, and how (everything else plans). */
const MAY_APPLY: ReadonlySet<string> = new Set(["push", "workflow_dispatch", "schedule"]);
const PR_EVENTS: ReadonlySet<string> = new Set(["pull_request", "pull_request_target"]);

interface PullRequestPayload {
  action?: string;
  number?: number;
  pull_request?: { number: number; head: { sha: string } };
}

interface PushPayload {
  ref?: string;
  after?: string;
  deleted?: boolean;
  repository?: { default_branch?: string };
  commits?: { added?: string[]; modified?: string[] }[];
}

/** GitHub lists at most 20 commits in a push payload; past that the file list is not complete. */
const PUSH_PAYLOAD_COMMITS = 20;

function changedInPush(p: PushPayload): string[] | undefined {
  const commits = p.commits ?? [];
  if (commits.length >= PUSH_PAYLOAD_COMMITS) return undefined;
  return [...new Set(commits.flatMap((c) => [...(c.added ?? []), ...(c.modified ?? [])]))].sort();
}

function defaultRef(ctx: EventContext): string | undefined {
  const branch = (ctx.payload as PushPayload).repository?.default_branch;
  return branch ? `refs/heads/${branch}` : undefined;
}

/** Whether a ref may apply: the default branch, or one `apply-refs` names. */
function allowedRef(ref: string, ctx: EventContext, inputs: RouteInputs): boolean {
  if (ref === defaultRef(ctx)) return true;
  return (inputs.applyRefs ?? []).some((p) => p === ref || matchesGlob(ref, p));
}

function refNotAllowed(ref: string, ctx: EventContext): string {
  const dflt = defaultRef(ctx) ?? "the default branch (not named in the event)";
  return `${ref || "(no ref)"} is not the default branch (${dflt}); apply runs from the default branch only, unless the apply-refs input names this ref`;
}

function applying(
  ctx: EventContext,
  inputs: RouteInputs,
  trigger: Trigger,
  sha: string,
): Extract<Decision, { kind: "apply" }> {
  return {
    kind: "apply",
    sha,
    trigger,
    replaceAll: inputs.replaceAll,
    deleteAfterDrainTimeout: inputs.deleteAfterDrainTimeout,
    ...(inputs.groups && { groups: inputs.groups }),
    ...(inputs.reason && { reason: inputs.reason }),
  };
}

function routePullRequest(ctx: EventContext, inputs: RouteInputs): Decision {
  const p = ctx.payload as PullRequestPayload;
  const pr = p.pull_request;
  if (!pr)
    return { kind: "refuse", why: `${ctx.eventName} event without a pull_request in its payload` };
  if (p.action === "closed")
    return { kind: "skip", why: `pull request #${pr.number} was closed; nothing to plan` };
  const warning =
    inputs.mode === "apply"
      ? `apply never runs for ${ctx.eventName} events; planning instead`
      : undefined;
  return {
    kind: "plan",
    pullRequest: pr.number,
    headSha: pr.head.sha,
    ...(warning && { warning }),
  };
}

function routePush(ctx: EventContext, inputs: RouteInputs): Decision {
  const p = ctx.payload as PushPayload;
  if (p.deleted) return { kind: "skip", why: `${p.ref} was deleted` };
  const sha = p.after ?? ctx.sha;
  const ref = p.ref ?? ctx.ref;
  if (inputs.mode === "plan") return { kind: "plan", headSha: sha };
  if (!allowedRef(ref, ctx, inputs)) {
    const why = refNotAllowed(ref, ctx);
    return inputs.mode === "auto" ? { kind: "skip", why } : { kind: "refuse", why };
  }
  const changed = changedInPush(p);
  return { ...applying(ctx, inputs, "push", sha), ...(changed && { changedFiles: changed }) };
}

function routeDispatch(ctx: EventContext, inputs: RouteInputs): Decision {
  if (inputs.mode === "plan") return { kind: "plan", headSha: ctx.sha };
  const ref = (ctx.payload as { ref?: string }).ref ?? ctx.ref;
  if (!allowedRef(ref, ctx, inputs)) return { kind: "refuse", why: refNotAllowed(ref, ctx) };
  return applying(ctx, inputs, "dispatch", ctx.sha);
}

/** Any other event plans; asked to apply, it says why it does not. */
function planOther(ctx: EventContext, inputs: RouteInputs): Decision {
  const warning =
    inputs.mode === "apply"
      ? `apply runs only for a push to the default branch, a workflow_dispatch or a schedule; ${ctx.eventName || "this event"} plans instead`
      : undefined;
  return { kind: "plan", headSha: ctx.sha, ...(warning && { warning }) };
}

/**
 * Pause, abort, resume: a deliberate dispatch only (never an event others can cause: a pull
 * request, a push), from a ref that may apply, with a reason — resume applies, and pause and
 * abort stop a roll someone else started.
 */
function routeControl(ctx: EventContext, inputs: RouteInputs, mode: ControlMode): Decision {
  if (ctx.eventName !== "workflow_dispatch")
    return {
      kind: "refuse",
      why: `mode ${mode} runs only on a workflow_dispatch, not on ${ctx.eventName || "this event"}`,
    };
  const reason = inputs.reason?.trim();
  if (!reason)
    return {
      kind: "refuse",
      why: `mode ${mode} needs a reason: say why (it is recorded on the cluster's lock and shown with the stopped run's result)`,
    };
  const ref = (ctx.payload as { ref?: string }).ref ?? ctx.ref;
  if (!allowedRef(ref, ctx, inputs)) return { kind: "refuse", why: refNotAllowed(ref, ctx) };
  if (mode === "resume") return { ...applying(ctx, inputs, "dispatch", ctx.sha), resume: true };
  if (mode === "rollback") return { ...applying(ctx, inputs, "dispatch", ctx.sha), rollback: true };
  return { kind: "control", action: mode, sha: ctx.sha, reason };
}

/** Any event may read a fleet; a pull request's plan is commented on (a closed one is not). */
function routeFleetPlan(ctx: EventContext): Decision {
  if (!PR_EVENTS.has(ctx.eventName)) return { kind: "fleet-plan", headSha: ctx.sha };
  const d = routePullRequest(ctx, {
    mode: "plan",
    replaceAll: false,
    deleteAfterDrainTimeout: false,
  });
  return d.kind === "plan"
    ? {
        kind: "fleet-plan",
        headSha: d.headSha,
        ...(d.pullRequest !== undefined && { pullRequest: d.pullRequest }),
      }
    : d;
}

export function route(ctx: EventContext, inputs: RouteInputs): Decision {
  if (inputs.mode === "fleet-plan") return routeFleetPlan(ctx);
  const d = routeEvent(ctx, inputs);
  // One cluster of a fleet is rolled, or nothing: its plan is the fleet's (mode fleet-plan).
  if (inputs.fleet && d.kind === "plan")
    return {
      kind: "skip",
      why: `${ctx.eventName || "this event"} does not apply, and a job for one cluster of a fleet only applies; the fleet is planned by mode fleet-plan`,
    };
  return d;
}

function routeEvent(ctx: EventContext, inputs: RouteInputs): Decision {
  if (isControl(inputs.mode)) return routeControl(ctx, inputs, inputs.mode);
  if (PR_EVENTS.has(ctx.eventName)) return routePullRequest(ctx, inputs);
  if (!MAY_APPLY.has(ctx.eventName)) return planOther(ctx, inputs);
  if (forced(inputs) && !inputs.reason?.trim())
    return {
      kind: "refuse",
      why: `${inputs.replaceAll ? "replace-all" : "delete-after-drain-timeout"} needs a reason: say why the roll is forced (the reason is recorded with the result)`,
    };
  if (ctx.eventName === "push") return routePush(ctx, inputs);
  if (ctx.eventName === "workflow_dispatch") return routeDispatch(ctx, inputs);
  // A schedule runs on the default branch's latest commit: it applies only when asked to.
  if (inputs.mode === "apply" || inputs.fleet) return applying(ctx, inputs, "schedule", ctx.sha);
  return { kind: "plan", headSha: ctx.sha };
}
