// pause, abort and resume on the bundled command line, asked as a user asks: each lists every
// flag it takes (the one table, src/cli/flags.ts), a flag it does not take is refused with the
// nearest one (there is no --rollback: that is a rollback feature's), and --policy is required.
import { describe, expect, it } from "vitest";
import { APPLY_OPTIONS, CONTROL_OPTIONS } from "../../src/cli/flags.js";
import { runCli } from "../helpers/cli.js";

describe("pause, abort and resume --help", () => {
  it.each([
    ["pause", CONTROL_OPTIONS],
    ["abort", CONTROL_OPTIONS],
    ["resume", APPLY_OPTIONS],
  ] as const)("%s lists every flag it takes, each with what it does", (cmd, options) => {
    const r = runCli([cmd, "--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^usage: noderoll ${cmd} --policy P`));
    for (const [name, o] of Object.entries(options)) {
      const line = r.stdout.split("\n").find((l) => l.trimStart().startsWith(`--${name} `));
      expect(line, `${cmd} --${name}`).toBeDefined();
      expect(line).toContain(o.help);
    }
  });

  it("the overall usage names them", () => {
    const r = runCli(["--help"]);
    for (const cmd of ["pause", "abort", "resume", "rollback"])
      expect(r.stdout).toMatch(new RegExp(`^ {2}${cmd} --policy P`, "m"));
  });

  it("refuses a flag they do not take, and a missing --policy, changing nothing", () => {
    const cases: [string[], RegExp][] = [
      // --rollback is abort's alone.
      [
        ["pause", "--policy", "policies/demo.yaml", "--sandbox", "demo", "--rollback"],
        /^noderoll: unknown flag --rollback/,
      ],
      [
        ["pause", "--policy", "policies/demo.yaml", "--sandbox", "demo", "--reasn", "x"],
        /^noderoll: unknown flag --reasn; did you mean --reason\?/,
      ],
      [["pause", "--sandbox", "demo"], /^noderoll: --policy FILE is required/],
    ];
    for (const [args, message] of cases) {
      const r = runCli(args);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    }
  });

  it("abort --rollback with no run holding the cluster rolls back itself: here nothing is recorded", () => {
    const r = runCli([
      "abort",
      "--policy",
      "policies/demo.yaml",
      "--sandbox",
      "demo",
      "--rollback",
    ]);
    expect(r.stdout).toMatch(/^an abort with rollback requested by \S+ at \S+ is on Lease /);
    expect(r.stdout).toContain(
      "No run holds the cluster now. The rollback starts here, and clears the abort.",
    );
    expect(r.stdout).toMatch(
      /failure: Nothing to roll back: no roll of the policy's groups is recorded on the cluster \(Lease kube-system\/noderoll-demo-rollback\)\.\n$/,
    );
    expect(r.status).toBe(1);
  });

  it("pauses a sandbox of its own: no run holds it, so the next apply would refuse", () => {
    const r = runCli(["pause", "--policy", "policies/demo.yaml", "--sandbox", "demo"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^a pause requested by \S+ at \S+ is on Lease kube-system\/noderoll-demo\./,
    );
    expect(r.stdout).toContain(
      "No run holds the cluster now. Every apply of demo refuses to start until",
    );
  });
});
