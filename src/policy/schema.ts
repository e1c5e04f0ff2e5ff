// The upgrade policy v1, as a zod schema: the single source of truth for validation, for the
// TypeScript types and (through json-schema.ts) for the JSON Schema editors use.
//
// Leaves are built with `leaf()` (leaves.ts): a check that says what was expected, plus the JSON
// Schema fragment that describes the same rule to an editor.
import * as z from "zod";
import { bool, budget, duration, leaf, oneOf, positiveInt, text } from "./leaves.js";
import { closest } from "./suggest.js";
import { CLOCK_PATTERN, DAYS, isTimeZone, type Day } from "./window.js";

export const API_VERSION = "noderoll.io/v1";
export const KIND = "UpgradePolicy";
export const ROLES = ["bastion", "control-plane", "apiserver", "node"] as const;
export type Role = (typeof ROLES)[number];
export { leafJsonSchema } from "./leaves.js";

/** EKS's update strategies for a managed node group (EKS API reference, NodegroupUpdateConfig). */
export const UPDATE_STRATEGIES = ["DEFAULT", "MINIMAL"] as const;
export type UpdateStrategy = (typeof UPDATE_STRATEGIES)[number];
/** What a drain does with running pods no controller owns (kubectl drain's --force). */
export const UNMANAGED_PODS = ["evict", "refuse"] as const;
export type UnmanagedPods = (typeof UNMANAGED_PODS)[number];

const clock = (description: string, example: string, extra = "") =>
  leaf<string>(
    (v) =>
      typeof v === "string" && new RegExp(CLOCK_PATTERN).test(v)
        ? undefined
        : `a quoted local time "HH:MM" from "00:00" to "23:59", such as "${example}"${extra}`,
    { type: "string", pattern: CLOCK_PATTERN, maxLength: 5, description },
  );

function kubernetesVersionProblem(v: unknown): string | undefined {
  if (typeof v === "string" && /^1\.\d{1,2}$/.test(v)) return undefined;
  if (typeof v === "number") {
    return 'a quoted Kubernetes minor version such as "1.33" (unquoted, YAML reads 1.30 as the number 1.3)';
  }
  if (typeof v === "string" && /^v?1\.\d{1,2}(\.\d+)?/.test(v)) {
    return 'a Kubernetes minor version without a patch number or "v", such as "1.33"';
  }
  return 'a quoted Kubernetes minor version such as "1.33"';
}

function timeZoneProblem(v: unknown): string | undefined {
  if (typeof v === "string" && isTimeZone(v)) return undefined;
  const guess = typeof v === "string" ? closest(v, Intl.supportedValuesOf("timeZone")) : undefined;
  return `an IANA time zone such as "Europe/Berlin" or "UTC"${guess ? ` (did you mean "${guess}"?)` : ""}`;
}

function launchTemplateVersionProblem(v: unknown): string | undefined {
  if (v === "$Latest" || v === "$Default") return undefined;
  if (typeof v === "number" && Number.isInteger(v) && v >= 1) return undefined;
  if (typeof v === "string" && /^[1-9]\d*$/.test(v)) return undefined;
  const guess = typeof v === "string" ? closest(v, ["$Latest", "$Default"]) : undefined;
  return `"$Latest", "$Default" or a version number >= 1${guess ? ` (did you mean "${guess}"?)` : ""}`;
}

export const ValidationSchema = z
  .strictObject({
    timeout: duration(
      "How long the cluster may take to validate after a node is replaced.",
      "15m",
    ).optional(),
    count: positiveInt(
      "Consecutive successful validations (10 s apart) needed to go on.",
      2,
    ).optional(),
  })
  .meta({
    description: "Cluster validation between nodes (kOps --validation-timeout / --validate-count).",
  });

/** What a failed gate does: stop where it is, or go back to what the groups ran before. */
export const ON_FAILURE = ["halt", "rollback"] as const;
export type OnFailure = (typeof ON_FAILURE)[number];
/** What an inconclusive gate (no data, signal unreachable) does. */
export const ON_INCONCLUSIVE = ["pause", "halt", "continue"] as const;
export type OnInconclusive = (typeof ON_INCONCLUSIVE)[number];

const checkpoint = leaf<string>(
  (v) =>
    typeof v === "string" && /^([1-9]|[1-9][0-9])%$/.test(v)
      ? undefined
      : 'a share of the group\'s nodes from "1%" to "99%", quoted, such as "50%"',
  { type: "string", pattern: "^([1-9]|[1-9][0-9])%$" },
);

const finite = (description: string) =>
  leaf<number>((v) => (typeof v === "number" && Number.isFinite(v) ? undefined : "a number"), {
    type: "number",
    description,
  });

export const PrometheusGateSchema = z
  .strictObject({
    name: text(
      "Names the gate in verdicts and the event log.",
      /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/,
      "a lower-case name of letters, digits and '-'",
      63,
    ),
    address: text(
      "The Prometheus HTTP API's base URL, such as http://prometheus.example.com:9090.",
      /^https?:\/\/[^\s]+$/,
      "an http:// or https:// URL",
      2048,
    ),
    query: text("A PromQL instant query that comes to one number.", /\S/, "a PromQL query", 4096),
    failAbove: finite("The gate fails when the query's value is above this.").optional(),
    failBelow: finite("The gate fails when the query's value is below this.").optional(),
  })
  .meta({ description: "A Prometheus instant query and the threshold it must keep." });

