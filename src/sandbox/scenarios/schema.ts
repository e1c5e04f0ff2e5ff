// Scenarios: the YAML a sandbox world is built from — zones, node groups (EKS managed or
// self-managed Auto Scaling groups, with versions and launch template versions per instance),
// workloads (replicas, PDBs, tolerations, grace periods), timings and faults. Validated with zod;
// every problem is reported as file:line:col like policy errors. The format is documented in
// docs by example: src/sandbox/scenarios/demo.yaml.
import { isDocument, LineCounter, parseAllDocuments } from "yaml";
import { z } from "zod";
import { formatPath, type Diagnostic } from "../../policy/diagnostic.js";
import { locate, type PolicySource } from "../../policy/source.js";
import { actorIssues, autoscaler, scaleIn, suspendedProcesses } from "./actors.js";
import { eks, faultIssues, faults } from "./faults.js";
import { locateInJson, type Position } from "./json-positions.js";
import { alarms, signalIssues } from "./signals.js";
import { cpu, memory, seconds } from "./units.js";

/** A workload's replicas where it does not say. */
export const DEFAULT_REPLICAS = 1;

const intOrPercent = z.union([
  z.number().int().nonnegative(),
  z.string().regex(/^\d{1,3}%$/, 'write a number or a percentage such as "50%"'),
]);
const labels = z.record(z.string(), z.string());
const taint = z.strictObject({
  key: z.string().min(1),
  value: z.string().optional(),
  effect: z.enum(["NoSchedule", "PreferNoSchedule", "NoExecute"]),
});
const toleration = z.strictObject({
  key: z.string().optional(),
  operator: z.enum(["Exists", "Equal"]).optional(),
  value: z.string().optional(),
  effect: z.enum(["NoSchedule", "PreferNoSchedule", "NoExecute"]).optional(),
});
const selector = z.strictObject({
  matchLabels: labels.optional(),
  matchExpressions: z
    .array(
      z.strictObject({
        key: z.string(),
        operator: z.enum(["In", "NotIn", "Exists", "DoesNotExist"]),
        values: z.array(z.string()).optional(),
      }),
    )
    .optional(),
});
const pdbBudget = {
  minAvailable: intOrPercent.optional(),
  maxUnavailable: intOrPercent.optional(),
  unhealthyPodEvictionPolicy: z.enum(["IfHealthyBudget", "AlwaysAllow"]).optional(),
};

const nodeGroup = z
  .strictObject({
    name: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9_.-]*$/,
        "a node group name is letters, digits, '-', '_' and '.'",
      ),
    type: z.enum(["managed", "self-managed"]),
    /** Managed: the Kubernetes version of the group; self-managed: what its AMIs run. */
    version: z
      .string()
      .regex(/^\d+\.\d+$/, 'write a minor version such as "1.32"')
      .optional(),
    releaseVersion: z.string().optional(),
    zones: z.array(z.string()).min(1).optional(),
    instanceType: z.string().default("m6i.large"),
    capacity: z
      .strictObject({
        cpu: cpu.default(2000),
        memory: memory.default(8 * 1024 ** 3),
        pods: z.number().int().positive().default(29),
      })
      .prefault({}),
    size: z.strictObject({
      min: z.number().int().nonnegative(),
      max: z.number().int().nonnegative(),
      desired: z.number().int().nonnegative(),
    }),
    updateConfig: z
      .strictObject({
        maxUnavailable: z.number().int().min(1).max(100).optional(),
        maxUnavailablePercentage: z.number().int().min(1).max(100).optional(),
        updateStrategy: z.enum(["DEFAULT", "MINIMAL"]).optional(),
      })
      .optional(),
    launchTemplate: z
      .strictObject({
        name: z.string().optional(),
        /** How many versions exist (1..n). */
        versions: z.number().int().positive().default(1),
        /**
         * Self-managed groups: the AMI of versions 1, 2, … in order (the rest: one of the
         * group's own each) — so that several clusters' templates can run one image.
         */
        images: z.array(z.string().regex(/^ami-[0-9a-f]{8,17}$/)).optional(),
        default: z.number().int().positive().optional(),
        /** What the group is configured with. */
        use: z
          .union([z.literal("$Latest"), z.literal("$Default"), z.number().int().positive()])
          .default("$Latest"),
        /**
         * Managed groups: whether the template names its own AMI (EKS's amiType CUSTOM) or leaves
         * it to EKS (an EKS optimized AMI of the group's release).
         */
        ami: z.enum(["custom", "eks-optimized"]).default("custom"),
      })
      .optional(),
    /** Launch template version per instance; the rest run the configured version. */
    instances: z
      .array(
        z.strictObject({
          version: z.number().int().positive(),
          count: z.number().int().positive(),
          zone: z.string().optional(),
        }),
      )
      .optional(),
    mixedInstances: z.boolean().default(false),
    labels: labels.default({}),
    taints: z.array(taint).default([]),
    tags: z.record(z.string(), z.string()).default({}),
    /** Tag the group kubernetes.io/cluster/NAME=owned, as eksctl and EKS's templates do (unless
     * its own tags name a cluster already). */
    clusterTag: z.boolean().default(true),
    /** Auto Scaling processes suspended from the start (a group frozen during an incident). */
    suspendedProcesses,
    /** Self-managed: a warm pool of `size` instances launched from template `version` (default:
     * the version the group is configured with), kept `state`. */
    warmPool: z
      .strictObject({
        size: z.number().int().min(1),
        version: z.number().int().positive().optional(),
        state: z.enum(["Stopped", "Running", "Hibernated"]).default("Stopped"),
      })
      .optional(),
  })
  .superRefine((g, ctx) => {
    if (g.size.min > g.size.desired || g.size.desired > g.size.max)
      ctx.addIssue({
        code: "custom",
        path: ["size"],
        message: `min ≤ desired ≤ max does not hold (${g.size.min}, ${g.size.desired}, ${g.size.max})`,
      });
    if (g.type === "managed" && !g.releaseVersion)
      ctx.addIssue({
        code: "custom",
        path: ["releaseVersion"],
        message: "a managed node group needs its releaseVersion",
      });
    if (g.type === "self-managed" && g.updateConfig)
      ctx.addIssue({
        code: "custom",
        path: ["updateConfig"],
        message: "updateConfig is for EKS managed node groups",
      });
    const total = (g.instances ?? []).reduce((n, i) => n + i.count, 0);
    if (total > g.size.desired)
      ctx.addIssue({
        code: "custom",
        path: ["instances"],
        message: `${total} instances listed, more than desired (${g.size.desired})`,
      });
    const versions = g.launchTemplate?.versions ?? 1;
    (g.instances ?? []).forEach((i, k) => {
      if (i.version > versions)
        ctx.addIssue({
          code: "custom",
          path: ["instances", k, "version"],
          message: `the launch template has ${versions} version(s)`,
        });
    });
  });

