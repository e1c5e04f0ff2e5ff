// Small scenarios for the sandbox tests, written as objects.
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";

export const ZONES = ["eu-west-1a", "eu-west-1b", "eu-west-1c", "eu-west-1d", "eu-west-1e"];

type Workloads = NonNullable<ScenarioInput["workloads"]>;
type Group = ScenarioInput["nodeGroups"][number];

/** One managed node group on an old release, in `zones` zones, plus the given workloads. */
export function managedScenario(opts: {
  zones?: number;
  nodes?: number;
  max?: number;
  maxUnavailable?: number;
  workloads?: Workloads;
  extra?: Partial<ScenarioInput>;
  group?: Partial<Group>;
  seed?: number;
}): ScenarioInput {
  const zones = ZONES.slice(0, opts.zones ?? 3);
  const nodes = opts.nodes ?? zones.length * 2;
  return {
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: { name: "test" },
    seed: opts.seed ?? 7,
    cluster: { name: "test", version: "1.33" },
    releases: { "1.32": ["1.32.3-20250519", "1.32.5-20250715"], "1.33": ["1.33.1-20250715"] },
    zones,
    nodeGroups: [
      {
        name: "ng",
        type: "managed",
        version: "1.32",
        releaseVersion: "1.32.3-20250519",
        size: { min: 1, max: opts.max ?? nodes + 5, desired: nodes },
        updateConfig: { maxUnavailable: opts.maxUnavailable ?? 1 },
        capacity: { cpu: 4, memory: "16Gi", pods: 40 },
        ...opts.group,
      },
    ],
    workloads: opts.workloads ?? [],
    ...opts.extra,
  };
}

/** One self-managed group, for the Kubernetes-side tests. */
export function plainScenario(
  workloads: Workloads,
  nodes = 3,
  extra: Partial<ScenarioInput> = {},
): ScenarioInput {
  return {
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: { name: "plain" },
    seed: 3,
    cluster: { name: "plain", version: "1.33" },
    zones: ZONES.slice(0, 3),
    nodeGroups: [
      {
        name: "nodes",
        type: "self-managed",
        size: { min: 0, max: nodes + 5, desired: nodes },
        capacity: { cpu: 4, memory: "16Gi", pods: 40 },
      },
    ],
    workloads,
    ...extra,
  };
}

/**
 * Two nodes of a self-managed group `nodes` on its launch template's version 1, a web Deployment,
 * and version 2 a bad release of `effect`: the world the health signals' tests read.
 */
export function badReleaseScenario(
  name: string,
  fault: { effect: "neverReady" | "crashLoop" | "errors"; errorRatio?: number },
  extra: Partial<ScenarioInput> = {},
): ScenarioInput {
  return {
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: { name },
    cluster: { name, version: "1.33" },
    zones: ["eu-west-1a", "eu-west-1b"],
    nodeGroups: [
      {
        name: "nodes",
        type: "self-managed",
        size: { min: 0, max: 6, desired: 2 },
        launchTemplate: { versions: 2, use: 1 },
      },
    ],
    workloads: [{ kind: "Deployment", name: "web", replicas: 2 }],
    faults: { badRelease: [{ launchTemplateVersion: 2, ...fault }] },
    ...extra,
  } as ScenarioInput;
}
