// A pull request controls text the action logs: file names, a policy's keys and values. None of
// it may start a line the runner reads as a workflow command (::save-state::, ::warning::, …):
// a forged save-state could point the post step anywhere, a forged warning misleads reviewers.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pullRequestPayload, runAction, serve, workspace, type Served } from "./harness.js";

const HEAD = "e5".repeat(20);
const EVIL_KEY = `"k\\n::save-state name=noderoll-lease::{}\\n::warning title=spoofed::from a key": 1`;

/** Lines the runner would act on: commands outside a ::stop-commands:: region. */
function commands(stdout: string): string[] {
  const out: string[] = [];
  let stopped: string | undefined;
  for (const line of stdout.split("\n")) {
    if (stopped) {
      if (line.trim() === `::${stopped}::`) stopped = undefined;
      continue;
    }
    const m = /^::stop-commands::(.+)$/.exec(line.trim());
    if (m) stopped = m[1];
    else if (line.trimStart().startsWith("::")) out.push(line);
  }
  return out;
}

let served: Served;
let cwd: string;
beforeAll(async () => {
  const name =
    "policies/evil\n::save-state name=noderoll-lease::{}\n::warning title=spoofed::name.yaml";
  served = await serve(undefined, { pulls: [{ number: 31, headSha: HEAD, files: [name] }] });
  cwd = workspace({});
  mkdirSync(join(cwd, "policies"), { recursive: true });
  writeFileSync(
    join(cwd, name),
    `apiVersion: noderoll.io/v1\nkind: UpgradePolicy\nmetadata: { name: evil }\ncluster: { name: demo, region: eu-west-1 }\n${EVIL_KEY}\ngroups: [{ name: workers }]\n`,
  );
});
afterAll(() => served.close());

describe("text from a pull request in the job log", () => {
  it("never starts a workflow command: no forged state, no forged annotation", async () => {
    const r = await runAction({
      served,
      cwd,
      event: "pull_request",
      payload: pullRequestPayload(31, HEAD),
      sha: "d".repeat(40),
      ref: "refs/pull/31/merge",
      inputs: { policy: "policies/*.yaml" },
    });
    expect(r.outputs.result).toBe("invalid");
    const forged = commands(r.stdout).filter((l) => /save-state|spoofed/.test(l));
    expect(forged).toEqual([]);
    expect(r.state["noderoll-lease"]).toBeUndefined();
  });
});
