// Every flag of plan and apply is in its command's --help, with what it does (issue 48, item 8):
// the bundled command line asked as a user asks it, each flag checked against the table the
// command parses its arguments with (src/cli/flags.ts).
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ABORT_OPTIONS,
  APPLY_OPTIONS,
  CONTROL_OPTIONS,
  FLEET_OPTIONS,
  GENERATE_OPTIONS,
  PLAN_OPTIONS,
  SERVE_OPTIONS,
  VALIDATE_OPTIONS,
} from "../../src/cli/flags.js";
import { ROOT } from "../helpers/cli.js";
import { runCli } from "../helpers/cli.js";

/** Every command and the table it parses its flags with. */
const TABLES = {
  validate: VALIDATE_OPTIONS,
  plan: PLAN_OPTIONS,
  apply: APPLY_OPTIONS,
  resume: APPLY_OPTIONS,
  rollback: APPLY_OPTIONS,
  pause: CONTROL_OPTIONS,
  abort: ABORT_OPTIONS,
  fleet: FLEET_OPTIONS,
  "sandbox serve": SERVE_OPTIONS,
  "sandbox generate": GENERATE_OPTIONS,
} as const;

describe("every command's --help (issue 48: every flag in its command's help, from one table)", () => {
  it.each(Object.entries(TABLES))(
    "%s lists every flag it parses, with what it does",
    (cmd, table) => {
      const r = runCli([...cmd.split(" "), "--help"]);
      expect(r.status).toBe(0);
      for (const [name, o] of Object.entries(table)) {
        const line = r.stdout.split("\n").find((l) => l.trimStart().startsWith(`--${name} `));
        expect(line, `${cmd} --${name}`).toBeDefined();
        expect(line).toContain(o.help);
      }
    },
  );

  it("no command parses its flags from a table this test does not know", () => {
    const known = new Set(["OPTIONS", ...Object.keys(TABLE_NAMES)]);
    const cli = join(ROOT, "src/cli");
    for (const f of readdirSync(cli).filter((x) => x.endsWith(".ts")))
      for (const m of readFileSync(join(cli, f), "utf8").matchAll(/parseFlags\([^,]+,\s*([^,)]+)/g))
        for (const name of (m[1] as string).match(/[A-Z_]{3,}/g) ?? [])
          expect(known, `${f}: ${name}`).toContain(name);
  });
});

/** The tables by the names the commands use (apply's OPTIONS is APPLY_OPTIONS or a saved plan's). */
const TABLE_NAMES = {
  VALIDATE_OPTIONS,
  PLAN_OPTIONS,
  APPLY_OPTIONS,
  CONTROL_OPTIONS,
  ABORT_OPTIONS,
  FLEET_OPTIONS,
  SERVE_OPTIONS,
  GENERATE_OPTIONS,
};

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

describe("a sandbox that is not there, a sandbox command mistyped", () => {
  it("names the built-in demo for --sandbox dmeo, and generate for sandbox gen (exit 2)", () => {
    const r = runCli(["plan", "--policy", "policies/demo.yaml", "--sandbox", "dmeo"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'noderoll: --sandbox dmeo: no such scenario file; did you mean "demo" (the built-in demo cluster)?\n',
    );
    const g = runCli(["sandbox", "gen"]);
    expect(g.status).toBe(2);
    expect(g.stderr).toMatch(/^noderoll: unknown sandbox command "gen"; did you mean "generate"\?/);
  });
});
