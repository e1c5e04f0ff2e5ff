// plan and apply through the bundled command line, on the built-in sandbox cluster.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const tmp = () => mkdtempSync(join(tmpdir(), "noderoll-cli-"));

describe("noderoll plan --sandbox demo", () => {
  it("prints the Terraform-style plan and exits 2 with --detailed-exitcode when there are changes", () => {
    const r = runCli([
      "plan",
      "--policy",
      "policies/demo.yaml",
      "--sandbox",
      "demo",
      "--detailed-exitcode",
    ]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(2);
    expect(r.stdout).toContain("Plan: 3 groups to roll (17 nodes), 0 config changes, 0 blocked.");
    expect(runCli(["plan", "--policy", "policies/demo.yaml", "--sandbox", "demo"]).status).toBe(0);
  });

  it("prints JSON with the documented shape and Markdown for comments", () => {
    const json = JSON.parse(
      runCli(["plan", "--policy", "policies/demo.yaml", "--sandbox", "demo", "--format", "json"])
        .stdout,
    );
    expect(json.schemaVersion).toBe(1);
    expect(
      json.groups.map((g: { name: string; replacements: unknown[] }) => [
        g.name,
        g.replacements.length,
      ]),
    ).toEqual([
      ["system", 6],
      ["ingress", 3],
      ["workers", 8],
    ]);
    expect(
      runCli([
        "plan",
        "--policy",
        "policies/demo.yaml",
        "--sandbox",
        "demo",
        "--format",
        "markdown",
      ]).stdout,
    ).toMatch(/^### noderoll plan · `demo`\n\n\*\*Plan: 3 groups/);
  });

  it("exits 0 with --detailed-exitcode when nothing would change, and 1 for an invalid policy", () => {
    const dir = tmp();
    const p = join(dir, "p.yaml");
    writeFileSync(
      p,
      readFileSync("policies/demo.yaml", "utf8").replace("groups:", "groups:\n  - name: nope\n"),
    );
    const missing = runCli(["plan", "--policy", p, "--sandbox", "demo"]);
    expect(missing.status).toBe(1);
    expect(missing.stdout).toMatch(
      /cluster demo has no EKS managed node group or Auto Scaling group named "nope"/,
    );
    writeFileSync(p, "apiVersion: noderoll.io/v1\n");
    const bad = runCli(["plan", "--policy", p, "--sandbox", "demo"]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/p\.yaml:1:1: missing required key "kind"/);
  });
});

describe("noderoll apply --sandbox demo", () => {
  it("rolls the demo, writes one JSON event per line in order, and the demo artefacts", () => {
    const dir = tmp();
    const events = join(dir, "events.jsonl");
    const r = runCli([
      "apply",
      "--policy",
      "policies/demo.yaml",
      "--sandbox",
      "demo",
      "--events",
      events,
      "--out",
      join(dir, "out"),
      "--quiet",
    ]);
    expect(r.stdout).toBe("success: 3 groups rolled\n");
    expect(r.status).toBe(0);
    const lines = readFileSync(events, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({
      type: "roll.start",
      cluster: "demo",
      groups: ["system", "ingress", "workers"],
    });
    expect(lines.at(-1)).toMatchObject({ type: "roll.end", result: "success" });
    expect(lines.every((e, i) => i === 0 || e.t >= lines[i - 1].t)).toBe(true);
    const phases = lines
      .filter((e) => e.type === "phase.start")
      .map((e) => `${e.group}/${e.phase}`);
    expect(phases).toEqual(
      ["system", "ingress", "workers"].flatMap((g) =>
        ["setup", "scale-up", "upgrade", "scale-down"].map((p) => `${g}/${p}`),
      ),
    );
    for (const f of [
      "plan.txt",
      "plan.md",
      "plan.json",
      "events.jsonl",
      "check-runs.json",
      "comment.md",
    ])
      expect(readFileSync(join(dir, "out", f), "utf8").length).toBeGreaterThan(10);
    const checks = JSON.parse(readFileSync(join(dir, "out", "check-runs.json"), "utf8"));
    expect(checks.at(-1)).toMatchObject({ status: "completed", conclusion: "success" });
    expect(readFileSync(join(dir, "out", "comment.md"), "utf8")).toMatch(
      /<!-- noderoll:policy:demo -->$/,
    );
  });

  it("refuses --replace-all or --delete-after-drain-timeout without a reason and --force at all (exit 2), and changes nothing for an invalid policy (exit 1)", () => {
    const apply = ["apply", "--policy", "policies/demo.yaml", "--sandbox", "demo"];
    for (const flag of ["--replace-all", "--delete-after-drain-timeout"]) {
      const r = runCli([...apply, flag]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`${flag} needs --reason`);
    }
    // The old flag meant three things: refused even with a reason, saying what each is now.
    for (const command of [
      [...apply, "--reason", "CVE"],
      ["plan", "--policy", "policies/demo.yaml", "--sandbox", "demo"],
    ]) {
      const old = runCli([...command, "--force"]);
      expect(old.status).toBe(2);
      expect(old.stderr).toContain("--force meant three things and was split");
    }
    const dir = tmp();
    writeFileSync(join(dir, "p.yaml"), "kind: UpgradePolicy\n");
    const bad = runCli([
      "apply",
      "--policy",
      join(dir, "p.yaml"),
      "--sandbox",
      "demo",
      "--events",
      join(dir, "e.jsonl"),
    ]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("invalid policy; nothing was read or changed");
  });
});

describe("noderoll sandbox generate", () => {
  it("is deterministic for a seed", () => {
    const a = runCli([
      "sandbox",
      "generate",
      "--nodes",
      "50",
      "--groups",
      "3",
      "--pods-per-node",
      "10",
      "--seed",
      "4",
    ]).stdout;
    const b = runCli([
      "sandbox",
      "generate",
      "--nodes",
      "50",
      "--groups",
      "3",
      "--pods-per-node",
      "10",
      "--seed",
      "4",
    ]).stdout;
    expect(a).toBe(b);
    expect(a).toMatch(/"kind": "SandboxScenario"/);
  });
});

describe("--groups naming a group the policy does not have", () => {
  it.each(["plan", "apply"])(
    "%s fails before reading anything, listing the policy's groups",
    (command) => {
      const args = [command, "--policy", "policies/demo.yaml", "--sandbox", "demo"];
      const r = runCli([...args, "--groups", "sytem,workers"]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        'noderoll: --groups names "sytem", which policy demo does not have; its groups are: system, ingress, workers (did you mean "sytem" → "system"?)\n',
      );
    },
  );
});

describe("--groups that names no group at all", () => {
  it.each([",", " , "])("%j is refused, not taken as every group", (value) => {
    const r = runCli([
      "apply",
      "--policy",
      "policies/demo.yaml",
      "--sandbox",
      "demo",
      "--groups",
      value,
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /names no group; name groups \(comma-separated\), or leave --groups out/,
    );
  });
});