export const ReplacementsGateSchema = z
  .strictObject({
    readyWithin: duration(
      "A replacement node not Ready this long after its instance was first seen fails the gate.",
      "10m",
    ).optional(),
    crashLoopingPods: positiveInt(
      "Pods on replacement nodes waiting in CrashLoopBackOff or restarted twice or more, at or above this, fail the gate.",
      1,
    ).optional(),
  })
  .meta({ description: "The built-in gate on the replacements themselves (on by default)." });

export const GatesSchema = z
  .strictObject({
    bake: duration(
      "After each wave's replacements are Ready and validated, watch the gates this long before the next wave.",
      "0s",
    ).optional(),
    checkpoints: z
      .array(checkpoint, { error: 'expected a list of shares such as ["10%", "50%"]' })
      .optional()
      .meta({
        description:
          "After these shares of a group's nodes are replaced: pause (exit 3) until resumed, or wait checkpointDelay.",
      }),
    checkpointDelay: duration(
      "At a checkpoint, wait this long (gates watched) and go on instead of pausing.",
    ).optional(),
    alarms: z
      .array(text("A CloudWatch alarm name.", /\S/, "a CloudWatch alarm name", 255), {
        error: "expected a list of CloudWatch alarm names",
      })
      .optional()
      .meta({
        description: "CloudWatch alarms: ALARM fails the gate, INSUFFICIENT_DATA is inconclusive.",
      }),
    prometheus: z
      .array(PrometheusGateSchema, { error: "expected a list of Prometheus gates" })
      .optional(),
    replacements: ReplacementsGateSchema.optional(),
    onFailure: oneOf(
      ON_FAILURE,
      "What a failed gate does: halt the roll, or roll the groups this roll changed back to what they ran before.",
    ).optional(),
    onInconclusive: oneOf(
      ON_INCONCLUSIVE,
      "What an inconclusive gate does: pause (exit 3), halt, or continue.",
    ).optional(),
  })
  .meta({
    description:
      "Health gates: read during every wave and bake; a failed one halts the roll before the next cordon.",
  });

/** The roll settings, written under `defaults:` or a group's `rollingUpdate:`. */
export const RollingUpdateSchema = z
  .strictObject({
    maxUnavailable: budget(
      'Nodes that may be unavailable at once: an integer or "N%" of the group, rounded down (at least 1 for a percentage; at most 100 on a managed group). Default: 1 when maxSurge resolves to 0, else 0; managed groups: the live updateConfig.',
    ).optional(),
    maxSurge: budget(
      'Extra nodes launched before old ones go: an integer or "N%" of the group, rounded up, never more than the nodes that need update. Default 1 (self-managed); not settable on managed or control-plane groups.',
    ).optional(),
    deleteAfterDrainTimeout: bool(
      "At drainTimeout, delete the pods still on the node, past their PodDisruptionBudgets, and terminate it (EKS's force); false: the roll stops with PodEvictionFailure.",
      false,
    ).optional(),
    unmanagedPods: oneOf(
      UNMANAGED_PODS,
      "Running pods with no controller: evict (as kOps drains, with kubectl drain --force; nothing recreates them) or refuse (the group is blocked, as a plain kubectl drain refuses them).",
    ).optional(),
    postDrainDelay: duration(
      "Wait after a drain before terminating the instance.",
      "5s",
    ).optional(),
    drainTimeout: duration(
      "How long a drain may take before the roll stops with PodEvictionFailure (unless deleteAfterDrainTimeout).",
      "15m",
    ).optional(),
    interval: duration("Wait after a termination before validating the cluster.", "15s").optional(),
    validation: ValidationSchema.optional(),
    drainAndTerminate: bool(
      "false: only taint the nodes (and surge); do not drain or terminate.",
      true,
    ).optional(),
    maxNodeAge: duration("Nodes older than this are replaced too (optional).").optional(),
    spreadAcrossZones: bool("Replace nodes zone by zone in turn.", true).optional(),
    gates: GatesSchema.optional(),
    updateStrategy: oneOf(
      UPDATE_STRATEGIES,
      "Managed node groups: EKS's updateConfig.updateStrategy. DEFAULT launches new nodes first; MINIMAL terminates first and launches none ahead (for GPU or reserved capacity). Absent: the node group's live setting is kept.",
    ).optional(),
  })
  .meta({ description: "How nodes may be replaced." });

