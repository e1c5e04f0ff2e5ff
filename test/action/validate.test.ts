// The bundled action (dist/index.js) run as GitHub runs it: a child process with INPUT_* and
// GITHUB_OUTPUT, reporting policy errors as workflow-command annotations on the YAML lines.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

function runAction(policy: string) {
  const dir = mkdtempSync(join(tmpdir(), "noderoll-action-"));
  const output = join(dir, "output");
  writeFileSync(output, "");
  const r = spawnSync(process.execPath, [join(ROOT, "dist/index.js")], {
    cwd: ROOT,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH,
      INPUT_POLICY: policy,
      GITHUB_OUTPUT: output,
      GITHUB_ACTIONS: "true",
    },
  });
  return { ...r, outputs: readFileSync(output, "utf8") };
}

describe("action: policy validation", () => {
  it("passes and sets valid=true for valid policies", () => {
    const r = runAction("policies/demo.yaml\npolicies/mixed.yaml");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("2 policies valid");
    expect(r.outputs).toMatch(/valid<<ghadelimiter_[\w-]+\ntrue\n/);
  });

  it("annotates each error on its line and column and fails", () => {
    const dir = mkdtempSync(join(tmpdir(), "noderoll-bad-"));
    const bad = join(dir, "bad.yaml");
    writeFileSync(
      bad,
      "apiVersion: noderoll.io/v1\nkind: UpgradePolicy\nmetadata: { name: x }\ncluster: { name: x, region: eu-west-1 }\ngroups:\n  - name: a\n    rollingUpdate:\n      maxSurge: -2\n",
    );
    const r = runAction(bad);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      `::error title=noderoll policy,file=${bad},line=8,col=17::${bad}:8:17: groups[0].rollingUpdate.maxSurge: expected an integer >= 0 or a percentage such as "25%25", found the number -2`,
    );
    expect(r.stdout).toContain(`::error::invalid policy: ${bad}`);
    expect(r.outputs).toMatch(/valid<<ghadelimiter_[\w-]+\nfalse\n/);
  });
});

describe("action: policy globs", () => {
  it("expands a glob to the policy files it matches", () => {
    const r = runAction("policies/*.yaml");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("3 policies valid");
  });
});
