// The command line as a person meets it: --help and `help CMD` answer (exit 0, no "Unknown
// option"), --version says which noderoll this is, a roll ends with one closing line, and raw
// errors come with a hint that gets them going (credentials, a missing cluster, a refused
// connection: which API, which endpoint).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hintFor } from "../../src/cli/hints.js";
import { runCli } from "../helpers/cli.js";

describe("asking for help", () => {
  it("`CMD --help` and `help CMD` print the command's usage and exit 0", () => {
    const asks = ["validate", "plan", "apply", "sandbox", "schema"].flatMap((c) => [
      [c, "--help"],
      ["help", c],
    ]);
    for (const args of [...asks, ["apply", "-h"]]) {
      const r = runCli(args);
      expect(r.status, args.join(" ")).toBe(0);
      expect(r.stderr, args.join(" ")).toBe("");
      expect(r.stdout).toMatch(
        new RegExp(`^usage: noderoll ${args[0] === "help" ? args[1] : args[0]}\\b`),
      );
      expect(r.stdout).not.toMatch(/Unknown option/i);
    }
  });

  it("`sandbox generate --help` and `sandbox serve --help` print that subcommand's usage alone", () => {
    for (const sub of ["generate", "serve"]) {
      const r = runCli(["sandbox", sub, "--help"]);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^usage: noderoll sandbox ${sub} `));
      expect(r.stdout).not.toContain(`sandbox ${sub === "serve" ? "generate" : "serve"}`);
    }
  });

  it("--help lists every command, --version names the package's version", () => {
    const help = runCli(["--help"]);
    expect(help.status).toBe(0);
    for (const c of ["validate", "plan", "apply", "sandbox serve", "sandbox generate", "schema"])
      expect(help.stdout).toContain(`  ${c}`);
    const v = runCli(["--version"]);
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(/^noderoll \d+\.\d+\.\d+\n$/);
  });

  it("an unknown option is a usage error showing that command's usage only", () => {
    const r = runCli(["plan", "--polcy", "x"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^noderoll: unknown flag --polcy; did you mean --policy\?/);
    expect(r.stderr).toContain("usage: noderoll plan --policy P");
    expect(r.stderr).not.toContain("sandbox generate");
  });
});

describe("a roll on the terminal", () => {
  it("prints per-node lines and closes with one line, not two", () => {
    const r = runCli(["apply", "--policy", "policies/demo.yaml", "--sandbox", "demo"]);
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.at(-1)).toBe("success: 3 groups rolled");
    expect(lines.filter((l) => /3 groups rolled/.test(l))).toHaveLength(1);
    expect(r.stdout).toMatch(/^\d\d:\d\d:\d\d ingress: cordoned ip-[\w.-]+$/m);
    expect(r.stdout).toMatch(/^\d\d:\d\d:\d\d ingress: drained ip-[\w.-]+ \(1 pod evicted\)$/m);
    expect(r.stdout).toMatch(/^\d\d:\d\d:\d\d workers: terminated i-\w+$/m);
    // Off a TTY (a pipe here), a heartbeat says where the roll is while nothing else happens.
    expect(r.stdout).toMatch(/^\d\d:\d\d:\d\d still rolling · \w+ [\w-]+ \d+\/\d+ · \d+m\d+s/m);
    // No colour off a TTY.
    expect(r.stdout).not.toContain("\x1b[");
  });
});

describe("raw errors get a hint", () => {
  const env = (extra: Record<string, string>) => ({
    HOME: mkdtempSync(join(tmpdir(), "noderoll-home-")),
    PATH: process.env.PATH ?? "",
    AWS_EC2_METADATA_DISABLED: "true",
    ...extra,
  });

  it("no credentials: how to configure them, or try the sandbox", () => {
    const r = runCli(["plan", "--policy", "policies/demo.yaml"], { env: env({}) });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^noderoll: Could not load credentials from any providers\n/);
    expect(r.stderr).toMatch(/hint: no AWS credentials were found\. Set AWS_PROFILE/);
    expect(r.stderr).toContain("--sandbox demo");
  });

  it("connection refused: which API and which endpoint", () => {
    const r = runCli(["plan", "--policy", "policies/demo.yaml"], {
      env: env({
        AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
        AWS_SECRET_ACCESS_KEY: "secret",
        AWS_ENDPOINT_URL_EKS: "http://127.0.0.1:1",
      }),
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "hint: nothing answers at 127.0.0.1:1: the EKS API (AWS_ENDPOINT_URL_EKS=http://127.0.0.1:1)",
    );
  });

  it("a cluster EKS does not have: the region and the account to check", () => {
    const e = Object.assign(new Error("No cluster found for name: prod-eu."), {
      name: "ResourceNotFoundException",
    });
    expect(hintFor(e, { cluster: "prod-eu", region: "eu-west-1" })).toBe(
      'EKS has no cluster "prod-eu" in region eu-west-1 of the account these credentials belong to: check cluster.name and cluster.region in the policy, and the account with `aws sts get-caller-identity`',
    );
    expect(hintFor(new Error("something else"))).toBeUndefined();
  });
});