export const TargetSchema = z
  .strictObject({
    kubernetesVersion: leaf<string>(kubernetesVersionProblem, {
      type: "string",
      pattern: "^1\\.[0-9]{1,2}$",
      description: 'Kubernetes minor version, quoted, such as "1.33".',
    }).optional(),
    releaseVersion: text(
      'EKS AMI release version such as "1.33.0-20250704", or "latest".',
      /^(latest|\d+\.\d+\.\d+-[0-9a-z]+)$/,
      '"latest" or an EKS AMI release version such as "1.33.0-20250704"',
    ).optional(),
    launchTemplateVersion: leaf<string | number>(launchTemplateVersionProblem, {
      description: 'Launch template version: "$Latest", "$Default" or a number.',
      anyOf: [
        { type: "string", enum: ["$Latest", "$Default"] },
        { type: "integer", minimum: 1 },
        { type: "string", pattern: "^[1-9][0-9]*$" },
      ],
    }).optional(),
  })
  .meta({ description: "Desired state of the group; absent keys keep what is live." });

export const GroupSchema = z
  .strictObject({
    name: text(
      "EKS managed node group name, or Auto Scaling group name.",
      /^[A-Za-z0-9][A-Za-z0-9_.:/@-]*$/,
      "a node group or Auto Scaling group name (letters, digits and - _ . : / @)",
      255,
    ),
    role: oneOf(ROLES, "bastion | control-plane | apiserver | node (default node).").optional(),
    target: TargetSchema.optional(),
    rollingUpdate: RollingUpdateSchema.optional(),
  })
  .meta({ description: "One node group to roll." });

export const WindowSchema = z
  .strictObject({
    days: z
      .array(oneOf(DAYS, "Day of the week."), {
        error: "expected a list of days such as [Mon, Tue]",
      })
      .min(1, { error: "expected at least one day such as [Mon, Tue]" }),
    start: clock('Local start time "HH:MM".', "09:00"),
    end: clock(
      'Local end time "HH:MM"; at or before start means the next day.',
      "16:00",
      " (an end at or before the start ends the next day)",
    ),
    timeZone: leaf<string>(timeZoneProblem, {
      type: "string",
      description: 'IANA time zone such as "Europe/Berlin".',
    }),
  })
  .meta({
    description: "When apply may start replacing a node; an emergency dispatch may override it.",
  });

/** What a rehearsal assumes where the cluster cannot say (docs/rehearsal.md). */
export const REHEARSAL_TIMING_NAMES = [
  "boot",
  "bootJitter",
  "register",
  "nodeReady",
  "terminate",
  "nodeDelete",
  "podShutdown",
  "podStart",
  "podReady",
] as const;

export const RehearsalSchema = z
  .strictObject({
    timings: z
      .strictObject(
        Object.fromEntries(
          REHEARSAL_TIMING_NAMES.map((k) => [
            k,
            duration(`The rehearsal's ${k} timing (docs/rehearsal.md).`).optional(),
          ]),
        ) as Record<(typeof REHEARSAL_TIMING_NAMES)[number], z.ZodOptional<z.ZodType<string>>>,
      )
      .optional(),
  })
  .meta({
    description:
      "How a rehearsal (plan --rehearse) models this cluster where it cannot observe it: timings as durations.",
  });

export const PolicySchema = z
  .strictObject({
    apiVersion: leaf<typeof API_VERSION>(
      (v) => (v === API_VERSION ? undefined : `"${API_VERSION}"`),
      {
        const: API_VERSION,
      },
    ),
    kind: leaf<typeof KIND>((v) => (v === KIND ? undefined : `"${KIND}"`), { const: KIND }),
    metadata: z.strictObject({
      name: text(
        "Names the check run and the PR comment.",
        /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/,
        "a lower-case name of letters, digits and '-' (at most 63 characters)",
        63,
      ),
    }),
    cluster: z.strictObject({
      name: text(
        "EKS cluster name.",
        /^[0-9A-Za-z][A-Za-z0-9\-_]*$/,
        "an EKS cluster name (letters, digits, - and _)",
        100,
      ),
      region: text(
        "AWS region such as eu-west-1.",
        /^[a-z]{2}(-[a-z]+)+-\d+$/,
        "an AWS region such as eu-west-1",
        30,
      ),
    }),
    defaults: RollingUpdateSchema.optional(),
    window: WindowSchema.optional(),
    rehearsal: RehearsalSchema.optional(),
    order: z
      .array(
        text(
          "A role or a group name glob.",
          /^[A-Za-z0-9*?][A-Za-z0-9_.:/@*?-]*$/,
          "a role or a group name (globs * and ? allowed)",
        ),
        {
          error: "expected a list of roles or group names",
        },
      )
      .optional()
      .meta({
        description:
          "Roll order: roles or group-name globs. Default: bastion, control-plane, apiserver, node; alphabetical within.",
      }),
    groups: z
      .array(GroupSchema, { error: 'expected a list of groups, each starting with "- name: "' })
      .min(1, { error: "expected at least one group" }),
  })
  .meta({
    title: "noderoll UpgradePolicy v1",
    description: "How noderoll may replace the worker nodes of one cluster.",
  });

export type Policy = z.infer<typeof PolicySchema>;
export type Group = z.infer<typeof GroupSchema>;
export type RollingUpdate = z.infer<typeof RollingUpdateSchema>;
export type Target = z.infer<typeof TargetSchema>;
export type Gates = z.infer<typeof GatesSchema>;
export type { Day };
