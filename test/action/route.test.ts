// Event routing with real webhook payloads (@octokit/webhooks-examples).
import { createRequire } from "node:module";
import { emitterEventNames } from "@octokit/webhooks";
import { describe, expect, it } from "vitest";
import { route, type EventContext, type RouteInputs } from "../../src/action/route.js";

const examples = createRequire(import.meta.url)(
  "@octokit/webhooks-examples/api.github.com/index.json",
) as { name: string; examples: Record<string, unknown>[] }[];
const payload = (name: string, pick: (p: Record<string, unknown>) => boolean = () => true) =>
  structuredClone(examples.find((e) => e.name === name)!.examples.find(pick)!);
const ctx = (eventName: string, p: Record<string, unknown>): EventContext => ({
  eventName,
  payload: p,
  sha: "f".repeat(40),
  ref: "refs/heads/main",
});
const auto: RouteInputs = { mode: "auto", replaceAll: false, deleteAfterDrainTimeout: false };

describe("routing", () => {
  it("plans an opened pull request on its head commit", () => {
    const p = payload("pull_request", (x) => x.action === "opened");
    expect(route(ctx("pull_request", p), auto)).toEqual({
      kind: "plan",
      pullRequest: 2,
      headSha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
    });
  });

  it("never applies for a pull request, whatever the inputs say", () => {
    for (const event of ["pull_request", "pull_request_target"]) {
      const p = payload("pull_request", (x) => x.action === "synchronize");
      const d = route(ctx(event, p), {
        mode: "apply",
        replaceAll: true,
        deleteAfterDrainTimeout: true,
        reason: "cve",
      });
      expect(d.kind).toBe("plan");
      expect(d).toMatchObject({
        warning: `apply never runs for ${event} events; planning instead`,
      });
    }
  });

  it("skips a closed pull request", () => {
    expect(
      route(
        ctx(
          "pull_request",
          payload("pull_request", (x) => x.action === "closed"),
        ),
        auto,
      ).kind,
    ).toBe("skip");
  });

  it("applies a push to the default branch, with the files it changed", () => {
    const p = payload("push", (x) => x.ref === "refs/heads/master");
    (p.commits as { added: string[]; modified: string[] }[])[0]!.modified = ["policies/prod.yaml"];
    expect(route(ctx("push", p), auto)).toEqual({
      kind: "apply",
      sha: "6113728f27ae82c7b1a177c8d03f9e96e0adf246",
      trigger: "push",
      replaceAll: false,
      deleteAfterDrainTimeout: false,
      changedFiles: ["README.md", "policies/prod.yaml"],
    });
  });

  it("does not know the changed files when the payload's commit list may be cut", () => {
    const p = payload("push", (x) => x.ref === "refs/heads/master");
    p.commits = Array.from({ length: 20 }, () => ({ added: [], modified: ["x"] }));
    expect(route(ctx("push", p), auto)).not.toHaveProperty("changedFiles");
  });

  it("skips tags, deleted branches and other branches", () => {
    expect(
      route(
        ctx(
          "push",
          payload("push", (x) => x.ref === "refs/tags/simple-tag" && x.deleted === false),
        ),
        auto,
      ),
    ).toMatchObject({ kind: "skip", why: expect.stringMatching(/not the default branch/) });
    expect(
      route(
        ctx(
          "push",
          payload("push", (x) => x.deleted === true),
        ),
        auto,
      ),
    ).toMatchObject({ kind: "skip", why: "refs/tags/simple-tag was deleted" });
  });

  it("applies a dispatch with its overrides, and refuses replace-all or delete-after-drain-timeout without a reason", () => {
    const p = payload("workflow_dispatch");
    expect(
      route(ctx("workflow_dispatch", p), {
        mode: "auto",
        replaceAll: true,
        deleteAfterDrainTimeout: true,
        reason: "CVE-2026-1234",
        groups: ["workers"],
      }),
    ).toEqual({
      kind: "apply",
      sha: "f".repeat(40),
      trigger: "dispatch",
      replaceAll: true,
      deleteAfterDrainTimeout: true,
      groups: ["workers"],
      reason: "CVE-2026-1234",
    });
    expect(
      route(ctx("workflow_dispatch", p), {
        mode: "auto",
        replaceAll: false,
        deleteAfterDrainTimeout: true,
        reason: "CVE-2026-1234",
      }),
    ).toEqual({
      kind: "apply",
      sha: "f".repeat(40),
      trigger: "dispatch",
      replaceAll: false,
      deleteAfterDrainTimeout: true,
      reason: "CVE-2026-1234",
    });
    expect(
      route(ctx("workflow_dispatch", p), {
        mode: "auto",
        replaceAll: true,
        deleteAfterDrainTimeout: false,
        reason: "  ",
      }),
    ).toMatchObject({ kind: "refuse", why: expect.stringMatching(/^replace-all needs a reason/) });
    expect(
      route(ctx("workflow_dispatch", p), {
        mode: "auto",
        replaceAll: false,
        deleteAfterDrainTimeout: true,
      }),
    ).toMatchObject({
      kind: "refuse",
      why: expect.stringMatching(/^delete-after-drain-timeout needs a reason/),
    });
  });

  it("plans anything else in auto mode and follows an explicit mode", () => {
    expect(route(ctx("schedule", {}), auto)).toEqual({ kind: "plan", headSha: "f".repeat(40) });
    expect(
      route(ctx("schedule", {}), {
        mode: "apply",
        replaceAll: false,
        deleteAfterDrainTimeout: false,
      }),
    ).toMatchObject({
      kind: "apply",
      trigger: "schedule",
    });
    expect(
      route(ctx("workflow_dispatch", payload("workflow_dispatch")), {
        mode: "plan",
        replaceAll: false,
        deleteAfterDrainTimeout: false,
      }),
    ).toMatchObject({ kind: "plan" });
  });
});