const workload = z
  .strictObject({
    kind: z.enum(["Deployment", "StatefulSet", "DaemonSet", "Pod"]),
    name: z
      .string()
      .regex(
        /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/,
        "a workload name is a DNS label (lower-case letters, digits, '-')",
      ),
    namespace: z.string().default("default"),
    replicas: z.number().int().nonnegative().default(DEFAULT_REPLICAS),
    labels: labels.optional(),
    requests: z
      .strictObject({ cpu: cpu.default(100), memory: memory.default(128 * 1024 ** 2) })
      .prefault({}),
    tolerations: z.array(toleration).default([]),
    nodeSelector: labels.default({}),
    /** Required node affinity: nodeSelectorTerms (ORed), each {matchExpressions} (ANDed). */
    nodeAffinity: z
      .array(selector.pick({ matchExpressions: true }))
      .min(1)
      .optional(),
    /** A StatefulSet's claim template: each pod's claim bound to a volume in its first zone. */
    volumes: z.literal("zonal").optional(),
    terminationGracePeriod: seconds.default(30),
    preStop: seconds.default(0),
    start: seconds.default(5),
    ready: seconds.default(5),
    readinessProbe: z.boolean().default(true),
    /** system-cluster-critical and system-node-critical pods are what validation judges. */
    priorityClassName: z.string().optional(),
    stuckTerminating: z.boolean().default(false),
    pdb: z.strictObject({ name: z.string().optional(), ...pdbBudget }).optional(),
  })
  .superRefine((w, ctx) => {
    if (w.volumes && w.kind !== "StatefulSet")
      ctx.addIssue({
        code: "custom",
        path: ["volumes"],
        message: "volumes (a volume claim template) are for a StatefulSet",
      });
    if (w.pdb && (w.pdb.minAvailable === undefined) === (w.pdb.maxUnavailable === undefined))
      ctx.addIssue({
        code: "custom",
        path: ["pdb"],
        message: "a PodDisruptionBudget sets exactly one of minAvailable and maxUnavailable",
      });
  });

const pdb = z
  .strictObject({
    name: z.string(),
    namespace: z.string().default("default"),
    selector,
    ...pdbBudget,
  })
  .superRefine((p, ctx) => {
    if ((p.minAvailable === undefined) === (p.maxUnavailable === undefined))
      ctx.addIssue({
        code: "custom",
        message: "a PodDisruptionBudget sets exactly one of minAvailable and maxUnavailable",
      });
  });

