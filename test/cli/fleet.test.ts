// `noderoll fleet` as a platform engineer runs it (issue 49), on the example fleet
// (policies/fleet/eks.yaml: five clusters, three stages, 24 h soaks) and its sandbox clusters.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FLEET_OPTIONS } from "../../src/cli/flags.js";
import { ROOT, runCli } from "../helpers/cli.js";

const CLUSTERS = ["dev-eu", "dev-us", "staging-eu", "prod-eu", "prod-us"];
const SANDBOX = CLUSTERS.flatMap((c) => ["--sandbox", `policies/sandbox/fleet/${c}.yaml`]);
const FLEET = ["--fleet", "policies/fleet/eks.yaml"];

describe("noderoll fleet plan", () => {
  it("lists what the next run starts as a workflow's matrix, and why the rest waits", () => {
    const r = runCli(["fleet", "plan", ...FLEET, ...SANDBOX, "--format", "json"]);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      pinned: unknown;
      due: { cluster: string; stage: string; policy: string; environment: string }[];
      stages: { name: string; state: { kind: string; by?: { stage: string } } }[];
    };
    expect(doc.pinned).toBeNull();
    expect(doc.due).toEqual([
      expect.objectContaining({
        cluster: "dev-eu",
        stage: "dev",
        policy: "policies/fleet/dev-eu.yaml",
        environment: "",
      }),
      expect.objectContaining({
        cluster: "dev-us",
        stage: "dev",
        policy: "policies/fleet/dev-us.yaml",
      }),
    ]);
    expect(doc.stages.map((s) => [s.name, s.state.kind, s.state.by?.stage])).toEqual([
      ["dev", "rolling", undefined],
      ["staging", "blocked", "dev"],
      ["prod", "blocked", "dev"],
    ]);
  });

  it("says it in text too: the release it promotes, each cluster's release and state", () => {
    const r = runCli(["fleet", "plan", ...FLEET, ...SANDBOX]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "Fleet eks (policies/fleet/eks.yaml) promotes Kubernetes 1.33, release latest; not pinned yet",
    );
    expect(r.stdout).toContain("a stage soaks on time alone");
    expect(r.stdout).toMatch(
      /^ {2}staging-eu \(eu-west-1, policies\/fleet\/staging-eu\.yaml\) runs staging-eu-system 1\.33\.1-20250715; staging-eu-workers launch template 1: waiting for stage dev$/m,
    );
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("The next run starts dev-eu, dev-us.");
  });
});

describe("noderoll fleet apply --every 1h on the sandbox (npm run demo:fleet)", () => {
  it("rolls dev, soaks, staging, soaks, then prod one at a time, all on the pinned release", () => {
    // The fleet's clusters from one fleet scenario file, as npm run demo:fleet gives them.
    const r = runCli([
      "fleet",
      "apply",
      ...FLEET,
      "--sandbox",
      "policies/sandbox/fleet.yaml",
      "--every",
      "1h",
    ]);
    expect(r.status, r.stderr).toBe(0);
    const started = [
      ...r.stdout.matchAll(/^(\S+): rolling policies\/fleet\/\S+ \(stage (\w+)\)$/gm),
    ].map((m) => `${m[2]}/${m[1]}`);
    expect(started).toEqual([
      "dev/dev-eu",
      "dev/dev-us",
      "staging/staging-eu",
      "prod/prod-eu",
      "prod/prod-us",
    ]);
    // Each later stage after a day's soak: the runs say how much virtual time had passed.
    const at = [...r.stdout.matchAll(/^\(\+(\S+) of virtual time\)$/gm)].map((m) => m[1]);
    expect(at[1]).toMatch(/^1d/);
    expect(at[2]).toMatch(/^2d/);
    expect(r.stdout).toContain(
      "pinned to Kubernetes 1.33, release 1.33.4-20250904, launch templates' $Latest at ami-0a1b2c3d4e5f60002 for every stage",
    );
    for (const c of CLUSTERS)
      expect(r.stdout).toMatch(
        new RegExp(`runs ${c}-system 1\\.33\\.4-20250904; ${c}-workers launch template 2: done`),
      );
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe(
      "The next run starts nothing: every stage is done.",
    );
  }, 120_000);
});

describe("a fleet whose files are wrong", () => {
  it("names each disagreement in the policy file, and reads no cluster", () => {
    const dir = mkdtempSync(join(tmpdir(), "noderoll-fleet-"));
    cpSync(join(ROOT, "policies"), join(dir, "policies"), { recursive: true });
    const file = join(dir, "policies/fleet/dev-us.yaml");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(
        "  - name: dev-us-system\n",
        '  - name: dev-us-system\n    target: { kubernetesVersion: "1.32" }\n',
      ),
    );
    const r = runCli(["fleet", "plan", ...FLEET], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stderr.split("\n")).toEqual([
      'policies/fleet/dev-us.yaml:17:15: groups[0].target.kubernetesVersion: fleet "eks" (policies/fleet/eks.yaml) rolls every group to kubernetesVersion "1.33"; this group says "1.32": remove it here (the fleet sets it) or make it agree',
      "policies/fleet/eks.yaml: invalid fleet; nothing was read or changed",
      "",
    ]);
  });

  it("refuses a glob that matches nothing, and a missing --fleet (usage)", () => {
    const dir = mkdtempSync(join(tmpdir(), "noderoll-fleet-"));
    cpSync(join(ROOT, "policies"), join(dir, "policies"), { recursive: true });
    const fleet = join(dir, "policies/fleet/eks.yaml");
    writeFileSync(
      fleet,
      readFileSync(fleet, "utf8").replace(
        "policies/fleet/prod-*.yaml",
        "policies/fleet/production-*.yaml",
      ),
    );
    const r = runCli(["fleet", "plan", ...FLEET], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'policies/fleet/eks.yaml:21:16: stages[2].policies[0]: "policies/fleet/production-*.yaml" matches no policy file',
    );
    const u = runCli(["fleet", "plan"]);
    expect(u.status).toBe(2);
    expect(u.stderr).toMatch(/^noderoll: --fleet FILE is required/);
  });
});

describe("validate and plan given a fleet file", () => {
  it("validate checks the fleet with its policies; plan --policy says what the file is", () => {
    const v = runCli(["validate", "policies/fleet/eks.yaml"]);
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout).toBe('policies/fleet/eks.yaml: valid (fleet "eks", 5 clusters)\n');
    const p = runCli(["plan", "--policy", "policies/fleet/eks.yaml", "--sandbox", "demo"]);
    expect(p.status).toBe(1);
    expect(p.stderr).toContain(
      "policies/fleet/eks.yaml:5:1: kind: this is a Fleet (a release promoted across clusters), not an UpgradePolicy: plan and apply it with noderoll fleet plan|apply --fleet FILE",
    );
  });
});

describe("noderoll fleet --help", () => {
  it("lists every flag it takes, each with what it does", () => {
    const r = runCli(["fleet", "--help"]);
    expect(r.status).toBe(0);
    for (const [name, o] of Object.entries(FLEET_OPTIONS)) {
      const line = r.stdout.split("\n").find((l) => l.trimStart().startsWith(`--${name} `));
      expect(line, `--${name}`).toBeDefined();
      expect(line).toContain(o.help);
    }
  });
});
