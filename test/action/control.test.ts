// The action's `mode: pause|abort|resume`: routed only for a workflow_dispatch from a ref that may
// apply, with a reason (as a forced roll); the bundled action (dist/index.js) against `sandbox
// serve` writes the pause on the cluster's Lease, an apply then refuses to start saying who
// paused, and `mode: resume` clears it and rolls.
import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { route, type EventContext, type RouteInputs } from "../../src/action/route.js";
import { LEASE_NAMESPACE, leaseName } from "../../src/roll/lease.js";
import { requestOf } from "../../src/roll/lease-request.js";
import {
  dispatchPayload,
  fastDemoPolicy,
  pullRequestPayload,
  runAction,
  serve,
  workspace,
  type Served,
} from "./harness.js";

const examples = createRequire(import.meta.url)(
  "@octokit/webhooks-examples/api.github.com/index.json",
) as { name: string; examples: Record<string, unknown>[] }[];
const payload = (name: string, pick: (p: Record<string, unknown>) => boolean = () => true) =>
  structuredClone(examples.find((e) => e.name === name)!.examples.find(pick)!);
const ctx = (eventName: string, p: Record<string, unknown>, ref = "refs/heads/main") => ({
  eventName,
  payload: p,
  sha: "f".repeat(40),
  ref,
});
const asking = (mode: RouteInputs["mode"], reason?: string): RouteInputs => ({
  mode,
  replaceAll: false,
  deleteAfterDrainTimeout: false,
  ...(reason && { reason }),
});

describe("routing mode pause, abort and resume", () => {
  const dispatch = (): EventContext => ctx("workflow_dispatch", payload("workflow_dispatch"));

  it("refuses them on a pull request, a push and a schedule, whatever the reason", () => {
    const events: [string, Record<string, unknown>][] = [
      ["pull_request", payload("pull_request", (x) => x.action === "opened")],
      ["pull_request_target", payload("pull_request", (x) => x.action === "opened")],
      ["push", payload("push", (x) => x.ref === "refs/heads/master")],
      ["schedule", {}],
    ];
    for (const mode of ["pause", "abort", "resume"] as const)
      for (const [event, p] of events)
        expect(route(ctx(event, p), asking(mode, "incident")), `${mode} on ${event}`).toEqual({
          kind: "refuse",
          why: `mode ${mode} runs only on a workflow_dispatch, not on ${event}`,
        });
  });

  it("refuses them without a reason, and from a branch that may not apply", () => {
    for (const mode of ["pause", "abort", "resume"] as const) {
      expect(route(dispatch(), asking(mode))).toMatchObject({
        kind: "refuse",
        why: expect.stringMatching(new RegExp(`^mode ${mode} needs a reason`)),
      });
      expect(route(dispatch(), asking(mode, "  "))).toMatchObject({ kind: "refuse" });
      const p = payload("workflow_dispatch");
      p.ref = "refs/heads/evil";
      expect(
        route(ctx("workflow_dispatch", p, "refs/heads/evil"), asking(mode, "x")),
      ).toMatchObject({ kind: "refuse", why: expect.stringMatching(/is not the default branch/) });
    }
  });

  it("on a dispatch from the default branch: pause and abort ask, resume applies", () => {
    expect(route(dispatch(), asking("pause", "INC-9"))).toEqual({
      kind: "control",
      action: "pause",
      sha: "f".repeat(40),
      reason: "INC-9",
    });
    expect(route(dispatch(), asking("abort", "bad AMI"))).toMatchObject({
      kind: "control",
      action: "abort",
    });
    expect(route(dispatch(), asking("resume", "INC-9 over"))).toMatchObject({
      kind: "apply",
      trigger: "dispatch",
      resume: true,
      reason: "INC-9 over",
    });
  });
});

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe("the bundled action, mode pause and resume", () => {
  it("refuses pause on a pull request and without a reason, pauses on a dispatch, then resume rolls", async () => {
    served = await serve();
    const cwd = workspace({ "policies/demo.yaml": fastDemoPolicy() });
    const policy = "policies/demo.yaml";
    const lease = () =>
      served!.world.cluster.getLease(LEASE_NAMESPACE, leaseName("demo")).catch(() => undefined);
    const base = { served, cwd, sha: "5e".repeat(20) };

    const onPr = await runAction({
      ...base,
      event: "pull_request",
      payload: pullRequestPayload(3, "5e".repeat(20)),
      inputs: { policy, mode: "pause", reason: "INC-9" },
    });
    expect(onPr.code).toBe(1);
    expect(onPr.outputs.result).toBe("refused");
    expect(onPr.stdout).toContain(
      "::error::noderoll refused: mode pause runs only on a workflow_dispatch",
    );
    const noReason = await runAction({
      ...base,
      event: "workflow_dispatch",
      payload: dispatchPayload({ mode: "pause" }),
      inputs: { policy, mode: "pause" },
    });
    expect(noReason.code).toBe(1);
    expect(noReason.stdout).toMatch(/noderoll refused: mode pause needs a reason/);
    expect(await lease()).toBeUndefined();

    const paused = await runAction({
      ...base,
      event: "workflow_dispatch",
      payload: dispatchPayload({ mode: "pause", reason: "INC-9" }),
      inputs: { policy, mode: "pause", reason: "INC-9" },
      env: { GITHUB_ACTOR: "octocat" },
    });
    expect(paused.code, paused.stdout + paused.stderr).toBe(0);
    expect(paused.outputs.result).toBe("success");
    expect(paused.summary).toContain("### noderoll pause · `demo` · ⏸️ asked");
    expect(paused.summary).toContain("No run holds the cluster now");
    expect(requestOf(await lease())).toMatchObject({
      action: "pause",
      by: "octocat (workflow_dispatch https://github.com/octo-org/infra/actions/runs/4242/attempts/1)",
      reason: "INC-9",
    });

    // An apply while it stands refuses to start, and says who paused and how to resume.
    const refused = await runAction({
      ...base,
      event: "workflow_dispatch",
      payload: dispatchPayload({}),
      inputs: { policy },
    });
    expect(refused.outputs.result).toBe("skipped");
    expect(refused.summary).toMatch(
      /Paused: paused by octocat .*\(reason: INC-9\); nothing was started or changed/,
    );
    expect(refused.summary).toContain("mode: resume");
    expect(served.world.instances("workers").every((i) => i.ltVersion === 6)).toBe(true);

    const resumed = await runAction({
      ...base,
      event: "workflow_dispatch",
      payload: dispatchPayload({ mode: "resume", reason: "INC-9 over" }),
      inputs: { policy, mode: "resume", reason: "INC-9 over" },
    });
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.outputs.result).toBe("success");
    expect(resumed.stdout).toMatch(/::notice::demo: resume: cleared a pause requested by octocat/);
    expect(requestOf(await lease())).toBeUndefined();
    expect(served.world.instances("workers").every((i) => i.ltVersion === 7)).toBe(true);
  }, 600_000);
});
