// Large synthetic scenarios, deterministic for a seed: `noderoll sandbox generate --nodes N
// --groups G --pods-per-node P --seed S` prints one, and the benchmark rolls one. Groups are
// spread over three zones, alternate between EKS managed node groups (on an older AMI release)
// and self-managed Auto Scaling groups (on an older launch template version), and are sized so
// the pods fit with room to spare; workloads mix replica counts, PDB styles and a DaemonSet.
import { Random } from "../model/random.js";
import { scenarioFrom, type Scenario, type ScenarioInput } from "./schema.js";

export interface GenerateOptions {
  nodes: number;
  groups: number;
  podsPerNode: number;
  seed?: number;
  /** Which kind of groups: alternate (default), or all of one kind. */
  kind?: "mixed" | "managed" | "self-managed";
  /** maxUnavailable of the managed groups' updateConfig, as a percentage (default 10). */
  maxUnavailablePercentage?: number;
  /**
   * The cluster's name (default "generated"). Given, its groups' names start with it too: Auto
   * Scaling group and launch template names are unique in an AWS account, so a fleet of
   * generated clusters can be one sandbox account (`fleet plan --sandbox A --sandbox B ...`).
   */
  cluster?: string;
}

/** EKS's cluster names, short enough that `<cluster>-asg-001` is a node group name (≤ 63). */
const CLUSTER_NAME = /^[0-9A-Za-z][A-Za-z0-9_-]{0,54}$/;

type Workload = NonNullable<ScenarioInput["workloads"]>[number];

const ZONES = ["eu-west-1a", "eu-west-1b", "eu-west-1c"];

/** The scenario as an object (validate with scenarioFrom, or use generateScenario). */
export function generateScenarioInput(opts: GenerateOptions): ScenarioInput {
  const { nodes, podsPerNode } = opts;
  const groups = Math.max(1, Math.min(opts.groups, nodes));
  if (!Number.isInteger(nodes) || nodes < 1) throw new Error("--nodes must be a positive integer");
  if (!Number.isInteger(podsPerNode) || podsPerNode < 1)
    throw new Error("--pods-per-node must be a positive integer");
  if (opts.cluster !== undefined && !CLUSTER_NAME.test(opts.cluster))
    throw new Error(
      `--cluster must be an EKS cluster name (letters, digits, - and _) of at most 55 characters, not ${JSON.stringify(opts.cluster)}`,
    );
  const seed = opts.seed ?? 1;
  const random = new Random(seed);
  return {
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: {
      name: `generated-${nodes}n-${groups}g-${podsPerNode}p-s${seed}`,
      description: `Generated: ${nodes} nodes in ${groups} groups, ${podsPerNode} pods per node, seed ${seed}.`,
    },
    seed,
    start: "2026-01-05T09:00:00Z",
    cluster: { name: opts.cluster ?? "generated", region: "eu-west-1", version: "1.33" },
    releases: {
      "1.32": ["1.32.3-20250519", "1.32.5-20250715"],
      "1.33": ["1.33.1-20250715", "1.33.4-20250904"],
    },
    zones: ZONES,
    nodeGroups: nodeGroups(opts, groups),
    workloads: workloads(random, nodes, podsPerNode),
  };
}

/** `groups` groups sharing `nodes` nodes, sized so that the pods fit with room to spare. */
function nodeGroups(opts: GenerateOptions, groups: number): ScenarioInput["nodeGroups"] {
  const { nodes, podsPerNode } = opts;
  const kind = opts.kind ?? "mixed";
  // Per pod: 100m CPU and 128Mi; nodes get ~1.6× what their share needs, so drains have room.
  const podsCap = Math.ceil(podsPerNode * 1.6) + 4;
  const cpu = Math.ceil((podsPerNode * 100 * 1.6) / 1000) + 1;
  const memoryGi = Math.ceil((podsPerNode * 128 * 1.6) / 1024) + 2;
  const out: ScenarioInput["nodeGroups"] = [];
  for (let g = 0; g < groups; g++) {
    const size = Math.floor(nodes / groups) + (g < nodes % groups ? 1 : 0);
    const managed = kind === "managed" || (kind === "mixed" && g % 2 === 0);
    const own = `${managed ? "ng" : "asg"}-${String(g + 1).padStart(3, "0")}`;
    const name = opts.cluster ? `${opts.cluster}-${own}` : own;
    const common = {
      name,
      instanceType: "m6i.2xlarge",
      capacity: { cpu, memory: `${memoryGi}Gi`, pods: podsCap },
      size: { min: Math.max(1, Math.floor(size / 2)), max: size * 2 + 10, desired: size },
      labels: { pool: name },
    };
    if (managed)
      out.push({
        ...common,
        type: "managed",
        version: "1.32",
        releaseVersion: "1.32.3-20250519",
        updateConfig: { maxUnavailablePercentage: opts.maxUnavailablePercentage ?? 10 },
      });
    else
      out.push({
        ...common,
        type: "self-managed",
        version: "1.32",
        launchTemplate: { name, versions: 4, default: 4, use: "$Latest" },
        instances: [{ version: 3, count: size }],
      });
  }
  return out;
}

