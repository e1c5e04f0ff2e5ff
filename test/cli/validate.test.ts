// `node dist/cli.js validate`: the contract of the design — exit 0 valid, 1 invalid, 2 usage.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

describe("noderoll validate", () => {
  it("exits 0 for the example policies", () => {
    const r = runCli([
      "validate",
      "policies/demo.yaml",
      "policies/mixed.yaml",
      "policies/single-managed.yaml",
    ]);
    expect(r.stdout).toContain('policies/mixed.yaml: valid (policy "prod-eu", 4 groups)');
    expect(r.status).toBe(0);
  });

  it("exits 1 and prints file:line:col: message for an invalid policy, with the others still checked", () => {
    const dir = mkdtempSync(join(tmpdir(), "noderoll-"));
    const bad = join(dir, "bad.yaml");
    writeFileSync(
      bad,
      "apiVersion: noderoll.io/v1\nkind: UpgradePolicy\nmetadata: { name: x }\ncluster: { name: x, region: eu-west-1 }\ngroups: [{ name: a, rollingUpdate: { maxSurge: 110% } }]\n",
    );
    const r = runCli(["validate", bad, "policies/demo.yaml"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      `${bad}:5:48: groups[0].rollingUpdate.maxSurge: expected a whole percentage from 0% to 100%, found "110%"`,
    );
    expect(r.stdout).toContain("policies/demo.yaml: valid");
    expect(r.stdout).toContain("1 error in 1 of 2 files");
  });

  it("reports a missing file as an error of that file", () => {
    const r = runCli(["validate", "policies/nope.yaml"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("policies/nope.yaml:1:1: no such file");
  });

  it("prints JSON for machines", () => {
    const r = runCli(["validate", "--format", "json", "policies/demo.yaml"]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      files: [
        {
          file: "policies/demo.yaml",
          valid: true,
          name: "demo",
          groups: 3,
          errors: [],
          warnings: [],
        },
      ],
    });
  });

  it.each([
    [["validate"]],
    [["validate", "--format", "xml", "policies/demo.yaml"]],
    [["frobnicate"]],
    [["validate", "--bogus", "x"]],
    [[]],
  ])("exits 2 on usage errors: %j", (args) => {
    const r = runCli(args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^noderoll: .+\n\nusage: noderoll/);
  });
});