/**
 * Every event a workflow can run on: every webhook event GitHub documents (@octokit/webhooks'
 * list) and the ones only Actions has. Deny by default: whatever the inputs, only a push to the
 * default branch, a dispatch from it, and a schedule with mode: apply may apply.
 */
const ACTIONS_ONLY = ["schedule", "workflow_call", "pull_request_target", "repository_dispatch"];
const EVENTS = [
  ...new Set([...emitterEventNames.map((n) => n.split(".")[0]!), ...ACTIONS_ONLY]),
].sort();

function anyPayload(event: string): Record<string, unknown>[] {
  const found = examples.find((e) => e.name === event)?.examples ?? [];
  const base = { repository: { default_branch: "main" }, ref: "refs/heads/main" };
  return found.length > 0 ? found.map((p) => structuredClone(p)) : [base];
}

function mayApply(event: string, p: Record<string, unknown>, i: RouteInputs): boolean {
  const dflt = `refs/heads/${(p.repository as { default_branch?: string } | undefined)?.default_branch}`;
  if (event === "push") return p.ref === dflt && !p.deleted && i.mode !== "plan";
  if (event === "workflow_dispatch")
    return (p.ref ?? "refs/heads/main") === dflt && i.mode !== "plan";
  return event === "schedule" && i.mode === "apply";
}