const timings = z
  .strictObject({
    boot: seconds.default(60),
    bootJitter: seconds.default(15),
    register: seconds.default(10),
    nodeReady: seconds.default(20),
    terminate: seconds.default(30),
    nodeDelete: seconds.default(10),
    launchRetry: seconds.default(30),
    scheduler: seconds.default(1),
    controller: seconds.default(0),
    podShutdown: seconds.default(2),
    /** The Retry-After of a budget's 429 (the API server sends 10). */
    pdbRetryAfter: seconds.default(10),
    drainTimeout: seconds.default(900),
    postDrain: seconds.default(60),
    nodeCreationTimeout: seconds.default(1200),
    evictionRetry: seconds.default(5),
    configUpdate: seconds.default(30),
  })
  .prefault({});

export const scenarioSchema = z
  .strictObject({
    apiVersion: z.literal("noderoll.io/v1"),
    kind: z.literal("SandboxScenario"),
    metadata: z.strictObject({ name: z.string().min(1), description: z.string().optional() }),
    seed: z.number().int().default(1),
    start: z.iso.datetime({ offset: true }).default("2026-01-05T09:00:00Z"),
    cluster: z.strictObject({
      name: z.string().min(1),
      region: z.string().default("eu-west-1"),
      version: z.string().regex(/^\d+\.\d+$/, 'write a minor version such as "1.33"'),
    }),
    /** EKS AMI release versions per Kubernetes minor version, oldest first (the last is latest). */
    releases: z.record(z.string(), z.array(z.string()).min(1)).default({}),
    zones: z.array(z.string()).min(1),
    timings,
    nodeGroups: z.array(nodeGroup).min(1),
    workloads: z.array(workload).default([]),
    pdbs: z.array(pdb).default([]),
    autoscaler,
    /** People (or the autoscaler) scaling a group in while it rolls. */
    scaleIns: z.array(scaleIn).default([]),
    faults,
    /** CloudWatch alarms of the account (signals.ts): what alarm gates read. */
    alarms,
    eks,
    /** Record pod-level events in the timeline (verbose for big clusters). */
    podEvents: z.boolean().default(false),
  })
  .superRefine((s, ctx) => {
    const names = new Set<string>();
    s.nodeGroups.forEach((g, i) => {
      if (names.has(g.name))
        ctx.addIssue({
          code: "custom",
          path: ["nodeGroups", i, "name"],
          message: `node group "${g.name}" appears twice`,
        });
      names.add(g.name);
      (g.zones ?? []).forEach((z, k) => {
        if (!s.zones.includes(z))
          ctx.addIssue({
            code: "custom",
            path: ["nodeGroups", i, "zones", k],
            message: `zone "${z}" is not among the scenario's zones (${s.zones.join(", ")})`,
          });
      });
      if (g.type === "managed" && g.releaseVersion && g.version) {
        const list = s.releases[g.version];
        if (!list?.includes(g.releaseVersion))
          ctx.addIssue({
            code: "custom",
            path: ["nodeGroups", i, "releaseVersion"],
            message: `release ${g.releaseVersion} is not listed under releases."${g.version}"`,
          });
      }
    });
    const wl = new Set<string>();
    s.workloads.forEach((w, i) => {
      const key = `${w.namespace}/${w.name}`;
      if (wl.has(key))
        ctx.addIssue({
          code: "custom",
          path: ["workloads", i, "name"],
          message: `workload "${key}" appears twice`,
        });
      wl.add(key);
    });
    statefulPodNames(s.workloads, ctx);
    actorIssues(s, ctx);
    faultIssues(s, ctx);
    signalIssues(s, ctx);
  });

/**
 * A bare Pod named as a StatefulSet's pod of the same namespace ("web-1" beside a StatefulSet
 * "web" of two or more replicas): a cluster cannot hold both, since a pod's name is unique in its
 * namespace.
 */
function statefulPodNames(
  workloads: readonly { kind: string; name: string; namespace: string; replicas: number }[],
  ctx: z.RefinementCtx,
): void {
  const replicas = new Map<string, number>();
  for (const w of workloads)
    if (w.kind === "StatefulSet") replicas.set(`${w.namespace}/${w.name}`, w.replicas);
  workloads.forEach((w, i) => {
    const m = w.kind === "Pod" ? /^(.+)-(0|[1-9][0-9]*)$/.exec(w.name) : null;
    if (!m) return;
    const [, set = "", ordinal = ""] = m;
    const of = replicas.get(`${w.namespace}/${set}`);
    if (of !== undefined && Number(ordinal) < of)
      ctx.addIssue({
        code: "custom",
        path: ["workloads", i, "name"],
        message: `Pod "${w.namespace}/${w.name}" has the name of a pod of StatefulSet "${w.namespace}/${set}" (replicas: ${of}); a pod's name is unique in its namespace`,
      });
  });
}

export type ScenarioInput = z.input<typeof scenarioSchema>;
export type Scenario = z.output<typeof scenarioSchema>;

