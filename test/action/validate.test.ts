// The bundled action before it reaches any cluster: a wrong input or an invalid policy stops the
// run with located annotations (workflow commands when no check run can carry them), the
// outputs say so, and nothing is contacted.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { parseOutputs, workspace } from "./harness.js";

function runAction(cwd: string, inputs: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), "noderoll-action-"));
  const output = join(dir, "output");
  const summary = join(dir, "summary");
  writeFileSync(output, "");
  writeFileSync(summary, "");
  const r = spawnSync(process.execPath, [join(ROOT, "dist/index.js")], {
    cwd,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH,
      ...Object.fromEntries(
        Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]),
      ),
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_ACTIONS: "true",
      // Nothing listens here: any request would fail the run.
      GITHUB_API_URL: "http://127.0.0.1:9",
      AWS_ENDPOINT_URL: "http://127.0.0.1:9",
      AWS_REGION: "eu-west-1",
    },
  });
  return {
    ...r,
    outputs: parseOutputs(readFileSync(output, "utf8")),
    summary: readFileSync(summary, "utf8"),
  };
}

const BAD =
  "apiVersion: noderoll.io/v1\nkind: UpgradePolicy\nmetadata: { name: x }\ncluster: { name: x, region: eu-west-1 }\ngroups:\n  - name: a\n    rollingUpdate:\n      maxSurge: -2\n";

describe("action: invalid input stops the run before anything is read", () => {
  it("annotates each policy error on its line and column and fails", () => {
    const cwd = workspace({ "policies/bad.yaml": BAD });
    const r = runAction(cwd, { policy: "policies/*.yaml" });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      `::error title=noderoll policy,file=policies/bad.yaml,line=8,col=17::policies/bad.yaml:8:17: groups[0].rollingUpdate.maxSurge: expected an integer >= 0 or a percentage such as "25%25", found the number -2`,
    );
    expect(r.stdout).toContain("::error::invalid policy: policies/bad.yaml");
    expect(r.outputs).toMatchObject({ valid: "false", result: "invalid", "has-changes": "false" });
    expect(r.summary).toContain("`policies/bad.yaml` has 1 error; nothing was read or changed.");
  });

  it("names the input and what it accepts", () => {
    const cwd = workspace({ "policies/bad.yaml": BAD });
    const r = runAction(cwd, { policy: "policies/bad.yaml", mode: "destroy" });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      '::error::input mode must be auto, plan, apply, pause, resume, abort, rollback or fleet-plan, not "destroy"',
    );
    expect(r.outputs.result).toBe("refused");
    const r2 = runAction(cwd, { policy: "policies/bad.yaml", "max-duration": "forever" });
    expect(r2.stdout).toContain('input max-duration takes a duration such as 5h30m, not "forever"');
  });

  it("says so when no policy file matches, and does not fail", () => {
    const cwd = workspace({ "README.md": "x" });
    const r = runAction(cwd, { policy: "policies/*.yaml" });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("::notice::noderoll: nothing to do: no policy file matches");
    expect(r.outputs.result).toBe("skipped");
  });
});
