// `npm run demo:pr` (scripts/demo-pr.mjs) as a person runs it: the bundled action, run as GitHub
// runs it, plans a pull request against `sandbox serve` (its sticky comment and check run),
// plans a fork's pull request with a read-only token (the log and the job summary only), then
// applies the merge, and the merged pull request's comment follows the roll. What is asserted
// is what the person reads: the terminal, and the page it saves.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

/** A hang, not a slow machine, ends it. */
const HANG_MS = 540_000;

let code: number | null;
let stdout = "";
let stderr = "";
const out = mkdtempSync(join(tmpdir(), "noderoll-demo-pr-"));

beforeAll(async () => {
  const child = spawn(process.execPath, [join(ROOT, "scripts/demo-pr.mjs"), "--out", out], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: out },
    // Its own process group: a hang ends it with everything it started (sandbox serve, the action).
    detached: true,
  });
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const hang = setTimeout(() => process.kill(-(child.pid as number), "SIGKILL"), HANG_MS);
  code = await new Promise((resolve) => child.on("close", resolve));
  clearTimeout(hang);
}, HANG_MS + 10_000);

/** One of the demo's steps, as printed (up to the next; the last up to the end). */
function step(n: number): string {
  const start = stdout.indexOf(`\nStep ${n} · `);
  const end = stdout.indexOf(`\nStep ${n + 1} · `);
  expect(start, stdout).toBeGreaterThanOrEqual(0);
  return stdout.slice(start, end < 0 ? undefined : end);
}

describe("npm run demo:pr", () => {
  it("ends with exit 0", () => {
    expect(code, stdout + stderr).toBe(0);
  });

  it("shows the plan comment and the plan's check run on the pull request", () => {
    const plan = step(1);
    expect(plan).toContain("Pull request #7 changes policies/demo.yaml");
    expect(plan).toContain("the action: exit 0, result planned");
    expect(plan).toContain("─── #7 · comment by github-actions[bot] ───");
    expect(plan).toContain("Plan: 3 groups to roll (17 nodes)");
    expect(plan).toMatch(
      /noderoll plan \/ demo · completed · success · Plan: 3 groups to roll \(17 nodes\)/,
    );
    // As on GitHub, the comment's hidden markers are not shown.
    expect(stdout).not.toContain("<!-- noderoll:");
  });

  it("plans the fork's pull request into the job summary only: #8 has nothing", () => {
    const fork = step(2);
    expect(fork).toContain("Pull request #8, from a fork");
    expect(fork).toContain("the action: exit 0, result planned");
    expect(fork).toContain("#8 has no comment and no check run");
    expect(fork).toContain("### noderoll plan · `demo`");
    const page = readFileSync(join(out, "github.html"), "utf8");
    const pull8 = page.slice(page.indexOf('id="pull-8"'));
    expect(pull8).toContain("no comments");
    expect(pull8).toContain("no check runs");
  });

  it("after the merge, the pull request's comment says the roll replaced every node", () => {
    const apply = step(3);
    expect(apply).toMatch(/#7 is merged \(merge commit [0-9a-f]{7}\)/);
    expect(apply).toContain("the action: exit 0, result success");
    expect(apply).toContain("─── #7 · comment by github-actions[bot], edited ───");
    expect(apply).toContain("17 of 17 planned nodes replaced");
    expect(apply).toMatch(/noderoll apply \/ demo · completed · success/);
  });

  it("says where the page is, and saves it: #7 merged, with its comment and both check runs", () => {
    expect(stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+\/github\//);
    expect(stdout).toContain(join(out, "github.html"));
    const page = readFileSync(join(out, "github.html"), "utf8");
    const pull7 = page.slice(page.indexOf('id="pull-7"'), page.indexOf('id="pull-8"'));
    expect(pull7).toContain("merged");
    expect(pull7).toContain("17 of 17 planned nodes replaced");
    expect(pull7).toContain("noderoll plan / demo");
    expect(pull7).toContain("noderoll apply / demo");
  });
});
