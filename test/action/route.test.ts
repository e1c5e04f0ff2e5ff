// Event routing with real webhook payloads (@octokit/webhooks-examples).
import { createRequire } from "node:module";
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
const auto: RouteInputs = { mode: "auto", force: false };

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
      const d = route(ctx(event, p), { mode: "apply", force: true, reason: "cve" });
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
      force: false,
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

  it("applies a dispatch with its overrides, and refuses force without a reason", () => {
    const p = payload("workflow_dispatch");
    expect(
      route(ctx("workflow_dispatch", p), {
        mode: "auto",
        force: true,
        reason: "CVE-2026-1234",
        groups: ["workers"],
      }),
    ).toEqual({
      kind: "apply",
      sha: "f".repeat(40),
      trigger: "dispatch",
      force: true,
      groups: ["workers"],
      reason: "CVE-2026-1234",
    });
    expect(
      route(ctx("workflow_dispatch", p), { mode: "auto", force: true, reason: "  " }),
    ).toMatchObject({ kind: "refuse", why: expect.stringMatching(/^force needs a reason/) });
  });

  it("plans anything else in auto mode and follows an explicit mode", () => {
    expect(route(ctx("schedule", {}), auto)).toEqual({ kind: "plan", headSha: "f".repeat(40) });
    expect(route(ctx("schedule", {}), { mode: "apply", force: false })).toMatchObject({
      kind: "apply",
      trigger: "manual",
    });
    expect(
      route(ctx("workflow_dispatch", payload("workflow_dispatch")), { mode: "plan", force: false }),
    ).toMatchObject({ kind: "plan" });
  });
});
