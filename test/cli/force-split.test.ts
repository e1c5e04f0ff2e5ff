// The bundled command line and the action's inputs refuse the old `force` (issue 46, item 7):
// it meant three things, and a flag that silently meant one of them would roll differently
// from what its writer asked. Each forced thing needs a reason on apply.
import { describe, expect, it } from "vitest";
import { InputError, readInputs } from "../../src/action/inputs.js";
import { runCli } from "../helpers/cli.js";

describe("the command line", () => {
  it("refuses --force with what each of its meanings is called now (exit 2, nothing read)", () => {
    for (const cmd of ["plan", "apply"]) {
      const r = runCli([cmd, "--policy", "policies/demo.yaml", "--sandbox", "demo", "--force"]);
      expect(r.status, cmd).toBe(2);
      expect(r.stderr).toMatch(
        /--force meant three things and was split: --replace-all replaces every node .*\(kOps' --force\); --delete-after-drain-timeout deletes .*\(EKS's force\); pods with no controller .*unmanagedPods: refuse/,
      );
      expect(r.stdout).toBe("");
    }
  });

  it("asks a reason of each forced thing on apply, and plans with either without one", () => {
    for (const flag of ["--replace-all", "--delete-after-drain-timeout"]) {
      const r = runCli(["apply", "--policy", "policies/demo.yaml", "--sandbox", "demo", flag]);
      expect(r.status, flag).toBe(2);
      expect(r.stderr).toContain(`${flag} needs --reason`);
    }
    const plan = runCli([
      "plan",
      "--policy",
      "policies/demo.yaml",
      "--sandbox",
      "demo",
      "--replace-all",
      "--format",
      "json",
    ]);
    expect(plan.status).toBe(0);
    const json = JSON.parse(plan.stdout) as { options: unknown };
    expect(json.options).toEqual({ replaceAll: true, deleteAfterDrainTimeout: false });
  });
});

describe("the action's inputs", () => {
  const inputs = (set: Record<string, string>) => (name: string) =>
    set[name] ?? (name === "policy" ? "policies/demo.yaml" : "");

  it("refuse force: true, naming replace-all, delete-after-drain-timeout and unmanagedPods", () => {
    expect(() => readInputs(inputs({ force: "true" }))).toThrow(InputError);
    expect(() => readInputs(inputs({ force: "true" }))).toThrow(
      /^input force meant three things and was split: input replace-all .* input delete-after-drain-timeout .*unmanagedPods/,
    );
    // false (a workflow that passes the old input's default) changes nothing.
    expect(readInputs(inputs({ force: "false" }))).toMatchObject({
      replaceAll: false,
      deleteAfterDrainTimeout: false,
    });
  });

  it("read each forced thing on its own", () => {
    expect(readInputs(inputs({ "replace-all": "true" }))).toMatchObject({
      replaceAll: true,
      deleteAfterDrainTimeout: false,
    });
    expect(readInputs(inputs({ "delete-after-drain-timeout": "yes" }))).toMatchObject({
      replaceAll: false,
      deleteAfterDrainTimeout: true,
    });
  });
});