export type ScenarioResult = { ok: true; scenario: Scenario } | { ok: false; errors: Diagnostic[] };

/**
 * The value of a scenario written as JSON (after comment lines), as `sandbox generate` writes
 * one, not yet checked: read with JSON.parse, which YAML 1.2 agrees with for such text, in a
 * fraction of the YAML parser's time. Undefined when the text is not JSON. (JSON.parse keeps the
 * last of repeated keys, where the YAML path refuses them.)
 */
export function scenarioJson(text: string): unknown {
  const body = text.slice(jsonStart(text));
  if (!body.startsWith("{")) return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/** Where a JSON scenario's text begins, after the comment lines `sandbox generate` puts first. */
const jsonStart = (text: string): number =>
  (/^(?:[ \t]*(?:#[^\n]*)?\r?\n)*/.exec(text) as RegExpExecArray)[0].length;

/** Problems placed in a JSON scenario (each a scan of the text as far as it): the first these. */
const MAX_PLACED_IN_JSON = 50;

/**
 * Parse and validate scenario YAML; errors carry file:line:col. `json`: the text's JSON value
 * where the caller has it already (scenarioJson). A JSON scenario's problems are placed in its
 * text directly (json-positions.ts), not through the YAML parser.
 */
export function parseScenario(
  text: string,
  file = "scenario.yaml",
  json: unknown = scenarioJson(text),
): ScenarioResult {
  if (json !== undefined) {
    const checked = scenarioSchema.safeParse(json);
    if (checked.success) return { ok: true, scenario: checked.data };
    const from = jsonStart(text);
    const issues = checked.error.issues;
    const placed = issueDiagnostics(issues.slice(0, MAX_PLACED_IN_JSON), file, (path, key) =>
      locateInJson(text, path, key, from),
    );
    const last = placed.at(-1) as Diagnostic;
    if (issues.length > MAX_PLACED_IN_JSON)
      placed.push({
        ...last,
        path: "",
        message: `and ${issues.length - MAX_PLACED_IN_JSON} more problems: mend these first`,
      });
    return { ok: false, errors: placed };
  }
  return parseYamlScenario(text, file);
}

/** A scenario in YAML (or text JSON.parse refused), its problems placed by the YAML parser. */
function parseYamlScenario(text: string, file: string): ScenarioResult {
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, {
    lineCounter: lines,
    prettyErrors: false,
    uniqueKeys: true,
  });
  const list = Array.isArray(docs) ? docs : [];
  const errors: Diagnostic[] = [];
  for (const d of list)
    for (const e of d.errors) {
      const at = lines.linePos(e.pos[0]);
      errors.push({
        file,
        line: at.line,
        col: at.col,
        path: "",
        message: `YAML syntax error: ${e.message.split("\n")[0]}`,
        severity: "error",
      });
    }
  if (errors.length) return { ok: false, errors };
  const doc = list.find((d) => isDocument(d) && d.contents !== null);
  if (!doc)
    return {
      ok: false,
      errors: [
        {
          file,
          line: 1,
          col: 1,
          path: "",
          message: "the file holds no scenario",
          severity: "error",
        },
      ],
    };
  const value: unknown = doc.toJS({ maxAliasCount: 1000 });
  const source: PolicySource = { file, text, doc, lines };
  const result = scenarioSchema.safeParse(value);
  if (result.success) return { ok: true, scenario: result.data };
  const at = (path: readonly PropertyKey[], key?: string) => locate(source, path, key);
  return { ok: false, errors: issueDiagnostics(result.error.issues, file, at) };
}

/** The check's problems as diagnostics, in the file's order; `at` places a path (or its key). */
function issueDiagnostics(
  issues: readonly z.core.$ZodIssue[],
  file: string,
  at: (path: readonly PropertyKey[], key?: string) => Position,
): Diagnostic[] {
  const errors = issues.map((issue): Diagnostic => {
    const path = issue.path as PropertyKey[];
    const unknown = issue.code === "unrecognized_keys" ? issue.keys : undefined;
    const where = unknown ? at(path, unknown[0] ?? "") : at(path);
    const message = unknown
      ? `unknown key${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `"${k}"`).join(", ")}`
      : issue.message;
    return { file, ...where, path: formatPath(path), message, severity: "error" };
  });
  return errors.sort((a, b) => a.line - b.line || a.col - b.col);
}

/** Validate a scenario given as an object (the generator's, or a test's). Throws on errors. */
export function scenarioFrom(input: ScenarioInput): Scenario {
  const r = scenarioSchema.safeParse(input);
  if (!r.success)
    throw new Error(
      r.error.issues.map((i) => `${formatPath(i.path as PropertyKey[])}: ${i.message}`).join("\n"),
    );
  return r.data;
}
