// Every flag of plan and apply is in its command's --help, with what it does (issue 48, item 8):
// the bundled command line asked as a user asks it, each flag checked against the table the
// command parses its arguments with (src/cli/flags.ts).
import { describe, expect, it } from "vitest";
import { APPLY_OPTIONS, PLAN_OPTIONS } from "../../src/cli/flags.js";
import { runCli } from "../helpers/cli.js";

describe("--help", () => {
  it.each([
    ["plan", PLAN_OPTIONS],
    ["apply", APPLY_OPTIONS],
  ] as const)("%s lists every flag it takes, each with what it does", (cmd, options) => {
    const r = runCli([cmd, "--help"]);
    expect(r.status).toBe(0);
    for (const [name, o] of Object.entries(options)) {
      const line = r.stdout.split("\n").find((l) => l.trimStart().startsWith(`--${name} `));
      expect(line, `--${name}`).toBeDefined();
      expect(line).toContain(o.help);
    }
    // The five the evaluation found missing from apply's.
    if (cmd === "apply")
      for (const f of ["--lock-wait", "--out", "--groups", "--ignore-window", "--quiet"])
        expect(r.stdout).toMatch(new RegExp(`^ {4}${f} `, "m"));
  });
});

describe("a mistyped command line (issue 48, item 3 in part)", () => {
  it("names the nearest command and flag, and refuses a flag given twice, changing nothing", () => {
    const cases: [string[], RegExp][] = [
      [
        ["aply", "--policy", "policies/demo.yaml"],
        /^noderoll: unknown command "aply"; did you mean "apply"\?/,
      ],
      [
        ["plan", "--policy", "policies/demo.yaml", "--sandbox", "demo", "--formt", "json"],
        /^noderoll: unknown flag --formt; did you mean --format\?/,
      ],
      [
        [
          "apply",
          "--policy",
          "policies/demo.yaml",
          "--policy=policies/mixed.yaml",
          "--sandbox",
          "demo",
        ],
        /^noderoll: --policy is given 2 times; give it once/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = runCli(args);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    }
  });
});
