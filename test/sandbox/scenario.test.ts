import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/policy/diagnostic.js";
import { DEMO_SCENARIO_YAML } from "../../src/sandbox/scenarios/demo.js";
import { generateScenario, generateScenarioYaml } from "../../src/sandbox/scenarios/generate.js";
import { parseScenario } from "../../src/sandbox/scenarios/schema.js";
import { World } from "../../src/sandbox/world/world.js";

const base = `apiVersion: noderoll.io/v1
kind: SandboxScenario
metadata:
  name: t
cluster:
  name: t
  version: "1.33"
zones: [a, b]
nodeGroups:
  - name: g
    type: self-managed
    size: { min: 1, max: 3, desired: 2 }
`;

function errors(text: string): string[] {
  const r = parseScenario(text, "s.yaml");
  if (r.ok) return [];
  return r.errors.map(formatDiagnostic);
}

describe("scenario files", () => {
  it("accepts the demo and fills in defaults", () => {
    const r = parseScenario(DEMO_SCENARIO_YAML, "demo.yaml");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.scenario.timings).toMatchObject({ drainTimeout: 900, postDrain: 60, boot: 60 });
    expect(r.scenario.workloads.find((w) => w.name === "web")?.requests).toEqual({
      cpu: 250,
      memory: 256 * 1024 ** 2,
    });
  });

  it("accepts a minimal scenario", () => {
    expect(errors(base)).toEqual([]);
  });

  it("points at an unknown key with file:line:col", () => {
    expect(errors(base + "    sise: 3\n")).toEqual([
      's.yaml:13:5: nodeGroups[0]: unknown key "sise"',
    ]);
  });

  it("points at a bad value", () => {
    const text =
      base +
      `workloads:\n  - kind: Deployment\n    name: web\n    terminationGracePeriod: soon\n    requests: { cpu: lots }\n`;
    expect(errors(text)).toEqual([
      's.yaml:16:29: workloads[0].terminationGracePeriod: "soon" is not a duration (write 90s, 15m, 1h30m)',
      's.yaml:17:22: workloads[0].requests.cpu: "lots" is not a CPU quantity (write 2, 1.5 or 500m)',
    ]);
  });

  it("checks sizes, zones, PDBs and duplicates, each where it is written", () => {
    const text = `${base}  - name: g
    type: self-managed
    zones: [c]
    size: { min: 3, max: 2, desired: 2 }
workloads:
  - kind: Deployment
    name: web
    pdb: { minAvailable: 1, maxUnavailable: 1 }
`;
    expect(errors(text)).toEqual([
      's.yaml:13:11: nodeGroups[1].name: node group "g" appears twice',
      's.yaml:15:13: nodeGroups[1].zones[0]: zone "c" is not among the scenario\'s zones (a, b)',
      "s.yaml:16:11: nodeGroups[1].size: min ≤ desired ≤ max does not hold (3, 2, 2)",
      "s.yaml:20:10: workloads[0].pdb: a PodDisruptionBudget sets exactly one of minAvailable and maxUnavailable",
    ]);
  });

  it("refuses a bare Pod named as a StatefulSet's pod of its namespace, where it is named", () => {
    const text = `${base}workloads:
  - { kind: StatefulSet, name: db, replicas: 3 }
  - { kind: Pod, name: db-2 }
  - { kind: Pod, name: db-3 }
  - { kind: Pod, name: db-02 }
  - { kind: Pod, name: db-1, namespace: other }
  - { kind: StatefulSet, name: db-0, replicas: 1 }
  - { kind: Pod, name: db-0-0 }
`;
    expect(errors(text)).toEqual([
      's.yaml:15:24: workloads[1].name: Pod "default/db-2" has the name of a pod of StatefulSet "default/db" (replicas: 3); a pod\'s name is unique in its namespace',
      's.yaml:20:24: workloads[6].name: Pod "default/db-0-0" has the name of a pod of StatefulSet "default/db-0" (replicas: 1); a pod\'s name is unique in its namespace',
    ]);
  });

  it("requires a release version on managed groups, listed under releases", () => {
    const text = base.replace(
      "type: self-managed",
      'type: managed\n    version: "1.32"\n    releaseVersion: 1.32.9',
    );
    expect(errors(text)).toEqual([
      's.yaml:13:21: nodeGroups[0].releaseVersion: release 1.32.9 is not listed under releases."1.32"',
    ]);
  });

  it("reports YAML syntax errors with their position", () => {
    const [e] = errors(base + "  - name: [unclosed\n");
    expect(e).toMatch(/^s\.yaml:\d+:\d+: YAML syntax error/);
  });

  it("World.fromYaml refuses an invalid scenario with the located messages", () => {
    expect(() => World.fromYaml(base + "bogus: 1\n", "x.yaml")).toThrow(
      'x.yaml:13:1: unknown key "bogus"',
    );
  });
});

describe("the generator", () => {
  it("is deterministic for a seed and honours the sizes", () => {
    const a = generateScenarioYaml({ nodes: 50, groups: 3, podsPerNode: 10, seed: 5 });
    expect(generateScenarioYaml({ nodes: 50, groups: 3, podsPerNode: 10, seed: 5 })).toBe(a);
    expect(generateScenarioYaml({ nodes: 50, groups: 3, podsPerNode: 10, seed: 6 })).not.toBe(a);
    const s = generateScenario({ nodes: 50, groups: 3, podsPerNode: 10, seed: 5 });
    expect(s.nodeGroups.map((g) => g.size.desired)).toEqual([17, 17, 16]);
    expect(s.nodeGroups.map((g) => g.type)).toEqual(["managed", "self-managed", "managed"]);
    const world = new World(s);
    expect(world.kube.nodes.size).toBe(50);
    const pods = [...world.kube.workloads.values()].reduce((n, w) => n + w.pods.size, 0);
    expect(pods).toBe(500);
    expect(world.settled()).toBe(true);
  });

  it("prints YAML that parses back to the same scenario", () => {
    const text = generateScenarioYaml({ nodes: 20, groups: 2, podsPerNode: 5, seed: 9 });
    const r = parseScenario(text, "gen.yaml");
    expect(r.ok).toBe(true);
    if (r.ok)
      expect(r.scenario).toEqual(
        generateScenario({ nodes: 20, groups: 2, podsPerNode: 5, seed: 9 }),
      );
  });
});
