// The examples as a newcomer uses them: every example policy names the published JSON Schema
// (a stable URL at the v1 tag, the committed file, `noderoll schema` for offline use) on its
// first line, and plans as shipped against its sandbox scenario in policies/sandbox/.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SCHEMA_URL } from "../../src/policy/json-schema.js";
import { ROOT, runCli } from "../helpers/cli.js";

const policies = readdirSync(join(ROOT, "policies")).filter((f) => f.endsWith(".yaml"));
const line = `# yaml-language-server: $schema=${SCHEMA_URL}`;

describe("the published schema", () => {
  it("is the committed file at the v1 tag, with that URL as its $id, as `noderoll schema` prints it", () => {
    const m = /^https:\/\/raw\.githubusercontent\.com\/octo-org\/noderoll\/v1\/(.+)$/.exec(
      SCHEMA_URL,
    );
    expect(m).not.toBeNull();
    const committed = readFileSync(join(ROOT, m![1]!), "utf8");
    expect(JSON.parse(committed).$id).toBe(SCHEMA_URL);
    expect(runCli(["schema"]).stdout).toBe(committed);
  });

  it("is named on the first line of every example policy and of the README's example", () => {
    expect(policies.sort()).toEqual(["demo.yaml", "mixed.yaml", "single-managed.yaml"]);
    for (const f of policies)
      expect(readFileSync(join(ROOT, "policies", f), "utf8").split("\n")[0], f).toBe(line);
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain(`\`\`\`yaml\n${line}\napiVersion: noderoll.io/v1\n`);
  });
});

describe("every example policy", () => {
  it.each(policies)("%s plans as shipped on its sandbox scenario", (f) => {
    const scenario = f === "demo.yaml" ? "demo" : `policies/sandbox/${f}`;
    if (scenario !== "demo") expect(existsSync(join(ROOT, scenario)), scenario).toBe(true);
    const r = runCli([
      "plan",
      "--policy",
      `policies/${f}`,
      "--sandbox",
      scenario,
      "--detailed-exitcode",
    ]);
    expect(r.stderr).toBe("");
    // 2: the plan has changes to show, and no group is in error.
    expect(r.status, r.stdout).toBe(2);
    expect(r.stdout).toMatch(/^Plan: \d+ groups? to roll \(\d+ nodes?\), .* 0 blocked\./m);
  });
});
