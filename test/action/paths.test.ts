// A pull request controls the policy paths the action reads: a symlink out of the checkout, a
// "../" path, an absolute path, a path into .git (where actions/checkout keeps the job's token).
// Each is refused before anything reads it, and nothing of the target ever reaches the log, the
// PR comment, the check run or the job summary.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPolicyFile, outsideWorkspace } from "../../src/action/policy-file.js";
import {
  fastDemoPolicy,
  pullRequestPayload,
  runAction,
  serve,
  workspace,
  type Served,
} from "./harness.js";

const SECRET = "ghp_SECRETsecretSECRETsecretSECRET0123";
const HEAD = "d4".repeat(20);

function secretOutside(): string {
  const dir = mkdtempSync(join(tmpdir(), "noderoll-secret-"));
  const file = join(dir, "token");
  writeFileSync(file, `${SECRET}\n`);
  return file;
}

function hostileWorkspace(): string {
  const secret = secretOutside();
  const ws = workspace({ "policies/demo.yaml": fastDemoPolicy() });
  symlinkSync(secret, join(ws, "policies/link.yaml"));
  symlinkSync(join(ws, "policies"), join(ws, "policies/loop")); // inside: allowed
  mkdirSync(join(ws, ".git"), { recursive: true });
  writeFileSync(
    join(ws, ".git/config"),
    `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${SECRET}\n`,
  );
  symlinkSync(join(ws, ".git/config"), join(ws, "policies/git.yaml"));
  return ws;
}

describe("policy paths the action may read", () => {
  const ws = hostileWorkspace();

  it.each([
    ["policies/link.yaml", /outside the workspace/],
    ["../token", /outside the workspace/],
    ["/etc/hostname", /outside the workspace/],
    ["policies/git.yaml", /\.git directory/],
    [".git/config", /\.git directory/],
  ])("refuses %s before reading it, quoting nothing of it", (path, why) => {
    expect(outsideWorkspace(path, ws)).toMatch(why);
    const p = loadPolicyFile(path, ws);
    expect(p.load.ok).toBe(false);
    const text = JSON.stringify(p);
    expect(text).not.toContain("SECRET");
    expect(text).not.toContain("AUTHORIZATION");
  });

  it("reads files of the repository, through symlinks that stay inside it", () => {
    expect(outsideWorkspace("policies/demo.yaml", ws)).toBeUndefined();
    expect(outsideWorkspace("policies/loop/demo.yaml", ws)).toBeUndefined();
    expect(loadPolicyFile("policies/loop/demo.yaml", ws).load.ok).toBe(true);
  });
});

describe("the bundled action on a pull request that points a policy at a secret", () => {
  let served: Served;
  let ws: string;
  beforeAll(async () => {
    served = await serve(undefined, {
      pulls: [{ number: 21, headSha: HEAD, files: ["policies/link.yaml", "policies/git.yaml"] }],
    });
    ws = hostileWorkspace();
  });
  afterAll(() => served.close());

  it("refuses both paths and shows nothing of either target anywhere", async () => {
    const run = await runAction({
      served,
      cwd: ws,
      event: "pull_request",
      payload: pullRequestPayload(21, HEAD),
      sha: "f".repeat(40),
      ref: "refs/pull/21/merge",
      inputs: { policy: "policies/*.yaml" },
    });
    expect(run.outputs.result).toBe("invalid");
    const github = served.server.faces.github;
    const seen = [
      run.stdout,
      run.stderr,
      run.summary,
      ...github.comments.map((c) => c.body),
      ...github.checkRuns.map((c) => JSON.stringify(c)),
    ].join("\n");
    expect(seen).toMatch(/refused: the path leads outside the workspace/);
    expect(seen).toMatch(/refused: the path leads into the repository's \.git directory/);
    expect(seen).not.toContain("SECRET");
    expect(seen).not.toContain("AUTHORIZATION");
    expect(seen).not.toContain("ghp_");
  });
});
