// Which policy files a run acts on, and how inputs are read.
import { describe, expect, it } from "vitest";
import { inputFromEnv, readInputs } from "../../src/action/inputs.js";
import { expandPolicies, narrowToChanged } from "../../src/action/policies.js";
import { workspace } from "./harness.js";

describe("policy selection", () => {
  const cwd = workspace({
    "policies/a.yaml": "",
    "policies/b.yaml": "",
    "policies/team/c.yaml": "",
    "README.md": "",
  });

  it("expands globs in the checkout, keeps written paths as they are", () => {
    expect(expandPolicies(["policies/*.yaml", "./extra.yaml"], cwd)).toEqual([
      "policies/a.yaml",
      "policies/b.yaml",
      "extra.yaml",
    ]);
    expect(expandPolicies(["policies/**/*.yaml"], cwd)).toContain("policies/team/c.yaml");
  });

  it("on a pull request narrows a glob to the changed files, and keeps written paths", () => {
    const patterns = ["policies/*.yaml", "pinned.yaml"];
    const expanded = expandPolicies(patterns, cwd);
    expect(
      narrowToChanged(
        patterns,
        expanded,
        ["policies/b.yaml", "policies/new.yaml", "README.md"],
        true,
      ),
    ).toEqual({
      files: ["pinned.yaml", "policies/b.yaml", "policies/new.yaml"],
      unchanged: ["policies/a.yaml"],
    });
  });

  it("on a push keeps only the changed files, written paths included", () => {
    const patterns = ["policies/a.yaml", "policies/team/*.yaml"];
    const expanded = expandPolicies(patterns, cwd);
    expect(narrowToChanged(patterns, expanded, ["policies/team/c.yaml"], false)).toEqual({
      files: ["policies/team/c.yaml"],
      unchanged: ["policies/a.yaml"],
    });
  });
});

describe("inputs", () => {
  it("reads INPUT_* as the runner sets them (hyphens kept, upper case)", () => {
    const get = inputFromEnv({
      INPUT_POLICY: "policies/a.yaml, policies/b.yaml\npolicies/c.yaml",
      "INPUT_GITHUB-TOKEN": "tok",
      "INPUT_MAX-DURATION": "90m",
      INPUT_GROUPS: "workers, ingress",
      "INPUT_REPLACE-ALL": "True",
      "INPUT_DELETE-AFTER-DRAIN-TIMEOUT": "true",
      INPUT_REASON: " CVE ",
      "INPUT_CHECK-RUN": "false",
      "INPUT_APPLY-REFS": "refs/heads/release/*\nrefs/heads/hotfix",
      INPUT_LABELS: "true",
      "INPUT_EVENTS-FILE": "out/events.jsonl",
    });
    expect(readInputs(get)).toEqual({
      policy: ["policies/a.yaml", "policies/b.yaml", "policies/c.yaml"],
      mode: "auto",
      token: "tok",
      replaceAll: true,
      deleteAfterDrainTimeout: true,
      groups: ["workers", "ingress"],
      reason: "CVE",
      maxDurationMs: 90 * 60_000,
      comment: true,
      checkRun: false,
      ignoreWindow: false,
      applyRefs: ["refs/heads/release/*", "refs/heads/hotfix"],
      rehearse: "auto",
      labels: true,
      eventsFile: "out/events.jsonl",
      retryFailed: false,
    });
  });

  it("takes a fleet: mode fleet-plan needs it and no policy; a cluster of it rolls every group", () => {
    const get = (env: Record<string, string>) => inputFromEnv(env);
    expect(
      readInputs(get({ INPUT_MODE: "fleet-plan", INPUT_FLEET: "./fleet.yaml" })),
    ).toMatchObject({ mode: "fleet-plan", fleet: "fleet.yaml", policy: [], retryFailed: false });
    expect(
      readInputs(
        get({ INPUT_FLEET: "fleet.yaml", INPUT_POLICY: "p.yaml", "INPUT_RETRY-FAILED": "true" }),
      ),
    ).toMatchObject({ mode: "auto", fleet: "fleet.yaml", retryFailed: true });
    expect(() => readInputs(get({ INPUT_MODE: "fleet-plan" }))).toThrow(
      "mode fleet-plan needs input fleet: the fleet file to plan",
    );
    expect(() =>
      readInputs(get({ INPUT_MODE: "plan", INPUT_FLEET: "f.yaml", INPUT_POLICY: "p.yaml" })),
    ).toThrow(/^with input fleet, mode is fleet-plan \(list what is due\), apply or auto/);
    expect(() =>
      readInputs(get({ INPUT_FLEET: "f.yaml", INPUT_POLICY: "p.yaml", INPUT_GROUPS: "workers" })),
    ).toThrow("input groups does not go with input fleet");
  });

  it("refuses a groups input that names no group (a stray comma must not mean every group)", () => {
    const get = (env: Record<string, string>) => inputFromEnv({ INPUT_POLICY: "p.yaml", ...env });
    expect(() => readInputs(get({ INPUT_GROUPS: " , " }))).toThrow(
      /input groups "," names no group/,
    );
  });

  it("refuses what it cannot read, naming the input", () => {
    const get = (env: Record<string, string>) => inputFromEnv({ INPUT_POLICY: "p.yaml", ...env });
    expect(() => readInputs(get({ "INPUT_REPLACE-ALL": "maybe" }))).toThrow(
      'input replace-all must be true or false, not "maybe"',
    );
    expect(() => readInputs(get({ "INPUT_DELETE-AFTER-DRAIN-TIMEOUT": "maybe" }))).toThrow(
      'input delete-after-drain-timeout must be true or false, not "maybe"',
    );
    expect(() => readInputs(get({ INPUT_FORCE: "maybe" }))).toThrow(
      'input force must be true or false, not "maybe"',
    );
    expect(() => readInputs(inputFromEnv({}))).toThrow(/input policy is required/);
  });

  it("refuses the old force input, saying what each of its meanings is called now", () => {
    const get = (env: Record<string, string>) => inputFromEnv({ INPUT_POLICY: "p.yaml", ...env });
    expect(() => readInputs(get({ INPUT_FORCE: "true", INPUT_REASON: "CVE" }))).toThrow(
      /^input force meant three things and was split: input replace-all .*; input delete-after-drain-timeout /,
    );
    expect(readInputs(get({ INPUT_FORCE: "false" }))).toMatchObject({
      replaceAll: false,
      deleteAfterDrainTimeout: false,
    });
  });
});
