// The fleet file as its author meets it (issue 49): every problem at once, located, in the
// policy's words; and a policy whose group says another release than its fleet is an error in
// the policy file, at the key that disagrees.
import { describe, expect, it } from "vitest";
import { releaseDisagreements } from "../../src/fleet/agree.js";
import { loadFleet } from "../../src/fleet/load.js";
import { formatDiagnostic, loadPolicy } from "../../src/policy/index.js";

const FLEET = `apiVersion: noderoll.io/v1
kind: Fleet
metadata: { name: eks }
release:
  kubernetesVersion: "1.33"
  releaseVersion: latest
stages:
  - name: dev
    policies: [policies/dev-*.yaml]
    maxConcurrency: 2
    soak: 2h
  - name: staging
    policies: [policies/staging-*.yaml]
    soak: 24h
    environment: staging
  - name: prod
    policies: [policies/prod-*.yaml]
    maxConcurrency: 1
    failureThreshold: 0
`;

const errorsOf = (text: string) => {
  const r = loadFleet(text, "fleets/eks.yaml");
  return r.ok ? [] : r.errors.map(formatDiagnostic);
};

describe("a fleet file", () => {
  it("loads as the issue writes it", () => {
    const r = loadFleet(FLEET, "fleets/eks.yaml");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.fleet.stages.map((s) => s.name)).toEqual(["dev", "staging", "prod"]);
    expect(r.fleet.release).toEqual({ kubernetesVersion: "1.33", releaseVersion: "latest" });
  });

  it("says every problem at once, each at its line and column", () => {
    const bad = FLEET.replace("maxConcurrency: 2", "maxConcurency: 2")
      .replace("soak: 24h", "soak: 24")
      .replace("maxConcurrency: 1", 'maxConcurrency: "0%"')
      .replace("name: prod", "name: dev");
    expect(errorsOf(bad)).toEqual([
      'fleets/eks.yaml:10:5: stages[0].maxConcurency: unknown key "maxConcurency"; did you mean "maxConcurrency"?',
      'fleets/eks.yaml:14:11: stages[1].soak: expected a duration such as "90s", "15m", "1h30m" or "30d" (a number needs a unit), found the number 24',
      'fleets/eks.yaml:18:21: stages[2].maxConcurrency: expected a whole number of clusters >= 1, or a percentage of the stage\'s clusters from "1%" to "100%", found "0%"',
    ]);
    // The cross-key rules run once the shape is right.
    expect(errorsOf(FLEET.replace("name: prod", "name: dev"))).toEqual([
      'fleets/eks.yaml:16:11: stages[2].name: stage "dev" is listed twice (also at line 8); rename or remove one',
    ]);
  });

  it("refuses a release that names nothing and a glob in two stages", () => {
    const text = FLEET.replace(/release:\n(.*\n){2}/, "release: {}\n").replace(
      "policies/staging-*.yaml",
      "policies/dev-*.yaml",
    );
    expect(errorsOf(text)).toEqual([
      "fleets/eks.yaml:4:10: release: expected at least one of kubernetesVersion, releaseVersion, launchTemplateVersion: a fleet promotes a release",
      'fleets/eks.yaml:11:16: stages[1].policies[0]: "policies/dev-*.yaml" is already in stage "dev" (line 7); a cluster belongs to one stage',
    ]);
  });

  it("refuses latest without the Kubernetes version it is the latest of", () => {
    expect(errorsOf(FLEET.replace('  kubernetesVersion: "1.33"\n', ""))).toEqual([
      'fleets/eks.yaml:5:19: release.releaseVersion: releaseVersion "latest" is resolved once and pinned for every stage: add kubernetesVersion (such as "1.33") to say latest of which',
    ]);
  });

  it("is not mistaken for a policy, nor a policy for it", () => {
    expect(errorsOf("apiVersion: noderoll.io/v1\nkind: UpgradePolicy\n")).toEqual([
      'fleets/eks.yaml:1:1: not a noderoll fleet: expected "kind: Fleet"',
    ]);
  });
});

describe("a policy under a fleet", () => {
  const policy = (target: string) =>
    loadPolicy(
      `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata: { name: dev-eu }
cluster: { name: dev-eu, region: eu-west-1 }
groups:
  - name: workers
    target: ${target}
  - name: system
`,
      "policies/dev-eu.yaml",
    );

  it("may leave the target to the fleet or say the same", () => {
    const fleet = loadFleet(FLEET, "fleets/eks.yaml");
    const p = policy('{ kubernetesVersion: "1.33", launchTemplateVersion: 7 }');
    if (!fleet.ok || !p.ok) throw new Error("fixtures");
    expect(releaseDisagreements(fleet.fleet, "fleets/eks.yaml", [p])).toEqual([]);
  });

  it("names each disagreement in the policy file, at its key", () => {
    const fleet = loadFleet(FLEET, "fleets/eks.yaml");
    const p = policy('{ kubernetesVersion: "1.32", releaseVersion: 1.32.9-20250101 }');
    if (!fleet.ok || !p.ok) throw new Error("fixtures");
    expect(releaseDisagreements(fleet.fleet, "fleets/eks.yaml", [p]).map(formatDiagnostic)).toEqual(
      [
        'policies/dev-eu.yaml:7:15: groups[0].target.kubernetesVersion: fleet "eks" (fleets/eks.yaml) rolls every group to kubernetesVersion "1.33"; this group says "1.32": remove it here (the fleet sets it) or make it agree',
        'policies/dev-eu.yaml:7:42: groups[0].target.releaseVersion: fleet "eks" (fleets/eks.yaml) rolls every group to releaseVersion "latest"; this group says "1.32.9-20250101": remove it here (the fleet sets it) or make it agree',
      ],
    );
  });
});
