// Releasing (issue 48, item 2): a tag vX.Y.Z is released only when it is package.json's version
// and the CHANGELOG says what changed; the workflow runs the tests as CI does, publishes npm
// pack's tarball and moves the major tag (actions/typescript-action's convention).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "../helpers/cli.js";

const version = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }
).version;
const check = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, "scripts/release-check.mjs"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
  });

describe("a release", () => {
  it("is allowed for package.json's version, with the CHANGELOG's section as its notes", () => {
    const r = check(`v${version}`, "--notes");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^### Added\n/);
    expect(r.stdout).not.toContain(`## ${version}`);
  });

  it("is refused for another version or a tag that is not one, saying why", () => {
    expect(check("v99.0.0")).toMatchObject({
      status: 1,
      stderr: `release-check: tag v99.0.0 is not package.json's version (${version}): bump it first\n`,
    });
    expect(check("latest").stderr).toBe('release-check: "latest" is not a tag such as v1.2.3\n');
  });

  it("runs on a version tag: the tests, the package, the release, then the major tag moved", () => {
    const wf = parse(readFileSync(join(ROOT, ".github/workflows/release.yml"), "utf8")) as {
      on: { push: { tags: string[] } };
      permissions: Record<string, string>;
      jobs: { release: { steps: { run?: string }[] } };
    };
    expect(wf.on.push.tags).toEqual(["v[0-9]+.[0-9]+.[0-9]+"]);
    expect(wf.permissions).toEqual({ contents: "write" });
    const runs = wf.jobs.release.steps.map((s) => s.run ?? "").join("\n");
    const order = [
      "release-check.mjs",
      "bash .ci/run",
      "npm pack",
      "gh release create",
      "git push -f origin",
    ];
    const at = order.map((s) => runs.indexOf(s));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(runs).toContain('major="${GITHUB_REF_NAME%%.*}"');
  });
});
