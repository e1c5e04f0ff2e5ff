// `sandbox generate`: the scenario it prints is YAML written as JSON (read back fast, and the
// same to a YAML parser), a broken one is still reported by line, and --policy-out writes a
// policy that validates and plans every group of the generated cluster.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { observeAndPlan } from "../../src/engine/index.js";
import { loadPolicy } from "../../src/policy/index.js";
import {
  generatePolicyYaml,
  generateScenario,
  generateScenarioYaml,
} from "../../src/sandbox/scenarios/generate.js";
import { parseScenario } from "../../src/sandbox/scenarios/schema.js";
import { Account } from "../../src/sandbox/world/account.js";
import { World } from "../../src/sandbox/world/world.js";
import { runCli } from "../helpers/cli.js";

const opts = { nodes: 24, groups: 4, podsPerNode: 6, seed: 8 };

describe("the generated scenario's text", () => {
  it("is YAML: a YAML parser reads the same scenario as the JSON path", () => {
    const text = generateScenarioYaml(opts);
    expect(text.startsWith("# Generated: 24 nodes in 4 groups")).toBe(true);
    const r = parseScenario(text, "gen.yaml");
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.scenario).toEqual(generateScenario(opts));
    const body = text.slice(text.indexOf("{"));
    expect(parse(text)).toEqual(JSON.parse(body));
  });

  it("still reports a problem at its line and column", () => {
    const text = generateScenarioYaml(opts).replace('"seed": 8', '"seed": "eight"');
    const r = parseScenario(text, "gen.yaml");
    expect(r.ok).toBe(false);
    if (!r.ok) {
      const line = text.split("\n").findIndex((l) => l.includes('"seed"')) + 1;
      expect(r.errors).toMatchObject([{ file: "gen.yaml", line, path: "seed" }]);
    }
  });
});

describe("the generated policy", () => {
  it("validates and plans every group of the generated cluster, every node replaced", async () => {
    const r = loadPolicy(generatePolicyYaml(opts), "policy.yaml");
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
    const world = new World(generateScenario(opts));
    const { plan } = await world.run(observeAndPlan(r.policy, "policy.yaml", world));
    expect(plan.groups.map((g) => g.name).sort()).toEqual([
      "asg-002",
      "asg-004",
      "ng-001",
      "ng-003",
    ]);
    for (const g of plan.groups) {
      expect(g.errors).toEqual([]);
      expect(g.status).toBe("roll");
    }
    expect(plan.summary.nodesToReplace).toBe(24);
  });

  it("is written by sandbox generate --policy-out, and the CLI plans the scenario with it", () => {
    const dir = mkdtempSync(join(tmpdir(), "noderoll-generate-"));
    const policy = join(dir, "policy.yaml");
    const args = ["--nodes", "24", "--groups", "4", "--pods-per-node", "6", "--seed", "8"];
    const gen = runCli(["sandbox", "generate", ...args, "--policy-out", policy]);
    expect(gen.status).toBe(0);
    expect(gen.stdout).toBe(generateScenarioYaml(opts));
    expect(readFileSync(policy, "utf8")).toBe(generatePolicyYaml(opts));
    const scenario = join(dir, "scenario.yaml");
    writeFileSync(scenario, gen.stdout);
    expect(runCli(["validate", policy]).status).toBe(0);
    const plan = runCli(["plan", "--policy", policy, "--sandbox", scenario, "--format", "json"]);
    expect(plan.status).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({ summary: { nodesToReplace: 24 } });
  });
});

describe("a generated cluster of a fleet (--cluster)", () => {
  it("takes the name given, and its groups' names start with it, so many can share an account", async () => {
    const named = (cluster: string) => ({ ...opts, cluster });
    const account = new Account(["dev-01", "dev-02"].map((c) => generateScenario(named(c))));
    expect(account.worlds.map((w) => w.scenario.cluster.name)).toEqual(["dev-01", "dev-02"]);
    expect(account.worlds[1]!.scenario.nodeGroups.map((g) => g.name)).toEqual([
      "dev-02-ng-001",
      "dev-02-asg-002",
      "dev-02-ng-003",
      "dev-02-asg-004",
    ]);
    const r = loadPolicy(generatePolicyYaml(named("dev-02")), "dev-02.yaml");
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
    expect(r.policy.cluster.name).toBe("dev-02");
    const world = account.world("dev-02");
    const ports = account.ports("dev-02");
    const { plan } = await world.run(observeAndPlan(r.policy, "dev-02.yaml", ports));
    expect(plan.summary.nodesToReplace).toBe(24);
    // Unnamed, the same cluster as before: "generated", with groups ng-001, asg-002, ...
    expect(generateScenario(opts).cluster.name).toBe("generated");
    expect(() => new Account([generateScenario(opts), generateScenario(opts)])).toThrow(
      /EKS cluster "generated" is also/,
    );
  });

  it("is what sandbox generate --cluster prints, and a name EKS refuses is an error", () => {
    const dir = mkdtempSync(join(tmpdir(), "noderoll-generate-"));
    const policy = join(dir, "policy.yaml");
    const args = ["--nodes", "24", "--groups", "4", "--pods-per-node", "6", "--seed", "8"];
    const gen = runCli([
      "sandbox",
      "generate",
      ...args,
      "--cluster",
      "prod-07",
      "--policy-out",
      policy,
    ]);
    expect(gen.status).toBe(0);
    expect(gen.stdout).toBe(generateScenarioYaml({ ...opts, cluster: "prod-07" }));
    expect(gen.stdout).toContain("--seed 8 --cluster prod-07\n");
    expect(readFileSync(policy, "utf8")).toBe(generatePolicyYaml({ ...opts, cluster: "prod-07" }));
    const bad = runCli(["sandbox", "generate", ...args, "--cluster", "prod 07"]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/--cluster .*letters, digits, - and _/);
    expect(bad.stdout).toBe("");
  });
});