/** One DaemonSet pod per node; the rest of the pods in Deployments and StatefulSets. */
function workloads(random: Random, nodes: number, podsPerNode: number): Workload[] {
  const out: Workload[] = [
    {
      kind: "DaemonSet",
      name: "node-agent",
      namespace: "monitoring",
      tolerations: [{ operator: "Exists" }],
      requests: { cpu: "50m", memory: "64Mi" },
    },
  ];
  let left = nodes * (podsPerNode - 1);
  const sizes = [1, 2, 3, 3, 5, 10, 20, 50];
  let n = 0;
  while (left > 0) {
    const replicas = Math.min(left, sizes[random.int(sizes.length)] as number);
    left -= replicas;
    n++;
    const stateful = replicas >= 3 && random.next() < 0.1;
    const name = `${stateful ? "db" : "app"}-${String(n).padStart(4, "0")}`;
    const w: Workload = {
      kind: stateful ? "StatefulSet" : "Deployment",
      name,
      namespace: `team-${String((n % 20) + 1).padStart(2, "0")}`,
      replicas,
      requests: { cpu: "100m", memory: "128Mi" },
      start: random.int(10) + 2,
      ready: random.int(20) + 3,
      terminationGracePeriod: 30,
      ...(random.next() < 0.3 ? { preStop: random.int(10) + 1 } : {}),
    };
    if (replicas >= 2) {
      const style = random.int(4);
      if (style === 0) w.pdb = { minAvailable: 1 };
      else if (style === 1) w.pdb = { maxUnavailable: 1 };
      else if (style === 2) w.pdb = { maxUnavailable: "25%" };
    }
    out.push(w);
  }
  return out;
}

/** A generated scenario, validated, ready for `new World(...)`. */
export function generateScenario(opts: GenerateOptions): Scenario {
  return scenarioFrom(generateScenarioInput(opts));
}

/**
 * The same scenario as text (what `sandbox generate` prints): YAML written as JSON — YAML 1.2
 * reads JSON as it is — one top-level key and one list item a line, after a comment saying how
 * to make it again. parseScenario reads such a file with JSON.parse: a 100,000-node scenario
 * is 50 MB, which a YAML parser keeping positions takes minutes over.
 */
export function generateScenarioYaml(opts: GenerateOptions): string {
  const input = generateScenarioInput(opts);
  const header = `# ${input.metadata.description}\n# Regenerate: ${regenerate(opts, input.seed as number)}\n`;
  const lines = Object.entries(input).map(([key, value]) => {
    const k = JSON.stringify(key);
    if (!Array.isArray(value) || value.length === 0) return `  ${k}: ${JSON.stringify(value)}`;
    return `  ${k}: [\n${value.map((item) => `    ${JSON.stringify(item)}`).join(",\n")}\n  ]`;
  });
  return `${header}{\n${lines.join(",\n")}\n}\n`;
}

function regenerate(opts: GenerateOptions, seed: number): string {
  const named = opts.cluster ? ` --cluster ${opts.cluster}` : "";
  return `noderoll sandbox generate --nodes ${opts.nodes} --groups ${opts.groups} --pods-per-node ${opts.podsPerNode} --seed ${seed}${named}`;
}

/**
 * An upgrade policy covering every group of the generated scenario, so it can be planned and
 * rolled without writing one: the managed groups to the cluster's Kubernetes version and the
 * latest release (EKS rolls them with the group's own updateConfig), the self-managed ones to
 * their launch template's latest version, surging 10% with none unavailable. The generator
 * puts every group on an older version, so every node is to be replaced.
 */
export function generatePolicyYaml(opts: GenerateOptions): string {
  const input = generateScenarioInput(opts);
  const { name, region, version } = input.cluster as {
    name: string;
    region: string;
    version: string;
  };
  const groups = input.nodeGroups.map((g) =>
    g.type === "managed"
      ? `  - name: ${g.name}\n    target:\n      kubernetesVersion: "${version}"\n      releaseVersion: latest\n`
      : `  - name: ${g.name}\n    target:\n      launchTemplateVersion: $Latest\n    rollingUpdate:\n      maxSurge: "10%"\n      maxUnavailable: 0\n`,
  );
  return [
    `# The policy for the scenario of: ${regenerate(opts, input.seed as number)}`,
    "apiVersion: noderoll.io/v1",
    "kind: UpgradePolicy",
    "metadata:",
    `  name: ${name}`,
    "cluster:",
    `  name: ${name}`,
    `  region: ${region}`,
    "groups:",
    groups.join("").trimEnd(),
    "",
  ].join("\n");
}
