// What a workflow event asks of noderoll: plan, apply, or nothing — decided from the event and
// the inputs alone, before anything is read or changed. `apply` never runs for a pull request,
// whatever the inputs say.

export type Mode = "auto" | "plan" | "apply";

export interface RouteInputs {
  mode: Mode;
  force: boolean;
  groups?: string[];
  reason?: string;
}

export interface EventContext {
  eventName: string;
  payload: Record<string, unknown>;
  sha: string;
  ref: string;
}

export type Decision =
  | { kind: "plan"; pullRequest?: number; headSha: string; warning?: string }
  | {
      kind: "apply";
      sha: string;
      trigger: "push" | "dispatch" | "manual";
      force: boolean;
      groups?: string[];
      reason?: string;
      changedFiles?: string[];
    }
  | { kind: "skip"; why: string }
  | { kind: "refuse"; why: string };

const PR_EVENTS = new Set(["pull_request", "pull_request_target"]);

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
  const defaultRef = `refs/heads/${p.repository?.default_branch ?? "main"}`;
  const sha = p.after ?? ctx.sha;
  if (inputs.mode === "plan") return { kind: "plan", headSha: sha };
  if (p.ref !== defaultRef && inputs.mode === "auto")
    return {
      kind: "skip",
      why: `${p.ref} is not the default branch (${defaultRef}); apply runs on merges to it`,
    };
  const changed = changedInPush(p);
  return {
    kind: "apply",
    sha,
    trigger: "push",
    force: inputs.force,
    ...(inputs.groups && { groups: inputs.groups }),
    ...(inputs.reason && { reason: inputs.reason }),
    ...(changed && { changedFiles: changed }),
  };
}

export function route(ctx: EventContext, inputs: RouteInputs): Decision {
  if (PR_EVENTS.has(ctx.eventName)) return routePullRequest(ctx, inputs);
  if (inputs.force && !inputs.reason?.trim())
    return {
      kind: "refuse",
      why: "force needs a reason: say why the roll must go past PodDisruptionBudgets (the reason is recorded with the result)",
    };
  if (ctx.eventName === "push") return routePush(ctx, inputs);
  if (inputs.mode === "plan") return { kind: "plan", headSha: ctx.sha };
  if (ctx.eventName === "workflow_dispatch" || inputs.mode === "apply") {
    const trigger = ctx.eventName === "workflow_dispatch" ? "dispatch" : "manual";
    return {
      kind: "apply",
      sha: ctx.sha,
      trigger,
      force: inputs.force,
      ...(inputs.groups && { groups: inputs.groups }),
      ...(inputs.reason && { reason: inputs.reason }),
    };
  }
  return { kind: "plan", headSha: ctx.sha };
}
