// Adversarial review of issue 44, defect 4 (the action's cancel path): the post step.
import { afterAll, describe, expect, it } from "vitest";
import { LEASE_NAMESPACE } from "../../src/roll/lease.js";
import { dispatchPayload, runPost, serve, workspace, type Served } from "../action/harness.js";

let served: Served | undefined;
afterAll(() => served?.close());

describe("the post step with a forged check-run state", () => {
  // src/action/post-state.ts says the saved state "can be forged from a log line; the post step
  // completes nothing else" than noderoll's own check runs — but it checks only the *name*
  // (cancelIfOpen in src/adapters/github/check-run.ts). Another workflow run's check run of the
  // same name (the fleet matrix's other job rolling prod on another commit, or a scheduled apply
  // in progress) is completed as "cancelled" while that roll goes on: its PR and check say
  // cancelled, mid-roll. Expected: only a check run of this run (its head_sha is GITHUB_SHA, or
  // its external_id / details_url is this run's) is touched; another is "not ours".
  it("leaves an in-progress check run of another commit alone", async () => {
    served = await serve();
    const s = served;
    const other = {
      id: 987_654,
      name: "noderoll apply / prod",
      head_sha: "ab".repeat(20),
      status: "in_progress",
      conclusion: null,
      output: { annotations_count: 0 },
      annotations: [],
      history: [],
    };
    s.server.faces.github.checkRuns.push(other);
    const r = await runPost(
      {
        served: s,
        cwd: workspace({}),
        event: "workflow_dispatch",
        payload: dispatchPayload({}),
        sha: "5c".repeat(20),
        inputs: { policy: "policies/demo.yaml" },
      },
      { "noderoll-check-runs": JSON.stringify([{ id: other.id, name: other.name }]) },
    );
    expect(r.code).toBe(0);
    expect({ status: other.status, conclusion: other.conclusion }).toEqual({
      status: "in_progress",
      conclusion: null,
    });
  });
});

describe("the post step with a forged lock state", () => {
  // The same trust boundary for the Lease: parseLeaseState accepts any holder of the right shape,
  // and the holder of a live run is printed in every log ("lock taken by noderoll-gha-…/…") and on
  // the Lease. A post step whose state names another run's holder gives that run's Lease back
  // while it rolls; a third run may then take the free Lease at once, while the holder keeps
  // acting until its next renewal (up to 30 s) finds the Lease changed — two rolls at once, the
  // one thing the lock exists to prevent (docs/design.md: "no two runs hold it at once").
  // Expected: the post step releases only a holder this run could have been
  // (noderoll-gha-<GITHUB_RUN_ID>…), as it trusts nothing else in the state.
  it("does not release a Lease another workflow run holds", async () => {
    served ??= await serve();
    const s = served;
    const holder = "noderoll-gha-777-1/0123abcd";
    await s.world.cluster.createLease(LEASE_NAMESPACE, {
      metadata: { name: "noderoll-demo", namespace: LEASE_NAMESPACE },
      spec: { holderIdentity: holder, leaseDurationSeconds: 120 },
    });
    const r = await runPost(
      {
        served: s,
        cwd: workspace({}),
        event: "workflow_dispatch",
        payload: dispatchPayload({}),
        sha: "5c".repeat(20),
        inputs: { policy: "policies/demo.yaml" },
      },
      {
        "noderoll-lease": JSON.stringify([
          { cluster: "demo", region: "eu-west-1", name: "noderoll-demo", holder },
        ]),
      },
    );
    expect(r.code).toBe(0);
    const lease = await s.world.cluster.getLease(LEASE_NAMESPACE, "noderoll-demo");
    expect(lease.spec.holderIdentity).toBe(holder);
  });
});