describe("routing is deny-by-default over every event GitHub documents", () => {
  const inputs: RouteInputs[] = [
    { mode: "auto", replaceAll: false, deleteAfterDrainTimeout: false },
    { mode: "apply", replaceAll: false, deleteAfterDrainTimeout: false },
    { mode: "apply", replaceAll: true, deleteAfterDrainTimeout: true, reason: "cve" },
    { mode: "apply", replaceAll: true, deleteAfterDrainTimeout: false, reason: "cve" },
    { mode: "apply", replaceAll: false, deleteAfterDrainTimeout: true, reason: "cve" },
    { mode: "plan", replaceAll: true, deleteAfterDrainTimeout: true, reason: "cve" },
  ];

  it("knows the documented list (more than 60 events, the pull-request family among them)", () => {
    expect(EVENTS.length).toBeGreaterThan(60);
    for (const e of [
      "pull_request_review",
      "pull_request_review_comment",
      "pull_request_review_thread",
      "issue_comment",
      "merge_group",
      "workflow_run",
    ])
      expect(EVENTS).toContain(e);
  });

  it.each(EVENTS)("%s applies only where allowed", (event) => {
    for (const p of anyPayload(event)) {
      for (const i of inputs) {
        const d = route(
          { eventName: event, payload: p, sha: "f".repeat(40), ref: "refs/heads/main" },
          i,
        );
        const allowed = mayApply(event, p, i);
        expect(d.kind === "apply", `${event} ${JSON.stringify(i)} → ${JSON.stringify(d)}`).toBe(
          allowed,
        );
      }
    }
  });

  it("a dispatch from another branch is refused, naming the branch and the way to allow it", () => {
    const p = payload("workflow_dispatch");
    p.ref = "refs/heads/evil-branch";
    const d = route({ ...ctx("workflow_dispatch", p), ref: "refs/heads/evil-branch" }, auto);
    expect(d).toMatchObject({
      kind: "refuse",
      why: expect.stringMatching(/refs\/heads\/evil-branch is not the default branch.*apply-refs/),
    });
    const allowed = route(ctx("workflow_dispatch", p), {
      ...auto,
      applyRefs: ["refs/heads/evil-*"],
    });
    expect(allowed.kind).toBe("apply");
  });

  it("a push to another branch with mode: apply is refused, not applied", () => {
    const p = payload("push", (x) => x.ref === "refs/heads/master");
    p.ref = "refs/heads/feature";
    expect(
      route(ctx("push", p), { mode: "apply", replaceAll: false, deleteAfterDrainTimeout: false }),
    ).toMatchObject({
      kind: "refuse",
      why: expect.stringMatching(/refs\/heads\/feature is not the default branch/),
    });
  });

  it("pull-request review, comment and merge-queue events plan, with a warning when asked to apply", () => {
    for (const event of ["pull_request_review", "issue_comment", "merge_group", "workflow_run"]) {
      const d = route(ctx(event, anyPayload(event)[0]!), {
        mode: "apply",
        replaceAll: false,
        deleteAfterDrainTimeout: false,
      });
      expect(d).toMatchObject({ kind: "plan", warning: expect.stringMatching(/plans instead/) });
    }
  });
});

describe("routing with a fleet", () => {
  const fleet: RouteInputs = { ...auto, fleet: true };
  const fleetPlan: RouteInputs = { ...auto, mode: "fleet-plan", fleet: true };

  it("mode fleet-plan reads the fleet on any event; a pull request's on its head commit", () => {
    for (const [event, p] of [
      ["schedule", { schedule: "7 * * * *" }],
      ["workflow_dispatch", payload("workflow_dispatch")],
      ["push", payload("push", (x) => x.ref === "refs/heads/master")],
      ["issue_comment", payload("issue_comment")],
    ] as const)
      expect(route(ctx(event, p), fleetPlan), event).toEqual({
        kind: "fleet-plan",
        headSha: "f".repeat(40),
      });
    const pr = payload("pull_request", (x) => x.action === "opened");
    expect(route(ctx("pull_request", pr), fleetPlan)).toEqual({
      kind: "fleet-plan",
      pullRequest: 2,
      headSha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
    });
    const closed = payload("pull_request", (x) => x.action === "closed");
    expect(route(ctx("pull_request", closed), fleetPlan).kind).toBe("skip");
  });

  it("a cluster of a fleet: a schedule applies in mode auto; what would plan does nothing", () => {
    expect(route(ctx("schedule", { schedule: "7 * * * *" }), fleet)).toMatchObject({
      kind: "apply",
      trigger: "schedule",
    });
    // Without a fleet, a schedule in mode auto only plans.
    expect(route(ctx("schedule", {}), auto).kind).toBe("plan");
    const pr = payload("pull_request", (x) => x.action === "opened");
    expect(route(ctx("pull_request", pr), fleet)).toEqual({
      kind: "skip",
      why: "pull_request does not apply, and a job for one cluster of a fleet only applies; the fleet is planned by mode fleet-plan",
    });
  });
});
