// A workflow cancelled while the action is still reading the cluster: the runner sends SIGTERM
// and kills the step soon after, so the read must stop at once — not wait out a stalled
// request's deadline and its retries (six attempts of 30 s each) into adapters nobody needs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SCENARIO_YAML } from "../../src/sandbox/scenarios/demo.js";
import {
  fastDemoPolicy,
  pullRequestPayload,
  runAction,
  serve,
  workspace,
  type Served,
} from "./harness.js";

const HEAD = "c4".repeat(20);
// Every pod list stalls: no bytes, no close, as a dead connection does.
const STALLED = `${DEMO_SCENARIO_YAML}faults:\n  network:\n    - { api: kubernetes, stall: 1, calls: [core.listPods] }\n`;
/** Far below what the stalled reads would take (one request timeout is 30 s), far above a stop. */
const STOP_BOUND_MS = 25_000;

let served: Served;
beforeAll(async () => {
  served = await serve(STALLED, {
    pulls: [{ number: 12, headSha: HEAD, files: ["policies/demo.yaml"] }],
  });
});
afterAll(() => served.close());

describe("a workflow cancelled while the action reads the cluster", () => {
  it("stops reading at once and reports the plan as not made", async () => {
    const cwd = workspace({ "policies/demo.yaml": fastDemoPolicy() });
    let killedAt = 0;
    const r = await runAction({
      served,
      cwd,
      event: "pull_request",
      payload: pullRequestPayload(12, HEAD),
      sha: "d".repeat(40),
      ref: "refs/pull/12/merge",
      inputs: { policy: "policies/demo.yaml" },
      // Five seconds into a read that cannot finish (the log's progress line).
      killWhen: /reading live state · /,
      onKill: () => (killedAt = performance.now()),
    });
    const stoppedIn = performance.now() - killedAt;
    expect(killedAt, r.stdout).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/SIGTERM: the workflow was cancelled/);
    // Said in words, not as the raw AbortError (issue 48, item 8).
    expect(r.stdout).not.toMatch(/operation was aborted|AbortError/i);
    expect(r.summary).not.toMatch(/operation was aborted|AbortError/i);
    expect(stoppedIn, r.stdout).toBeLessThan(STOP_BOUND_MS);
    expect(r.outputs.result).not.toBe("success");
  });
});
