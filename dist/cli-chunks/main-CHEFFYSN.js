#!/usr/bin/env node
import { createRequire as __noderollCreateRequire } from 'node:module';
const require = __noderollCreateRequire(import.meta.url);
import {
  ATTEMPTS,
  EventLog,
  PAGE_SIZE,
  PHASES,
  controllerOf,
  eachPage,
  hasReadyCondition,
  hasUnknownReadyCondition,
  instanceIdOf,
  isFinished,
  isMirrorPod,
  isReady,
  isUnreachable,
  listAll,
  noBudgetHeld,
  pageOf,
  resilient
} from "./chunk-RWIZRWEH.js";
import {
  Account,
  DURATION_PATTERN,
  MAX_POLICY_BYTES,
  NOT_A_POLICY,
  Random,
  World,
  ZodArray,
  ZodDefault,
  ZodObject,
  ZodOptional,
  array,
  byPosition,
  custom,
  demoScenario,
  diagnostic,
  formatCpu,
  formatDiagnostic,
  formatDuration,
  formatMemory,
  formatPath,
  locate,
  matchesSelector,
  never,
  parseCpu,
  parseDuration,
  parseMemory,
  parsePolicySource,
  require_dist,
  scenarioJson,
  scenarioScale,
  sizeMessage,
  strictObject,
  toJSONSchema,
  uncheckedScale,
  v8FlagGiven
} from "./chunk-7673KOSF.js";
import {
  ApiCallError,
  AwsApiError,
  KubeApiError,
  SETTLED,
  abortError,
  asNetworkError,
  derived,
  describeFailure,
  isDenied,
  isLostAnswer,
  isTryLater,
  monotonicMs,
  retryAfterMs
} from "./chunk-LBZ2K6WI.js";
import {
  __toESM
} from "./chunk-AGAY6SFC.js";

// src/policy/budget.ts
var PERCENT_PATTERN = "^(100|[1-9]?[0-9])%$";
var PERCENT = new RegExp(PERCENT_PATTERN);
var KOPS_DEFAULTS = {
  maxSurge: 1,
  deleteAfterDrainTimeout: false,
  /** kOps drains with kubectl's Force (pkg/instancegroups, drainNode: drain.Helper{Force: true}). */
  unmanagedPods: "evict",
  postDrainDelay: "5s",
  drainTimeout: "15m",
  interval: "15s",
  validation: { timeout: "15m", count: 2 },
  drainAndTerminate: true,
  spreadAcrossZones: true
};
var VALIDATION_PERIOD_MS = 1e4;
function isPercent(value) {
  return typeof value === "string";
}
function percentOf(value) {
  return Number(value.slice(0, -1));
}
function budgetProblem(value) {
  if (typeof value === "number") {
    if (!Number.isInteger(value)) return "a whole number of nodes";
    if (value < 0) return 'an integer >= 0 or a percentage such as "25%"';
    return void 0;
  }
  if (typeof value === "string") {
    if (PERCENT.test(value)) return void 0;
    if (/^\d+\s+%$/.test(value)) return 'a percentage written without a space, such as "25%"';
    const m = /^(-?\d+(?:\.\d+)?)\s*%$/.exec(value);
    if (m) return "a whole percentage from 0% to 100%";
    if (/^\d+$/.test(value)) return "a number, not a string (write it without quotes)";
    return 'an integer >= 0 or a percentage such as "25%"';
  }
  return 'an integer >= 0 or a percentage such as "25%"';
}
function surgeOf(value, groupSize) {
  return isPercent(value) ? Math.ceil(percentOf(value) * groupSize / 100) : value;
}
function resolveSurge(value, groupSize, needUpdate) {
  return Math.max(0, Math.min(surgeOf(value, groupSize), needUpdate));
}
function roundedDown(value, groupSize) {
  return Math.floor(percentOf(value) * groupSize / 100);
}
function resolveUnavailable(value, groupSize) {
  if (!isPercent(value)) return value;
  return Math.max(1, roundedDown(value, groupSize));
}
function surgesNever(value) {
  return value === 0 || value === "0%";
}
function defaultUnavailable(surgeIsZero) {
  return surgeIsZero ? 1 : 0;
}
function rollWindow(budgets) {
  return Math.max(1, budgets.maxSurge + budgets.maxUnavailable);
}
function describeBudget(value, size, rounding, result) {
  if (!isPercent(value)) return `${value}`;
  return `${value} of ${size} node${size === 1 ? "" : "s"}, rounded ${rounding} = ${result}`;
}

// src/policy/gates.ts
var GATE_DEFAULTS = {
  bake: "0s",
  readyWithin: "10m",
  crashLoopingPods: 1,
  onFailure: "halt",
  onInconclusive: "pause"
};
function mergeGates(defaults, own) {
  return {
    ...defaults,
    ...own,
    replacements: { ...defaults?.replacements, ...own?.replacements }
  };
}
var percent = (p) => Number(p.slice(0, -1)) / 100;
function gateSettings(g) {
  const checkpoints = [...new Set((g.checkpoints ?? []).map(percent))].sort((a, b) => a - b);
  return {
    bakeMs: parseDuration(g.bake ?? GATE_DEFAULTS.bake),
    checkpoints,
    ...g.checkpointDelay !== void 0 && {
      checkpointDelayMs: parseDuration(g.checkpointDelay)
    },
    alarms: [...new Set(g.alarms ?? [])],
    prometheus: (g.prometheus ?? []).flatMap((p) => {
      const fail = p.failAbove !== void 0 ? { above: p.failAbove } : p.failBelow !== void 0 ? { below: p.failBelow } : void 0;
      return fail ? [{ name: p.name, address: p.address, query: p.query, fail }] : [];
    }),
    replacements: {
      readyWithinMs: parseDuration(
        g.replacements?.readyWithin ?? GATE_DEFAULTS.readyWithin
      ),
      crashLoopingPods: g.replacements?.crashLoopingPods ?? GATE_DEFAULTS.crashLoopingPods
    },
    onFailure: g.onFailure ?? GATE_DEFAULTS.onFailure,
    onInconclusive: g.onInconclusive ?? GATE_DEFAULTS.onInconclusive
  };
}
function gateProblems(g, checkpoints) {
  if (!g) return [];
  const problems = [];
  const seen3 = /* @__PURE__ */ new Set();
  (g.prometheus ?? []).forEach((p, i) => {
    if (!p) return;
    const both = p.failAbove !== void 0 && p.failBelow !== void 0;
    if (both || p.failAbove === void 0 && p.failBelow === void 0)
      problems.push({
        path: ["prometheus", i],
        message: `Prometheus gate "${p.name}" needs exactly one threshold: failAbove or failBelow`,
        ...both && { key: "failBelow" }
      });
    if (seen3.has(p.name))
      problems.push({
        path: ["prometheus", i],
        key: "name",
        message: `Prometheus gate "${p.name}" is listed twice; give each gate its own name`
      });
    seen3.add(p.name);
  });
  if (g.checkpointDelay !== void 0 && !checkpoints)
    problems.push({
      path: [],
      key: "checkpointDelay",
      message: "checkpointDelay is set but there are no checkpoints; add checkpoints or remove it"
    });
  return problems;
}
function policySignals(policy) {
  const all = policy.groups.map(
    (g) => gateSettings(mergeGates(policy.defaults?.gates, g.rollingUpdate?.gates))
  );
  const prometheus = new Map(all.flatMap((s) => s.prometheus).map((p) => [p.name, p]));
  return {
    alarms: [...new Set(all.flatMap((s) => s.alarms))],
    prometheus: [...prometheus.values()]
  };
}

// src/policy/suggest.ts
function distance(a, b) {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d = Array.from(
    { length: rows },
    (_, i) => Array.from({ length: cols }, (_2, j) => i === 0 ? j : j === 0 ? i : 0)
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i];
      const prev = d[i - 1];
      row[j] = Math.min(
        prev[j] + 1,
        row[j - 1] + 1,
        prev[j - 1] + cost
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}
function closest(word, candidates) {
  const lower = word.toLowerCase();
  let best;
  let bestScore = Infinity;
  for (const c of candidates) {
    const score = distance(lower, c.toLowerCase());
    if (score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  const allowed = Math.max(1, Math.floor(Math.min(word.length, 12) / 3));
  return bestScore <= allowed ? best : void 0;
}

// src/policy/leaves.ts
var LEAF_JSON = /* @__PURE__ */ Symbol("leafJsonSchema");
function leafJsonSchema(schema) {
  return schema?.[LEAF_JSON];
}
function leaf(problem, json) {
  const schema = custom((v) => problem(v) === void 0, {
    error: (iss) => `expected ${problem(iss.input) ?? "a valid value"}`
  });
  return Object.assign(schema, { [LEAF_JSON]: json });
}
var isBool = (v) => typeof v === "boolean" ? void 0 : "true or false";
var budget = (description) => leaf(budgetProblem, {
  description,
  anyOf: [
    { type: "integer", minimum: 0 },
    { type: "string", pattern: PERCENT_PATTERN }
  ]
});
var duration = (description, defaultValue) => leaf(
  (v) => typeof v === "string" && parseDuration(v) !== void 0 ? void 0 : 'a duration such as "90s", "15m", "1h30m" or "30d"' + (typeof v === "number" ? " (a number needs a unit)" : ""),
  {
    type: "string",
    pattern: DURATION_PATTERN,
    description,
    ...defaultValue && { default: defaultValue }
  }
);
var bool = (description, defaultValue) => leaf(isBool, {
  type: "boolean",
  description,
  ...defaultValue !== void 0 && { default: defaultValue }
});
var positiveInt = (description, defaultValue) => leaf(
  (v) => typeof v === "number" && Number.isInteger(v) && v >= 1 ? void 0 : "a whole number >= 1",
  { type: "integer", minimum: 1, description, default: defaultValue }
);
var text = (description, pattern, expected, maxLength = 253) => leaf(
  (v) => typeof v === "string" && v.length <= maxLength && pattern.test(v) ? void 0 : expected,
  { type: "string", pattern: pattern.source, maxLength, description }
);
var oneOf = (values, description) => leaf(
  (v) => {
    if (typeof v === "string" && values.includes(v)) return void 0;
    const guess = typeof v === "string" ? closest(v, values) ?? values.find((x) => v.toLowerCase().startsWith(x.toLowerCase())) : void 0;
    const hint = guess ? ` (did you mean "${guess}"?)` : "";
    return `one of ${values.map((x) => JSON.stringify(x)).join(", ")}${hint}`;
  },
  { type: "string", enum: values, description }
);

// src/policy/window.ts
var DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
var CLOCK_PATTERN = "^([01][0-9]|2[0-3]):[0-5][0-9]$";
function isTimeZone(name) {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
function clockMinutes(hhmm) {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}
function windowClock(window) {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone: window.timeZone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23"
  });
  const localTime = (at5) => {
    const parts = format.formatToParts(at5);
    const get = (type) => parts.find((p) => p.type === type)?.value ?? "";
    return {
      day: DAYS.indexOf(get("weekday")),
      minutes: Number(get("hour")) * 60 + Number(get("minute"))
    };
  };
  const start = clockMinutes(window.start);
  const end = clockMinutes(window.end);
  const allowed = (d) => window.days.includes(DAYS[(d + 7) % 7]);
  const isOpen = (at5) => {
    const { day, minutes } = localTime(at5);
    if (start < end) return allowed(day) && minutes >= start && minutes < end;
    return allowed(day) && minutes >= start || allowed(day - 1) && minutes < end;
  };
  return {
    isOpen,
    nextOpening(from) {
      if (isOpen(from)) return from;
      const minute = 6e4;
      const first = Math.ceil(from.getTime() / minute) * minute;
      for (let t = first; t <= first + 15 * 864e5; t += minute) {
        if (isOpen(new Date(t))) return new Date(t);
      }
      return void 0;
    }
  };
}
function isWindowOpen(window, at5) {
  return windowClock(window).isOpen(at5);
}
function nextWindowOpening(window, from) {
  return windowClock(window).nextOpening(from);
}
function wallClock(at5, timeZone) {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23"
  }).formatToParts(at5);
  const p = Object.fromEntries(parts.map((x) => [x.type, x.value]));
  return `${p.weekday} ${p.day} ${p.month} ${p.hour}:${p.minute} ${timeZone}`;
}

// src/policy/schema.ts
var API_VERSION = "noderoll.io/v1";
var KIND = "UpgradePolicy";
var ROLES = ["bastion", "control-plane", "apiserver", "node"];
var UPDATE_STRATEGIES = ["DEFAULT", "MINIMAL"];
var UNMANAGED_PODS = ["evict", "refuse"];
var clock = (description, example, extra = "") => leaf(
  (v) => typeof v === "string" && new RegExp(CLOCK_PATTERN).test(v) ? void 0 : `a quoted local time "HH:MM" from "00:00" to "23:59", such as "${example}"${extra}`,
  { type: "string", pattern: CLOCK_PATTERN, maxLength: 5, description }
);
function kubernetesVersionProblem(v) {
  if (typeof v === "string" && /^1\.\d{1,2}$/.test(v)) return void 0;
  if (typeof v === "number") {
    return 'a quoted Kubernetes minor version such as "1.33" (unquoted, YAML reads 1.30 as the number 1.3)';
  }
  if (typeof v === "string" && /^v?1\.\d{1,2}(\.\d+)?/.test(v)) {
    return 'a Kubernetes minor version without a patch number or "v", such as "1.33"';
  }
  return 'a quoted Kubernetes minor version such as "1.33"';
}
function timeZoneProblem(v) {
  if (typeof v === "string" && isTimeZone(v)) return void 0;
  const guess = typeof v === "string" ? closest(v, Intl.supportedValuesOf("timeZone")) : void 0;
  return `an IANA time zone such as "Europe/Berlin" or "UTC"${guess ? ` (did you mean "${guess}"?)` : ""}`;
}
function launchTemplateVersionProblem(v) {
  if (v === "$Latest" || v === "$Default") return void 0;
  if (typeof v === "number" && Number.isInteger(v) && v >= 1) return void 0;
  if (typeof v === "string" && /^[1-9]\d*$/.test(v)) return void 0;
  const guess = typeof v === "string" ? closest(v, ["$Latest", "$Default"]) : void 0;
  return `"$Latest", "$Default" or a version number >= 1${guess ? ` (did you mean "${guess}"?)` : ""}`;
}
var ValidationSchema = strictObject({
  timeout: duration(
    "How long the cluster may take to validate after a node is replaced.",
    "15m"
  ).optional(),
  count: positiveInt(
    "Consecutive successful validations (10 s apart) needed to go on.",
    2
  ).optional()
}).meta({
  description: "Cluster validation between nodes (kOps --validation-timeout / --validate-count)."
});
var ON_FAILURE = ["halt", "rollback"];
var ON_INCONCLUSIVE = ["pause", "halt", "continue"];
var checkpoint = leaf(
  (v) => typeof v === "string" && /^([1-9]|[1-9][0-9])%$/.test(v) ? void 0 : `a share of the group's nodes from "1%" to "99%", quoted, such as "50%"`,
  { type: "string", pattern: "^([1-9]|[1-9][0-9])%$" }
);
var finite = (description) => leaf((v) => typeof v === "number" && Number.isFinite(v) ? void 0 : "a number", {
  type: "number",
  description
});
var PrometheusGateSchema = strictObject({
  name: text(
    "Names the gate in verdicts and the event log.",
    /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/,
    "a lower-case name of letters, digits and '-'",
    63
  ),
  address: text(
    "The Prometheus HTTP API's base URL, such as http://prometheus.example.com:9090.",
    /^https?:\/\/[^\s]+$/,
    "an http:// or https:// URL",
    2048
  ),
  query: text("A PromQL instant query that comes to one number.", /\S/, "a PromQL query", 4096),
  failAbove: finite("The gate fails when the query's value is above this.").optional(),
  failBelow: finite("The gate fails when the query's value is below this.").optional()
}).meta({ description: "A Prometheus instant query and the threshold it must keep." });
var ReplacementsGateSchema = strictObject({
  readyWithin: duration(
    "A replacement node not Ready this long after its instance was first seen fails the gate.",
    "10m"
  ).optional(),
  crashLoopingPods: positiveInt(
    "Pods on replacement nodes waiting in CrashLoopBackOff or restarted twice or more, at or above this, fail the gate.",
    1
  ).optional()
}).meta({ description: "The built-in gate on the replacements themselves (on by default)." });
var GatesSchema = strictObject({
  bake: duration(
    "After each wave's replacements are Ready and validated, watch the gates this long before the next wave.",
    "0s"
  ).optional(),
  checkpoints: array(checkpoint, { error: 'expected a list of shares such as ["10%", "50%"]' }).optional().meta({
    description: "After these shares of a group's nodes are replaced: pause (exit 3) until resumed, or wait checkpointDelay."
  }),
  checkpointDelay: duration(
    "At a checkpoint, wait this long (gates watched) and go on instead of pausing."
  ).optional(),
  alarms: array(text("A CloudWatch alarm name.", /\S/, "a CloudWatch alarm name", 255), {
    error: "expected a list of CloudWatch alarm names"
  }).optional().meta({
    description: "CloudWatch alarms: ALARM fails the gate, INSUFFICIENT_DATA is inconclusive."
  }),
  prometheus: array(PrometheusGateSchema, { error: "expected a list of Prometheus gates" }).optional(),
  replacements: ReplacementsGateSchema.optional(),
  onFailure: oneOf(
    ON_FAILURE,
    "What a failed gate does: halt the roll, or roll the groups this roll changed back to what they ran before."
  ).optional(),
  onInconclusive: oneOf(
    ON_INCONCLUSIVE,
    "What an inconclusive gate does: pause (exit 3), halt, or continue."
  ).optional()
}).meta({
  description: "Health gates: read during every wave and bake; a failed one halts the roll before the next cordon."
});
var RollingUpdateSchema = strictObject({
  maxUnavailable: budget(
    'Nodes that may be unavailable at once: an integer or "N%" of the group, rounded down (at least 1 for a percentage; at most 100 on a managed group). Default: 1 when maxSurge resolves to 0, else 0; managed groups: the live updateConfig.'
  ).optional(),
  maxSurge: budget(
    'Extra nodes launched before old ones go: an integer or "N%" of the group, rounded up, never more than the nodes that need update. Default 1 (self-managed); not settable on managed or control-plane groups.'
  ).optional(),
  deleteAfterDrainTimeout: bool(
    "At drainTimeout, delete the pods still on the node, past their PodDisruptionBudgets, and terminate it (EKS's force); false: the roll stops with PodEvictionFailure.",
    false
  ).optional(),
  unmanagedPods: oneOf(
    UNMANAGED_PODS,
    "Running pods with no controller: evict (as kOps drains, with kubectl drain --force; nothing recreates them) or refuse (the group is blocked, as a plain kubectl drain refuses them)."
  ).optional(),
  postDrainDelay: duration(
    "Wait after a drain before terminating the instance.",
    "5s"
  ).optional(),
  drainTimeout: duration(
    "How long a drain may take before the roll stops with PodEvictionFailure (unless deleteAfterDrainTimeout).",
    "15m"
  ).optional(),
  interval: duration("Wait after a termination before validating the cluster.", "15s").optional(),
  validation: ValidationSchema.optional(),
  drainAndTerminate: bool(
    "false: only taint the nodes (and surge); do not drain or terminate.",
    true
  ).optional(),
  maxNodeAge: duration("Nodes older than this are replaced too (optional).").optional(),
  spreadAcrossZones: bool("Replace nodes zone by zone in turn.", true).optional(),
  gates: GatesSchema.optional(),
  updateStrategy: oneOf(
    UPDATE_STRATEGIES,
    "Managed node groups: EKS's updateConfig.updateStrategy. DEFAULT launches new nodes first; MINIMAL terminates first and launches none ahead (for GPU or reserved capacity). Absent: the node group's live setting is kept."
  ).optional()
}).meta({ description: "How nodes may be replaced." });
var TargetSchema = strictObject({
  kubernetesVersion: leaf(kubernetesVersionProblem, {
    type: "string",
    pattern: "^1\\.[0-9]{1,2}$",
    description: 'Kubernetes minor version, quoted, such as "1.33".'
  }).optional(),
  releaseVersion: text(
    'EKS AMI release version such as "1.33.0-20250704", or "latest".',
    /^(latest|\d+\.\d+\.\d+-[0-9a-z]+)$/,
    '"latest" or an EKS AMI release version such as "1.33.0-20250704"'
  ).optional(),
  launchTemplateVersion: leaf(launchTemplateVersionProblem, {
    description: 'Launch template version: "$Latest", "$Default" or a number.',
    anyOf: [
      { type: "string", enum: ["$Latest", "$Default"] },
      { type: "integer", minimum: 1 },
      { type: "string", pattern: "^[1-9][0-9]*$" }
    ]
  }).optional()
}).meta({ description: "Desired state of the group; absent keys keep what is live." });
var GroupSchema = strictObject({
  name: text(
    "EKS managed node group name, or Auto Scaling group name.",
    /^[A-Za-z0-9][A-Za-z0-9_.:/@-]*$/,
    "a node group or Auto Scaling group name (letters, digits and - _ . : / @)",
    255
  ),
  role: oneOf(ROLES, "bastion | control-plane | apiserver | node (default node).").optional(),
  target: TargetSchema.optional(),
  rollingUpdate: RollingUpdateSchema.optional()
}).meta({ description: "One node group to roll." });
var WindowSchema = strictObject({
  days: array(oneOf(DAYS, "Day of the week."), {
    error: "expected a list of days such as [Mon, Tue]"
  }).min(1, { error: "expected at least one day such as [Mon, Tue]" }),
  start: clock('Local start time "HH:MM".', "09:00"),
  end: clock(
    'Local end time "HH:MM"; at or before start means the next day.',
    "16:00",
    " (an end at or before the start ends the next day)"
  ),
  timeZone: leaf(timeZoneProblem, {
    type: "string",
    description: 'IANA time zone such as "Europe/Berlin".'
  })
}).meta({
  description: "When apply may start replacing a node; an emergency dispatch may override it."
});
var REHEARSAL_TIMING_NAMES = [
  "boot",
  "bootJitter",
  "register",
  "nodeReady",
  "terminate",
  "nodeDelete",
  "podShutdown",
  "podStart",
  "podReady"
];
var RehearsalSchema = strictObject({
  timings: strictObject(
    Object.fromEntries(
      REHEARSAL_TIMING_NAMES.map((k) => [
        k,
        duration(`The rehearsal's ${k} timing (docs/rehearsal.md).`).optional()
      ])
    )
  ).optional()
}).meta({
  description: "How a rehearsal (plan --rehearse) models this cluster where it cannot observe it: timings as durations."
});
var PolicySchema = strictObject({
  apiVersion: leaf(
    (v) => v === API_VERSION ? void 0 : `"${API_VERSION}"`,
    {
      const: API_VERSION
    }
  ),
  kind: leaf((v) => v === KIND ? void 0 : `"${KIND}"`, { const: KIND }),
  metadata: strictObject({
    name: text(
      "Names the check run and the PR comment.",
      /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/,
      "a lower-case name of letters, digits and '-' (at most 63 characters)",
      63
    )
  }),
  cluster: strictObject({
    name: text(
      "EKS cluster name.",
      /^[0-9A-Za-z][A-Za-z0-9\-_]*$/,
      "an EKS cluster name (letters, digits, - and _)",
      100
    ),
    region: text(
      "AWS region such as eu-west-1.",
      /^[a-z]{2}(-[a-z]+)+-\d+$/,
      "an AWS region such as eu-west-1",
      30
    )
  }),
  defaults: RollingUpdateSchema.optional(),
  window: WindowSchema.optional(),
  rehearsal: RehearsalSchema.optional(),
  order: array(
    text(
      "A role or a group name glob.",
      /^[A-Za-z0-9*?][A-Za-z0-9_.:/@*?-]*$/,
      "a role or a group name (globs * and ? allowed)"
    ),
    {
      error: "expected a list of roles or group names"
    }
  ).optional().meta({
    description: "Roll order: roles or group-name globs. Default: bastion, control-plane, apiserver, node; alphabetical within."
  }),
  groups: array(GroupSchema, { error: 'expected a list of groups, each starting with "- name: "' }).min(1, { error: "expected at least one group" })
}).meta({
  title: "noderoll UpgradePolicy v1",
  description: "How noderoll may replace the worker nodes of one cluster."
});

// src/policy/json-schema.ts
var SCHEMA_URL = "https://raw.githubusercontent.com/octo-org/noderoll/v1/policies/upgrade-policy.schema.json";
function policyJsonSchema() {
  const schema = toJSONSchema(PolicySchema, {
    target: "draft-7",
    unrepresentable: "any",
    override: (ctx) => {
      const fragment = leafJsonSchema(ctx.zodSchema);
      if (fragment) Object.assign(ctx.jsonSchema, fragment);
    }
  });
  return { ...schema, $id: SCHEMA_URL };
}
function policyJsonSchemaText() {
  return `${JSON.stringify(policyJsonSchema(), null, 2)}
`;
}

// src/policy/order.ts
var DEFAULT_ORDER = ROLES;
function globToRegExp(glob) {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${escaped}$`);
}
function entryMatches(entry, group3) {
  if (ROLES.includes(entry)) return group3.role === entry;
  return globToRegExp(entry).test(group3.name);
}
function rank(order, group3) {
  const i = order.findIndex((entry) => entryMatches(entry, group3));
  return i >= 0 ? [i, 0] : [order.length, ROLES.indexOf(group3.role)];
}
function orderGroups(groups2, order = DEFAULT_ORDER) {
  return [...groups2].sort((a, b) => {
    const [ra, sa] = rank(order, a);
    const [rb, sb] = rank(order, b);
    return ra - rb || sa - sb || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  });
}

// src/policy/resolve.ts
function writtenSettings(policy, group3) {
  const own = group3.rollingUpdate ?? {};
  const defaults = policy.defaults ?? {};
  return {
    role: group3.role ?? "node",
    own,
    defaults,
    merged: {
      ...defaults,
      ...own,
      validation: { ...defaults.validation, ...own.validation },
      gates: mergeGates(defaults.gates, own.gates)
    }
  };
}
var ms = (d, fallback) => parseDuration(d ?? fallback);
function rollSettings(m) {
  return {
    deleteAfterDrainTimeout: m.deleteAfterDrainTimeout ?? KOPS_DEFAULTS.deleteAfterDrainTimeout,
    unmanagedPods: m.unmanagedPods ?? KOPS_DEFAULTS.unmanagedPods,
    postDrainDelayMs: ms(m.postDrainDelay, KOPS_DEFAULTS.postDrainDelay),
    drainTimeoutMs: ms(m.drainTimeout, KOPS_DEFAULTS.drainTimeout),
    intervalMs: ms(m.interval, KOPS_DEFAULTS.interval),
    validation: {
      timeoutMs: ms(m.validation?.timeout, KOPS_DEFAULTS.validation.timeout),
      count: m.validation?.count ?? KOPS_DEFAULTS.validation.count
    },
    drainAndTerminate: m.drainAndTerminate ?? KOPS_DEFAULTS.drainAndTerminate,
    ...m.maxNodeAge !== void 0 && { maxNodeAgeMs: parseDuration(m.maxNodeAge) },
    spreadAcrossZones: m.spreadAcrossZones ?? KOPS_DEFAULTS.spreadAcrossZones,
    ...m.updateStrategy && { updateStrategy: m.updateStrategy },
    gates: gateSettings(m.gates ?? {})
  };
}

// src/policy/describe.ts
function describeValue(value) {
  if (value === void 0) return "nothing";
  if (value === null) return "an empty value (null)";
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") {
    const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === "number") return `the number ${value}`;
  if (typeof value === "boolean") return `the boolean ${value}`;
  return String(value);
}

// src/policy/issues.ts
function shapeDiagnostics(lang, issues, root, at5) {
  return withoutMissingTypos(issues.flatMap((issue) => issueDiagnostics(lang, issue, root, at5)));
}
function valueAt(root, path) {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== "object" || !(key in node))
      return { present: false, value: void 0 };
    node = node[key];
  }
  return { present: true, value: node };
}
function knownKeys(root, path) {
  let schema = root;
  for (const key of path) {
    schema = unwrap(schema);
    if (schema instanceof ZodObject)
      schema = schema.shape[String(key)] ?? never();
    else if (schema instanceof ZodArray) schema = schema.element;
    else return [];
  }
  schema = unwrap(schema);
  return schema instanceof ZodObject ? Object.keys(schema.shape) : [];
}
function unwrap(schema) {
  let s = schema;
  while (s instanceof ZodOptional || s instanceof ZodDefault) s = s.unwrap();
  return s;
}
function missingKeyMessage(lang, key) {
  const hint = lang.missingHints[key];
  return `missing required key "${key}"${hint ? `; ${hint}` : ""}`;
}
function unknownKeyMessage(lang, path, key) {
  const renamed = lang.renamed?.[key];
  if (renamed && path.at(-1) !== "metadata") return renamed;
  if (key === "<<") {
    return 'YAML merge keys ("<<") are not supported; repeat the settings, or put shared ones under "defaults:"';
  }
  const keys = knownKeys(lang.schema, path);
  const guess = closest(key, keys);
  if (guess) return `unknown key "${key}"; did you mean "${guess}"?`;
  for (const parent of keys) {
    const nested = knownKeys(lang.schema, [...path, parent]);
    if (nested.includes(key)) return `unknown key "${key}" here; it belongs under "${parent}:"`;
  }
  return `unknown key "${key}"; expected one of: ${keys.join(", ")}`;
}
function issueDiagnostics(lang, issue, root, at5) {
  const path = issue.path;
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => at5(path, unknownKeyMessage(lang, path, key), key));
  }
  const found2 = valueAt(root, path);
  if (!found2.present) {
    const key = String(path[path.length - 1]);
    return [at5(path.slice(0, -1), missingKeyMessage(lang, key))];
  }
  if (found2.value === null && path.length > 0) {
    const key = String(path[path.length - 1]);
    const what = issue.message.startsWith("expected ") ? issue.message : issue.code === "invalid_type" && issue.expected === "object" ? "expected a mapping of keys" : issue.code === "invalid_type" && issue.expected === "array" ? "expected a list" : "expected a value";
    return [
      at5(
        path.slice(0, -1),
        `${what}, found an empty value; indent its keys under it, or remove the line`,
        key
      )
    ];
  }
  if (issue.code === "invalid_type" && (issue.expected === "object" || issue.expected === "array")) {
    const what = issue.expected === "object" ? "a mapping of keys" : "a list";
    const custom2 = issue.message.startsWith("expected ") ? issue.message : `expected ${what}`;
    const hint = issue.expected === "object" && Array.isArray(found2.value) ? ' (write its keys without a leading "- ")' : "";
    return [at5(path, `${custom2}, found ${describeValue(found2.value)}${hint}`)];
  }
  const expected = issue.message.startsWith("expected ") ? issue.message : `expected a valid value (${issue.message})`;
  return [at5(path, `${expected}, found ${describeValue(found2.value)}`)];
}
function withoutMissingTypos(list3) {
  const meant = /* @__PURE__ */ new Set();
  for (const d of list3) {
    const m = /did you mean "([^"]+)"\?$/.exec(d.message);
    if (m && d.path.includes(".")) meant.add(`${d.path.slice(0, d.path.lastIndexOf("."))}.${m[1]}`);
    else if (m) meant.add(m[1]);
  }
  return list3.filter((d) => {
    const m = /^missing required key "([^"]+)"/.exec(d.message);
    return !m || !meant.has(d.path ? `${d.path}.${m[1]}` : m[1]);
  });
}
function dedupe(list3) {
  const seen3 = /* @__PURE__ */ new Set();
  return list3.filter((d) => {
    const k = `${d.line}:${d.col}:${d.message}`;
    if (seen3.has(k)) return false;
    seen3.add(k);
    return true;
  });
}
function repeatedNames(names2, path, what, at5) {
  const first = /* @__PURE__ */ new Map();
  return names2.flatMap((name, i) => {
    if (name === void 0) return [];
    const seen3 = first.get(name);
    if (seen3 === void 0) {
      first.set(name, i);
      return [];
    }
    const line = at5([...path, seen3, "name"], "").line;
    return [
      at5(
        [...path, i, "name"],
        `${what} "${name}" is listed twice (also at line ${line}); rename or remove one`
      )
    ];
  });
}
function locator(file, source) {
  return (path, message, key, severity = "error") => diagnostic({
    file,
    ...locate(source, path, key),
    path: formatPath(key !== void 0 ? [...path, key] : path),
    message,
    severity
  });
}

// src/policy/validate.ts
var isZeroBudget = (b) => isPercent(b) ? percentOf(b) === 0 : b === 0;
function isPolicyShaped(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const v = value;
  return typeof v.apiVersion === "string" && v.apiVersion.startsWith("noderoll.io/") || v.kind === KIND;
}
var OTHER_KINDS = {
  Fleet: "this is a Fleet (a release promoted across clusters), not an UpgradePolicy: plan and apply it with noderoll fleet plan|apply --fleet FILE; validate checks it with its policies",
  SandboxScenario: "this is a SandboxScenario (a sandbox cluster), not an UpgradePolicy: validate takes policies; a scenario is checked when it is loaded (plan or apply --sandbox FILE, sandbox serve --scenario FILE)"
};
function loadPolicy(text3, file) {
  const parsed = parsePolicySource(text3, file);
  if (!parsed.ok) return { ok: false, errors: parsed.errors, warnings: [] };
  const { source, value } = parsed;
  const at5 = locator(file, source);
  if (!isPolicyShaped(value)) {
    const listed2 = Array.isArray(value) && value.some(isPolicyShaped);
    const message = listed2 ? 'expected a mapping that starts with "apiVersion: noderoll.io/v1", found a list (write the keys without a leading "- ")' : NOT_A_POLICY;
    return { ok: false, errors: [at5([], message)], warnings: [] };
  }
  const kind = value.kind;
  if (typeof kind === "string" && kind !== KIND && kind in OTHER_KINDS)
    return {
      ok: false,
      errors: [at5([], OTHER_KINDS[kind], "kind")],
      warnings: []
    };
  const result = PolicySchema.safeParse(value, { reportInput: true });
  if (!result.success) {
    const shapeErrors = shapeDiagnostics(POLICY_LANGUAGE, result.error.issues, value, at5);
    const ruleErrors = checkPolicy(wellFormedParts(value), at5).errors;
    return {
      ok: false,
      errors: dedupe([...shapeErrors, ...ruleErrors]).sort(byPosition),
      warnings: []
    };
  }
  const { errors, warnings } = checkPolicy(result.data, at5);
  if (errors.length > 0)
    return { ok: false, errors: errors.sort(byPosition), warnings: warnings.sort(byPosition) };
  return { ok: true, policy: result.data, source, warnings: warnings.sort(byPosition) };
}
var MISSING_HINT = {
  apiVersion: 'add "apiVersion: noderoll.io/v1"',
  kind: 'add "kind: UpgradePolicy"',
  metadata: 'add "metadata:" with a "name:" under it',
  cluster: 'add "cluster:" with "name:" and "region:" under it',
  groups: 'add "groups:" with at least one "- name: …"',
  name: 'add "name:"',
  region: 'add "region:", such as eu-west-1',
  days: 'add "days:", such as [Mon, Tue, Wed, Thu]',
  start: 'add "start:", such as "09:00"',
  end: 'add "end:", such as "16:00"',
  timeZone: 'add "timeZone:", such as Europe/Berlin'
};
var RENAMED = {
  force: `"force" meant three things and was split: "deleteAfterDrainTimeout: true" deletes the pods left at drainTimeout, past their PodDisruptionBudgets (EKS's force); "unmanagedPods: evict | refuse" says what a drain does with pods no controller owns (kubectl drain --force); replacing every node whatever its version is a run's --replace-all`
};
var POLICY_LANGUAGE = {
  schema: PolicySchema,
  missingHints: MISSING_HINT,
  renamed: RENAMED
};
function wellFormedParts(raw) {
  const pick = (schema, v) => {
    const r = schema.safeParse(v);
    return r.success ? r.data : void 0;
  };
  const group3 = (g) => {
    const r = g ?? {};
    const name = pick(GroupSchema.shape.name, r.name);
    if (name === void 0) return void 0;
    return {
      name,
      role: pick(GroupSchema.shape.role, r.role),
      rollingUpdate: pick(RollingUpdateSchema, r.rollingUpdate)
    };
  };
  const groups2 = Array.isArray(raw.groups) ? raw.groups.map(group3) : [];
  return {
    defaults: pick(RollingUpdateSchema, raw.defaults),
    order: pick(PolicySchema.shape.order, raw.order),
    groups: groups2
  };
}
function checkPolicy(policy, at5) {
  const errors = [];
  const warnings = [];
  errors.push(
    ...repeatedNames(
      policy.groups.map((g) => g?.name),
      ["groups"],
      "group",
      at5
    )
  );
  errors.push(...budgetErrors(policy.defaults, ["defaults"], "node", at5));
  policy.groups.forEach((group3, i) => {
    if (!group3) return;
    const own = group3.rollingUpdate;
    const role = group3.role ?? "node";
    if (role === "control-plane" && own?.maxSurge !== void 0 && !isZeroBudget(own.maxSurge)) {
      errors.push(
        at5(
          ["groups", i, "rollingUpdate"],
          "a control-plane group cannot surge: its nodes are replaced in place, maxUnavailable at a time; remove maxSurge or set it to 0",
          "maxSurge"
        )
      );
    }
    if (own?.maxSurge !== void 0 || own?.maxUnavailable !== void 0) {
      const merged = { ...policy.defaults, ...own };
      errors.push(...budgetErrors(merged, ["groups", i, "rollingUpdate"], role, at5, own));
    }
    if (own?.validation) {
      const merged = { ...policy.defaults?.validation, ...own.validation };
      errors.push(...validationErrors(merged, ["groups", i, "rollingUpdate", "validation"], at5));
    }
  });
  errors.push(
    ...validationErrors(policy.defaults?.validation ?? {}, ["defaults", "validation"], at5)
  );
  errors.push(...policyGateErrors(policy, at5));
  const orderable = policy.groups.filter(Boolean).map((g) => ({ name: g.name, role: g.role ?? "node" }));
  const allGroupsKnown = orderable.length === policy.groups.length;
  (policy.order ?? []).forEach((entry, i) => {
    if (orderable.some((g) => entryMatches(entry, g)) || !allGroupsKnown) return;
    if (ROLES.includes(entry)) {
      errors.push(
        at5(
          ["order", i],
          `"${entry}" is a role, but no group of this policy has it; remove it or set "role: ${entry}" on a group`
        )
      );
      return;
    }
    const guess = closest(entry, [...ROLES, ...orderable.map((g) => g.name)]);
    const hint = guess ? `; did you mean "${guess}"?` : `; roles are ${ROLES.join(", ")}`;
    errors.push(at5(["order", i], `"${entry}" matches no role or group of this policy${hint}`));
  });
  return { errors: dedupe(errors), warnings };
}
function budgetErrors(settings, path, role, at5, own) {
  if (!settings) return [];
  const surge = role === "control-plane" ? 0 : settings.maxSurge ?? KOPS_DEFAULTS.maxSurge;
  const surgeZero = surgesNever(surge);
  const unavailable = settings.maxUnavailable ?? defaultUnavailable(surgeZero);
  if (!surgeZero || unavailable !== 0) return [];
  if (settings.maxSurge === void 0 && settings.maxUnavailable === void 0) return [];
  const key = own && own.maxUnavailable === void 0 ? "maxSurge" : "maxUnavailable";
  const why2 = role === "control-plane" ? "a control-plane group never surges, so" : "maxSurge resolves to 0 and";
  return [
    at5(
      path,
      `${why2} maxUnavailable is 0: the roll could never replace a node; allow at least one (maxUnavailable: 1 or maxSurge: 1)`,
      key
    )
  ];
}
function policyGateErrors(policy, at5) {
  const defaults = policy.defaults?.gates;
  const hasCheckpoints = (g) => (g?.checkpoints ?? []).length > 0;
  const anyGroup = policy.groups.some(
    (g) => hasCheckpoints(mergeGates(defaults, g?.rollingUpdate?.gates))
  );
  return [
    ...gateErrors(defaults, ["defaults", "gates"], at5, anyGroup || hasCheckpoints(defaults)),
    ...policy.groups.flatMap((group3, i) => {
      const own = group3?.rollingUpdate?.gates;
      const merged = hasCheckpoints(mergeGates(defaults, own));
      return gateErrors(own, ["groups", i, "rollingUpdate", "gates"], at5, merged);
    })
  ];
}
function gateErrors(gates, path, at5, checkpoints) {
  return gateProblems(gates, checkpoints).map((p) => at5([...path, ...p.path], p.message, p.key));
}
function validationErrors(v, path, at5) {
  const timeout = parseDuration(v.timeout ?? KOPS_DEFAULTS.validation.timeout);
  const count2 = v.count ?? KOPS_DEFAULTS.validation.count;
  const needed = (count2 - 1) * VALIDATION_PERIOD_MS;
  if (timeout === void 0 || needed <= timeout) return [];
  return [
    at5(
      path,
      `validation needs ${count2} successes ${VALIDATION_PERIOD_MS / 1e3} s apart (${needed / 1e3} s) but timeout is ${v.timeout}; raise timeout or lower count`,
      v.timeout !== void 0 ? "timeout" : "count"
    )
  ];
}

// src/policy/groups.ts
function unknownGroupsProblem(policy, names2, label) {
  if (!names2) return void 0;
  const have = policy.groups.map((g) => g.name);
  const unknown = names2.filter((n2) => !have.includes(n2));
  if (unknown.length === 0) return void 0;
  const hints = unknown.map((n2) => [n2, closest(n2, have)]).filter(([, guess]) => guess).map(([n2, guess]) => `"${n2}" → "${guess}"?`);
  const quoted = unknown.map((n2) => `"${n2}"`).join(", ");
  return `${label} names ${quoted}, which policy ${policy.metadata.name} does not have; its groups are: ${have.join(", ")}${hints.length > 0 ? ` (did you mean ${hints.join(", ")})` : ""}`;
}

// src/cli/apply.ts
import { appendFileSync, mkdirSync, writeFileSync as writeFileSync2 } from "node:fs";
import { hostname } from "node:os";
import { dirname as dirname2, join as join2 } from "node:path";

// src/plan/limit.ts
var CONCURRENCY = 8;
async function mapLimit(items, n2, fn) {
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n2, items.length) }, worker));
  return out;
}

// src/plan/claims.ts
async function found(read, denied2, what) {
  try {
    return await read;
  } catch (e) {
    if (e instanceof KubeApiError && e.status === 404) return void 0;
    if (e instanceof KubeApiError && e.status === 403) {
      denied2.add(what);
      return void 0;
    }
    throw e;
  }
}
async function readClaims(cluster, refs) {
  const denied2 = /* @__PURE__ */ new Set();
  const got = await mapLimit(
    refs,
    CONCURRENCY,
    (r) => found(cluster.getPersistentVolumeClaim(r.namespace, r.name), denied2, "persistentvolumeclaims")
  );
  const names2 = [...new Set(got.flatMap((c) => c?.spec.volumeName ? [c.spec.volumeName] : []))];
  const volumes = await mapLimit(
    names2,
    CONCURRENCY,
    (name) => found(cluster.getPersistentVolume(name), denied2, "persistentvolumes")
  );
  const affinity = new Map(
    volumes.flatMap((v) => {
      const terms = v?.spec.nodeAffinity?.required?.nodeSelectorTerms;
      return v && terms && terms.length > 0 ? [[v.metadata.name, terms]] : [];
    })
  );
  const claims = refs.flatMap((r, i) => {
    const c = got[i];
    if (!c) return [];
    const volume = c.spec.volumeName;
    const nodeAffinity = volume === void 0 ? void 0 : affinity.get(volume);
    return [{ ...r, ...volume && { volume }, ...nodeAffinity && { nodeAffinity } }];
  });
  if (denied2.size === 0) return { claims };
  return { claims, unread: `get on ${[...denied2].sort().join(" and ")} is forbidden` };
}

// src/plan/snapshot.ts
function drainMoves(p) {
  return drainWaitsFor(p) && !isFinished(p.phase);
}
function drainWaitsFor(p) {
  return !drainLeaves(p.mirror, p.owner?.kind);
}
function drainLeaves(mirror, controllerKind) {
  return mirror || controllerKind === "DaemonSet";
}
function heldPastDeletion(p, now2) {
  if (p.deletionTimestamp === void 0) return false;
  return Date.parse(p.deletionTimestamp) + 6e4 < now2.getTime();
}
var UNREACHABLE_WAIT_MS = 5 * 6e4;
var unreachableLeaveAt = (dueMs) => dueMs + UNREACHABLE_WAIT_MS + 1;
function leftOnUnreachable(deletionTimestamp, now2) {
  return deletionTimestamp !== void 0 && now2 >= unreachableLeaveAt(Date.parse(deletionTimestamp));
}
function asksBudgets(p) {
  return drainMoves(p) && p.deletionTimestamp === void 0;
}
var REPLICAS = /* @__PURE__ */ Symbol("replicas");
function workloadReplicas(workloads3) {
  return derived(
    workloads3,
    REPLICAS,
    (list3) => new Map(list3.map((w) => [w.id, w.replicas]))
  );
}
function nodePods(pods) {
  let byNode;
  return {
    on(node) {
      if (!byNode) {
        byNode = /* @__PURE__ */ new Map();
        for (const p of pods) {
          const list3 = byNode.get(p.nodeName);
          if (list3) list3.push(p);
          else byNode.set(p.nodeName, [p]);
        }
      }
      return byNode.get(node) ?? [];
    },
    all: () => [...pods]
  };
}
var NEEDS_UPDATE_ANNOTATION = "noderoll.io/needs-update";
var KOPS_NEEDS_UPDATE_ANNOTATION = "kops.k8s.io/needs-update";
var DETACHED_LABEL = "noderoll.io/detached-from";

// src/plan/marks.ts
var SCHEDULED_TAINT = {
  key: "noderoll.io/scheduled-for-update",
  effect: "PreferNoSchedule"
};
var CORDONED_ANNOTATION = "noderoll.io/cordoned";
var EXCLUDE_LB_LABEL = "node.kubernetes.io/exclude-from-external-load-balancers";
var SCALE_DOWN_DISABLED = "cluster-autoscaler.kubernetes.io/scale-down-disabled";
var SCALE_DOWN_BY_US = "noderoll.io/scale-down-disabled";
function marksOn(n2, member2) {
  const out = [];
  if (n2.annotations[SCALE_DOWN_BY_US] !== void 0) out.push("scale-down-disabled");
  if (n2.annotations[CORDONED_ANNOTATION] !== void 0) out.push("cordon");
  if (n2.taints.some((t) => t.key === SCHEDULED_TAINT.key)) out.push("scheduled-taint");
  if (member2 && n2.labels[DETACHED_LABEL] !== void 0) out.push("surge-mark");
  return out;
}
function marksLeft(group3, nodes, replaced) {
  const members = new Set(group3.instances.filter((i) => !i.detachedForSurge).map((i) => i.id));
  const found2 = /* @__PURE__ */ new Map();
  const add = (mark, object) => {
    const list3 = found2.get(mark) ?? [];
    if (!list3.includes(object)) list3.push(object);
    found2.set(mark, list3);
  };
  for (const n2 of nodes) {
    if (n2.group !== group3.name || replaced.has(n2.name)) continue;
    for (const mark of marksOn(n2, members.has(n2.instanceId ?? ""))) add(mark, n2.name);
  }
  for (const i of group3.instances)
    if (i.markedForSurge && !i.detachedForSurge && !replaced.has(i.id)) add("surge-mark", i.id);
  const suspended = "suspendedByNoderoll" in group3 ? group3.suspendedByNoderoll ?? [] : [];
  for (const p of suspended) add("suspended-process", p);
  return [...found2].map(([mark, objects]) => ({ mark, objects: objects.sort() }));
}

// src/plan/owners.ts
var NO_WORKLOADS = Object.freeze([]);
function inner(map, key) {
  let m = map.get(key);
  if (!m) map.set(key, m = /* @__PURE__ */ new Map());
  return m;
}
var LOOKED_UP = /* @__PURE__ */ new Set(["ReplicaSet", "StatefulSet", "Deployment"]);
var ByOwner = class {
  #byNamespace = /* @__PURE__ */ new Map();
  get(kind, ns, name) {
    return this.#byNamespace.get(ns)?.get(kind)?.get(name);
  }
  set(kind, ns, name, value) {
    this.names(kind, ns).set(name, value);
  }
  /** The values of one kind and namespace, by name (made if there are none yet). */
  names(kind, ns) {
    return inner(inner(this.#byNamespace, ns), kind);
  }
};
var Owners = class {
  #known = new ByOwner();
  /**
   * The last one asked for: a list comes by namespace and name, and a controller names its pods
   * after itself (web-7d4b9-x2x7q), so its pods come one after another.
   */
  #last;
  /** Every one kept, by `seq`. */
  #all = [];
  /** How many are kept. */
  get count() {
    return this.#all.length;
  }
  /**
   * Copy each one's ref's workload onto it, once the workloads are read (see `workload`), and
   * that workload's replicas where `workloads` has it.
   */
  settle(workloads3 = NO_WORKLOADS) {
    const replicas2 = workloadReplicas(workloads3);
    for (const known of this.#all) {
      known.workload = known.ref?.workload;
      known.replicas = known.workload === void 0 ? void 0 : replicas2.get(known.workload);
      known.budgets = void 0;
    }
  }
  /** The one kept of that kind, namespace and name. */
  find(kind, ns, name) {
    return this.#known.get(kind, ns, name);
  }
  of(ns, o) {
    const last = this.#last;
    if (last && last.name === o.name && last.ns === ns && last.kind === o.kind) return last.known;
    const byName = this.#known.names(o.kind, ns);
    let known = byName.get(o.name);
    if (known) {
      this.#last = { ns, kind: o.kind, name: o.name, known };
      return known;
    }
    const ref = LOOKED_UP.has(o.kind) ? { kind: o.kind, ns, name: o.name, ...o.uid && { uid: o.uid } } : void 0;
    known = {
      owner: { kind: o.kind, name: o.name },
      labels: void 0,
      tolerations: void 0,
      ref,
      workload: void 0,
      replicas: void 0,
      budgets: void 0,
      seq: this.#all.length
    };
    this.#all.push(known);
    byName.set(o.name, known);
    this.#last = { ns, kind: o.kind, name: o.name, known };
    return known;
  }
};
var OwnerCache = class {
  /**
   * `keeps`: false for a run that plans once (a plan alone), which no later plan reads again: on
   * 100,000 nodes its half a million entries took ~0.75 s of the read (profiled), and memory
   * until the run ended.
   */
  constructor(keeps = true) {
    this.keeps = keeps;
  }
  keeps;
  #byKind = /* @__PURE__ */ new Map();
  get(kind, ns, name, uid) {
    const e = this.#byKind.get(kind)?.get(uid);
    return e && e.ns === ns && e.name === name ? e.facts : void 0;
  }
  set(kind, ns, name, uid, facts) {
    if (!this.keeps) return;
    inner(this.#byKind, kind).set(uid, { ns, name, facts });
  }
};
function factsOf(w, kind) {
  const facts = {};
  if (w.spec.replicas !== void 0) facts.replicas = w.spec.replicas;
  const refs = kind === "ReplicaSet" ? w.metadata.ownerReferences : void 0;
  for (let i = 0; refs && i < refs.length; i++) {
    const r = refs[i];
    if (r.kind !== "Deployment") continue;
    facts.deployment = r.uid ? { name: r.name, uid: r.uid } : { name: r.name };
    break;
  }
  return facts;
}
async function readOwner(cluster, kind, ns, name) {
  try {
    return factsOf(await cluster.getWorkload(kind, ns, name), kind);
  } catch (e) {
    if (e instanceof KubeApiError && e.status === 404) return void 0;
    throw e;
  }
}
async function listedWorkloads(cluster, owners2, cache, found2, progress, index) {
  const facts = new Array(owners2.length);
  const made = index ? void 0 : new ByOwner();
  const kinds = /* @__PURE__ */ new Set();
  for (let i = 0; i < owners2.length; i++) {
    const o = owners2[i];
    facts[i] = o.uid ? cache.get(o.kind, o.ns, o.name, o.uid) : void 0;
    if (facts[i]) continue;
    made?.set(o.kind, o.ns, o.name, i);
    kinds.add(o.kind);
  }
  const placeOf = index ?? ((kind, ns, name) => made?.get(kind, ns, name));
  const list3 = async (kind, onItem) => {
    if (!kinds.has(kind)) return;
    await eachPage(
      (cont) => cluster.listWorkloads(kind, void 0, pageOf(cont)),
      (items) => {
        for (let i = 0; i < items.length; i++) {
          const w = items[i];
          onItem(w.metadata.namespace ?? "default", w);
        }
      }
    );
  };
  const wantedOf = (kind) => (ns, w) => {
    const i = placeOf(kind, ns, w.metadata.name);
    if (i === void 0 || facts[i]) return;
    const uid = owners2[i].uid;
    facts[i] = factsOf(w, kind);
    if (uid) cache.set(kind, ns, w.metadata.name, uid, facts[i]);
  };
  await Promise.all([
    list3("ReplicaSet", wantedOf("ReplicaSet")),
    list3("StatefulSet", wantedOf("StatefulSet"))
  ]);
  const { parentOf, parents } = parentsOf(owners2, facts, cache);
  if (parents.missing) kinds.add("Deployment");
  const direct = wantedOf("Deployment");
  await list3("Deployment", (ns, w) => {
    direct(ns, w);
    const p = parents.byName.get("Deployment", ns, w.metadata.name);
    if (!p || p.facts) return;
    p.facts = factsOf(w, "Deployment");
    if (p.uid) cache.set("Deployment", ns, w.metadata.name, p.uid, p.facts);
  });
  for (let i = 0; i < owners2.length; i++) {
    progress();
    const parent = parentOf[i];
    found2.add(owners2[i], facts[i], parent ? parent.facts : facts[i]);
  }
}
function parentsOf(owners2, facts, cache) {
  const parentOf = new Array(owners2.length);
  const parents = { byName: new ByOwner(), missing: false };
  for (let i = 0; i < owners2.length; i++) {
    const d = facts[i]?.deployment;
    if (!d) continue;
    const ns = owners2[i].ns;
    let p = parents.byName.get("Deployment", ns, d.name);
    if (!p) {
      p = { uid: d.uid, facts: d.uid ? cache.get("Deployment", ns, d.name, d.uid) : void 0 };
      parents.byName.set("Deployment", ns, d.name, p);
      if (!p.facts) parents.missing = true;
    }
    parentOf[i] = p;
  }
  return { parentOf, parents };
}
function cached(cache, read) {
  return (kind, ns, name, uid) => {
    const known = uid ? cache.get(kind, ns, name, uid) : void 0;
    if (known) return known;
    const got = read(kind, ns, name, uid);
    if (!(got instanceof Promise)) {
      if (got && uid) cache.set(kind, ns, name, uid, got);
      return got;
    }
    return got.then((f) => {
      if (f && uid) cache.set(kind, ns, name, uid, f);
      return f;
    });
  };
}
var Found = class {
  replicas = /* @__PURE__ */ new Map();
  add(o, w, top) {
    if (!w) return;
    const parent = w.deployment;
    const id2 = top && parent ? `Deployment/${o.ns}/${parent.name}` : `${o.kind}/${o.ns}/${o.name}`;
    o.workload = id2;
    this.replicas.set(id2, top?.replicas ?? w.replicas ?? 1);
  }
  /** The workloads in the order of `owners`, each once. */
  inOrder(owners2) {
    const out = [];
    for (const o of owners2) {
      const n2 = o.workload === void 0 ? void 0 : this.replicas.get(o.workload);
      if (n2 === void 0) continue;
      out.push({ id: o.workload, replicas: n2 });
      this.replicas.delete(o.workload);
    }
    return out;
  }
};
async function readWorkloads(cluster, owners2, how) {
  const { listed: listed2, onProgress, cache = new OwnerCache(false), index } = how;
  const found2 = new Found();
  let done = 0;
  if (listed2) {
    const progress = () => onProgress?.(++done, owners2.length);
    await listedWorkloads(cluster, owners2, cache, found2, progress, index);
    return found2.inOrder(owners2);
  }
  const reads = new ByOwner();
  const facts = cached(cache, (kind, ns, name) => {
    let read = reads.get(kind, ns, name);
    if (!read) reads.set(kind, ns, name, read = readOwner(cluster, kind, ns, name));
    return read;
  });
  await mapLimit(owners2, CONCURRENCY, async (o) => {
    const w = await facts(o.kind, o.ns, o.name, o.uid);
    onProgress?.(++done, owners2.length);
    const parent = w?.deployment;
    found2.add(o, w, parent ? await facts("Deployment", o.ns, parent.name, parent.uid) : w);
  });
  return found2.inOrder(owners2);
}

// src/plan/pdb-index.ts
var PdbIndex = class {
  /** namespace → label key → label value → PDBs whose first matchLabels pair it is. */
  byLabel = /* @__PURE__ */ new Map();
  byNamespace = /* @__PURE__ */ new Map();
  /** namespace → every label key its budgets' selectors read (matchLabels and expressions). */
  keysRead = /* @__PURE__ */ new Map();
  constructor(pdbs) {
    const add = (map, key, b) => {
      const list3 = map.get(key);
      if (list3) list3.push(b);
      else map.set(key, [b]);
    };
    for (const b of pdbs) {
      this.#read(b);
      const first = Object.entries(b.selector?.matchLabels ?? {})[0];
      if (!first) {
        add(this.byNamespace, b.namespace, b);
        continue;
      }
      let keys = this.byLabel.get(b.namespace);
      if (!keys) this.byLabel.set(b.namespace, keys = /* @__PURE__ */ new Map());
      let values = keys.get(first[0]);
      if (!values) keys.set(first[0], values = /* @__PURE__ */ new Map());
      add(values, first[1], b);
    }
  }
  /** Notes the label keys `b`'s selector reads. */
  #read(b) {
    let keys = this.keysRead.get(b.namespace);
    if (!keys) this.keysRead.set(b.namespace, keys = /* @__PURE__ */ new Set());
    for (const k in b.selector?.matchLabels) keys.add(k);
    for (const e of b.selector?.matchExpressions ?? []) keys.add(e.key);
  }
  /**
   * Whether every budget of `namespace` selects `a` and `b` alike: no key the budgets' selectors
   * read differs between them, in value or in whether it is there (matchLabels compares values,
   * Exists and DoesNotExist ask whether it is there, as `matchesSelector` does), so `selects`
   * finds the same budgets for both. A StatefulSet's pods differ by their name label, which
   * budgets seldom read. The labels' own keys are walked, not the keys read: a namespace's
   * budgets may read thousands.
   */
  alike(namespace, a, b) {
    const read = this.keysRead.get(namespace);
    if (!read) return true;
    for (const k in a) if (a[k] !== b[k] && read.has(k)) return false;
    for (const k in b) if (!Object.hasOwn(a, k) && read.has(k)) return false;
    return true;
  }
  /**
   * Per namespace, the answer for each labels object already asked about, for pods that do not
   * carry their budgets (PodInfo.budgets; a read's pods do): the pods of one owner share their
   * labels, so a ReplicaSet's thousand pods cost one match against the budgets instead of a
   * thousand. A Map, not a WeakMap: the labels
   * live as long as the snapshot whose index this is, and half a million weak entries made each
   * full collection during a plan trace them as ephemerons.
   */
  answers = /* @__PURE__ */ new Map();
  /** Each node's pods' budgets, by the node's list of pods (see `onNode`). */
  nodes = /* @__PURE__ */ new WeakMap();
  /**
   * The budgets of each pod of one node's list, in its order, asked once per group's plan (which
   * makes the list: src/engine/plan.ts): preflight's findings and the turns' order both read
   * them, and each lookup above misses the processor's cache (~0.7 µs a pod, 2 s a pass over 3
   * million pods), where this is one lookup per node. A pod that carries its budgets (read
   * ones) is not looked up at all.
   */
  onNode(pods) {
    let out = this.nodes.get(pods);
    if (out) return out;
    out = new Array(pods.length);
    for (let i = 0; i < pods.length; i++) {
      const pod = pods[i];
      out[i] = pod.budgets ?? this.answer(pod.namespace, pod.labels);
    }
    this.nodes.set(pods, out);
    return out;
  }
  /** The budgets selecting `labels` (of `namespace`), kept for the same labels object. */
  answer(namespace, labels) {
    let known = this.answers.get(namespace);
    if (!known) this.answers.set(namespace, known = /* @__PURE__ */ new Map());
    let out = known.get(labels);
    if (!out) known.set(labels, out = this.selects(namespace, labels));
    return out;
  }
  /**
   * The budgets of `namespace` that select `labels`: those without matchLabels first, then those
   * found by each label. Asked once per labels object, which is once per pod for a
   * StatefulSet's (each has its own name label): nothing is made unless a budget matches.
   */
  selects(namespace, labels) {
    let out = matching(this.byNamespace.get(namespace), labels, NO_BUDGETS);
    const keys = this.byLabel.get(namespace);
    if (keys)
      for (const k in labels) out = matching(keys.get(k)?.get(labels[k]), labels, out);
    return out;
  }
};
var NO_BUDGETS = Object.freeze([]);
function matching(list3, labels, out) {
  if (!list3) return out;
  for (let i = 0; i < list3.length; i++) {
    const b = list3[i];
    if (!matchesSelector(b.selector, labels)) continue;
    if (out === NO_BUDGETS) out = [];
    out.push(b);
  }
  return out;
}
var PDB_INDEX = /* @__PURE__ */ Symbol("pdbIndex");
function pdbIndexOf(pdbs) {
  return derived(pdbs, PDB_INDEX, (list3) => new PdbIndex(list3));
}
function budgetsOnNode(pdbs, pods) {
  return pdbIndexOf(pdbs).onNode(pods);
}

// src/plan/placement.ts
var ZONE_LABELS = /* @__PURE__ */ new Set([
  "topology.kubernetes.io/zone",
  "failure-domain.beta.kubernetes.io/zone",
  "topology.ebs.csi.aws.com/zone"
]);
var TERMS_NONE = [];
var namesZone = (terms) => terms.some((t) => (t.matchExpressions ?? []).some((e) => ZONE_LABELS.has(e.key)));
function claimsOf(p) {
  const out = [];
  for (const v of p.spec.volumes ?? []) {
    if (v.persistentVolumeClaim) out.push(v.persistentVolumeClaim.claimName);
    else if (v.ephemeral) out.push(`${p.metadata.name}-${v.name}`);
  }
  return out;
}
function placementOf(p) {
  const selector = p.spec.nodeSelector;
  const zonedSelector = selector !== void 0 && Object.keys(selector).some((k) => ZONE_LABELS.has(k));
  const affinity = p.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? TERMS_NONE;
  const claims = p.spec.volumes ? claimsOf(p) : [];
  if (!zonedSelector && !namesZone(affinity) && claims.length === 0) return void 0;
  return {
    ...selector && Object.keys(selector).length > 0 && { nodeSelector: selector },
    ...affinity.length > 0 && { affinity },
    ...claims.length > 0 && { claims }
  };
}
function zonesOf(terms, known) {
  const out = /* @__PURE__ */ new Set();
  for (const t of terms) {
    let zones;
    for (const e of t.matchExpressions ?? []) {
      if (!ZONE_LABELS.has(e.key) || e.operator !== "In" && e.operator !== "NotIn") continue;
      const values = e.values ?? [];
      const allowed = e.operator === "In" ? values : [...known].filter((z) => !values.includes(z));
      zones = new Set(zones ? allowed.filter((z) => zones?.has(z)) : allowed);
    }
    if (!zones) return void 0;
    for (const z of zones) out.add(z);
  }
  return out;
}
var narrowed = (into, zones) => new Set([...zones].filter((z) => into === void 0 || into.has(z)));
function zoneBinding(p, claims, known) {
  const pl = p.placement;
  if (!pl) return void 0;
  let zones;
  const why2 = [];
  const terms = [];
  for (const [k, v] of Object.entries(pl.nodeSelector ?? {}))
    if (ZONE_LABELS.has(k)) {
      zones = narrowed(zones, [v]);
      why2.push(`nodeSelector ${k}=${v}`);
    }
  const affinityZones = pl.affinity && zonesOf(pl.affinity, known);
  if (pl.affinity) terms.push(pl.affinity);
  if (affinityZones) {
    zones = narrowed(zones, affinityZones);
    why2.push("required node affinity");
  }
  for (const name of pl.claims ?? []) {
    const c = claims.get(`${p.namespace}/${name}`);
    if (!c?.nodeAffinity) continue;
    terms.push(c.nodeAffinity);
    const z = zonesOf(c.nodeAffinity, known);
    if (!z) continue;
    zones = narrowed(zones, z);
    why2.push(`volume ${c.volume ?? "?"} of claim ${name}`);
  }
  if (!zones || zones.size === 0) return void 0;
  return { zones: [...zones].sort(), why: why2, terms };
}
function meetsRequirement(e, value) {
  const values = e.values ?? [];
  switch (e.operator) {
    case "In":
      return value !== void 0 && values.includes(value);
    case "NotIn":
      return value === void 0 || !values.includes(value);
    case "Exists":
      return value !== void 0;
    case "DoesNotExist":
      return value === void 0;
    case "Gt":
    case "Lt": {
      const n2 = Number(value);
      const bound = Number(values[0]);
      if (value === void 0 || !Number.isInteger(n2) || !Number.isInteger(bound)) return false;
      return e.operator === "Gt" ? n2 > bound : n2 < bound;
    }
  }
}
function meetsTerms(terms, node) {
  return terms.some(
    (t) => (t.matchExpressions ?? []).every((e) => meetsRequirement(e, node.labels[e.key])) && (t.matchFields ?? []).every(
      (e) => meetsRequirement(e, e.key === "metadata.name" ? node.name : void 0)
    )
  );
}
function tolerates(t, taint) {
  if (t.effect && t.effect !== taint.effect) return false;
  if (!t.key) return t.operator === "Exists";
  if (t.key !== taint.key) return false;
  return t.operator === "Exists" || (t.value ?? "") === (taint.value ?? "");
}
function couldTake(node, pod, binding) {
  if (!node.ready || node.unschedulable || node.unreachable) return false;
  for (const taint of node.taints)
    if (taint.effect !== "PreferNoSchedule" && !pod.tolerations.some((t) => tolerates(t, taint)))
      return false;
  for (const [k, v] of Object.entries(pod.placement?.nodeSelector ?? {}))
    if (node.labels[k] !== v) return false;
  return binding.terms.every((terms) => meetsTerms(terms, node));
}

// src/plan/decisions.ts
function decisionsOf(g) {
  const target = {};
  for (const [k, v] of Object.entries(g.target ?? {})) if (v !== void 0) target[k] = String(v);
  return {
    kind: g.kind,
    target,
    budgets: g.budgets.spec ?? {
      maxUnavailable: String(g.budgets.maxUnavailable),
      maxSurge: String(g.budgets.maxSurge)
    },
    settings: JSON.stringify(g.settings ?? null),
    config: g.configChanges.map((c) => `${c.field}=${c.to}`)
  };
}
function targetChange(was, now2) {
  const keys = [.../* @__PURE__ */ new Set([...Object.keys(was), ...Object.keys(now2)])].filter(
    (k) => was[k] !== now2[k]
  );
  const side = (o) => keys.map((k) => `${k} ${o[k] ?? "none"}`).join(", ");
  return `planned ${side(was)}, now ${side(now2)}`;
}
var blockers = (fs) => fs.filter((f) => f.severity === "blocker");
function staleDecisions(planned, fresh) {
  if (fresh.kind === "missing" && planned.kind !== "missing")
    return [
      { decision: "group", detail: `${planned.name} is gone from the cluster since the plan` }
    ];
  const was = decisionsOf(planned);
  const now2 = decisionsOf(fresh);
  const out = [];
  if (was.kind !== now2.kind)
    out.push({ decision: "kind", detail: `planned as ${was.kind}, now ${now2.kind}` });
  if (JSON.stringify(was.target) !== JSON.stringify(now2.target))
    out.push({
      decision: "target",
      detail: targetChange(was.target, now2.target)
    });
  const b = (x) => `maxUnavailable ${x.maxUnavailable}, maxSurge ${x.maxSurge}`;
  if (b(was.budgets) !== b(now2.budgets))
    out.push({ decision: "budgets", detail: `planned ${b(was.budgets)}, now ${b(now2.budgets)}` });
  if (was.settings !== now2.settings)
    out.push({ decision: "settings", detail: "the roll settings differ from the plan's" });
  const known = new Set(blockers(planned.findings).map((f) => f.code));
  const added = blockers(fresh.findings).filter((f) => !known.has(f.code));
  if (added.length > 0)
    out.push({
      decision: "blockers",
      detail: `new since the plan: ${added.map((f) => f.message).join("; ")}`
    });
  return out;
}

// src/plan/finding.ts
var MAX_LISTED = 10;
var AT_DRAIN_TIMEOUT = {
  "pdb-blocks": "after the drain timeout the pods it protects are deleted, past the PodDisruptionBudget, and their node terminated postDrainDelay later, cutting their shutdown short",
  "multiple-pdbs": "these pods are deleted, not evicted, since the eviction API refuses them (a self-managed group's drain deletes them at once; EKS terminates their node after its 15 minutes)",
  "pdb-closed-now": "if it has not opened by the drain timeout, the pods it protects are deleted past it",
  "tolerates-everything": "after the drain timeout what is left is deleted and the node terminated; these pods start again elsewhere",
  "stuck-terminating": "after the drain timeout their node is terminated with them still on it",
  "zone-disrupted": "those nodes are replaced all the same, as dead nodes, ending what runs there",
  "zone-pinned-pods": "they are drained all the same, and stay Pending until a node of their zone can take them",
  "grace-exceeds-drain-timeout": "at the drain timeout their node is terminated with them still stopping, cutting their shutdown short"
};
function stopping(code, deleteAfterDrainTimeout, message, objects) {
  const withForce = AT_DRAIN_TIMEOUT[code];
  const advice = message.replace(/,? or set deleteAfterDrainTimeout$/, "");
  if (deleteAfterDrainTimeout && withForce)
    return {
      code,
      severity: "warning",
      message: `with deleteAfterDrainTimeout: ${withForce}: ${advice}`,
      objects
    };
  return { code, severity: "blocker", message, objects };
}
var podId = (p) => `${p.namespace}/${p.name}`;
function list(items) {
  const shown = items.slice(0, MAX_LISTED).join(", ");
  return items.length > MAX_LISTED ? `${shown} and ${items.length - MAX_LISTED} more` : shown;
}

// src/plan/select.ts
var isLeaving = (i) => /^Terminat/.test(i.lifecycleState);
function liveInstances(live) {
  return live.instances.filter((i) => !isLeaving(i));
}
function nodeReasons(node, launchTime, input) {
  const reasons = [];
  for (const annotation of [NEEDS_UPDATE_ANNOTATION, KOPS_NEEDS_UPDATE_ANNOTATION]) {
    if (node?.annotations[annotation] !== void 0)
      reasons.push({ kind: "annotated", annotation });
  }
  const born = node?.createdAt ?? launchTime;
  const age = born ? input.now.getTime() - born.getTime() : 0;
  if (input.maxNodeAgeMs !== void 0 && age > input.maxNodeAgeMs)
    reasons.push({ kind: "max-node-age", ageMs: age, maxMs: input.maxNodeAgeMs });
  return reasons;
}
function selectWith(live, input, kindReasons) {
  const out = [];
  for (const instance of liveInstances(live)) {
    const node = input.nodesByInstance.get(instance.id);
    const reasons = [...kindReasons(instance), ...nodeReasons(node, instance.launchTime, input)];
    if (input.replaceAll && reasons.length === 0) reasons.push({ kind: "replace-all" });
    if (reasons.length > 0) out.push(replacementOf(instance, node, reasons));
  }
  return out;
}
function replacementOf(instance, node, reasons) {
  return {
    instance: instance.id,
    ...node && { node: node.name },
    zone: instance.zone,
    reasons,
    ...node && !node.ready && { down: node.unreachable ? "unreachable" : "not-ready" },
    // An instance an earlier run detached has no node when the node went first (it is lost).
    ...!node && !instance.detachedForSurge && { down: "no-node" }
  };
}
var isDetached = (r) => r.reasons.some((x) => x.kind === "detached-for-surge");
function describeReason(r) {
  switch (r.kind) {
    case "launch-template":
      return r.fromTemplate !== r.toTemplate ? `launch template ${r.fromTemplate ?? "?"} version ${r.from ?? "?"} → ${r.toTemplate} version ${r.to}` : `launch template ${r.from ?? "?"} → ${r.to}`;
    case "kubernetes-version":
      return `Kubernetes ${r.from} → ${r.to}`;
    case "release-version":
      return `release ${r.from} → ${r.to}`;
    case "max-node-age":
      return `older than maxNodeAge (${Math.floor(r.ageMs / 864e5)}d > ${Math.floor(r.maxMs / 864e5)}d)`;
    case "annotated":
      return `annotated ${r.annotation}`;
    case "detached-for-surge":
      return "detached for surge by an earlier run";
    case "group-update":
      return "EKS replaces every node of the group";
    case "replace-all":
      return "replace-all";
  }
}

// src/plan/identity.ts
var JOIN_GRACE_MS = 10 * 6e4;
function originOf(url) {
  try {
    const u = new URL(url);
    const port = u.port || (u.protocol === "https:" ? "443" : u.protocol === "http:" ? "80" : "");
    return `${u.protocol}//${u.hostname.toLowerCase()}:${port}`;
  } catch {
    return void 0;
  }
}
function certificates(caData) {
  if (!caData) return /* @__PURE__ */ new Set();
  const pem = Buffer.from(caData, "base64").toString("utf8");
  const out = /* @__PURE__ */ new Set();
  for (const m of pem.matchAll(/-----BEGIN CERTIFICATE-----([^-]+)-----END CERTIFICATE-----/g))
    out.add((m[1] ?? "").replace(/\s+/g, ""));
  return out;
}
function sameAuthority(api, cluster) {
  const trusted = certificates(api);
  if (trusted.size === 0) return false;
  const own = certificates(cluster);
  for (const c of trusted) if (!own.has(c)) return false;
  return true;
}
function proveByEndpoint(eks, api) {
  if (!api || api.insecure) return void 0;
  const { server } = api;
  const origin = originOf(server);
  if (origin && eks.endpoint && origin === originOf(eks.endpoint))
    return { by: "endpoint", server };
  if (sameAuthority(api.caData, eks.certificateAuthority?.data))
    return { by: "certificate", server };
  return void 0;
}
function groupEvidence(group3, nodeInstances, now2) {
  let found2 = 0;
  let judged = 0;
  for (const i of liveInstances(group3)) {
    if (i.detachedForSurge) continue;
    if (nodeInstances.has(i.id)) {
      found2++;
      judged++;
    } else if (!i.launchTime || now2.getTime() - i.launchTime.getTime() >= JOIN_GRACE_MS) judged++;
  }
  return { found: found2, judged };
}
function nodeInstanceIds(nodes) {
  const out = /* @__PURE__ */ new Set();
  for (const n2 of nodes) {
    const id2 = instanceIdOf(n2);
    if (id2) out.add(id2);
  }
  return out;
}
function instanceEvidence(groups2, nodes, now2, cluster) {
  const ids = nodeInstanceIds(nodes);
  let found2 = 0;
  let judged = 0;
  for (const g of groups2) {
    if (g.clusters.length > 0 && !g.clusters.includes(cluster)) continue;
    const e = groupEvidence(g, ids, now2);
    found2 += e.found;
    judged += e.judged;
  }
  return { found: found2, judged };
}
function proveByNodes(api, { found: found2, judged }) {
  const server = api?.server;
  if (found2 > 0 && found2 * 2 >= judged)
    return { by: "nodes", ...server && { server }, found: found2, judged };
  if (!server && judged === 0) return { by: "nothing-to-judge" };
  return void 0;
}
function clustersTagged(tags) {
  const out = /* @__PURE__ */ new Set();
  for (const { Key, Value } of tags) {
    const m = /^(?:kubernetes\.io\/cluster|k8s\.io\/cluster-autoscaler)\/(.+)$/.exec(Key);
    if (m && m[1] !== "enabled" && m[1] !== "node-template") out.add(m[1]);
    if ((Key === "eks:cluster-name" || Key === "KubernetesCluster") && Value) out.add(Value);
  }
  return [...out].sort();
}
function groupNotOfCluster(group3, cluster, nodeInstances, now2) {
  const name = `Auto Scaling group ${group3.name}`;
  if (group3.nodegroup)
    return `${name} is the one behind EKS managed node group ${group3.nodegroup}: EKS rolls it. Name the node group (${group3.nodegroup}) in the policy instead; noderoll will not touch EKS's group itself`;
  const tagged = group3.clusters;
  if (tagged.length > 0 && !tagged.includes(cluster))
    return `${name} belongs to cluster ${tagged.join(", ")} (its tags say so), not to ${cluster}: noderoll will not touch it. Name this cluster's own group in the policy, or fix the group's kubernetes.io/cluster/ tag`;
  if (group3.listedByEks) return void 0;
  const { found: found2, judged } = groupEvidence(group3, nodeInstances, now2);
  if (found2 > 0) return void 0;
  if (tagged.length === 0)
    return `${name} does not say it belongs to cluster ${cluster}, and none of its instances is a node of it: noderoll will not touch it. Tag it kubernetes.io/cluster/${cluster}=owned (as eksctl and EKS's templates do)`;
  if (judged === 0) return void 0;
  return `${name}'s tags say it is cluster ${cluster}'s (${tagged.join(", ")}), but none of its ${judged} instances is a node of ${cluster}: none ever joined it, or they are another cluster's nodes. noderoll will not terminate them undrained on its tags' word. If they never joined, fix the group's launch template and terminate them by hand (aws autoscaling terminate-instance-in-auto-scaling-group)`;
}

// src/plan/down-findings.ts
function unreachableFindings(deleting, input, unreachable) {
  const nodes = [...unreachable].sort();
  if (nodes.length === 0) return [];
  const now2 = input.snapshot.takenAt.getTime();
  const left2 = deleting.filter(
    (p) => unreachable.has(p.nodeName) && drainWaitsFor(p) && leftOnUnreachable(p.deletionTimestamp, now2)
  );
  const minutes = UNREACHABLE_WAIT_MS / 6e4;
  const already = left2.length > 0 ? `; left behind at once: ${list(left2.map(podId))}` : "";
  return [
    {
      code: "unreachable-nodes",
      severity: "warning",
      message: `unreachable, their kubelets no longer reporting (Ready Unknown): ${list(nodes)}. They are replaced first; their drains evict as usual but wait for a pod only until its deletion is ${minutes} minutes past due, since no kubelet will confirm it — the pod goes with its node${already}`,
      objects: nodes
    }
  ];
}
function disruptedFindings(input) {
  const hit = input.replacements.filter(
    (r) => r.down && r.down !== "no-node" && input.unhealthyZones.has(r.zone)
  );
  if (hit.length === 0) return [];
  const zones = [...new Set(hit.map((r) => r.zone))].sort().map((z) => {
    const h = input.unhealthyZones.get(z);
    return `${z} (${h.notReady} of ${h.nodes} nodes not Ready)`;
  });
  return [
    stopping(
      "zone-disrupted",
      input.deleteAfterDrainTimeout,
      `most nodes of ${list(zones)} are not Ready at once: an outage or a network partition, not nodes that died one by one (Kubernetes' node controller stops evicting in such a zone). What they run may still be serving, and replacing them would end it: wait for the zone to recover, or set deleteAfterDrainTimeout`,
      hit.map((r) => r.node ?? r.instance)
    )
  ];
}
function noNodeFindings(input) {
  const hit = input.replacements.filter((r) => r.down === "no-node");
  if (hit.length === 0) return [];
  const ids = hit.map((r) => r.instance);
  const what = `no node in cluster ${input.snapshot.cluster.name}: ${list(ids)} (never joined, or their nodes were deleted)`;
  const finding = (severity, how) => [
    { code: "no-node", severity, message: `${what}. ${how}`, objects: ids }
  ];
  if (!input.pacesNoNode) return finding("info", "EKS replaces them with the rest of the group");
  const counted = "They are replaced without a drain, each counted as serving until its replacement is Ready (noderoll cannot see that it is not)";
  if (input.maxUnavailable === 0 && (input.surge === 0 || hit.length === input.replacements.length))
    return finding(
      "blocker",
      `${counted}, but maxUnavailable is 0 and no surge can make room: allow maxUnavailable 1, or terminate them by hand if they truly serve nothing`
    );
  return finding(
    "warning",
    `${counted}, first, and at most maxUnavailable (${input.maxUnavailable}) of them at once`
  );
}
var leftUnreachable = (input) => new Set(
  input.replacements.flatMap(
    (r) => leavesPodsOf(r, input.leavesUnreachable) && r.node ? [r.node] : []
  )
);
var leavesPodsOf = (r, leavesUnreachable) => leavesUnreachable === true && r.down === "unreachable";

// src/plan/grace-findings.ts
function preStopSeconds(p) {
  let sleep = 0;
  for (const c of p.containers) sleep = Math.max(sleep, c.preStopSleepSeconds ?? 0);
  return sleep;
}
function described(pods) {
  const by = /* @__PURE__ */ new Map();
  for (const p of pods) {
    const key = p.workload ?? podId(p);
    const e = by.get(key) ?? { pods: [], sleep: 0, grace: 0 };
    e.pods.push(p);
    e.sleep = Math.max(e.sleep, Math.min(preStopSeconds(p), p.terminationGracePeriodSeconds));
    e.grace = Math.max(e.grace, p.terminationGracePeriodSeconds);
    by.set(key, e);
  }
  let longestMs = 0;
  const lines = [...by].map(([key, e]) => {
    longestMs = Math.max(longestMs, e.grace * 1e3);
    const what = e.pods.length === 1 ? podId(e.pods[0]) : `${key} (${e.pods.length} pods)`;
    const sleep = e.sleep > 0 ? `preStop sleep ${formatDuration(e.sleep * 1e3)}, ` : "";
    return `${what}: ${sleep}terminationGracePeriodSeconds ${e.grace} (${formatDuration(e.grace * 1e3)})`;
  });
  return { lines, longestMs };
}
function graceFindings(pods, input) {
  const timeout = input.drainTimeoutMs;
  const surely = [];
  const maybe = [];
  for (const p of pods) {
    if (p.deletionTimestamp !== void 0 || input.unreachable.has(p.nodeName)) continue;
    if (p.terminationGracePeriodSeconds * 1e3 <= timeout) continue;
    const known = Math.min(preStopSeconds(p), p.terminationGracePeriodSeconds) * 1e3;
    (known >= timeout ? surely : maybe).push(p);
  }
  const out = [];
  const wait = `drainTimeout ${formatDuration(timeout)}`;
  if (surely.length > 0) {
    const d = described(surely);
    out.push(
      stopping(
        "grace-exceeds-drain-timeout",
        input.deleteAfterDrainTimeout,
        `the drain cannot finish within ${wait}: these pods take longer to stop (a preStop sleep that long), so the drain would fail with PodEvictionFailure and leave its node cordoned, on every run: ${list(d.lines)}; ${input.advice.replace("LONGEST", formatDuration(d.longestMs))}`,
        surely.map(podId)
      )
    );
  }
  if (maybe.length > 0) {
    const d = described(maybe);
    const atTimeout = input.deleteAfterDrainTimeout ? "with deleteAfterDrainTimeout: their node is terminated at the timeout; " : "";
    out.push({
      code: "grace-exceeds-drain-timeout",
      severity: "warning",
      message: `${atTimeout}these pods may take longer to stop than the drain waits (${wait}): if they use their grace period, the drain fails with PodEvictionFailure: ${list(d.lines)}; ${input.advice.replace("LONGEST", formatDuration(d.longestMs))}`,
      objects: maybe.map(podId)
    });
  }
  return out;
}

// src/plan/zone-findings.ts
function nodesByZone(nodes, groupZones) {
  const byZone = /* @__PURE__ */ new Map();
  for (const n2 of nodes) {
    if (n2.zone === void 0) continue;
    const list3 = byZone.get(n2.zone);
    if (list3) list3.push(n2);
    else byZone.set(n2.zone, [n2]);
  }
  return { byZone, known: /* @__PURE__ */ new Set([...byZone.keys(), ...groupZones]) };
}
function strandedPods(pods, input) {
  const bound = pods.filter((p) => p.placement !== void 0);
  if (bound.length === 0) return [];
  const claims = new Map(
    (input.snapshot.claims ?? []).map((c) => [`${c.namespace}/${c.name}`, c])
  );
  const { byZone, known } = nodesByZone(input.snapshot.nodes, input.group.zones);
  const replaced = new Set(input.replacements.flatMap((r) => r.node ? [r.node] : []));
  const answers = /* @__PURE__ */ new Map();
  const out = [];
  for (const pod of bound) {
    const binding = zoneBinding(pod, claims, known);
    if (!binding) continue;
    const key = JSON.stringify([pod.placement?.nodeSelector, binding, pod.tolerations]);
    let somewhere = answers.get(key);
    if (somewhere === void 0) {
      somewhere = binding.zones.some(
        (z) => (byZone.get(z) ?? []).some((n2) => !replaced.has(n2.name) && couldTake(n2, pod, binding))
      );
      answers.set(key, somewhere);
    }
    if (!somewhere) out.push({ pod, binding });
  }
  return out;
}
var describe = (s) => `${podId(s.pod)} (${s.binding.zones.join(" or ")}: ${s.binding.why.join(", ")})`;
function zoneFindings(pods, input) {
  const out = [];
  if (input.snapshot.claimsUnread)
    out.push({
      code: "zone-pinned-pods",
      severity: "info",
      message: `the volume claims of the pods to move could not be read (${input.snapshot.claimsUnread}): whether a zonal volume ties them to a zone is not checked; grant get on persistentvolumeclaims and persistentvolumes`,
      objects: []
    });
  const stranded = strandedPods(pods, input);
  if (stranded.length === 0) return out;
  const launches = new Set(input.group.zones);
  const never2 = stranded.filter((s) => !s.binding.zones.some((z) => launches.has(z)));
  const wait = stranded.filter((s) => !never2.includes(s));
  const name = input.group.name;
  if (never2.length > 0)
    out.push(
      stopping(
        "zone-pinned-pods",
        input.deleteAfterDrainTimeout,
        `pods bound to a zone where no node outside this roll can take them and ${name} launches no node (its zones: ${input.group.zones.join(", ")}): nothing the roll does gives them a node, and apply would drain them and then fail waiting for them: ${list(never2.map(describe))}; add capacity in that zone first, or set deleteAfterDrainTimeout`,
        never2.map((s) => podId(s.pod))
      )
    );
  if (wait.length > 0) {
    const newNode = input.surge > 0 ? "the surge's or their node's replacement" : "their node's replacement, launched only after the drain (no surge)";
    out.push({
      code: "zone-pinned-pods",
      severity: "warning",
      message: `pods bound to a zone where every node that could take them is replaced by this roll: drained, they are Pending until a new node of ${name} is Ready in their zone (${newNode}), and stay Pending if the zone cannot launch one (out of capacity): ${list(wait.map(describe))}. Apply waits for them after the group's last drain, then fails naming them; to keep them up, run such workloads across zones or keep a node of their zone outside the roll`,
      objects: wait.map((s) => podId(s.pod))
    });
  }
  return out;
}

// src/plan/preflight.ts
var pdbId = (p) => `${p.namespace}/${p.name}`;
function movable(nodes, snapshot) {
  let total = 0;
  for (const run of nodes) total += run.length;
  const pods = new Array(total);
  const budgets = new Array(total);
  let n2 = 0;
  const leaving = /* @__PURE__ */ new Map();
  const deleting = [];
  const index = pdbIndexOf(snapshot.pdbs);
  const replicas2 = workloadReplicas(snapshot.workloads);
  for (const run of nodes) {
    const selected = index.onNode(run);
    for (let i = 0; i < run.length; i++) {
      const pod = run[i];
      if (pod.deletionTimestamp !== void 0) deleting.push(pod);
      if (!drainMoves(pod)) continue;
      pods[n2] = pod;
      const selecting = selected[i];
      budgets[n2++] = asksBudgets(pod) ? selecting : NO_BUDGETS;
      const floor = leaves(pod, replicas2);
      if (floor !== void 0) for (const b of selecting) leave(leaving, b, pod, floor);
    }
  }
  pods.length = n2;
  budgets.length = n2;
  return { pods, budgets, leaving, deleting, snapshot };
}
var MOVABLE = /* @__PURE__ */ Symbol("movable");
function movableOf(nodes, snapshot) {
  return derived(
    nodes,
    MOVABLE,
    (list3) => movable(list3, snapshot),
    (m) => m.snapshot === snapshot
  );
}
function leave(leaving, b, pod, floor) {
  let l = leaving.get(b);
  if (!l) leaving.set(b, l = { count: 0, floor: 0, workloads: /* @__PURE__ */ new Set() });
  l.count++;
  if (pod.workload === void 0 || l.workloads.has(pod.workload)) return;
  l.workloads.add(pod.workload);
  l.floor += floor;
}
function leaves(pod, replicas2) {
  if (pod.deletionTimestamp === void 0) return void 0;
  if (!pod.owner) return 0;
  const kind = pod.owner.kind;
  if (kind !== "ReplicaSet" && kind !== "ReplicationController") return void 0;
  return pod.workload === void 0 ? void 0 : replicas2.get(pod.workload);
}
function expectedOnceGone(pdb, leaving) {
  if (!leaving || typeof pdb.minAvailable !== "number" || pdb.maxUnavailable !== void 0)
    return pdb.expectedPods;
  return Math.max(pdb.expectedPods - leaving.count, leaving.floor);
}
function neverAllows(pdb, leaving) {
  const expected = expectedOnceGone(pdb, leaving);
  if (pdb.maxUnavailable !== void 0)
    return expected > 0 && scaled(pdb.maxUnavailable, expected) === 0;
  if (pdb.minAvailable === "100%") return true;
  return pdb.minAvailable !== void 0 && expected > 0 && scaled(pdb.minAvailable, expected) >= expected;
}
function scaled(v, expected) {
  return typeof v === "number" ? v : Math.ceil(Number(v.replace("%", "")) * expected / 100);
}
function isSingle(pod, workload2, replicas2) {
  return (pod.replicas ?? replicas2.get(workload2)) === 1;
}
function pdbFindings(pods, budgets, leaving, deleteAfterDrainTimeout) {
  const out = [];
  const blocking = /* @__PURE__ */ new Map();
  const closed = /* @__PURE__ */ new Map();
  const multiple = [];
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i];
    const selecting = budgets[i];
    if (selecting.length > 1) multiple.push(`${podId(pod)} (${selecting.map(pdbId).join(", ")})`);
    for (let j = 0; j < selecting.length; j++) {
      const b = selecting[j];
      const never2 = neverAllows(b, leaving.get(b));
      const bucket = never2 ? blocking : b.disruptionsAllowed === 0 ? closed : void 0;
      if (!bucket) continue;
      const on = bucket.get(b);
      if (on) on.push(podId(pod));
      else bucket.set(b, [podId(pod)]);
    }
  }
  for (const [b, on] of blocking) {
    out.push(
      stopping(
        "pdb-blocks",
        deleteAfterDrainTimeout,
        `PodDisruptionBudget ${pdbId(b)} never allows a disruption (${describePdb(b, leaving.get(b))}): draining ${list(on)} would fail with PodEvictionFailure; scale the workload up, relax the PDB, or set deleteAfterDrainTimeout`,
        [`PodDisruptionBudget/${pdbId(b)}`, ...on]
      )
    );
  }
  for (const [b, on] of closed) {
    out.push({
      code: "pdb-closed-now",
      severity: "warning",
      message: `${deleteAfterDrainTimeout ? `with deleteAfterDrainTimeout: ${AT_DRAIN_TIMEOUT["pdb-closed-now"]}: ` : ""}PodDisruptionBudget ${pdbId(b)} allows no disruption right now (${b.currentHealthy} healthy, ${b.desiredHealthy} required): the drain of ${list(on)} waits until it does`,
      objects: [`PodDisruptionBudget/${pdbId(b)}`, ...on]
    });
  }
  if (multiple.length > 0) {
    out.push(
      stopping(
        "multiple-pdbs",
        deleteAfterDrainTimeout,
        `more than one PodDisruptionBudget selects ${list(multiple)}: the eviction API refuses such pods (HTTP 500), so their drain would fail`,
        multiple
      )
    );
  }
  return out;
}
function describePdb(b, leaving) {
  if (b.maxUnavailable !== void 0) return `maxUnavailable ${b.maxUnavailable}`;
  const n2 = expectedOnceGone(b, leaving);
  const counted = b.expectedPods - n2;
  const gone2 = counted > 0 ? ` once the ${counted} being deleted ${counted === 1 ? "is" : "are"} gone` : "";
  return `minAvailable ${b.minAvailable} of ${n2} pod${n2 === 1 ? "" : "s"}${gone2}`;
}
function toleratesCordon(tolerations) {
  return tolerations.length > 0 && tolerations.some(toleratesUnschedulable);
}
function toleratesUnschedulable(t) {
  if (t.effect && t.effect !== "NoSchedule") return false;
  if (!t.key) return t.operator === "Exists";
  return t.key === "node.kubernetes.io/unschedulable" && (t.operator === "Exists" || (t.value ?? "") === "");
}
var lacksProbe = (c) => !c.readinessProbe;
function workloadFindings(pods, snapshot, deleteAfterDrainTimeout) {
  const out = [];
  const replicas2 = workloadReplicas(snapshot.workloads);
  const single = /* @__PURE__ */ new Set();
  const noProbe = /* @__PURE__ */ new Set();
  const everything = [];
  const preStop2 = [];
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i];
    const workload2 = pod.workload ?? (pod.owner ? `${pod.owner.kind}/${pod.namespace}/${pod.owner.name}` : `Pod/${podId(pod)}`);
    if (!pod.owner || isSingle(pod, workload2, replicas2)) single.add(workload2);
    if (pod.containers.some(lacksProbe) && pod.owner && pod.owner.kind !== "Job")
      noProbe.add(workload2);
    if (toleratesCordon(pod.tolerations)) everything.push(podId(pod));
    let sleep = 0;
    for (let c = 0; c < pod.containers.length; c++)
      sleep = Math.max(sleep, pod.containers[c]?.preStopSleepSeconds ?? 0);
    if (sleep > 0 && sleep >= pod.terminationGracePeriodSeconds)
      preStop2.push(
        `${podId(pod)} (preStop ${sleep}s, grace ${pod.terminationGracePeriodSeconds}s)`
      );
  }
  if (single.size > 0)
    out.push({
      code: "single-replica",
      severity: "warning",
      message: `single-replica workloads go down while their node drains: ${list([...single])}; run 2 or more replicas with a PodDisruptionBudget (minAvailable: 1)`,
      objects: [...single]
    });
  if (everything.length > 0)
    out.push(
      stopping(
        "tolerates-everything",
        deleteAfterDrainTimeout,
        `pods that tolerate every taint, or the cordon's (node.kubernetes.io/unschedulable), return to the cordoned node, so the drain cannot empty it (EKS: PodEvictionFailure): ${list(everything)}`,
        everything
      )
    );
  if (preStop2.length > 0)
    out.push({
      code: "prestop-exceeds-grace",
      severity: "warning",
      message: `preStop sleeps not shorter than terminationGracePeriodSeconds are cut off by SIGKILL: ${list(preStop2)}`,
      objects: preStop2
    });
  if (noProbe.size > 0)
    out.push({
      code: "no-readiness-probe",
      severity: "info",
      message: `no readiness probe, so traffic may reach replacement pods before they are ready: ${list([...noProbe])}`,
      objects: [...noProbe]
    });
  return out;
}
function surgeBurst(input) {
  const { group: group3, snapshot, surge } = input;
  const total = Math.max(1, snapshot.clusterNodeCount);
  if (surge <= 1 || surge / total < 0.1) return [];
  return [
    {
      code: "surge-burst",
      severity: "warning",
      message: `${group3.name} launches ${surge} node${surge === 1 ? "" : "s"} at once, ${Math.round(100 * surge / total)}% of the cluster's ${total}: bursts of 10% or more strain the API server (DaemonSet pods, watches); ${input.surgeAdvice}`,
      objects: [group3.name]
    }
  ];
}
function unmanagedFindings(pods, unmanaged) {
  const orphans = pods.filter((p) => !p.owner && !p.mirror);
  if (orphans.length === 0) return [];
  const staying = orphans.filter((p) => p.deletionTimestamp === void 0).map(podId);
  const going = orphans.filter((p) => p.deletionTimestamp !== void 0).map(podId);
  const objects = orphans.map(podId);
  if (unmanaged === "evict") {
    const what = [
      ...staying.length > 0 ? [
        `pods with no controller are evicted like the rest, and nothing brings them back: ${list(staying)}`
      ] : [],
      ...going.length > 0 ? [`pods with no controller already being deleted are waited for: ${list(going)}`] : []
    ];
    const message2 = `${what.join("; ")}; run them under a controller (a Deployment, a StatefulSet), or set unmanagedPods: refuse to stop the group instead`;
    return [{ code: "unmanaged-pods", severity: "warning", message: message2, objects }];
  }
  const why2 = [
    ...staying.length > 0 ? [
      `pods with no controller would not come back once their node is drained: ${list(staying)}; delete them or run them under a controller (a Deployment, a StatefulSet)`
    ] : [],
    // Deleting them is done already: the drain refuses them all the same until they are gone.
    ...going.length > 0 ? [`pods with no controller, already being deleted: ${list(going)}; wait until they are gone`] : []
  ];
  const message = `${why2.join("; ")}; or set unmanagedPods: evict, as kOps drains (unmanagedPods: refuse is kubectl drain without --force)`;
  return [{ code: "unmanaged-pods", severity: "blocker", message, objects }];
}
function stuckFindings(deleting, input, unreachable) {
  const stuck = deleting.filter((p) => !unreachable.has(p.nodeName)).filter((p) => drainWaitsFor(p) && heldPastDeletion(p, input.snapshot.takenAt)).map((p) => `${podId(p)} (deletion due ${p.deletionTimestamp})`);
  if (stuck.length === 0) return [];
  return [
    stopping(
      "stuck-terminating",
      input.deleteAfterDrainTimeout,
      `pods still there after their deletion was due, held by a finalizer or an unreachable kubelet, keep their node's drain waiting until it times out: ${list(stuck)}; remove the finalizer (kubectl patch … -p '{"metadata":{"finalizers":null}}') or, for a lost node, delete them with --grace-period=0 --force, or set deleteAfterDrainTimeout`,
      stuck
    )
  ];
}
function drainHolds(nodes, snapshot) {
  const { pods, budgets, leaving } = movableOf(nodes, snapshot);
  const holds = /* @__PURE__ */ new Map();
  const hold = (code, pod) => {
    const on = holds.get(code);
    if (on) on.add(pod.nodeName);
    else holds.set(code, /* @__PURE__ */ new Set([pod.nodeName]));
  };
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i];
    const selecting = budgets[i];
    if (selecting.length > 1) hold("multiple-pdbs", pod);
    if (selecting.some((b) => neverAllows(b, leaving.get(b)))) hold("pdb-blocks", pod);
    if (toleratesCordon(pod.tolerations)) hold("tolerates-everything", pod);
  }
  return holds;
}
function preflight(input) {
  const { pods, budgets, leaving, deleting } = movableOf(input.nodes, input.snapshot);
  const unreachable = leftUnreachable(input);
  return [
    ...surgeBurst(input),
    ...input.groupFindings,
    ...disruptedFindings(input),
    ...noNodeFindings(input),
    ...unreachableFindings(deleting, input, unreachable),
    ...unmanagedFindings(pods, input.unmanagedPods),
    ...stuckFindings(deleting, input, unreachable),
    ...pdbFindings(pods, budgets, leaving, input.deleteAfterDrainTimeout),
    ...workloadFindings(pods, input.snapshot, input.deleteAfterDrainTimeout),
    ...zoneFindings(pods, input),
    ...graceFindings(pods, {
      drainTimeoutMs: input.drainTimeoutMs,
      deleteAfterDrainTimeout: input.deleteAfterDrainTimeout,
      advice: input.drainTimeoutAdvice,
      unreachable
    })
  ];
}

// src/plan/pod-rows.ts
var [NAME, LABELS, OWNER, TOLERATIONS, CONTAINERS] = [0, 1, 2, 3, 4];
var REFS = 5;
var READY = 1;
var MIRROR = 2;
var ROWS = 2048;
function zeros(n2) {
  return new Array(n2).fill(-0);
}
var Chunk = class {
  refs = new Array(ROWS * REFS);
  ns = zeros(ROWS);
  /** Let go once its rows are placed: a placed row's node is its range's to say. */
  node = zeros(ROWS);
  phase = zeros(ROWS);
  grace = zeros(ROWS);
  flags = zeros(ROWS);
};
function chunkOf(chunks, r) {
  return chunks[Math.floor(r / ROWS)];
}
function rowIn(r) {
  return r % ROWS;
}
function reordered(byRead, order) {
  const out = /* @__PURE__ */ new Map();
  if (byRead.size > 0)
    for (let to = 0; to < order.length; to++) {
      const v = byRead.get(order[to]);
      if (v !== void 0) out.set(to, v);
    }
  byRead.clear();
  return out;
}
function move(a, i, b, j) {
  b.ns[j] = a.ns[i];
  b.phase[j] = a.phase[i];
  b.grace[j] = a.grace[i];
  b.flags[j] = a.flags[i];
  for (let r = 0; r < REFS; r++) b.refs[j * REFS + r] = a.refs[i * REFS + r];
}
var Bucket = class {
  chunks = [];
  /** Deletion timestamps by row: few pods have one. */
  deleting = /* @__PURE__ */ new Map();
  /** What binds a pod to a zone, by row (PodPlacement): few pods have it. */
  placements = /* @__PURE__ */ new Map();
  count = 0;
  /** The chunk row `k` goes in, made when it is the first of its chunk. */
  chunk(k) {
    return this.chunks[Math.floor(k / ROWS)] ?? this.#grow();
  }
  #grow() {
    const chunk2 = new Chunk();
    this.chunks.push(chunk2);
    return chunk2;
  }
  #node(k) {
    return chunkOf(this.chunks, k).node[rowIn(k)];
  }
  /**
   * Its rows node by node (`first`: its first node, of `nodes`), each node's as read: a counting
   * sort, then the rows moved into that order where they are. A plan asks for the pods of a
   * group's nodes, scattered over every range: a node's rows together are a few cache lines
   * where, left as read, each of its pods missed the cache in each of the row's arrays. Moved,
   * not copied: a copy was 72 bytes a pod more to fault in (~43 MB on 20,000 nodes), let go at
   * once.
   */
  place(first, nodes) {
    const ends = zeros(nodes + 1);
    for (let k = 0; k < this.count; k++) ends[this.#node(k) - first + 1]++;
    for (let i = 0; i < nodes; i++) ends[i + 1] += ends[i];
    const order = zeros(this.count);
    for (let k = 0; k < this.count; k++) order[ends[this.#node(k) - first]++] = k;
    const deleting = reordered(this.deleting, order);
    const placements = reordered(this.placements, order);
    this.#permute(order);
    const chunks = this.chunks.splice(0);
    for (const chunk2 of chunks) chunk2.node.length = 0;
    return { chunks, size: this.count, ends, deleting, placements };
  }
  /**
   * Row `order[to]` moved to row `to`, for every row: one cycle of the permutation at a time,
   * its first row held aside in `spare` while the others move up. `order` is used up (-1:
   * placed).
   */
  #permute(order) {
    const spare = new Chunk();
    for (let start = 0; start < order.length; start++) {
      if (order[start] < 0) continue;
      move(this.chunk(start), rowIn(start), spare, 0);
      let to = start;
      for (let from = order[to]; from !== start; from = order[to]) {
        order[to] = -1;
        move(this.chunk(from), rowIn(from), this.chunk(to), rowIn(to));
        to = from;
      }
      order[to] = -1;
      move(spare, 0, this.chunk(to), rowIn(to));
    }
  }
};

// src/plan/pod-store.ts
var SLEEP = /\bsleep\s+(\d+)/;
function preStopSeconds2(c) {
  const hook = c.lifecycle?.preStop;
  if (hook?.sleep) return hook.sleep.seconds;
  if (!hook?.exec) return void 0;
  const m = SLEEP.exec(hook.exec.command.join(" "));
  return m ? Number(m[1]) : void 0;
}
function containerInfo(name, readinessProbe, sleep) {
  return { name, readinessProbe, ...sleep !== void 0 && { preStopSleepSeconds: sleep } };
}
var NO_TOLERATIONS = Object.freeze([]);
function keepFirst(map, key, value) {
  const known = map.get(key);
  if (known !== void 0) return known;
  map.set(key, value);
  return value;
}
var Shared = class {
  #single = /* @__PURE__ */ new Map();
  #containers = /* @__PURE__ */ new Map();
  #tolerations = /* @__PURE__ */ new Map();
  containers(p) {
    const c = p.spec.containers[0];
    if (c && p.spec.containers.length === 1) {
      const sleep = preStopSeconds2(c);
      const probe = c.readinessProbe !== void 0;
      const bySleep = inner(inner(this.#single, c.name), probe);
      return bySleep.get(sleep) ?? keepFirst(bySleep, sleep, [containerInfo(c.name, probe, sleep)]);
    }
    const list3 = p.spec.containers.map(
      (c2) => containerInfo(c2.name, c2.readinessProbe !== void 0, preStopSeconds2(c2))
    );
    const key = list3.map((c2) => `${c2.name}\0${c2.readinessProbe}\0${c2.preStopSleepSeconds}`).join("");
    return keepFirst(this.#containers, key, list3);
  }
  /** The pod's tolerations: its owner's last pod's when equal (no key string made), kept once. */
  tolerations(list3, known) {
    if (!list3 || list3.length === 0) return NO_TOLERATIONS;
    if (known?.tolerations && sameTolerations(known.tolerations, list3)) return known.tolerations;
    const kept = keepFirst(this.#tolerations, JSON.stringify(list3), list3);
    if (known) known.tolerations = kept;
    return kept;
  }
};
function sameTolerations(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.key !== y.key || x.operator !== y.operator || x.value !== y.value) return false;
    if (x.effect !== y.effect || x.tolerationSeconds !== y.tolerationSeconds) return false;
  }
  return true;
}
function sameLabels(a, b) {
  let n2 = 0;
  for (const k in b) {
    if (!Object.hasOwn(a, k) || a[k] !== b[k]) return false;
    n2++;
  }
  for (const _ in a) n2--;
  return n2 === 0;
}
function labelsOf(p, known) {
  const labels = p.metadata.labels ?? {};
  if (!known) return labels;
  if (known.labels && sameLabels(known.labels, labels)) return known.labels;
  return known.labels = labels;
}
function budgetsOf(index, known, namespace, labels) {
  const owners2 = known?.labels;
  if (!known || !owners2) return index.selects(namespace, labels);
  if (labels === owners2) return known.budgets ??= index.selects(namespace, labels);
  if (!index.alike(namespace, labels, owners2)) return index.selects(namespace, labels);
  const budgets = known.budgets ??= index.selects(namespace, owners2);
  return budgets.length <= 1 ? budgets : index.selects(namespace, labels);
}
var Strings = class {
  list = [];
  #index = /* @__PURE__ */ new Map();
  of(text3) {
    let i = this.#index.get(text3);
    if (i === void 0) this.#index.set(text3, i = this.list.push(text3) - 1);
    return i;
  }
};
var PodStore = class {
  /**
   * `nodeNames`: the nodes read; a pod is added with its node's index among them. `shift`:
   * 2^shift nodes to a range (512: about a megabyte of rows at 30 pods a node).
   */
  constructor(nodeNames2, shift = 9) {
    this.nodeNames = nodeNames2;
    this.shift = shift;
    const count2 = Math.ceil(nodeNames2.length / (1 << shift));
    this.#index = new Map(nodeNames2.map((n2, i) => [n2, i]));
    this.#buckets = Array.from({ length: count2 }, () => new Bucket());
  }
  nodeNames;
  shift;
  #shared = new Shared();
  #owners = new Owners();
  /** Each namespace read, by itself: one string kept for all its pods, not one per pod. */
  #namespaces = new Strings();
  #phases = new Strings();
  #buckets;
  #placed;
  #index;
  /** The index of the budgets byNode was given, which says which select each pod. */
  #budgets;
  /** The claims the pods' volumes name, "namespace/name", each once. */
  #claims = /* @__PURE__ */ new Set();
  /** Node `name`'s index among the nodes read (undefined for another node). */
  indexOf(name) {
    return this.#index.get(name);
  }
  add(node, p) {
    if (this.#placed) throw new Error("PodStore: a pod added after the pods were placed");
    const bucket = this.#buckets[node >> this.shift];
    const k = bucket.count++;
    const chunk2 = bucket.chunk(k);
    const row = rowIn(k);
    const at5 = row * REFS;
    const nsIndex = this.#namespaces.of(p.metadata.namespace ?? "default");
    const ns = this.#namespaces.list[nsIndex];
    const o = controllerOf(p);
    const known = o && this.#owners.of(ns, o);
    chunk2.refs[at5 + NAME] = p.metadata.name;
    chunk2.refs[at5 + LABELS] = labelsOf(p, known);
    chunk2.refs[at5 + OWNER] = known;
    chunk2.refs[at5 + TOLERATIONS] = this.#shared.tolerations(p.spec.tolerations, known);
    chunk2.refs[at5 + CONTAINERS] = this.#shared.containers(p);
    chunk2.ns[row] = nsIndex;
    chunk2.node[row] = node;
    chunk2.phase[row] = this.#phases.of(p.status.phase);
    chunk2.grace[row] = p.spec.terminationGracePeriodSeconds ?? 30;
    chunk2.flags[row] = (hasReadyCondition(p.status.conditions) ? READY : 0) | (isMirrorPod(p) ? MIRROR : 0);
    const deletion = p.metadata.deletionTimestamp;
    if (deletion !== void 0) bucket.deleting.set(k, deletion);
    const placement = p.spec.nodeSelector || p.spec.affinity || p.spec.volumes ? placementOf(p) : void 0;
    if (placement === void 0) return;
    bucket.placements.set(k, placement);
    for (const claim of placement.claims ?? []) this.#claims.add(`${ns}/${claim}`);
  }
  /** The claims the pods read name, to read with their volumes (claims.ts). */
  get claims() {
    return [...this.#claims].sort().map((key) => {
      const at5 = key.indexOf("/");
      return { namespace: key.slice(0, at5), name: key.slice(at5 + 1) };
    });
  }
  /** The namespaces of the pods read. */
  get namespaces() {
    return new Set(this.#namespaces.list);
  }
  /** Each range's rows placed node by node, once all are read (see Bucket.place). */
  #place() {
    if (this.#placed) return this.#placed;
    const size = 1 << this.shift;
    this.#placed = this.#buckets.map(
      (bucket, b) => bucket.place(b * size, Math.min(size, this.nodeNames.length - b * size))
    );
    return this.#placed;
  }
  /**
   * The owners to look up (ReplicaSets, StatefulSets, Deployments), in the order of their pods,
   * once every pod is read, and each one's place among them by kind, namespace and name.
   */
  ownersToRead() {
    const refs = [];
    const at5 = new Int32Array(this.#owners.count).fill(-1);
    for (const { chunks, size } of this.#place()) {
      for (let r = 0; r < size; r++) {
        const known = chunkOf(chunks, r).refs[rowIn(r) * REFS + OWNER];
        if (!known?.ref || at5[known.seq] >= 0) continue;
        at5[known.seq] = refs.length;
        refs.push(known.ref);
      }
    }
    const index = (kind, ns, name) => {
      const known = this.#owners.find(kind, ns, name);
      const i = known ? at5[known.seq] : -1;
      return i >= 0 ? i : void 0;
    };
    return { refs, index };
  }
  /**
   * The pods, once all and their owners are read, as NodePods: a node's PodInfo are made from
   * its rows when asked, each with its owner's workload and that workload's replicas (where
   * `workloads` has it) and the budgets of `pdbs` that select it (where `pdbs` are given), and
   * none is kept here.
   */
  byNode(pdbs, workloads3) {
    this.#owners.settle(workloads3);
    this.#budgets = pdbs && pdbIndexOf(pdbs);
    const placed = this.#place();
    return {
      on: (node) => {
        const i = this.indexOf(node);
        return i === void 0 ? [] : this.#onNode(placed, i);
      },
      all: () => this.nodeNames.flatMap((_, i) => this.#onNode(placed, i))
    };
  }
  /** The PodInfo of node `i`'s rows, in the order read. */
  #onNode(placed, i) {
    const range = placed[i >> this.shift];
    const j = i & (1 << this.shift) - 1;
    const from = j === 0 ? 0 : range.ends[j - 1];
    const to = range.ends[j];
    const out = new Array(to - from);
    const nodeName = this.nodeNames[i];
    for (let r = from; r < to; r++) out[r - from] = this.#info(range, r, nodeName);
    return out;
  }
  /**
   * Row `row` of a placed range, on node `nodeName`, as PodInfo, its fields in the order the
   * snapshot has always given them. Plain literals, one per common shape: a literal with
   * conditional spreads is built key by key through a temporary object each, the largest part of
   * the read's own time on 3 million pods. A mirror pod, a pod being deleted and one something
   * may bind to a zone (all rare) take the general path.
   */
  #info(range, r, nodeName) {
    const chunk2 = chunkOf(range.chunks, r);
    const row = rowIn(r);
    const at5 = row * REFS;
    const known = chunk2.refs[at5 + OWNER];
    const workload2 = known?.workload;
    const namespace = this.#namespaces.list[chunk2.ns[row]];
    const name = chunk2.refs[at5 + NAME];
    const labels = chunk2.refs[at5 + LABELS];
    const phase = this.#phases.list[chunk2.phase[row]];
    const flags = chunk2.flags[row];
    const ready = (flags & READY) !== 0;
    const tolerations = chunk2.refs[at5 + TOLERATIONS];
    const terminationGracePeriodSeconds = chunk2.grace[row];
    const containers = chunk2.refs[at5 + CONTAINERS];
    const mirror = (flags & MIRROR) !== 0;
    const deletionTimestamp = range.deleting.size > 0 ? range.deleting.get(r) : void 0;
    const placement = range.placements.size > 0 ? range.placements.get(r) : void 0;
    const budgets = this.#budgets && budgetsOf(this.#budgets, known, namespace, labels);
    const replicas2 = known?.replicas;
    if (mirror || deletionTimestamp !== void 0 || placement !== void 0)
      return {
        ...{ namespace, name, nodeName, labels },
        ...known && { owner: known.owner },
        ...{ phase, ready, tolerations, terminationGracePeriodSeconds, containers },
        ...mirror && { mirror: true },
        ...workload2 && { workload: workload2 },
        ...deletionTimestamp !== void 0 && { deletionTimestamp },
        budgets,
        replicas: replicas2,
        ...placement && { placement }
      };
    if (!known)
      return {
        namespace,
        name,
        nodeName,
        labels,
        phase,
        ready,
        tolerations,
        terminationGracePeriodSeconds,
        containers,
        budgets,
        replicas: replicas2
      };
    const owner = known.owner;
    if (workload2 === void 0)
      return {
        namespace,
        name,
        nodeName,
        labels,
        owner,
        phase,
        ready,
        tolerations,
        terminationGracePeriodSeconds,
        containers,
        budgets,
        replicas: replicas2
      };
    return {
      namespace,
      name,
      nodeName,
      labels,
      owner,
      phase,
      ready,
      tolerations,
      terminationGracePeriodSeconds,
      containers,
      workload: workload2,
      budgets,
      replicas: replicas2
    };
  }
};

// src/plan/read.ts
async function launchTemplateRef(cloud, spec2) {
  if (!spec2?.LaunchTemplateId && !spec2?.LaunchTemplateName) return void 0;
  const versions2 = await cloud.ec2.describeLaunchTemplateVersions({
    ...spec2.LaunchTemplateId ? { LaunchTemplateId: spec2.LaunchTemplateId } : { LaunchTemplateName: spec2.LaunchTemplateName },
    Versions: ["$Latest", "$Default"]
  });
  const latest = Math.max(...versions2.map((v) => v.VersionNumber));
  const dflt = versions2.find((v) => v.DefaultVersion)?.VersionNumber ?? latest;
  const configured = spec2.Version ?? "$Default";
  const resolved = configured === "$Latest" ? latest : configured === "$Default" ? dflt : Number(configured);
  return {
    id: versions2[0]?.LaunchTemplateId ?? spec2.LaunchTemplateId ?? "",
    ...spec2.LaunchTemplateName && { name: spec2.LaunchTemplateName },
    configured,
    resolved,
    latest,
    default: dflt
  };
}
function instancesOf(asg, launchTimes2) {
  return asg.Instances.map((i) => {
    const launchTime = launchTimes2.get(i.InstanceId);
    return {
      id: i.InstanceId,
      zone: i.AvailabilityZone,
      ...i.LaunchTemplate?.Version && /^\d+$/.test(i.LaunchTemplate.Version) && {
        launchTemplateVersion: Number(i.LaunchTemplate.Version)
      },
      ...i.LaunchTemplate?.LaunchTemplateId && {
        launchTemplate: i.LaunchTemplate.LaunchTemplateId
      },
      lifecycleState: i.LifecycleState,
      ...launchTime && { launchTime }
    };
  });
}
async function launchTimesWithoutNode(cloud, ids, nodes) {
  const registered = new Set(nodes.map(instanceIdOf));
  return launchTimes(
    cloud,
    ids.filter((id2) => !registered.has(id2))
  );
}
async function launchTimes(cloud, ids) {
  const out = /* @__PURE__ */ new Map();
  for (let i = 0; i < ids.length; i += 500) {
    for (const inst of await cloud.ec2.describeInstances({ InstanceIds: ids.slice(i, i + 500) }))
      out.set(inst.InstanceId, inst.LaunchTime);
  }
  return out;
}
function nodeInfo(n2, groupOf) {
  const instanceId = instanceIdOf(n2);
  const group3 = groupOf(n2);
  const zone = n2.metadata.labels?.["topology.kubernetes.io/zone"];
  return {
    name: n2.metadata.name,
    ...instanceId && { instanceId },
    ...group3 && { group: group3 },
    ...zone && { zone },
    labels: n2.metadata.labels ?? {},
    annotations: n2.metadata.annotations ?? {},
    taints: n2.spec.taints ?? [],
    unschedulable: n2.spec.unschedulable ?? false,
    ready: hasReadyCondition(n2.status.conditions),
    ...hasUnknownReadyCondition(n2.status.conditions) && { unreachable: true },
    createdAt: new Date(n2.metadata.creationTimestamp ?? 0),
    ...n2.status.nodeInfo && { kubeletVersion: n2.status.nodeInfo.kubeletVersion }
  };
}
function pdbInfo(b) {
  return {
    namespace: b.metadata.namespace ?? "default",
    name: b.metadata.name,
    ...b.spec.selector && { selector: b.spec.selector },
    ...b.spec.minAvailable !== void 0 && { minAvailable: b.spec.minAvailable },
    ...b.spec.maxUnavailable !== void 0 && { maxUnavailable: b.spec.maxUnavailable },
    disruptionsAllowed: b.status.disruptionsAllowed,
    currentHealthy: b.status.currentHealthy,
    desiredHealthy: b.status.desiredHealthy,
    expectedPods: b.status.expectedPods
  };
}
var DEFAULT_MAX_PODS = 110;
function readPath(nodesToReplace, snapshot) {
  const capacity2 = snapshot.clusterPodCapacity ?? snapshot.clusterNodeCount * DEFAULT_MAX_PODS;
  return Math.ceil(capacity2 / PAGE_SIZE) < nodesToReplace ? "cluster-wide" : "by-node";
}
async function podsByNode(cluster, nodeNames2, store, onProgress) {
  let done = 0;
  await mapLimit(
    nodeNames2.map((node, i) => [node, i]),
    CONCURRENCY,
    async ([node, i]) => {
      await eachPage(
        (cont) => cluster.listPods(void 0, pageOf(cont, { fieldSelector: `spec.nodeName=${node}` })),
        (items) => items.forEach((p) => store.add(i, p))
      );
      onProgress?.({ phase: "pods", done: ++done, total: nodeNames2.length });
    }
  );
}
async function readBudgets(cluster, namespaces, path, onProgress) {
  const sorted = [...namespaces].sort();
  if (path === "cluster-wide") {
    const rank2 = new Map(sorted.map((ns, i) => [ns, i]));
    const kept = [];
    await eachPage(
      (cont) => cluster.listPodDisruptionBudgets(void 0, pageOf(cont)),
      (page) => {
        for (const b of page) {
          const at5 = rank2.get(b.metadata.namespace ?? "default");
          if (at5 !== void 0) kept.push({ info: pdbInfo(b), at: at5 });
        }
      }
    );
    onProgress?.({ phase: "budgets", done: sorted.length, total: sorted.length });
    return kept.sort((x, y) => x.at - y.at).map(({ info }) => info);
  }
  let done = 0;
  const pdbs = await mapLimit(sorted, CONCURRENCY, async (ns) => {
    const r = await listAll((cont) => cluster.listPodDisruptionBudgets(ns, pageOf(cont)));
    onProgress?.({ phase: "budgets", done: ++done, total: sorted.length });
    return r.items.map(pdbInfo);
  });
  return pdbs.flat();
}
async function podsClusterWide(cluster, nodeNames2, store, onProgress) {
  let listed2 = 0;
  await eachPage(
    (cont) => cluster.listPods(void 0, pageOf(cont)),
    (items) => {
      for (const p of items) {
        const i = p.spec.nodeName === void 0 ? void 0 : store.indexOf(p.spec.nodeName);
        if (i !== void 0) store.add(i, p);
      }
      onProgress?.({ phase: "pods", done: listed2 += items.length });
    }
  );
}
async function addWorkloads(snapshot, nodeNames2, cluster, onProgress, owned, path = readPath(nodeNames2.length, snapshot)) {
  const store = new PodStore(nodeNames2);
  const read = path === "cluster-wide" ? podsClusterWide : podsByNode;
  await read(cluster, nodeNames2, store, onProgress);
  const pdbs = await readBudgets(cluster, store.namespaces, path, onProgress);
  const owners2 = store.ownersToRead();
  const workloads3 = await readWorkloads(cluster, owners2.refs, {
    listed: path === "cluster-wide",
    onProgress: onProgress && ((done, total) => onProgress({ phase: "owners", done, total })),
    cache: owned,
    index: owners2.index
  });
  const { claims, unread } = await readClaims(cluster, store.claims);
  return {
    ...snapshot,
    pods: store.byNode(pdbs, workloads3),
    pdbs,
    workloads: workloads3,
    ...claims.length > 0 && { claims },
    ...unread && { claimsUnread: unread }
  };
}

// src/plan/summary.ts
var stops = (g) => g.status === "blocked" || g.status === "error";
function notStartedAfter(groups2, index) {
  return groups2.slice(index + 1).filter((g) => g.status !== "no-change");
}
function stopIndex(groups2) {
  return groups2.findIndex(stops);
}
function reachedGroups(groups2) {
  const stop = stopIndex(groups2);
  return stop < 0 ? [...groups2] : groups2.slice(0, stop);
}
function summarize(groups2) {
  const reached2 = reachedGroups(groups2);
  const rolling = reached2.filter((g) => g.status === "roll");
  const stop = stopIndex(groups2);
  const at5 = groups2[stop];
  return {
    groupsToRoll: rolling.length,
    nodesToReplace: rolling.reduce((n2, g) => n2 + g.replacements.length, 0),
    configChanges: reached2.reduce((n2, g) => n2 + g.configChanges.length, 0),
    cleanups: reached2.filter((g) => g.status === "cleanup").length,
    blocked: groups2.filter((g) => g.status === "blocked").length,
    errors: groups2.filter((g) => g.status === "error").length,
    estimatedMs: rolling.reduce((n2, g) => n2 + g.schedule.estimatedMs, 0),
    ...at5 && {
      stopsAt: {
        group: at5.name,
        index: stop,
        status: at5.status,
        notStarted: notStartedAfter(groups2, stop).map((g) => g.name)
      }
    }
  };
}
function summaryLine(s) {
  const plural2 = (n2, word) => `${n2} ${word}${n2 === 1 ? "" : "s"}`;
  const cleanups = s.cleanups ?? 0;
  if (s.groupsToRoll + s.configChanges + cleanups + s.blocked + s.errors === 0)
    return "No changes. The node groups match the policy.";
  const errors = s.errors > 0 ? `, ${plural2(s.errors, "error")}` : "";
  const marks = cleanups > 0 ? `, ${plural2(cleanups, "group")} with marks to clear` : "";
  return `Plan: ${plural2(s.groupsToRoll, "group")} to roll (${plural2(s.nodesToReplace, "node")}), ${plural2(s.configChanges, "config change")}${marks}, ${s.blocked} blocked${errors}.`;
}
function hasChanges(plan) {
  const s = plan.summary;
  return s.groupsToRoll + s.configChanges + (s.cleanups ?? 0) + s.blocked > 0;
}

// src/plan/suspended.ts
function suspendedOf(asg) {
  const processes = (asg.SuspendedProcesses ?? []).map((p) => ({
    name: p.ProcessName,
    ...p.SuspensionReason && { reason: p.SuspensionReason }
  }));
  return processes.length > 0 ? { autoScalingGroup: asg.AutoScalingGroupName, processes } : void 0;
}
var COST = {
  Launch: {
    "self-managed": "it launches no instance, so every node drained and terminated would leave the group a node short for good",
    managed: "EKS's update launches its new nodes through it: none would come, and the update would fail (NodeCreationFailure) with the group's nodes cordoned"
  },
  Terminate: {
    "self-managed": "it terminates none of its InService instances, so no old node would leave the group",
    managed: "EKS could not terminate the old nodes it drained, nor scale the group back down"
  }
};
function resume(asg, names2) {
  return `aws autoscaling resume-processes --auto-scaling-group-name ${asg} --scaling-processes ${names2.join(" ")}`;
}
function suspendedFindings(group3) {
  const s = group3.suspended;
  if (!s) return [];
  const asg = s.autoScalingGroup;
  const out = [];
  const stopping2 = s.processes.filter((p) => p.name === "Launch" || p.name === "Terminate");
  if (stopping2.length > 0) {
    const each2 = stopping2.map(
      (p) => `${p.name}${p.reason ? ` (${p.reason})` : ""}: ${COST[p.name][group3.kind]}`
    );
    out.push({
      code: "processes-suspended",
      severity: "blocker",
      message: `Auto Scaling group ${asg} has ${stopping2.length === 1 ? "a process" : "processes"} suspended that a roll needs — ${each2.join("; ")}. deleteAfterDrainTimeout does not get past this: once whoever suspended ${stopping2.length === 1 ? "it" : "them"} agrees, ${resume(
        asg,
        stopping2.map((p) => p.name)
      )}`,
      objects: [asg]
    });
  }
  if (s.processes.some((p) => p.name === "AddToLoadBalancer"))
    out.push({
      code: "processes-suspended",
      severity: "warning",
      message: `Auto Scaling group ${asg} has AddToLoadBalancer suspended: replacements are not registered with its load balancers or target groups, if it has any, which lose an instance with each old node terminated (${resume(asg, ["AddToLoadBalancer"])})`,
      objects: [asg]
    });
  return out;
}

// src/plan/waves.ts
var BOOT_ESTIMATE_MS = 15e4;
var EVICTION_OVERHEAD_MS = 5e3;
function heldBy(holds, codes) {
  const out = /* @__PURE__ */ new Set();
  for (const code of codes) for (const node of holds?.get(code) ?? []) out.add(node);
  return out;
}
var NO_SCHEDULE = { waves: [], zoneOrder: [], surge: 0, estimatedMs: 0 };
function interleaveByZone(replacements) {
  const byZone = /* @__PURE__ */ new Map();
  for (const r of replacements) byZone.set(r.zone, [...byZone.get(r.zone) ?? [], r]);
  const zones = [...byZone.keys()].sort();
  const out = [];
  for (let i = 0; out.length < replacements.length; i++) {
    for (const z of zones) {
      const r = byZone.get(z)?.[i];
      if (r) out.push(r);
    }
  }
  return out;
}
function drainEstimateMs(r, input, startMs) {
  if (r.node !== void 0 && input.held?.has(r.node)) return input.timeoutMs;
  const pods = r.node ? input.podsByNode.get(r.node) ?? [] : [];
  const waveAt = input.now.getTime() + startMs;
  const unreachable = leavesPodsOf(r, input.leavesUnreachable);
  const beyondDue = unreachable ? UNREACHABLE_WAIT_MS : 0;
  let evicts = false;
  let waitMs = 0;
  for (const p of pods) {
    if (!drainWaitsFor(p)) continue;
    if (!unreachable && heldPastDeletion(p, input.now)) return input.timeoutMs;
    if (p.deletionTimestamp !== void 0)
      waitMs = Math.max(waitMs, Date.parse(p.deletionTimestamp) + beyondDue - waveAt);
    else if (drainMoves(p)) {
      evicts = true;
      waitMs = Math.max(waitMs, p.terminationGracePeriodSeconds * 1e3 + beyondDue);
    }
  }
  const ms2 = (evicts ? EVICTION_OVERHEAD_MS : 0) + waitMs;
  return input.deleteAfterDrainTimeout && !unreachable ? Math.min(ms2, input.timeoutMs) : ms2;
}
function waveDrainMs(wave, input, startMs) {
  return Math.max(...wave.map((r) => drainEstimateMs(r, input, startMs)));
}
function chunk(items, size) {
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
function inWaveOrder(schedule, rs) {
  const at5 = /* @__PURE__ */ new Map();
  for (const w of schedule.waves) for (const n2 of w.nodes) at5.set(n2, at5.size);
  const place = (r) => at5.get(r.node ?? r.instance) ?? at5.get(r.instance) ?? Number.MAX_SAFE_INTEGER;
  return [...rs].sort((a, b) => place(a) - place(b));
}

// src/plan/window.ts
var MINUTE = 6e4;
var DAY = 864e5;
function minutesOf(hhmm) {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}
function openingMs(window) {
  const span = minutesOf(window.end) - minutesOf(window.start);
  return (span > 0 ? span : span + 24 * 60) * MINUTE;
}
function closingAfter(clock2, from) {
  const first = Math.floor(from.getTime() / MINUTE) * MINUTE + MINUTE;
  for (let t = first; t <= first + DAY; t += MINUTE)
    if (!clock2.isOpen(new Date(t))) return new Date(t);
  return void 0;
}
function planWindow(window, at5) {
  const clock2 = windowClock(window);
  const open = clock2.isOpen(at5);
  const base = {
    days: [...window.days],
    start: window.start,
    end: window.end,
    timeZone: window.timeZone,
    openAtPlan: open,
    openingMs: openingMs(window)
  };
  if (open) {
    const closes = closingAfter(clock2, at5);
    return { ...base, ...closes && { closesAt: closes.toISOString() } };
  }
  const next = clock2.nextOpening(at5);
  return { ...base, ...next && { nextOpening: next.toISOString() } };
}

// src/plan/zones.ts
var UNHEALTHY_ZONE_SHARE = 0.55;
var UNHEALTHY_ZONE_MIN = 3;
function unhealthyZones(nodes) {
  const byZone = /* @__PURE__ */ new Map();
  for (const n2 of nodes) {
    if (!n2.zone) continue;
    let h = byZone.get(n2.zone);
    if (!h) byZone.set(n2.zone, h = { zone: n2.zone, notReady: 0, nodes: 0 });
    h.nodes++;
    if (!n2.ready) h.notReady++;
  }
  for (const [zone, h] of byZone)
    if (h.notReady < UNHEALTHY_ZONE_MIN || h.notReady < UNHEALTHY_ZONE_SHARE * h.nodes)
      byZone.delete(zone);
  return byZone;
}

// src/plan/rehearsal.ts
function withRehearsal(plan, rehearsal) {
  const rehearsed = new Map(rehearsal.groups.map((g) => [g.group, g.durationMs]));
  const groups2 = plan.groups.map((g) => {
    const ms2 = rehearsed.get(g.name);
    return ms2 === void 0 || g.status !== "roll" ? g : { ...g, schedule: { ...g.schedule, estimatedMs: ms2 } };
  });
  const estimatedMs = reachedGroups(groups2).filter((g) => g.status === "roll").reduce((n2, g) => n2 + g.schedule.estimatedMs, 0);
  return { ...plan, groups: groups2, summary: { ...plan.summary, estimatedMs }, rehearsal };
}

// src/kinds/managed/rollback.ts
function managedVersions(live) {
  const lt = live.launchTemplate?.resolved;
  return {
    kubernetesVersion: live.version,
    releaseVersion: live.releaseVersion,
    ...lt !== void 0 && { launchTemplateVersion: lt }
  };
}
var minor = (v) => Number(v?.split(".")[1] ?? NaN);
function managedRollbackRefusal(from, now2) {
  if (!from.kubernetesVersion || !now2.kubernetesVersion) return void 0;
  if (minor(from.kubernetesVersion) >= minor(now2.kubernetesVersion)) return void 0;
  return `it would go back from Kubernetes ${now2.kubernetesVersion} to ${from.kubernetesVersion}: EKS does not take a node group to an earlier Kubernetes version (UpdateNodegroupVersion), and going back a minor means a control-plane rollback, which EKS does not offer`;
}

// src/kinds/managed/custom-ami.ts
function isCustomAmi(amiType) {
  return amiType === "CUSTOM";
}
function eksTarget(amiType, target) {
  if (!isCustomAmi(amiType)) return target;
  const { launchTemplateVersion } = target;
  return launchTemplateVersion === void 0 ? {} : { launchTemplateVersion };
}
function versionsSetAside(amiType, named3) {
  return isCustomAmi(amiType) && Boolean(named3.kubernetesVersion || named3.releaseVersion);
}
function customAmiAdvice(group3) {
  return `node group ${group3}'s launch template names a custom AMI (amiType CUSTOM): EKS takes no Kubernetes or release version for it. Put the new AMI in a launch template version and target it (launchTemplateVersion)`;
}
function customAmiRefusal(group3, amiType, target) {
  if (!versionsSetAside(amiType, target) || target.launchTemplateVersion !== void 0)
    return void 0;
  return customAmiAdvice(group3);
}

// src/roll/context.ts
var RunPart = class {
  constructor(name, close2 = () => {
  }) {
    this.name = name;
    this.close = close2;
  }
  name;
  close;
};
var RunState = class {
  parts = /* @__PURE__ */ new Map();
  /** The run's `part`, made by `make` the first time. */
  of(part, make) {
    if (!this.parts.has(part)) this.parts.set(part, make());
    return this.parts.get(part);
  }
  /** The run's `part`, if it has one now. */
  peek(part) {
    return this.parts.get(part);
  }
  /** Forget `part` (the caller has closed it, or it never started): the next ask makes it anew. */
  drop(part) {
    this.parts.delete(part);
  }
  /** Close every part, in the order they were made; the state is empty after. */
  async close() {
    const parts = [...this.parts];
    this.parts.clear();
    for (const [part, value] of parts) await part.close(value);
  }
};
var RollError = class extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
  code;
  name = "RollError";
};
function isAbort(e) {
  return e?.name === "AbortError";
}
var StalePlan = class extends RollError {
  constructor(group3, stale) {
    super(
      "StalePlan",
      `${group3 ? `${group3}: ` : ""}the plan no longer holds — ${stale.map((s) => `${s.decision}: ${s.detail}`).join("; ")}. Nothing of it was started${group3 ? ` on ${group3}` : ""}; plan again and review it`
    );
    this.group = group3;
    this.stale = stale;
  }
  group;
  stale;
};
function describeStop(s) {
  switch (s.kind) {
    case "cancelled":
      return "the run was cancelled";
    case "lock-lost":
      return s.why;
    case "deadline":
      return `--max-duration reached at ${s.at}`;
    case "window-closed":
      return `the maintenance window is closed${s.nextOpening ? ` (next opening ${s.nextOpeningLocal ? `${s.nextOpeningLocal}, ` : ""}${s.nextOpening})` : ""}`;
    case "paused":
    case "aborted":
      return `${s.kind} by ${s.by ?? "someone"}${s.at ? ` at ${s.at}` : ""}${s.reason ? ` (reason: ${s.reason})` : ""}`;
  }
}
var STOP_CODE = {
  cancelled: "Cancelled",
  "lock-lost": "LockLost",
  deadline: "Deadline",
  "window-closed": "WindowClosed",
  paused: "Paused",
  aborted: "Aborted"
};
var byRequest = (s) => s.kind === "paused" || s.kind === "aborted";
function resultOfStop(s) {
  if (s.kind === "aborted") return "failure";
  return s.kind === "cancelled" || s.kind === "lock-lost" ? "cancelled" : "skipped";
}
function howToContinue(s, policyFile = "P") {
  if (s?.kind === "aborted" && s.rollback)
    return "The rollback the abort asks for follows: the groups go back to what they ran before.";
  if (s && byRequest(s))
    return `The ${s.kind === "paused" ? "pause" : "abort"} stands: apply refuses to start until \`noderoll resume --policy ${policyFile}\` (the action: \`mode: resume\`) clears it and continues.`;
  return "Run apply again to continue: it picks up where this run stopped.";
}
var Stopped = class extends RollError {
  constructor(stop, where) {
    super(STOP_CODE[stop.kind], `${describeStop(stop)}; ${where}`);
    this.stop = stop;
  }
  stop;
};

// src/roll/in-flight.ts
var IN_FLIGHT_ANNOTATION = "noderoll.io/in-flight";
var PENDING = "pending";
function inFlightOf(lease) {
  const raw = lease?.metadata.annotations?.[IN_FLIGHT_ANNOTATION];
  if (!raw) return [];
  let parsed;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const ok = (x) => typeof x === "string" && x.length > 0 && x.length <= 256;
  return parsed.flatMap(
    (w) => w && ok(w.kind) && ok(w.group) && ok(w.id) ? [{ kind: w.kind, group: w.group, id: w.id }] : []
  );
}
var sameWork = (a, b) => a.kind === b.kind && a.group === b.group && a.id === b.id;
function withRecord(meta, work) {
  const { [IN_FLIGHT_ANNOTATION]: _old, ...rest } = meta.annotations ?? {};
  return {
    ...meta,
    annotations: work.length > 0 ? { ...rest, [IN_FLIGHT_ANNOTATION]: JSON.stringify(work) } : rest
  };
}

// src/kinds/managed/updates.ts
var POLL_MS = 15e3;
function report(ctx, group3, u, type = String(u.type)) {
  ctx.emit({
    type: "eks.update",
    group: group3,
    updateId: u.id,
    updateType: type,
    status: u.status,
    errors: u.errors.map((e) => ({
      code: e.errorCode,
      message: e.errorMessage,
      resources: e.resourceIds
    }))
  });
}
async function waitForUpdate(ctx, job, update, onPoll, reported = true) {
  let last = update.status;
  let current2 = update;
  while (current2.status === "InProgress") {
    await ctx.clock.sleep(POLL_MS, ctx.signal);
    current2 = await ctx.cloud.eks.describeUpdate({
      name: job.cluster,
      nodegroupName: job.plan.name,
      updateId: update.id
    });
    if (current2.status !== last) {
      last = current2.status;
      if (reported) report(ctx, job.plan.name, current2);
    }
    await onPoll?.(current2);
  }
  return current2;
}
function describeFailure2(u) {
  return u.errors.map((e) => {
    const on = e.resourceIds.length ? ` (${e.resourceIds.slice(0, 10).join(", ")})` : "";
    if (e.errorCode === "PodEvictionFailure")
      return `PodEvictionFailure${on}: EKS could not evict pods within 15 minutes — a PodDisruptionBudget allows no disruption, several select one pod, or a workload tolerates every taint. Fix the PDB or set deleteAfterDrainTimeout (EKS's force). EKS said: ${e.errorMessage}`;
    if (e.errorCode === "NodeCreationFailure")
      return `NodeCreationFailure${on}: new nodes did not become Ready with the EKS labels — no capacity in a zone, an EC2 instance limit, user data that breaks bootstrap, or a node condition. EKS said: ${e.errorMessage}`;
    return `${e.errorCode}${on}: ${e.errorMessage}`;
  }).join("; ");
}
function failureCode(u) {
  if (u.errors.some((e) => e.errorCode === "PodEvictionFailure")) return "PodEvictionFailure";
  if (u.errors.some((e) => e.errorCode === "NodeCreationFailure")) return "NodeCreationFailure";
  return "UpdateFailed";
}
async function updateInProgress(eks, cluster, nodegroup) {
  const scope = { name: cluster, nodegroupName: nodegroup };
  const ids = await eks.listUpdates(scope);
  const updates = await mapLimit(
    ids,
    CONCURRENCY,
    (id2) => eks.describeUpdate({ ...scope, updateId: id2 })
  );
  return updates.filter((u) => u.status === "InProgress").sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
}
async function inProgress(ctx, job, seen3) {
  const ng = await ctx.cloud.eks.describeNodegroup(job.cluster, job.plan.name);
  seen3?.(ng);
  if (ng.status !== "UPDATING") return void 0;
  return updateInProgress(ctx.cloud.eks, job.cluster, job.plan.name);
}
function updateInfo(u) {
  const param = (type) => u.params.find((p) => p.type === type)?.value;
  const lt = param("LaunchTemplateVersion");
  const version = param("Version");
  const release3 = param("ReleaseVersion");
  return {
    id: u.id,
    type: String(u.type),
    createdAt: u.createdAt,
    to: {
      ...version && { kubernetesVersion: version },
      ...release3 && { releaseVersion: release3 },
      ...lt !== void 0 && Number.isFinite(Number(lt)) && { launchTemplateVersion: Number(lt) }
    }
  };
}
function takesToTarget(u, target) {
  if (u.type !== "VersionUpdate") return false;
  const named3 = [target.kubernetesVersion, target.releaseVersion, target.launchTemplateVersion];
  if (named3.every((x) => x === void 0)) return false;
  return (target.kubernetesVersion === void 0 || u.to.kubernetesVersion === target.kubernetesVersion) && (target.releaseVersion === void 0 || u.to.releaseVersion === target.releaseVersion) && (target.launchTemplateVersion === void 0 || u.to.launchTemplateVersion === target.launchTemplateVersion);
}
function describeTarget(to) {
  const parts = [
    ...to.kubernetesVersion ? [`Kubernetes ${to.kubernetesVersion}`] : [],
    ...to.releaseVersion ? [`release ${to.releaseVersion}`] : [],
    ...to.launchTemplateVersion !== void 0 ? [`launch template version ${to.launchTemplateVersion}`] : []
  ];
  return parts.join(", ") || "a target it does not name";
}
async function awaitSuccess(ctx, job, u) {
  const done = await waitForUpdate(ctx, job, u);
  if (done.status !== "Successful")
    throw new RollError(
      "UpdateFailed",
      `EKS update ${done.id} (${String(done.type)}) of ${job.plan.name} ended ${done.status}: ${describeFailure2(done)}`
    );
}
var managedInFlight = {
  async awaitEnd(ctx, cluster, work, stopReason3) {
    const known = work.id === PENDING ? await this.resolve(ctx.cloud, cluster, work) : work;
    if (!known) return;
    for (; ; ) {
      const u = await ctx.cloud.eks.describeUpdate({ name: cluster, nodegroupName: known.group, updateId: known.id }).catch(gone);
      if (!u || u.status !== "InProgress") return;
      const stop = stopReason3();
      if (stop)
        throw new Stopped(
          stop,
          `while waiting for EKS update ${known.id} of ${known.group}; nothing was started`
        );
      await ctx.clock.sleep(POLL_MS, ctx.signal);
    }
  },
  describe: (cluster, work) => work.id === PENDING ? `an EKS update of ${work.group} this run asked for may go on (its answer never came): see \`aws eks list-updates --name ${cluster.name} --nodegroup-name ${work.group} --region ${cluster.region}\`; the next run waits for it before rolling anything else` : `EKS update ${work.id} of ${work.group} goes on: EKS does not stop it when noderoll stops. Follow it with \`aws eks describe-update --name ${cluster.name} --nodegroup-name ${work.group} --update-id ${work.id} --region ${cluster.region}\`; the next run waits for it before rolling anything else`,
  /** An update asked for and not answered: the one in progress on its group now, if any. */
  async resolve(cloud, cluster, work) {
    if (work.id !== PENDING) return work;
    const ng = await cloud.eks.describeNodegroup(cluster, work.group).catch(gone);
    if (ng?.status !== "UPDATING") return void 0;
    const u = await updateInProgress(cloud.eks, cluster, work.group);
    return u && { ...work, id: u.id };
  },
  ongoing: (live) => "update" in live && live.update ? { kind: "managed", group: live.name, id: live.update.id } : void 0
};
function gone(e) {
  if (e instanceof AwsApiError && e.code === "ResourceNotFoundException") return void 0;
  throw e;
}

// src/kinds/managed/select.ts
function managedTarget(group3, live, snapshot) {
  const t = group3.target ?? {};
  const out = {};
  if (t.kubernetesVersion) out.kubernetesVersion = t.kubernetesVersion;
  if (t.releaseVersion) {
    const version = t.kubernetesVersion ?? live.version;
    const release3 = t.releaseVersion === "latest" ? snapshot.latestReleaseVersions[version] : t.releaseVersion;
    if (release3) out.releaseVersion = release3;
  }
  const lt = live.launchTemplate;
  if (t.launchTemplateVersion !== void 0 && lt) {
    const v = t.launchTemplateVersion;
    out.launchTemplateVersion = v === "$Latest" ? lt.latest : v === "$Default" ? lt.default : Number(v);
  }
  return out;
}
function groupReasons(live, target) {
  const reasons = [];
  if (target.kubernetesVersion && target.kubernetesVersion !== live.version)
    reasons.push({ kind: "kubernetes-version", from: live.version, to: target.kubernetesVersion });
  if (target.releaseVersion && target.releaseVersion !== live.releaseVersion)
    reasons.push({ kind: "release-version", from: live.releaseVersion, to: target.releaseVersion });
  const lt = live.launchTemplate;
  if (lt && target.launchTemplateVersion !== void 0 && target.launchTemplateVersion !== lt.resolved) {
    reasons.push({ kind: "launch-template", from: lt.resolved, to: target.launchTemplateVersion });
  }
  return reasons;
}
function selectManaged(live, target, input) {
  const groupWide = groupReasons(live, target);
  const out = selectWith(live, input, () => [...groupWide]);
  const all = liveInstances(live);
  if (out.length === 0 || out.length === all.length) return out;
  const chosen = new Set(out.map((r) => r.instance));
  for (const instance of all) {
    if (chosen.has(instance.id)) continue;
    const node = input.nodesByInstance.get(instance.id);
    out.push(replacementOf(instance, node, [{ kind: "group-update" }]));
  }
  return out;
}
function describeUpdateConfig(c) {
  if (c.maxUnavailablePercentage !== void 0) return `${c.maxUnavailablePercentage}%`;
  return String(c.maxUnavailable ?? 1);
}
function managedConfigChanges(_group, live, _target, settings) {
  const want = settings.updateConfig;
  const have = live.updateConfig;
  const out = [];
  if (want?.maxUnavailable !== void 0 && want.maxUnavailable !== have.maxUnavailable)
    out.push({
      field: "updateConfig.maxUnavailable",
      from: describeUpdateConfig(have),
      to: String(want.maxUnavailable)
    });
  else if (want?.maxUnavailablePercentage !== void 0 && want.maxUnavailablePercentage !== have.maxUnavailablePercentage)
    out.push({
      field: "updateConfig.maxUnavailablePercentage",
      from: describeUpdateConfig(have),
      to: `${want.maxUnavailablePercentage}%`
    });
  if (want?.updateStrategy && want.updateStrategy !== (have.updateStrategy ?? "DEFAULT"))
    out.push({
      field: "updateConfig.updateStrategy",
      from: have.updateStrategy ?? "DEFAULT",
      to: want.updateStrategy
    });
  return out;
}

// src/kinds/managed/settings.ts
var EKS_BEHAVIOUR = {
  drainTimeoutMs: 15 * 6e4,
  postDrainDelayMs: 6e4
};
function strategyOf(roll2, live) {
  return roll2.updateStrategy ?? live?.updateConfig.updateStrategy ?? "DEFAULT";
}
function eksScaleUp(zones, maxUnavailable, strategy) {
  return strategy === "MINIMAL" ? 0 : Math.max(2 * zones, maxUnavailable);
}
var inEksRange = (v) => isPercent(v) ? percentOf(v) >= 1 : v >= 1 && v <= 100;
var EKS_RULES = [
  {
    key: "maxSurge",
    message: "EKS does not take maxSurge for a managed node group: it scales up by max(2 × Availability Zones, maxUnavailable) on its own; remove maxSurge"
  },
  {
    key: "postDrainDelay",
    honours: (v) => parseDuration(v) === EKS_BEHAVIOUR.postDrainDelayMs,
    message: "EKS waits a fixed 60 s after draining a managed node; postDrainDelay cannot be changed, remove it"
  },
  {
    key: "interval",
    message: "EKS replaces managed nodes on its own schedule; interval cannot be set, remove it"
  },
  {
    key: "drainTimeout",
    honours: (v) => parseDuration(v) === EKS_BEHAVIOUR.drainTimeoutMs,
    message: "EKS gives each drain a fixed 15 minutes before PodEvictionFailure (or, with deleteAfterDrainTimeout, its force); drainTimeout cannot be changed, remove it"
  },
  {
    key: "validation",
    message: "EKS decides itself when a managed node is ready; validation cannot be set, remove it"
  },
  {
    key: "spreadAcrossZones",
    message: "EKS picks the nodes of a managed group at random; spreadAcrossZones cannot be honoured, remove it"
  },
  {
    key: "drainAndTerminate",
    honours: (v) => v !== false,
    noted: (v) => v === false,
    message: "EKS always drains and terminates the nodes of a managed group; drainAndTerminate: false cannot be honoured"
  },
  {
    key: "maxUnavailable",
    honours: inEksRange,
    noted: () => false,
    message: "EKS takes maxUnavailable from 1 to 100 (or 1%–100%) for a managed node group"
  }
];
function managedConflicts(w) {
  return EKS_RULES.filter((r) => {
    const v = w.own[r.key];
    return v !== void 0 && !(r.honours?.(v) ?? false);
  }).map((r) => ({ key: r.key, message: r.message }));
}
function inheritedNotes(w) {
  const inherited = EKS_RULES.filter((r) => {
    const v = w.defaults[r.key];
    return w.own[r.key] === void 0 && v !== void 0 && (r.noted?.(v) ?? true);
  }).map((r) => r.key);
  if (inherited.length === 0) return [];
  return [
    `${inherited.join(", ")} from defaults do${inherited.length === 1 ? "es" : ""} not apply to a managed node group (EKS decides)`
  ];
}
function usableUnavailable(w) {
  const candidate = w.own.maxUnavailable ?? w.defaults.maxUnavailable;
  return candidate !== void 0 && inEksRange(candidate) ? candidate : void 0;
}
function resolveManaged(policy, group3) {
  const w = writtenSettings(policy, group3);
  const notes2 = inheritedNotes(w);
  const candidate = w.own.maxUnavailable ?? w.defaults.maxUnavailable;
  const value = usableUnavailable(w);
  if (candidate !== void 0 && value === void 0 && w.own.maxUnavailable === void 0)
    notes2.push(
      `maxUnavailable ${JSON.stringify(candidate)} from defaults is outside EKS's 1–100; the node group's live updateConfig is kept`
    );
  const strategy = w.merged.updateStrategy;
  const budget2 = value === void 0 ? void 0 : isPercent(value) ? { maxUnavailablePercentage: percentOf(value) } : { maxUnavailable: value };
  const updateConfig = budget2 || strategy ? { ...budget2, ...strategy && { updateStrategy: strategy } } : void 0;
  return {
    role: w.role,
    written: w,
    roll: {
      ...rollSettings(w.merged),
      drainTimeoutMs: EKS_BEHAVIOUR.drainTimeoutMs,
      postDrainDelayMs: EKS_BEHAVIOUR.postDrainDelayMs,
      drainAndTerminate: true
    },
    ...updateConfig && { updateConfig },
    notes: notes2
  };
}
function budgetInForce(s, live) {
  const value = usableUnavailable(s.written);
  if (value !== void 0) return { budget: value, from: "policy" };
  const c = live?.updateConfig;
  if (c?.maxUnavailablePercentage !== void 0)
    return { budget: `${c.maxUnavailablePercentage}%`, from: "live" };
  if (c?.maxUnavailable !== void 0) return { budget: c.maxUnavailable, from: "live" };
  return { budget: 1, from: "default" };
}
var EKS_MAX_PARALLEL = 100;
function managedBudgets(s, facts, live) {
  const { budget: budget2, from } = budgetInForce(s, live);
  const strategy = strategyOf(s.roll, live);
  const share = isPercent(budget2) ? Math.max(1, roundedDown(budget2, facts.size)) : budget2;
  const unavailable = Math.min(EKS_MAX_PARALLEL, share);
  const how = describeBudget(budget2, facts.size, "down", share) + (unavailable < share ? `, capped at ${EKS_MAX_PARALLEL} (EKS updates at most ${EKS_MAX_PARALLEL} nodes at once)` : "");
  return {
    maxUnavailable: unavailable,
    maxSurge: 0,
    derivation: {
      maxUnavailable: from === "policy" ? how : from === "live" ? `the node group's live updateConfig, kept (the policy sets none)${how !== String(unavailable) ? `: ${how}` : ""}` : "EKS default",
      maxSurge: strategy === "MINIMAL" ? "none: updateStrategy MINIMAL (EKS terminates first and launches no node ahead)" : "EKS scales up by max(2 × Availability Zones, maxUnavailable)"
    },
    spec: {
      maxUnavailable: `${String(budget2)} (${from})`,
      maxSurge: strategy === "MINIMAL" ? "EKS, MINIMAL" : "EKS"
    }
  };
}

// src/kinds/managed/findings.ts
var EKS_NODES_PER_NODEGROUP = 450;
var MANAGED_SURGE_ADVICE = "EKS's scale-up is max(2 × zones, maxUnavailable); a lower maxUnavailable keeps it near 2 × zones";
function sizeLimit(group3, surge) {
  if (group3.max + surge <= EKS_NODES_PER_NODEGROUP) return [];
  return [
    {
      code: "nodegroup-size-limit",
      severity: "warning",
      message: `EKS raises ${group3.name}'s max size from ${group3.max} to ${group3.max + surge} for the update, above the ${EKS_NODES_PER_NODEGROUP} nodes a managed node group may hold`,
      objects: [group3.name]
    }
  ];
}
function updating(group3, target) {
  const u = group3.update;
  const lead = `node group ${group3.name} is UPDATING`;
  if (!u) return `${lead}: apply waits for the update in progress to end, then rolls to the target`;
  const since = `EKS update ${u.id} (${u.type}, started ${u.createdAt.toISOString()})`;
  if (u.type !== "VersionUpdate")
    return `${lead}: ${since} is in progress; apply waits for it to end, then rolls to the target`;
  if (takesToTarget(u, eksTarget(group3.amiType, target)))
    return `${lead}: ${since} takes it to ${describeTarget(u.to)}, this plan's target: apply follows it instead of starting another`;
  return `${lead}: ${since} takes it to ${describeTarget(u.to)}, not this plan's target (${describeTarget(target)}): apply waits for it to end, then rolls the group to the target`;
}
function status(group3, target) {
  const at5 = (severity, message) => [
    { code: "group-degraded", severity, message, objects: [group3.name] }
  ];
  if (group3.status === "UPDATING")
    return [
      {
        code: "update-in-progress",
        severity: "warning",
        message: updating(group3, target),
        objects: [group3.update?.id ?? group3.name]
      }
    ];
  if (group3.status !== "ACTIVE")
    return at5(
      "blocker",
      `node group ${group3.name} is ${group3.status}; EKS starts an update only on an ACTIVE node group`
    );
  if (group3.healthIssues.length > 0)
    return at5(
      "warning",
      `node group ${group3.name} reports health issues: ${group3.healthIssues.map((h) => h.code).join(", ")}`
    );
  return [];
}
function customAmi(group3, target) {
  const refusal2 = customAmiRefusal(group3.name, group3.amiType, target);
  if (!refusal2) return [];
  return [
    { code: "custom-ami-version", severity: "blocker", message: refusal2, objects: [group3.name] }
  ];
}
function minimalStrategy(group3, roll2) {
  if (strategyOf(roll2 ?? {}, group3) !== "MINIMAL") return [];
  return [
    {
      code: "minimal-strategy",
      severity: "warning",
      message: `updateStrategy MINIMAL: EKS terminates each node before launching its replacement, without DEFAULT's guardrails — the group runs below its ${group3.desired} nodes while replacements boot, by maxUnavailable or more; use DEFAULT unless capacity (GPUs, reservations) forbids extra nodes`,
      objects: []
    }
  ];
}
function noVersionChange(group3, target) {
  if (group3.status === "UPDATING" || groupReasons(group3, target).length > 0) return [];
  return [
    {
      code: "no-version-change",
      severity: "blocker",
      message: `node group ${group3.name} is at its target already (${describeTarget({ kubernetesVersion: group3.version, releaseVersion: group3.releaseVersion })}): EKS replaces a managed node group's nodes only by updating it to another release, Kubernetes version or launch template version, so replace-all, maxNodeAge or the needs-update annotation cannot replace them (UpdateNodegroupVersion would answer "already at release version"); set a newer target (releaseVersion: latest once a newer AMI release is out, or a new launch template version)`,
      objects: [group3.name]
    }
  ];
}
var VERSION_REASONS = /* @__PURE__ */ new Set([
  "kubernetes-version",
  "release-version",
  "launch-template"
]);
function managedReachedTarget(planned, live) {
  const moved = planned.replacements.some(
    (r) => r.reasons.some((x) => VERSION_REASONS.has(x.kind))
  );
  return moved && live.status === "ACTIVE" && groupReasons(live, planned.target ?? {}).length === 0;
}
function rollbackRefused(group3, target, roll2) {
  if (roll2?.gates?.onFailure !== "rollback" || !target.kubernetesVersion) return [];
  const why2 = managedRollbackRefusal(
    { kubernetesVersion: group3.version },
    { kubernetesVersion: target.kubernetesVersion }
  );
  if (!why2) return [];
  return [
    {
      code: "rollback-refused",
      severity: "warning",
      message: `onFailure: rollback cannot take ${group3.name} back: ${why2}; a failed gate halts the run and the group stays where the update left it`,
      objects: [group3.name]
    }
  ];
}
function checkpointsIgnored(group3, roll2) {
  if (!roll2?.gates || roll2.gates.checkpoints.length === 0) return [];
  return [
    {
      code: "checkpoints-ignored",
      severity: "warning",
      message: `checkpoints do not apply to ${group3.name}: EKS runs a managed node group's update in its own waves and has no call to hold it midway; its gates are read during the update and its bake`,
      objects: [group3.name]
    }
  ];
}
function managedFindings(group3, surge, target = {}, roll2) {
  return [
    ...rollbackRefused(group3, target, roll2),
    ...checkpointsIgnored(group3, roll2),
    ...sizeLimit(group3, surge),
    ...status(group3, target),
    ...customAmi(group3, target),
    ...suspendedFindings(group3),
    ...minimalStrategy(group3, roll2),
    ...noVersionChange(group3, target)
  ];
}
function managedNotes(plan, group3, live, snapshot) {
  const notes2 = [];
  if (plan.replacements.length > 0) notes2.push("EKS picks the nodes of each wave at random");
  if (plan.target?.launchTemplateVersion !== void 0 && versionsSetAside(live.amiType, group3.target ?? {}))
    notes2.push(
      `the launch template names a custom AMI: EKS takes no Kubernetes or release version for it, so the AMI of launch template version ${plan.target.launchTemplateVersion} decides`
    );
  else if (live.launchTemplate && plan.target?.releaseVersion)
    notes2.push(
      `the launch template leaves the AMI to EKS: release ${plan.target.releaseVersion} is sent with it`
    );
  const version = group3.target?.kubernetesVersion ?? live.version;
  if (live.launchTemplate && !isCustomAmi(live.amiType) && plan.target?.launchTemplateVersion !== void 0 && !plan.target.releaseVersion) {
    const latest = snapshot.latestReleaseVersions[version];
    notes2.push(
      `no release is named with the launch template version: EKS also moves the nodes to its latest AMI release for ${version}${latest ? ` (${latest})` : ""}; name \`releaseVersion\` to keep the current one`
    );
  }
  if (group3.target?.releaseVersion === "latest" && !snapshot.latestReleaseVersions[version])
    notes2.push(
      `the latest EKS AMI release for ${version} is not known here: a version update takes EKS's latest; to move the release alone, name it`
    );
  return notes2;
}

// src/kinds/managed/observe.ts
function groupInfo(ng, asg, times, input, lt) {
  const { maxUnavailable, maxUnavailablePercentage, updateStrategy } = ng.updateConfig;
  const suspended = asg && suspendedOf(asg);
  return {
    kind: "managed",
    name: ng.nodegroupName,
    // EKS lists it under the cluster: it is the cluster's.
    clusters: [input.clusterName],
    listedByEks: true,
    zones: asg?.AvailabilityZones ?? [],
    min: ng.scalingConfig.minSize,
    max: ng.scalingConfig.maxSize,
    desired: ng.scalingConfig.desiredSize,
    instances: asg ? instancesOf(asg, times) : [],
    version: ng.version,
    releaseVersion: ng.releaseVersion,
    ...lt && { launchTemplate: lt },
    ...ng.amiType && { amiType: ng.amiType },
    updateConfig: {
      ...maxUnavailable !== void 0 && { maxUnavailable },
      ...maxUnavailablePercentage !== void 0 && { maxUnavailablePercentage },
      ...updateStrategy && { updateStrategy }
    },
    status: ng.status,
    healthIssues: ng.health.issues.map((h) => ({ code: h.code, message: h.message })),
    ...suspended && { suspended }
  };
}
async function observeManaged(input) {
  const { cloud, clusterName } = input;
  const listed2 = new Set(await cloud.eks.listNodegroups(clusterName));
  const names2 = input.names.filter((n2) => listed2.has(n2));
  if (names2.length === 0) return [];
  const nodegroups = await mapLimit(
    names2,
    CONCURRENCY,
    (n2) => cloud.eks.describeNodegroup(clusterName, n2)
  );
  const asgNames = [
    ...new Set(nodegroups.flatMap((m) => m.resources.autoScalingGroups.map((a) => a.name)))
  ];
  const asgs = asgNames.length > 0 ? await cloud.autoScaling.describeAutoScalingGroups({ AutoScalingGroupNames: asgNames }) : [];
  const byName = new Map(asgs.map((a) => [a.AutoScalingGroupName, a]));
  const times = await launchTimesWithoutNode(
    cloud,
    asgs.flatMap((a) => a.Instances.map((i) => i.InstanceId)),
    input.nodes
  );
  const out = [];
  for (const ng of nodegroups) {
    const asg = byName.get(ng.resources.autoScalingGroups[0]?.name ?? "");
    const lt = ng.launchTemplate ? await launchTemplateRef(cloud, {
      LaunchTemplateId: ng.launchTemplate.id,
      Version: ng.launchTemplate.version
    }) : void 0;
    const info = groupInfo(ng, asg, times, input, lt);
    const update = ng.status === "UPDATING" ? await updateInProgress(cloud.eks, clusterName, ng.nodegroupName) : void 0;
    out.push(update ? { ...info, update: updateInfo(update) } : info);
  }
  return out;
}

// src/roll/rescheduled.ts
function movedPods(pods, at5) {
  return pods.flatMap((p) => {
    const o = controllerOf(p);
    const namespace = p.metadata.namespace ?? "default";
    return o ? [{ namespace, name: p.metadata.name, owner: { kind: o.kind, name: o.name }, at: at5 }] : [];
  });
}
function plannedMoves(pods, nodes, at5) {
  return nodes.flatMap(
    (node) => pods.on(node).flatMap(
      (p) => drainMoves(p) && p.owner ? [{ namespace: p.namespace, name: p.name, owner: p.owner, at: at5 }] : []
    )
  );
}
function byController(moved) {
  const out = /* @__PURE__ */ new Map();
  for (const m of moved) {
    if (m.owner.kind === "DaemonSet") continue;
    let ns = out.get(m.namespace);
    if (!ns) out.set(m.namespace, ns = /* @__PURE__ */ new Map());
    const key = `${m.owner.kind}/${m.owner.name}`;
    const c = ns.get(key);
    if (c) {
      c.names.add(m.name);
      c.at = Math.min(c.at, m.at);
    } else ns.set(key, { names: /* @__PURE__ */ new Set([m.name]), at: m.at });
  }
  return out;
}
function unschedulable(p) {
  const c = p.status.conditions?.find((x) => x.type === "PodScheduled");
  return c?.status === "False" && c.reason === "Unschedulable" ? c.message ?? "" : void 0;
}
function succeeded(p, moved) {
  const o = controllerOf(p);
  const c = o && moved.get(p.metadata.namespace ?? "default")?.get(`${o.kind}/${o.name}`);
  if (!c || p.metadata.deletionTimestamp !== void 0) return void 0;
  if (o.kind === "StatefulSet") return c.names.has(p.metadata.name) ? c : void 0;
  return Date.parse(p.metadata.creationTimestamp ?? "") >= c.at - 1e3 ? c : void 0;
}
async function stuckNow(ctx, moved) {
  const only = moved.size === 1 ? [...moved.keys()][0] : void 0;
  const { items } = await listAll(
    (cont) => ctx.cluster.listPods(only, pageOf(cont, { fieldSelector: "spec.nodeName=" }))
  );
  const counted = /* @__PURE__ */ new Map();
  const out = [];
  for (const p of items) {
    const c = p.spec.nodeName ? void 0 : succeeded(p, moved);
    if (c === void 0 || unschedulable(p) === void 0) continue;
    const n2 = (counted.get(c) ?? 0) + 1;
    counted.set(c, n2);
    if (n2 <= c.names.size) out.push(p);
  }
  return out;
}
async function described2(ctx, pods, zones) {
  const refs = pods.flatMap(
    (p) => (placementOf(p)?.claims ?? []).map((name) => ({ namespace: p.metadata.namespace ?? "", name }))
  );
  const { claims } = await readClaims(ctx.cluster, refs);
  const index = new Map(claims.map((c) => [`${c.namespace}/${c.name}`, c]));
  return pods.map((p) => {
    const namespace = p.metadata.namespace ?? "default";
    const placement = placementOf(p);
    const b = zoneBinding({ namespace, ...placement && { placement } }, index, zones);
    const where = b ? `zone ${b.zones.join(" or ")} by ${b.why.join(", ")}; ` : "";
    return `${namespace}/${p.metadata.name} (${where}${unschedulable(p)})`;
  });
}
async function awaitRescheduled(ctx, o) {
  const moved = byController(o.moved);
  if (moved.size === 0) return;
  const deadline = ctx.clock.now().getTime() + o.timeoutMs;
  let said2 = false;
  for (; ; ) {
    const stuck = await stuckNow(ctx, moved);
    if (stuck.length === 0) return;
    const minutes = Math.round(o.timeoutMs / 6e4);
    if (ctx.clock.now().getTime() >= deadline) {
      const zones = /* @__PURE__ */ new Set();
      for (const n2 of o.nodes) {
        const z = n2.metadata.labels?.["topology.kubernetes.io/zone"];
        if (z) zones.add(z);
      }
      const pods = await described2(ctx, stuck, zones);
      throw new RollError(
        "PodsUnschedulable",
        `${stuck.length} pod${stuck.length === 1 ? "" : "s"} the roll of ${o.group} moved could not be scheduled within ${minutes} min: ${pods.slice(0, 10).join("; ")}${pods.length > 10 ? `; and ${pods.length - 10} more` : ""}. Nothing the roll does will place them: give their zone a node that can take them (the group's launches there may be failing: see its scaling activities)`
      );
    }
    if (!said2)
      ctx.emit({
        type: "note",
        group: o.group,
        message: `${o.group}: ${stuck.length} pod${stuck.length === 1 ? "" : "s"} moved by the roll cannot be scheduled yet (${stuck.slice(0, 5).map((p) => `${p.metadata.namespace}/${p.metadata.name}`).join(", ")}); waiting up to ${minutes} min`
      });
    said2 = true;
    await ctx.clock.sleep(VALIDATION_PERIOD_MS, ctx.signal);
  }
}

// src/roll/lease-request.ts
var REQUEST_ANNOTATION = "noderoll.io/request";
var ATTEMPTS2 = 5;
var text2 = (x, max) => typeof x === "string" && x.length > 0 && x.length <= max ? x : void 0;
function requestOf(lease) {
  const raw = lease?.metadata.annotations?.[REQUEST_ANNOTATION];
  if (raw === void 0) return void 0;
  let parsed = {};
  try {
    const v = JSON.parse(raw);
    if (v && typeof v === "object") parsed = v;
  } catch {
  }
  const reason = text2(parsed.reason, 1024);
  const action = parsed.action === "abort" ? "abort" : "pause";
  return {
    action,
    by: text2(parsed.by, 256) ?? "(unknown)",
    ...reason && { reason },
    at: text2(parsed.at, 64) ?? "(unknown time)",
    ...action === "abort" && parsed.rollback === true && { rollback: true }
  };
}
function withRequest(meta, request) {
  const { [REQUEST_ANNOTATION]: _old, ...rest } = meta.annotations ?? {};
  return {
    ...meta,
    annotations: request ? { ...rest, [REQUEST_ANNOTATION]: JSON.stringify(request) } : rest
  };
}
function keepRequest(from, annotations = {}) {
  const raw = from?.metadata.annotations?.[REQUEST_ANNOTATION];
  return raw === void 0 ? annotations : { ...annotations, [REQUEST_ANNOTATION]: raw };
}
function stopOf(r) {
  if (r.action === "abort")
    return {
      kind: "aborted",
      by: r.by,
      at: r.at,
      ...r.reason && { reason: r.reason },
      ...r.rollback && { rollback: true }
    };
  return { kind: "paused", by: r.by, at: r.at, ...r.reason && { reason: r.reason } };
}
function describeRequest(r) {
  const what = r.action === "abort" ? r.rollback ? "n abort with rollback" : "n abort" : " pause";
  return `a${what} requested by ${r.by} at ${r.at}${r.reason ? ` (reason: ${r.reason})` : ""}`;
}
function requestChange(was, now2) {
  if (JSON.stringify(was) === JSON.stringify(now2)) return void 0;
  if (now2)
    return `${describeRequest(now2)}: no new node starts; the roll stops once the nodes in flight are done`;
  return `${describeRequest(was)} was cleared (resume): the roll goes on`;
}
function requestStands(r, namespace, name) {
  return new Stopped(
    stopOf(r),
    `nothing was started or changed (the request stands on Lease ${namespace}/${name})`
  );
}
var sameAction = (a, b) => a?.action === b?.action && (!b?.rollback || a?.rollback === true);
async function setRequest(cluster, namespace, name, request, onlyIf) {
  for (let attempt = 1; ; attempt++) {
    const current2 = await cluster.getLease(namespace, name).catch((e) => {
      if (e instanceof KubeApiError && e.status === 404) return void 0;
      throw e;
    });
    const before = requestOf(current2);
    if (sameAction(before, request) || onlyIf && !onlyIf(before))
      return { ...current2 && { lease: current2 }, ...before && { before }, changed: false };
    try {
      const lease = current2 ? await cluster.updateLease(namespace, {
        ...current2,
        metadata: withRequest(current2.metadata, request)
      }) : await cluster.createLease(namespace, {
        metadata: withRequest({ name, namespace }, request),
        spec: {}
      });
      return { lease, ...before && { before }, changed: true };
    } catch (e) {
      if (!(e instanceof KubeApiError && e.status === 409) || attempt >= ATTEMPTS2) throw e;
    }
  }
}

// src/roll/lease.ts
var LEASE_NAMESPACE = "kube-system";
var LEASE_DURATION_SECONDS = 120;
var RENEW_EVERY_MS = 3e4;
var RENEW_DEADLINE_MS = 6e4;
var RETRY_MS = 2e3;
var POLL_MS2 = 1e4;
var LONGEST_WAIT_MS = 36e5;
var RUN_URL_ANNOTATION = "noderoll.io/run-url";
var leaseName = (cluster) => `noderoll-${cluster}`.toLowerCase().replace(/[^a-z0-9-]/g, "-").slice(0, 63);
function holderIdentity(runId) {
  return `${runId}/${globalThis.crypto.randomUUID().slice(0, 8)}`;
}
var microTime = (d) => d.toISOString().replace(/\.\d{3}Z$/, ".000000Z");
function spec(holder, now2, previous) {
  return {
    holderIdentity: holder,
    leaseDurationSeconds: LEASE_DURATION_SECONDS,
    acquireTime: microTime(now2),
    renewTime: microTime(now2),
    leaseTransitions: (previous?.leaseTransitions ?? 0) + (previous ? 1 : 0)
  };
}
var ClusterLock = class {
  constructor(ctx, cluster, holder, runUrl, onLost, leases = ctx.cluster) {
    this.ctx = ctx;
    this.onLost = onLost;
    this.me = { name: leaseName(cluster), holder, ...runUrl && { runUrl } };
    this.leases = leases;
  }
  ctx;
  onLost;
  renewing;
  stop = new AbortController();
  observed;
  /** The Lease as this run last wrote it, while it holds it. */
  written;
  /** The renewTime of the last write we saw land (ours: taking or renewing the Lease). */
  confirmed;
  /** Work in flight on the cluster: found on the Lease when taken, and this run's own. */
  work = [];
  /** A pause or an abort standing on the Lease, as this run last read it. */
  asked;
  me;
  /**
   * The Lease API for renewals, not retried underneath: the lock times its own retries against
   * its renew deadline. Taking the Lease goes through the run's ports (retried, named, cancelled).
   */
  leases;
  meta(resourceVersion) {
    return {
      name: this.me.name,
      namespace: LEASE_NAMESPACE,
      ...resourceVersion && { resourceVersion },
      annotations: withRecord(
        {
          name: this.me.name,
          annotations: { ...this.me.runUrl && { [RUN_URL_ANNOTATION]: this.me.runUrl } }
        },
        this.work
      ).annotations ?? {}
    };
  }
  /** Work in flight on the cluster, as the Lease records it (another run's, and this one's). */
  get inFlight() {
    return this.work;
  }
  /**
   * A pause or an abort someone asked for on the Lease while this run holds it (lease-request.ts),
   * as of the last renewal: the engine stops at its next safe point for it.
   */
  get request() {
    return this.asked;
  }
  /** What the Lease says of requests now: a change is said in the log, once. */
  noteRequest(lease) {
    const [was, now2] = [this.asked, requestOf(lease)];
    this.asked = now2;
    const message = requestChange(was, now2);
    if (message) this.ctx.emit({ type: "note", message });
  }
  /**
   * Record work this run started that goes on without it (in-flight.ts). The record rides on the
   * Lease as this run writes it: at once, in a renewal of its own, and in every renewal and the
   * release after — so a write that fails now (a throttled API) is made good within a renewal
   * period, and never holds a renewal up.
   */
  async track(w) {
    if (this.work.some((x) => sameWork(x, w))) return;
    this.work = [...this.work, w];
    await this.renewNow().catch(() => void 0);
  }
  /** What work on the record turned out to be (`now`), or that none goes on: said at release. */
  amend(w, now2) {
    this.work = this.work.flatMap((x) => sameWork(x, w) ? now2 ? [now2] : [] : [x]);
  }
  /** The work is over: off the record, the same way. */
  async untrack(w) {
    if (!this.work.some((x) => sameWork(x, w))) return;
    this.work = this.work.filter((x) => !sameWork(x, w));
    await this.renewNow().catch(() => void 0);
  }
  /** Create the Lease, or take it when it is free or has not changed for its whole duration. */
  async attempt() {
    const now2 = this.ctx.clock.now();
    let current2;
    try {
      current2 = await this.ctx.cluster.getLease(LEASE_NAMESPACE, this.me.name);
    } catch (e) {
      if (!(e instanceof KubeApiError) || e.status !== 404) throw e;
      if (this.observed) {
        const since = this.observed.resourceVersion === "" ? this.observed.since : void 0;
        const now3 = monotonicMs(this.ctx.clock);
        if (since === void 0) this.observed = { resourceVersion: "", since: now3, alive: true };
        const from = this.observed.since;
        if (now3 - from < LEASE_DURATION_SECONDS * 1e3)
          return {
            ok: false,
            holder: "(deleted)",
            expiresAt: from + LEASE_DURATION_SECONDS * 1e3,
            alive: false,
            hold: false
          };
      }
      return this.write(
        () => this.ctx.cluster.createLease(LEASE_NAMESPACE, {
          metadata: this.meta(),
          spec: spec(this.me.holder, now2)
        })
      );
    }
    const standing = requestOf(current2);
    if (standing) throw requestStands(standing, LEASE_NAMESPACE, this.me.name);
    const holder = current2.spec.holderIdentity;
    const stale = holder ? this.observe(current2) : void 0;
    this.work = inFlightOf(current2);
    if (holder && holder !== this.me.holder && stale && !stale.free)
      return {
        ok: false,
        holder,
        expiresAt: stale.expiresAt,
        alive: this.observed?.alive ?? false,
        hold: stale.hold,
        ...current2.metadata.annotations?.[RUN_URL_ANNOTATION] && {
          runUrl: current2.metadata.annotations[RUN_URL_ANNOTATION]
        }
      };
    const r = await this.write(
      () => this.ctx.cluster.updateLease(LEASE_NAMESPACE, {
        metadata: this.meta(current2.metadata.resourceVersion),
        spec: spec(this.me.holder, now2, current2.spec)
      })
    );
    return r.ok && holder && holder !== this.me.holder ? { ok: true, takenOver: holder } : r;
  }
  /** A write that loses a race (409) is tried again from a fresh read. */
  async write(call) {
    try {
      this.confirm(await call());
      return { ok: true };
    } catch (e) {
      if (e instanceof KubeApiError && e.status === 409) return this.attempt();
      throw e;
    }
  }
  /**
   * Note what the record is now; it is free once unchanged for its duration, measured on our own
   * monotonic clock (a clock that steps, or another machine's, must not shorten it).
   */
  observe(current2) {
    const now2 = monotonicMs(this.ctx.clock);
    const rv = current2.metadata.resourceVersion ?? "";
    if (this.observed?.resourceVersion !== rv)
      this.observed = { resourceVersion: rv, since: now2, alive: this.observed !== void 0 };
    const ms2 = (current2.spec.leaseDurationSeconds ?? LEASE_DURATION_SECONDS) * 1e3;
    if (ms2 > LONGEST_WAIT_MS) return { free: false, expiresAt: Infinity, hold: true };
    const expiresAt = this.observed.since + ms2;
    return { free: now2 >= expiresAt, expiresAt, hold: false };
  }
  /**
   * Take the Lease. A holder that renews it is waited for up to `waitMs`; one that has stopped
   * renewing is waited out (its Lease unchanged for its duration), however short `waitMs` is.
   */
  async acquire(waitMs) {
    const until = monotonicMs(this.ctx.clock) + waitMs;
    let said2;
    for (; ; ) {
      const r = await this.attempt();
      if (r.ok) {
        this.ctx.emit({
          type: "lock.acquire",
          holder: this.me.holder,
          ...r.takenOver && { takenOver: r.takenOver }
        });
        this.renewing = this.renewLoop();
        return;
      }
      const now2 = monotonicMs(this.ctx.clock);
      if (r.hold) throw this.held(r);
      const waitingOut = !r.alive && r.expiresAt <= now2 + LONGEST_WAIT_MS;
      if (now2 + POLL_MS2 > until && !waitingOut) throw this.held(r);
      const state = `${r.holder}/${r.alive}`;
      if (said2 !== state) {
        said2 = state;
        this.ctx.emit({
          type: "lock.wait",
          holder: r.holder,
          ...r.runUrl && { runUrl: r.runUrl },
          alive: r.alive,
          ...!r.alive && {
            freeBy: new Date(this.ctx.clock.now().getTime() + (r.expiresAt - now2)).toISOString()
          }
        });
      }
      await this.ctx.clock.sleep(POLL_MS2, this.ctx.signal);
    }
  }
  held(r) {
    const who2 = `${r.holder}${r.runUrl ? ` (${r.runUrl})` : ""}`;
    if (r.hold)
      return new RollError(
        "LockHeld",
        `cluster lock ${LEASE_NAMESPACE}/${this.me.name} is held by ${who2} for longer than any roll runs: a hold, not a run. It is never taken over; its holder must release it`
      );
    const state = r.alive ? "it is renewing it" : "it stopped renewing it; it is free once unchanged for its duration";
    return new RollError(
      "LockHeld",
      `another roll holds cluster lock ${LEASE_NAMESPACE}/${this.me.name}: ${who2}; ${state}. Wait for it to finish, then run again (the command line's --lock-wait waits for it)`
    );
  }
  /**
   * Renew every RENEW_EVERY_MS; a failed renewal is retried every few seconds. Not renewed by
   * RENEW_DEADLINE_MS, or the Lease taken or deleted: `onLost` says so, and the caller aborts
   * everything in flight.
   */
  async renewLoop() {
    let renewed = monotonicMs(this.ctx.clock);
    try {
      for (; ; ) {
        await this.ctx.clock.sleep(RENEW_EVERY_MS, this.stop.signal);
        const lost = await this.renewBy(renewed + RENEW_DEADLINE_MS);
        if (this.stop.signal.aborted) return;
        if (lost) return this.onLost?.(lost);
        renewed = monotonicMs(this.ctx.clock);
      }
    } catch {
      return;
    }
  }
  /**
   * Renew before `deadline` (monotonic ms): undefined when renewed, else why the lock is lost.
   * An attempt that fails once the deadline has passed loses the lock, and so does one still
   * unanswered when it passes: the port may retry underneath (the Kubernetes adapter backs off
   * from a 500, 503 or 504), and a renewal that outlasts the deadline must not keep
   * the run going while another may take the Lease (client-go's leader election bounds its
   * renewal by its renew deadline the same way). A renewal that succeeds before the deadline
   * holds it, however late in the wait: the record changed, so no other run can have seen it
   * unchanged for its duration.
   */
  async renewBy(deadline) {
    const lostMessage = `the cluster lock could not be renewed for ${RENEW_DEADLINE_MS / 1e3} s`;
    for (; ; ) {
      let retryAfter;
      const attempt = this.renewNow().catch((e) => {
        if (e instanceof KubeApiError && e.status === 404) return "gone";
        if (e instanceof KubeApiError && e.retryAfterSeconds !== void 0)
          retryAfter = Math.min(e.retryAfterSeconds * 1e3, RETRY_MS);
        return "failed";
      });
      const outcome2 = await this.byDeadline(attempt, deadline);
      if (outcome2 === "late") return lostMessage;
      if (outcome2 === "renewed") return void 0;
      if (outcome2 === "taken") return "another run holds the cluster lock now";
      if (outcome2 === "gone") return "the cluster lock was deleted";
      if (this.stop.signal.aborted) return void 0;
      if (monotonicMs(this.ctx.clock) >= deadline) return lostMessage;
      await this.ctx.clock.sleep(retryAfter ?? RETRY_MS, this.stop.signal);
    }
  }
  /** What `attempt` settles to, or "late" when `deadline` (monotonic ms) comes first. */
  async byDeadline(attempt, deadline) {
    const done = new AbortController();
    const ms2 = Math.max(0, deadline - monotonicMs(this.ctx.clock));
    const late = new Promise((resolve) => {
      this.ctx.clock.sleep(ms2, done.signal).then(
        () => resolve("late"),
        () => void 0
        // the attempt settled first
      );
    });
    try {
      return await Promise.race([attempt, late]);
    } finally {
      done.abort();
    }
  }
  /**
   * One write, from the Lease as we last wrote it (its resourceVersion the precondition): a
   * renewal is one request, not two, so it gets through a throttled or flaky API. A conflict
   * means the record changed under us: it is read again, and may be another run's now — or carry
   * a request (lease-request.ts), which the renewal then keeps, and this run sees at once.
   */
  async renewNow(again = true) {
    if (!this.written) {
      const current2 = await this.leases.getLease(LEASE_NAMESPACE, this.me.name);
      if (current2.spec.holderIdentity !== this.me.holder) return "taken";
      this.written = current2;
      if (current2.spec.renewTime !== this.confirmed) return this.confirm(current2);
    }
    const held = this.written;
    try {
      this.confirm(
        await this.leases.updateLease(LEASE_NAMESPACE, {
          ...held,
          // A pause or an abort on the Lease is not ours to erase: it stays until resumed.
          metadata: { ...held.metadata, annotations: keepRequest(held, this.meta().annotations) },
          spec: { ...held.spec, renewTime: microTime(this.ctx.clock.now()) }
        })
      );
    } catch (e) {
      if (!(e instanceof KubeApiError && e.status === 409)) throw e;
      this.written = void 0;
      if (again) return this.renewNow(false);
      throw e;
    }
    return "renewed";
  }
  confirm(lease) {
    this.written = lease;
    this.confirmed = lease.spec.renewTime;
    this.noteRequest(lease);
    return "renewed";
  }
  /**
   * Give the lease up (no holder) so the next run need not wait for it; through `cluster` when
   * the run's own ports no longer answer (a cancelled run). True when given back; false when it
   * was no longer ours. The caller says which (lock.release only when it was).
   */
  async release(cluster = this.leases) {
    this.stop.abort();
    await this.renewing;
    return releaseLease(cluster, this.me.name, this.me.holder, this.work);
  }
};
async function releaseLease(cluster, name, holder, work) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current2 = await cluster.getLease(LEASE_NAMESPACE, name);
    if (current2.spec.holderIdentity !== holder)
      return attempt > 0 && current2.spec.holderIdentity === void 0;
    const { holderIdentity: _h, ...rest } = current2.spec;
    try {
      await cluster.updateLease(LEASE_NAMESPACE, {
        ...current2,
        ...work && { metadata: withRecord(current2.metadata, work) },
        spec: { ...rest, leaseDurationSeconds: 1 }
      });
      return true;
    } catch (e) {
      if (e instanceof KubeApiError && e.status !== 409) throw e;
      if (attempt === 2) throw e;
    }
  }
  return false;
}

// src/roll/watch.ts
var WATCH_TIMEOUT_SECONDS = 300;
var WATCH_STALE_MS = 9e4;
var StaleWatch = class extends Error {
  name = "StaleWatch";
};
function watchBackoffMs(e, failures) {
  if (e instanceof KubeApiError && e.status === 429) return retryAfterMs(e.retryAfterSeconds, 1e3);
  return Math.min(3e4, 1e3 * 2 ** failures);
}
function mustRelist(e) {
  return e instanceof StaleWatch || e instanceof KubeApiError && e.status === 410;
}
async function nextWithin(it, clock2, staleMs, signal) {
  const timer = new AbortController();
  let onAbort = () => {
  };
  try {
    return await Promise.race([
      it.next(),
      clock2.sleep(staleMs, timer.signal).then(() => {
        throw new StaleWatch(`no event for ${staleMs / 1e3} s`);
      }),
      new Promise((_, reject) => {
        onAbort = () => reject(abortError(signal));
        if (signal.aborted) onAbort();
        else signal.addEventListener("abort", onAbort, { once: true });
      })
    ]);
  } finally {
    timer.abort(SETTLED);
    signal.removeEventListener("abort", onAbort);
  }
}
async function* guardedWatch(clock2, open, signal, staleMs = WATCH_STALE_MS) {
  const inner2 = new AbortController();
  const stop = () => inner2.abort();
  signal.addEventListener("abort", stop, { once: true });
  if (signal.aborted) stop();
  const it = open(inner2.signal)[Symbol.asyncIterator]();
  try {
    for (; ; ) {
      const r = await nextWithin(it, clock2, staleMs, signal);
      if (r.done) return;
      yield r.value;
    }
  } finally {
    inner2.abort();
    signal.removeEventListener("abort", stop);
    void it.return?.()?.catch(() => void 0);
  }
}

// src/roll/informer.ts
var Informer = class {
  constructor(ctx) {
    this.ctx = ctx;
  }
  ctx;
  waiters = [];
  stop = new AbortController();
  running;
  /** A watch or list failed (it is tried again after a pause). */
  failed(_e) {
  }
  /** The watch answered: an event, a bookmark too (the API server is heard from again). */
  heard() {
  }
  async start() {
    const rv = await this.relist();
    this.running = this.loop(rv);
  }
  async close() {
    this.stop.abort();
    await this.running;
  }
  /** Resolves at the next change (or after `maxMs`, so callers re-check what they poll elsewhere). */
  async changed(maxMs, signal) {
    const wake = new AbortController();
    const woken = new Promise((resolve) => this.waiters.push(resolve));
    const until = signal ? AbortSignal.any([wake.signal, signal]) : wake.signal;
    await Promise.race([woken, this.ctx.clock.sleep(maxMs, until).catch(() => void 0)]);
    wake.abort();
  }
  notify() {
    const w = this.waiters;
    this.waiters = [];
    for (const resolve of w) resolve();
  }
  async relist() {
    const { items, resourceVersion } = await this.list();
    this.reset(items);
    this.notify();
    return resourceVersion;
  }
  /** Watch from `rv` until the watch ends; the last resourceVersion seen, and how many events. */
  async watchFrom(rv) {
    let events = 0;
    const watch = guardedWatch(
      this.ctx.clock,
      (signal) => this.watch({
        resourceVersion: rv,
        timeoutSeconds: WATCH_TIMEOUT_SECONDS,
        allowWatchBookmarks: true,
        signal
      }),
      this.stop.signal
    );
    for await (const e of watch) {
      events++;
      if (e.object.metadata.resourceVersion) rv = e.object.metadata.resourceVersion;
      this.heard();
      if (e.type === "BOOKMARK") continue;
      this.apply(e);
      this.notify();
    }
    return { rv, events };
  }
  async loop(resourceVersion) {
    let rv = resourceVersion;
    let failures = 0;
    const pause = (ms2) => this.ctx.clock.sleep(ms2, this.stop.signal).catch(() => void 0);
    while (!this.stop.signal.aborted) {
      try {
        const r = await this.watchFrom(rv);
        rv = r.rv;
        failures = 0;
        if (r.events === 0) await pause(1e3);
      } catch (e) {
        if (isAbort(e) || this.stop.signal.aborted) return;
        this.failed(e);
        let failure = e;
        if (mustRelist(e)) {
          try {
            rv = await this.relist();
            continue;
          } catch (relistError) {
            failure = relistError;
          }
        }
        await pause(watchBackoffMs(failure, failures++));
      }
    }
  }
};

// src/roll/critical-pods.ts
var CRITICAL_PRIORITY = ["system-cluster-critical", "system-node-critical"];
function criticalPriority(p) {
  const c = p.spec.priorityClassName;
  return CRITICAL_PRIORITY.find((k) => k === c);
}
function crashLooping(p) {
  return (p.status.containerStatuses ?? []).some(
    (c) => c.state?.waiting?.reason === "CrashLoopBackOff" || c.restartCount >= CRASH_RESTARTS
  );
}
var CRASH_RESTARTS = 2;
var keyOf = (p) => `${p.metadata.namespace ?? ""}/${p.metadata.name}`;
var WatchedPods = class extends Informer {
  byKey = /* @__PURE__ */ new Map();
  looping = /* @__PURE__ */ new Map();
  /** The last list or watch answered: what is cached is the cluster as the server has it. */
  current = true;
  list() {
    return listAll((cont) => this.ctx.cluster.listPods(void 0, pageOf(cont)));
  }
  watch(opts) {
    return this.ctx.cluster.watchPods(void 0, opts);
  }
  reset(items) {
    this.byKey.clear();
    this.looping.clear();
    for (const p of items) {
      if (criticalPriority(p)) this.byKey.set(keyOf(p), p);
      if (crashLooping(p)) this.looping.set(keyOf(p), p);
    }
    this.current = true;
  }
  heard() {
    this.current = true;
  }
  apply(e) {
    const key = keyOf(e.object);
    if (e.type === "DELETED" || !crashLooping(e.object)) this.looping.delete(key);
    else this.looping.set(key, e.object);
    if (!criticalPriority(e.object)) return;
    if (e.type === "DELETED") this.byKey.delete(key);
    else this.byKey.set(key, e.object);
  }
  failed() {
    this.current = false;
  }
  /** The critical pods, or undefined while the watch is failing. */
  critical() {
    return this.current ? [...this.byKey.values()] : void 0;
  }
  /** The pods that restart or crash-loop, or undefined while the watch is failing. */
  crashLooping() {
    return this.current ? [...this.looping.values()] : void 0;
  }
};
var WATCHED_PODS = new RunPart("watched pods", async (held) => {
  const h = await held;
  if (h instanceof WatchedPods) await h.close();
});
var RESTART_AFTER_MS = 6e4;
async function watchedPodsOf(ctx) {
  const now2 = () => ctx.clock.now().getTime();
  const start = () => {
    const cache = new WatchedPods(ctx);
    return cache.start().then(
      () => cache,
      () => ({ failedAt: now2() })
    );
  };
  let held = ctx.state.of(WATCHED_PODS, start);
  let h = await held;
  if (!(h instanceof WatchedPods) && now2() - h.failedAt >= RESTART_AFTER_MS) {
    if (ctx.state.peek(WATCHED_PODS) === held) ctx.state.drop(WATCHED_PODS);
    held = ctx.state.of(WATCHED_PODS, start);
    h = await held;
  }
  return h instanceof WatchedPods ? h : void 0;
}

// src/roll/gates.ts
var GATE_PERIOD_MS = 3e4;
function stopsOn(settings, reading) {
  if (reading.verdict === "fail") return { verdict: "fail", reading };
  if (reading.verdict === "inconclusive" && settings.onInconclusive !== "continue")
    return { verdict: "inconclusive", reading };
  return void 0;
}
var GateWatch = class {
  constructor(ctx, subject) {
    this.ctx = ctx;
    this.subject = subject;
  }
  ctx;
  subject;
  firstSeen = /* @__PURE__ */ new Map();
  last;
  /** The reading under way: a second ask while it runs shares it (one request per gate). */
  reading;
  /** The first reading, which the roll waits for before its first write. */
  first;
  halt = new AbortController();
  closed = new AbortController();
  loop;
  stop;
  /** Aborted once a verdict stops the roll. */
  get halted() {
    return this.halt.signal;
  }
  get stopped() {
    return this.stop;
  }
  /**
   * Read the gates now and every period after, until closed or stopped. Resolves with the first
   * reading: a gate that fails before anything is done (an alarm firing already) stops the roll
   * before its first write.
   */
  start() {
    this.first ??= this.evaluate();
    this.loop ??= this.run();
    return this.first;
  }
  async close() {
    this.closed.abort();
    await this.loop;
  }
  async run() {
    const signal = AbortSignal.any([this.ctx.signal, this.closed.signal]);
    while (!signal.aborted && !this.stop) {
      await this.evaluate();
      await this.ctx.clock.sleep(GATE_PERIOD_MS, signal).catch(() => void 0);
    }
  }
  /**
   * The gates' verdict now: read afresh when the last reading is a period old (the requests'
   * budget), else the last one's. Every reading goes to the event log.
   */
  evaluate() {
    const now2 = this.ctx.clock.now().getTime();
    if (this.stop || this.last && now2 - this.last.at < GATE_PERIOD_MS)
      return Promise.resolve(this.stop);
    this.reading ??= this.readNow(now2).finally(() => this.reading = void 0);
    return this.reading;
  }
  async readNow(now2) {
    const readings = await this.read();
    this.last = { at: now2, readings };
    for (const r of readings)
      this.ctx.emit({ type: "gate.verdict", group: this.subject.group, ...r });
    const stop = readings.map((r) => stopsOn(this.subject.settings, r)).find(Boolean);
    if (stop && !this.stop && !this.ctx.signal.aborted) {
      this.stop = stop;
      this.halt.abort();
    }
    return this.stop;
  }
  async read() {
    const s = this.subject.settings;
    const [replacements, signals] = await Promise.all([
      this.replacementGates(),
      readSignals(this.ctx, s)
    ]);
    return [...replacements, ...signals];
  }
  async replacementGates() {
    let news;
    try {
      news = await this.subject.replacements();
    } catch (e) {
      const value = "unread";
      const detail = `the group could not be read: ${describeFailure(e)}`;
      return [
        { gate: "replacements-ready", verdict: "inconclusive", value, detail },
        { gate: "crash-looping-pods", verdict: "inconclusive", value, detail }
      ];
    }
    return [this.readyGate(news), await crashLoopGate(this.ctx, this.subject.settings, news)];
  }
  /** Each replacement Ready within readyWithin of when its instance was first seen. */
  readyGate(news) {
    const now2 = this.ctx.clock.now().getTime();
    const within = this.subject.settings.replacements.readyWithinMs;
    const late = [];
    for (const r of news) {
      const seen3 = this.firstSeen.get(r.instance) ?? now2;
      this.firstSeen.set(r.instance, seen3);
      if (!(r.node && isReady(r.node)) && now2 - seen3 > within)
        late.push(r.node?.metadata.name ?? r.instance);
    }
    const ready = news.filter((r) => r.node && isReady(r.node)).length;
    if (late.length === 0)
      return {
        gate: "replacements-ready",
        verdict: "pass",
        value: `${ready}/${news.length} Ready`
      };
    return {
      gate: "replacements-ready",
      verdict: "fail",
      value: `${late.length} not Ready`,
      detail: `${late.join(", ")} not Ready ${formatDuration(within)} after launch (readyWithin)`,
      nodes: late
    };
  }
};
async function crashLoopGate(ctx, settings, news) {
  const gate = "crash-looping-pods";
  const nodes = new Set(news.flatMap((r) => r.node ? [r.node.metadata.name] : []));
  if (nodes.size === 0) return { gate, verdict: "pass", value: "0 pods" };
  let looping;
  try {
    looping = await loopingOn(ctx, nodes);
  } catch (e) {
    return { gate, verdict: "inconclusive", value: "unread", detail: describeFailure(e) };
  }
  const at5 = settings.replacements.crashLoopingPods;
  const names2 = looping.map((p) => `${p.metadata.namespace}/${p.metadata.name}`);
  const value = `${looping.length} pod${looping.length === 1 ? "" : "s"}`;
  if (looping.length < at5) return { gate, verdict: "pass", value };
  return {
    gate,
    verdict: "fail",
    value,
    detail: `crash-looping or restarting on replacement nodes (${names2.slice(0, 5).join(", ")}${names2.length > 5 ? ", …" : ""}); the gate fails at ${at5}`,
    nodes: [...new Set(looping.map((p) => p.spec.nodeName))]
  };
}
async function loopingOn(ctx, nodes) {
  const cached2 = (await watchedPodsOf(ctx))?.crashLooping();
  if (cached2) return cached2.filter((p) => nodes.has(p.spec.nodeName ?? ""));
  const lists = await Promise.all(
    [...nodes].map(
      (n2) => listAll(
        (cont) => ctx.cluster.listPods(void 0, { ...pageOf(cont), fieldSelector: `spec.nodeName=${n2}` })
      )
    )
  );
  return lists.flatMap((l) => l.items).filter(crashLooping);
}
async function readSignals(ctx, gates) {
  const [alarms, queries] = await Promise.all([
    gates.alarms.length > 0 ? alarmGates(ctx, gates.alarms) : [],
    Promise.all(gates.prometheus.map((p) => prometheusGate(ctx, p)))
  ]);
  return [...alarms, ...queries];
}
async function alarmGates(ctx, names2) {
  const gate = (n2) => `alarm/${n2}`;
  let alarms;
  try {
    alarms = await ctx.cloud.cloudWatch.describeAlarms({ AlarmNames: names2 });
  } catch (e) {
    const detail = `DescribeAlarms failed: ${describeFailure(e)}`;
    return names2.map((n2) => ({ gate: gate(n2), verdict: "inconclusive", value: "unread", detail }));
  }
  return names2.map((n2) => {
    const a = alarms.find((x) => x.AlarmName === n2);
    if (!a)
      return {
        gate: gate(n2),
        verdict: "inconclusive",
        value: "missing",
        detail: `no CloudWatch alarm named ${n2} in this account and region`
      };
    const verdict = a.StateValue === "OK" ? "pass" : a.StateValue === "ALARM" ? "fail" : "inconclusive";
    return {
      gate: gate(n2),
      verdict,
      value: a.StateValue,
      ...a.StateReason && { detail: a.StateReason }
    };
  });
}
async function prometheusGate(ctx, p) {
  const gate = `prometheus/${p.name}`;
  if (!ctx.metrics)
    return {
      gate,
      verdict: "inconclusive",
      value: "unread",
      detail: "no Prometheus client in this run"
    };
  try {
    const v = await ctx.metrics.instantQuery({ address: p.address, query: p.query });
    if (v.kind === "empty")
      return { gate, verdict: "inconclusive", value: "no value", detail: v.why };
    const crossed = "above" in p.fail ? v.value > p.fail.above : v.value < p.fail.below;
    const limit = "above" in p.fail ? `above ${p.fail.above}` : `below ${p.fail.below}`;
    return {
      gate,
      verdict: crossed ? "fail" : "pass",
      value: String(v.value),
      ...crossed && { detail: `${p.query} = ${v.value}, ${limit}` }
    };
  } catch (e) {
    return { gate, verdict: "inconclusive", value: "unread", detail: describeFailure(e) };
  }
}
var GateFailed = class extends RollError {
  constructor(group3, gate, verdict, message) {
    super("GateFailed", message);
    this.group = group3;
    this.gate = gate;
    this.verdict = verdict;
  }
  group;
  gate;
  verdict;
};
async function pauseFor(ctx, cluster, group3, reason, where) {
  const request = {
    action: "pause",
    by: `noderoll (gates of ${group3})`,
    reason,
    at: ctx.clock.now().toISOString()
  };
  const written = await setRequest(
    ctx.cluster,
    LEASE_NAMESPACE,
    leaseName(cluster),
    request,
    (standing) => standing === void 0
  );
  return new Stopped(stopOf(written.changed ? request : written.before ?? request), where);
}
var HALTED = "The roll halted: no node was cordoned after it, and nodes whose drain it interrupted were made schedulable again. Fix the release (or the gate) and run apply again";
function gateFailure(group3, stop, wave, after = HALTED) {
  const r = stop.reading;
  const what = stop.verdict === "fail" ? "failed" : "was inconclusive";
  const about = r.nodes?.length ? r.nodes : wave;
  const nodes = about.length > 0 ? ` (nodes: ${about.join(", ")})` : "";
  return new GateFailed(
    group3,
    r.gate,
    stop.verdict,
    `${group3}: gate ${r.gate} ${what} — ${r.value}${r.detail ? `: ${r.detail}` : ""}${nodes}. ${after}`
  );
}
function stopOnGate(ctx, o, said2) {
  const r = o.stop.reading;
  if (o.stop.verdict === "inconclusive" && o.settings.onInconclusive === "pause") {
    const why2 = `gate ${r.gate} was inconclusive — ${r.value}${r.detail ? `: ${r.detail}` : ""}`;
    return pauseFor(ctx, o.cluster, o.group, why2, said2.where);
  }
  return Promise.resolve(gateFailure(o.group, o.stop, said2.wave, said2.after));
}
async function watchFor(ctx, gates, group3, ms2, why2) {
  if (ms2 <= 0) return;
  ctx.emit({ type: "wait.start", group: group3, what: `${why2}: gates watched for ${formatDuration(ms2)}` });
  try {
    await ctx.clock.sleep(ms2, ctx.signal);
    await gates?.evaluate();
  } finally {
    ctx.emit({ type: "wait.end", group: group3 });
  }
  if (ctx.signal.aborted) throw abortError(ctx.signal);
}

// src/kinds/managed/gates.ts
function managedGates(ctx, job, asgName) {
  const before = new Set(job.live.instances.map((i) => i.id));
  const gates = new GateWatch(ctx, {
    group: job.plan.name,
    settings: job.plan.settings.gates,
    replacements: async () => {
      if (!asgName) return [];
      const [asg] = await ctx.cloud.autoScaling.describeAutoScalingGroups({
        AutoScalingGroupNames: [asgName]
      });
      return (asg?.Instances ?? []).filter((i) => !before.has(i.InstanceId) && !i.LifecycleState.startsWith("Terminat")).map((i) => ({ instance: i.InstanceId, node: job.nodes.byInstance(i.InstanceId) }));
    }
  });
  gates.start();
  return gates;
}
function managedHalt(ctx, job, stop, when2) {
  const group3 = job.plan.name;
  const where = {
    before: `nothing was started on ${group3}`,
    during: `EKS's update cannot be stopped midway; no group after ${group3} is started`,
    after: `EKS's update of ${group3} is done; no group after it is started`
  }[when2];
  const after = `${where[0].toUpperCase()}${where.slice(1)}.`;
  const at5 = { cluster: job.cluster, group: group3, settings: job.plan.settings.gates, stop };
  return stopOnGate(ctx, at5, { wave: [], where, after });
}
async function managedBake(ctx, job, gates) {
  const halting = { ...ctx, signal: AbortSignal.any([ctx.signal, gates.halted]) };
  await watchFor(halting, gates, job.plan.name, job.plan.settings.gates.bakeMs, "bake").catch(
    (e) => {
      if (ctx.signal.aborted || !gates.halted.aborted) throw e;
    }
  );
}

// src/roll/drain-filters.ts
var podId2 = (p) => `${p.metadata.namespace ?? "default"}/${p.metadata.name}`;
function podsToMove(pods) {
  return pods.filter((p) => !drainLeaves(isMirrorPod(p), controllerOf(p)?.kind));
}
function refuseOrphans(node, evict2, pods) {
  const orphans = pods.filter((p) => !controllerOf(p) && !isFinished(p.status.phase));
  if (orphans.length === 0 || evict2) return;
  const staying = orphans.filter((p) => p.metadata.deletionTimestamp === void 0);
  const going = orphans.filter((p) => p.metadata.deletionTimestamp !== void 0);
  const s = pronouns(staying);
  const g = pronouns(going);
  const why2 = [
    ...staying.length > 0 ? [
      `${named(staying)} no controller, so nothing would recreate ${s.them} elsewhere: delete ${s.them} or run ${s.them} under a controller`
    ] : [],
    ...going.length > 0 ? [
      `${named(going)} no controller and ${g.are} already being deleted: wait until ${g.they} ${g.are} gone`
    ] : []
  ];
  throw new RollError(
    "PodEvictionFailure",
    `cannot drain ${node} (the policy says unmanagedPods: refuse, as kubectl drain without --force): ${why2.join("; ")}; or set unmanagedPods: evict`
  );
}
function named(pods) {
  const more = pods.length > 10 ? ` and ${pods.length - 10} more` : "";
  return `${pods.slice(0, 10).map(podId2).join(", ")}${more} ${pods.length === 1 ? "has" : "have"}`;
}
var pronouns = (pods) => pods.length === 1 ? { they: "it", them: "it", are: "is" } : { they: "they", them: "them", are: "are" };

// src/kinds/managed/evictions.ts
var MAX_NODES = 10;
function nodeNames(job, ids) {
  const byInstance = new Map(
    [...job.nodes.byName.values()].flatMap((n2) => {
      const id2 = instanceIdOf(n2);
      return id2 ? [[id2, n2.metadata.name]] : [];
    })
  );
  const names2 = ids.map((id2) => byInstance.get(id2) ?? id2).filter((n2) => job.nodes.byName.has(n2));
  return [...new Set(names2)].slice(0, MAX_NODES);
}
function why(pod, pdbs, now2) {
  const due = pod.metadata.deletionTimestamp;
  if (due) {
    const by = heldPastDeletion(pod.metadata, now2) ? ": a finalizer or an unreachable kubelet holds it" : "";
    return `none (the pod is being deleted, due ${due}${by})`;
  }
  const ns = pod.metadata.namespace ?? "default";
  const selecting = pdbs.filter(
    (b) => b.metadata.namespace === ns && matchesSelector(b.spec.selector, pod.metadata.labels ?? {})
  );
  if (selecting.length > 1) return `several: ${selecting.map((b) => b.metadata.name).join(", ")}`;
  const closed = selecting.find((b) => b.status.disruptionsAllowed === 0);
  if (closed) return closed.metadata.name;
  const everything = pod.spec.tolerations?.some(
    (t) => t.operator === "Exists" && !t.key && !t.effect
  );
  return everything ? "none (the pod tolerates every taint)" : "unknown";
}
async function evictionBlockers(ctx, job, ids) {
  const out = [];
  const budgets = /* @__PURE__ */ new Map();
  for (const node of nodeNames(job, ids)) {
    const pods = podsToMove(
      (await listAll(
        (cont) => ctx.cluster.listPods(void 0, {
          ...pageOf(cont, { fieldSelector: `spec.nodeName=${node}` }),
          resourceVersion: "0"
        })
      )).items
    );
    for (const ns of new Set(pods.map((p) => p.metadata.namespace ?? "default")))
      if (!budgets.has(ns))
        budgets.set(
          ns,
          (await listAll((cont) => ctx.cluster.listPodDisruptionBudgets(ns, pageOf(cont)))).items
        );
    const pdbs = [...budgets.values()].flat();
    for (const p of pods)
      out.push({
        node,
        pod: `${p.metadata.namespace ?? "default"}/${p.metadata.name}`,
        pdb: why(p, pdbs, ctx.clock.now())
      });
  }
  for (const b of out)
    ctx.emit({ type: "eviction.blocked", group: job.plan.name, ...b, final: true });
  return out;
}
function describeBlockers(blocked) {
  if (blocked.length === 0) return "";
  const shown = blocked.slice(0, 10).map(
    (b) => noBudgetHeld(b.pdb) ? `${b.pod} on ${b.node} (${b.pdb})` : `${b.pod} on ${b.node} (PodDisruptionBudget ${b.pdb} allows no disruption)`
  );
  const more = blocked.length > 10 ? ` and ${blocked.length - 10} more` : "";
  return ` Pods EKS could not evict: ${shown.join("; ")}${more}.`;
}

// src/kinds/managed/phases.ts
var EKS_UPDATE_TAINT = {
  key: "eks.amazonaws.com/nodegroup",
  value: "unschedulable",
  effect: "NoSchedule"
};
var PhaseTracker = class {
  constructor(ctx, group3, original, old) {
    this.ctx = ctx;
    this.group = group3;
    this.original = original;
    this.old = old;
    ctx.emit({ type: "phase.start", group: group3, phase: "setup" });
  }
  ctx;
  group;
  original;
  old;
  current = "setup";
  moveTo(next, message) {
    while (PHASES.indexOf(this.current) < PHASES.indexOf(next)) {
      this.ctx.emit({
        type: "phase.end",
        group: this.group,
        phase: this.current,
        result: "success",
        ...message && { message }
      });
      this.current = PHASES[PHASES.indexOf(this.current) + 1];
      this.ctx.emit({ type: "phase.start", group: this.group, phase: this.current });
    }
  }
  /**
   * The sizes, and the old nodes still there: how many EKS has cordoned or tainted. The upgrade
   * starts when EKS taints the old nodes at the end of its scale-up — whether it cordons each
   * after its drain (the user guide) or all at once (awsdocs/amazon-eks-user-guide pull request
   * 1229) — so a drain that is blocked for 15 minutes is reported as the upgrade it is.
   */
  observe(sizes, old) {
    if (sizes.desired > this.original.desired || sizes.max > this.original.max)
      this.moveTo("scale-up");
    if (old.tainted > 0 || old.cordoned > 0 || old.left < this.old.size) this.moveTo("upgrade");
    if (old.left === 0 && this.old.size > 0) this.moveTo("scale-down");
  }
  finish(result, message) {
    if (result === "success") this.moveTo("scale-down");
    this.ctx.emit({
      type: "phase.end",
      group: this.group,
      phase: this.current,
      result,
      ...message && { message }
    });
    for (const p of PHASES.slice(PHASES.indexOf(this.current) + 1)) {
      this.ctx.emit({ type: "phase.start", group: this.group, phase: p });
      this.ctx.emit({ type: "phase.end", group: this.group, phase: p, result: "skipped" });
    }
  }
};

// src/kinds/managed/roll.ts
function sameConfig(want, have) {
  if (!want) return true;
  if (want.updateStrategy && want.updateStrategy !== (have.updateStrategy ?? "DEFAULT"))
    return false;
  if (want.maxUnavailable === void 0 && want.maxUnavailablePercentage === void 0) return true;
  if (want.maxUnavailablePercentage !== void 0)
    return want.maxUnavailablePercentage === have.maxUnavailablePercentage;
  return (want.maxUnavailable ?? 1) === (have.maxUnavailable ?? (have.maxUnavailablePercentage === void 0 ? 1 : void 0));
}
async function applyConfig(ctx, job, have) {
  const want = job.plan.updateConfig;
  if (!want || sameConfig(want, have)) return;
  const budget2 = have.maxUnavailablePercentage !== void 0 ? { maxUnavailablePercentage: have.maxUnavailablePercentage } : { maxUnavailable: have.maxUnavailable ?? 1 };
  const alone = want.maxUnavailable === void 0 && want.maxUnavailablePercentage === void 0;
  const cfg = await ctx.cloud.eks.updateNodegroupConfig({
    clusterName: job.cluster,
    nodegroupName: job.plan.name,
    updateConfig: alone ? { ...budget2, ...want } : want
  });
  report(ctx, job.plan.name, { ...cfg, errors: [] }, "ConfigUpdate");
  await awaitSuccess(ctx, job, cfg);
}
function versionInput(job, amiType) {
  const target = eksTarget(amiType, job.plan.target);
  const lt = job.live.launchTemplate;
  const ltChange = lt && target.launchTemplateVersion !== void 0;
  if (isCustomAmi(amiType) && !ltChange)
    throw new RollError("UpdateFailed", customAmiAdvice(job.plan.name));
  return {
    clusterName: job.cluster,
    nodegroupName: job.plan.name,
    // EKS's force is the policy's deleteAfterDrainTimeout (UpdateNodegroupVersion, "force").
    force: job.plan.settings.deleteAfterDrainTimeout,
    ...target.kubernetesVersion && { version: target.kubernetesVersion },
    ...target.releaseVersion && { releaseVersion: target.releaseVersion },
    ...ltChange && {
      launchTemplate: { id: lt.id, version: String(target.launchTemplateVersion) }
    }
  };
}
function mayHaveStarted(e) {
  return isLostAnswer(e) || isTryLater(e instanceof ApiCallError ? e.cause : e);
}
async function startVersionUpdate(ctx, job, amiType) {
  const input = versionInput(job, amiType);
  for (let n2 = 1; ; n2++) {
    try {
      return await ctx.cloud.eks.updateNodegroupVersion(input);
    } catch (e) {
      if (!mayHaveStarted(e)) throw e;
      const running = await inProgress(ctx, job);
      if (running && isOurs(job, running)) {
        ctx.emit({
          type: "note",
          message: `${job.plan.name}: UpdateNodegroupVersion got no clear answer; following EKS update ${running.id} in progress, to this plan's target`
        });
        return running;
      }
      if (running && n2 < 3) await waitOut(ctx, job, running);
      else if (running || !isLostAnswer(e) || n2 >= 3) throw e;
    }
  }
}
var pendingOf = (job) => ({ kind: "managed", group: job.plan.name, id: PENDING });
var isOurs = (job, u) => u.type === "VersionUpdate" && takesToTarget(updateInfo(u), eksTarget(job.live.amiType, job.plan.target));
var GroupWatch = class {
  constructor(ctx, job, asgName, old, tracker) {
    this.ctx = ctx;
    this.job = job;
    this.asgName = asgName;
    this.old = old;
    this.tracker = tracker;
    const { min, max, desired } = job.live;
    this.last = { min, max, desired };
  }
  ctx;
  job;
  asgName;
  old;
  tracker;
  last;
  gone = /* @__PURE__ */ new Set();
  observe = async () => {
    if (!this.asgName) return;
    const [asg] = await this.ctx.cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: [this.asgName]
    });
    if (!asg) return;
    const group3 = this.job.plan.name;
    const sizes = { min: asg.MinSize, max: asg.MaxSize, desired: asg.DesiredCapacity };
    if (JSON.stringify(sizes) !== JSON.stringify(this.last)) {
      this.ctx.emit({ type: "asg.resize", group: group3, from: this.last, to: sizes });
      this.last = sizes;
    }
    const present = new Set(asg.Instances.map((i) => i.InstanceId));
    for (const id2 of this.old) {
      if (present.has(id2) || this.gone.has(id2)) continue;
      this.gone.add(id2);
      this.ctx.emit({ type: "instance.terminate", group: group3, instance: id2, decrement: true });
    }
    const left2 = [...this.old].filter((id2) => present.has(id2));
    const nodes = left2.map((id2) => this.job.nodes.byInstance(id2));
    this.tracker.observe(sizes, {
      left: left2.length,
      cordoned: nodes.filter((n2) => n2?.spec.unschedulable).length,
      tainted: nodes.filter(
        (n2) => n2?.spec.taints?.some(
          (t) => t.key === EKS_UPDATE_TAINT.key && t.effect === EKS_UPDATE_TAINT.effect
        )
      ).length
    });
  };
};
function atTarget(job, ng) {
  const { target } = job.plan;
  if (target.launchTemplateVersion !== void 0) return false;
  if (!target.kubernetesVersion && !target.releaseVersion) return false;
  return reached(target, ng);
}
async function waitOut(ctx, job, running) {
  const u = updateInfo(running);
  const version = u.type === "VersionUpdate";
  const what = `EKS update ${u.id} of ${job.plan.name} (${u.type}${version ? `, to ${describeTarget(u.to)}` : ""}, started ${u.createdAt.toISOString()})`;
  const why2 = version ? `does not take the group to this plan's target (${describeTarget(job.plan.target)})` : "changes the group's configuration";
  ctx.emit({ type: "wait.start", group: job.plan.name, what });
  ctx.emit({
    type: "note",
    group: job.plan.name,
    message: `${what} is in progress and ${why2}: waiting for it to end, then rolling to the target`
  });
  const done = await waitForUpdate(
    ctx,
    job,
    running,
    async () => {
      const stop = job.stopReason();
      if (stop)
        throw new Stopped(
          stop,
          `while waiting for ${what}; nothing of this run was started on ${job.plan.name}`
        );
    },
    false
  );
  ctx.emit({ type: "wait.end", group: job.plan.name });
  ctx.emit({
    type: "note",
    group: job.plan.name,
    message: `${what} ended ${done.status}; rolling ${job.plan.name} to the plan's target`
  });
  return ctx.cloud.eks.describeNodegroup(job.cluster, job.plan.name);
}
async function theUpdate(ctx, job, ng) {
  let latest = ng;
  const running = ng.status === "UPDATING" ? await inProgress(ctx, job, (n2) => latest = n2) : void 0;
  let config = latest.updateConfig;
  if (running && isOurs(job, running)) {
    ctx.emit({
      type: "note",
      message: `${job.plan.name}: following EKS update ${running.id} (${String(running.type)}) already in progress, to this plan's target`
    });
    return running;
  }
  if (running) {
    latest = await waitOut(ctx, job, running);
    config = latest.updateConfig;
  }
  if (latest.status === "UPDATING") {
    latest = await ctx.cloud.eks.describeNodegroup(job.cluster, job.plan.name);
    config = latest.updateConfig;
  }
  await applyConfig(ctx, job, config);
  if (job.plan.replacements.length === 0 || atTarget(job, latest)) return void 0;
  await job.track(pendingOf(job));
  const started = await startVersionUpdate(ctx, job, ng.amiType);
  report(ctx, job.plan.name, { ...started, errors: [] });
  return started;
}
function at(ng) {
  const lt = Number(ng.launchTemplate?.version);
  return {
    kubernetesVersion: ng.version,
    releaseVersion: ng.releaseVersion,
    ...Number.isFinite(lt) && { launchTemplateVersion: lt }
  };
}
function reached(target, ng) {
  const now2 = at(ng);
  return (target.kubernetesVersion === void 0 || now2.kubernetesVersion === target.kubernetesVersion) && (target.releaseVersion === void 0 || now2.releaseVersion === target.releaseVersion) && (target.launchTemplateVersion === void 0 || now2.launchTemplateVersion === target.launchTemplateVersion);
}
async function readBack(ctx, job, done) {
  const ng = await ctx.cloud.eks.describeNodegroup(job.cluster, job.plan.name);
  if (reached(eksTarget(ng.amiType, job.plan.target), ng)) return ng;
  throw new RollError(
    "UpdateFailed",
    `EKS update ${done.id} of ${job.plan.name} ended Successful, but the node group is at ${describeTarget(at(ng))}, not the plan's target (${describeTarget(job.plan.target)}). Run apply again to roll it there`
  );
}
async function follow(ctx, job, watch, ng) {
  if (job.plan.replacements.length === 0) return followUngated(ctx, job, watch, ng);
  const gates = managedGates(ctx, job, watch.asgName);
  try {
    const before = await gates.start();
    if (before) throw await managedHalt(ctx, job, before, "before");
    const update = await theUpdate(ctx, job, ng);
    if (!update) return watch.tracker.finish("success", "nothing to replace");
    await followGated(ctx, job, watch, update, gates);
  } finally {
    await gates.close();
  }
}
async function followUngated(ctx, job, watch, ng) {
  const update = await theUpdate(ctx, job, ng);
  if (!update) return watch.tracker.finish("success", "nothing to replace");
  await followGated(ctx, job, watch, update, void 0);
}
async function followGated(ctx, job, watch, update, gates) {
  const halt = async (when2) => {
    if (gates?.stopped) throw await managedHalt(ctx, job, gates.stopped, when2);
  };
  const work = { kind: "managed", group: job.plan.name, id: update.id };
  await job.track(work);
  await job.untrack(pendingOf(job));
  const done = await waitForUpdate(ctx, job, update, async () => {
    await watch.observe();
    await halt("during");
  });
  await job.untrack(work);
  await watch.observe();
  if (done.status !== "Successful") {
    const evictions = done.errors.filter((e) => e.errorCode === "PodEvictionFailure");
    const blocked = evictions.length ? await evictionBlockers(
      ctx,
      job,
      evictions.flatMap((e) => e.resourceIds)
    ) : [];
    throw new RollError(
      failureCode(done),
      `EKS update ${done.id} of ${job.plan.name} ended ${done.status}: ${describeFailure2(done)}${describeBlockers(blocked)}`
    );
  }
  await applyConfig(ctx, job, (await readBack(ctx, job, done)).updateConfig);
  await awaitRescheduled(ctx, {
    group: job.plan.name,
    moved: job.toMove(),
    timeoutMs: job.plan.settings.validation.timeoutMs,
    nodes: job.nodes.byName.values()
  });
  if (gates) await managedBake(ctx, job, gates);
  await halt("after");
  watch.tracker.finish("success");
  const ready = [...job.nodes.byName.values()].filter(
    (n2) => job.ownerOf(n2).group === job.plan.name && isReady(n2)
  ).length;
  ctx.emit({ type: "note", message: `${job.plan.name}: ${ready} Ready nodes after the update` });
}
async function rollManaged(ctx, job) {
  const old = new Set(job.plan.replacements.map((r) => r.instance));
  const { desired, max } = job.live;
  const tracker = new PhaseTracker(ctx, job.plan.name, { desired, max }, old);
  try {
    const ng = await ctx.cloud.eks.describeNodegroup(job.cluster, job.plan.name);
    const asgName = ng.resources.autoScalingGroups[0]?.name;
    const watch = new GroupWatch(ctx, job, asgName, old, tracker);
    await follow(ctx, job, watch, ng);
  } catch (e) {
    tracker.finish(ctx.signal.aborted ? "cancelled" : "failure", e.message);
    throw e;
  }
}

// src/kinds/managed/schedule.ts
var TERMINATE_MS = 3e4;
var SCALE_DOWN_MS = 6e4;
var HELD_BY = ["pdb-blocks", "multiple-pdbs", "tolerates-everything"];
function managedSchedule(live, input) {
  const { replacements, zones, budgets } = input;
  if (replacements.length === 0) return { waves: [], zoneOrder: [], surge: 0, estimatedMs: 0 };
  const minimal = strategyOf(input.settings, live) === "MINIMAL";
  const surge = eksScaleUp(zones.length, budgets.maxUnavailable, minimal ? "MINIMAL" : "DEFAULT");
  const drainInput = {
    ...input,
    timeoutMs: EKS_BEHAVIOUR.drainTimeoutMs,
    deleteAfterDrainTimeout: input.settings.deleteAfterDrainTimeout,
    held: heldBy(input.holds, HELD_BY)
  };
  let t = minimal ? 0 : BOOT_ESTIMATE_MS;
  const waves = chunk(replacements, Math.max(1, budgets.maxUnavailable)).map((g) => {
    const wave = {
      nodes: g.map((r) => r.node ?? r.instance),
      canary: false,
      startMs: t,
      durationMs: waveDrainMs(g, drainInput, t) + EKS_BEHAVIOUR.postDrainDelayMs + TERMINATE_MS
    };
    t += wave.durationMs;
    return wave;
  });
  t += minimal ? BOOT_ESTIMATE_MS : SCALE_DOWN_MS;
  return { waves, zoneOrder: [], surge, estimatedMs: t };
}

// src/kinds/managed/index.ts
var managedKind = {
  id: "managed",
  // The label EKS puts on every node of a managed node group (EKS user guide, "Managed node
  // groups": the eks.amazonaws.com/nodegroup label).
  labelledGroup: (n2) => n2.metadata.labels?.["eks.amazonaws.com/nodegroup"],
  // EKS tags a managed node group's instances with its name (eks:nodegroup-name).
  taggedGroup: (tags) => tags.find((t) => t.Key === "eks:nodegroup-name")?.Value,
  surgeAdvice: MANAGED_SURGE_ADVICE,
  // EKS user guide, "Understand each phase of node updates": 15 minutes a drain, fixed.
  drainTimeoutAdvice: "EKS gives each drain a fixed 15 minutes, which cannot be raised: shorten the pods' terminationGracePeriodSeconds (and preStop) below it, or set deleteAfterDrainTimeout (EKS's force: it then terminates the node after its 15 minutes)",
  leavesUnreachable: false,
  pacesNoNode: false,
  observe: observeManaged,
  resolve: resolveManaged,
  conflicts: managedConflicts,
  budgets: managedBudgets,
  target: managedTarget,
  select: selectManaged,
  configChanges: managedConfigChanges,
  setup: (_group, _live, settings) => settings.updateConfig ? { updateConfig: settings.updateConfig } : {},
  schedule: managedSchedule,
  findings: managedFindings,
  reachedTarget: managedReachedTarget,
  versions: managedVersions,
  rollbackRefusal: managedRollbackRefusal,
  notes: managedNotes,
  roll: rollManaged,
  inFlight: managedInFlight
};

// src/kinds/self-managed/processes.ts
var SUSPENDED_TAG = "noderoll.io/suspended-processes";
var HELD = ["AZRebalance"];
function markedSuspended(asg) {
  const value = asg.Tags.find((t) => t.Key === SUSPENDED_TAG)?.Value;
  if (value === void 0) return void 0;
  return value.split(",").filter((p) => p.length > 0);
}
var tag = (group3) => ({ Key: SUSPENDED_TAG, ResourceId: group3, ResourceType: "auto-scaling-group" });
function note(ctx, group3, message) {
  ctx.emit({ type: "note", group: group3, message: `${group3}: ${message}` });
}
async function holdProcesses(ctx, live) {
  const group3 = live.name;
  const suspended = new Set(live.suspended?.processes.map((p) => p.name));
  const ours = live.suspendedByNoderoll ?? [];
  const more = HELD.filter((p) => !suspended.has(p));
  if (more.length === 0) return ours.filter((p) => suspended.has(p));
  const marked = [.../* @__PURE__ */ new Set([...ours, ...more])];
  try {
    await ctx.cloud.autoScaling.createOrUpdateTags({
      Tags: [{ ...tag(group3), Value: marked.join(","), PropagateAtLaunch: false }]
    });
    await ctx.cloud.autoScaling.suspendProcesses({
      AutoScalingGroupName: group3,
      ScalingProcesses: more
    });
  } catch (e) {
    if (!isDenied(e)) throw e;
    await ctx.cloud.autoScaling.deleteTags({ Tags: [tag(group3)] }).catch(() => void 0);
    note(
      ctx,
      group3,
      `${more.join(", ")} not suspended (${e.code}: grant autoscaling:SuspendProcesses, ResumeProcesses, CreateOrUpdateTags and DeleteTags, see the IAM policies in noderoll's docs/action.md); the roll goes on as kOps' does, and Auto Scaling may terminate an instance to even out zones meanwhile`
    );
    return ours.filter((p) => suspended.has(p));
  }
  note(
    ctx,
    group3,
    `${more.join(", ")} suspended while the group rolls, so that Auto Scaling terminates nothing to even out zones (tagged ${SUSPENDED_TAG} until resumed)`
  );
  return marked;
}
async function restoreProcesses(ctx, group3, processes) {
  if (processes.length === 0) return;
  const names2 = processes.join(", ");
  const why2 = (e) => isDenied(e) ? e.code : e.message;
  try {
    await ctx.cloud.autoScaling.resumeProcesses({
      AutoScalingGroupName: group3,
      ScalingProcesses: processes
    });
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    const by = `aws autoscaling resume-processes --auto-scaling-group-name ${group3} --scaling-processes ${processes.join(" ")}`;
    note(
      ctx,
      group3,
      `could not resume ${names2}, suspended for the roll (${why2(e)}); the next run tries again, or: ${by}, and remove the tag ${SUSPENDED_TAG}`
    );
    return;
  }
  try {
    await ctx.cloud.autoScaling.deleteTags({ Tags: [tag(group3)] });
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    note(
      ctx,
      group3,
      `${names2} resumed, but its mark stays (${why2(e)}): the next run resumes it again; remove the tag ${SUSPENDED_TAG} to stop it`
    );
    return;
  }
  note(
    ctx,
    group3,
    `${processes.join(", ")} resumed, as the group had ${processes.length === 1 ? "it" : "them"} before the roll`
  );
}

// src/kinds/self-managed/observe.ts
function markedByGroup(nodes, tagged) {
  const out = /* @__PURE__ */ new Map();
  const add = (group3, m) => {
    let marks = out.get(group3);
    if (!marks) out.set(group3, marks = /* @__PURE__ */ new Map());
    const known = marks.get(m.id);
    marks.set(m.id, known ? { ...known, tagged: known.tagged || m.tagged } : m);
  };
  for (const n2 of nodes) {
    const group3 = n2.metadata.labels?.[DETACHED_LABEL];
    const id2 = instanceIdOf(n2);
    if (group3 === void 0 || !id2) continue;
    add(group3, {
      id: id2,
      zone: n2.metadata.labels?.["topology.kubernetes.io/zone"] ?? "",
      tagged: false
    });
  }
  for (const i of tagged) {
    const group3 = i.Tags.find((t) => t.Key === DETACHED_LABEL)?.Value;
    if (group3 !== void 0)
      add(group3, { id: i.InstanceId, zone: i.Placement.AvailabilityZone, tagged: true });
  }
  return out;
}
var nodegroupOf = (asg) => asg.Tags.find((t) => t.Key === "eks:nodegroup-name")?.Value;
var FILTER_VALUES = 200;
async function taggedInstances(cloud, names2) {
  const out = [];
  for (let i = 0; i < names2.length; i += FILTER_VALUES) {
    const found2 = await cloud.ec2.describeInstances({
      Filters: [
        { Name: `tag:${DETACHED_LABEL}`, Values: names2.slice(i, i + FILTER_VALUES) },
        { Name: "instance-state-name", Values: ["pending", "running", "stopping", "stopped"] }
      ]
    });
    out.push(...found2);
  }
  return out;
}
function detachedFrom(marked, have) {
  const out = [];
  for (const m of marked) {
    if (have.has(m.id)) continue;
    out.push({ id: m.id, zone: m.zone, lifecycleState: "Detached", detachedForSurge: true });
  }
  return out;
}
async function groupInfo2(asg, times, input, marked) {
  const spec2 = asg.LaunchTemplate ?? asg.MixedInstancesPolicy?.LaunchTemplate.LaunchTemplateSpecification;
  const lt = await launchTemplateRef(input.cloud, spec2);
  const instances = instancesOf(asg, times);
  const have = new Set(instances.map((i) => i.id));
  const suspended = suspendedOf(asg);
  const ours = markedSuspended(asg);
  return {
    kind: "self-managed",
    name: asg.AutoScalingGroupName,
    clusters: clustersTagged(asg.Tags),
    ...nodegroupOf(asg) && { nodegroup: nodegroupOf(asg) },
    zones: asg.AvailabilityZones,
    min: asg.MinSize,
    max: asg.MaxSize,
    desired: asg.DesiredCapacity,
    instances: [
      // A member with our tag: a run died between marking it and detaching it.
      ...instances.map(
        (i) => marked.get(i.id)?.tagged ? { ...i, markedForSurge: true } : i
      ),
      ...detachedFrom(marked.values(), have)
    ],
    ...lt && { launchTemplate: lt },
    mixedInstances: asg.MixedInstancesPolicy !== void 0,
    ...suspended && { suspended },
    ...ours && { suspendedByNoderoll: ours },
    ...asg.WarmPoolConfiguration && { warmPool: await warmPoolOf(input.cloud, asg) }
  };
}
async function warmPoolOf(cloud, asg) {
  const listed2 = await cloud.autoScaling.describeWarmPool({
    AutoScalingGroupName: asg.AutoScalingGroupName
  });
  return instancesOf({ Instances: listed2 }, /* @__PURE__ */ new Map()).filter(
    (i) => !/Terminat/.test(i.lifecycleState)
  );
}
async function observeSelfManaged(input) {
  if (input.names.length === 0) return [];
  const asgs = await input.cloud.autoScaling.describeAutoScalingGroups({
    AutoScalingGroupNames: input.names
  });
  const byName = new Map(asgs.map((a) => [a.AutoScalingGroupName, a]));
  const times = await launchTimesWithoutNode(
    input.cloud,
    asgs.flatMap((a) => a.Instances.map((i) => i.InstanceId)),
    input.nodes
  );
  const marked = markedByGroup(input.nodes, await taggedInstances(input.cloud, input.names));
  const out = [];
  for (const name of input.names) {
    const asg = byName.get(name);
    if (asg) out.push(await groupInfo2(asg, times, input, marked.get(name) ?? /* @__PURE__ */ new Map()));
  }
  return out;
}

// src/roll/marks.ts
var SCHEDULED_TAINT2 = { ...SCHEDULED_TAINT };
async function updateNode(ctx, name, change, known) {
  let cached2 = known?.metadata.resourceVersion ? known : void 0;
  for (let attempt = 0; attempt < 5; attempt++) {
    const node = cached2 ?? await ctx.cluster.getNode(name).catch((e) => {
      if (e instanceof KubeApiError && e.status === 404) return void 0;
      throw e;
    });
    const fromCache = cached2 !== void 0;
    cached2 = void 0;
    if (!node) return void 0;
    const patch = change(node);
    if (!patch) {
      if (fromCache) {
        attempt--;
        continue;
      }
      return node;
    }
    try {
      return await ctx.cluster.patchNode(name, {
        ...patch,
        ...node.metadata.resourceVersion && { resourceVersion: node.metadata.resourceVersion }
      });
    } catch (e) {
      if (!(e instanceof KubeApiError) || e.status !== 409) throw e;
    }
  }
  throw new Error(`node ${name} kept changing under us; gave up after 5 attempts`);
}
var hasTaint = (n2, t) => (n2.spec.taints ?? []).some((x) => x.key === t.key && x.effect === t.effect);
async function addTaint(ctx, name, taint, known) {
  let added = false;
  await updateNode(
    ctx,
    name,
    (n2) => {
      added = false;
      if (hasTaint(n2, taint)) return void 0;
      added = true;
      return { taints: [...n2.spec.taints ?? [], taint] };
    },
    known
  );
  return added;
}
async function cordon(ctx, name, runId, o = {}) {
  await updateNode(
    ctx,
    name,
    (n2) => {
      const cordoned = n2.spec.unschedulable && n2.metadata.annotations?.[CORDONED_ANNOTATION];
      const excluded = !o.excludeLb || n2.metadata.labels?.[EXCLUDE_LB_LABEL] === "true";
      if (cordoned && excluded) return void 0;
      return {
        ...!cordoned && { unschedulable: true, annotations: { [CORDONED_ANNOTATION]: runId } },
        ...!excluded && { labels: { [EXCLUDE_LB_LABEL]: "true" } }
      };
    },
    o.known
  );
}
async function clearStaleMarks(ctx, keep, groupNodes, members = /* @__PURE__ */ new Set()) {
  for (const n2 of groupNodes)
    if (!keep.has(n2.metadata.name))
      await clearMarks(ctx, n2.metadata.name, members.has(instanceIdOf(n2) ?? ""));
}
async function clearMarks(ctx, name, member2 = false) {
  let changed2 = false;
  await updateNode(ctx, name, (n2) => {
    const ours = n2.metadata.annotations?.[CORDONED_ANNOTATION] !== void 0;
    const tainted = hasTaint(n2, SCHEDULED_TAINT2);
    const excluded = ours && n2.metadata.labels?.[EXCLUDE_LB_LABEL] !== void 0;
    const marked = member2 && n2.metadata.labels?.[DETACHED_LABEL] !== void 0;
    if (!ours && !tainted && !marked) return void 0;
    changed2 = true;
    return {
      ...ours && { unschedulable: false, annotations: { [CORDONED_ANNOTATION]: null } },
      ...(excluded || marked) && {
        labels: {
          ...excluded && { [EXCLUDE_LB_LABEL]: null },
          ...marked && { [DETACHED_LABEL]: null }
        }
      },
      ...tainted && {
        taints: (n2.spec.taints ?? []).filter((x) => x.key !== SCHEDULED_TAINT2.key)
      }
    };
  });
  return changed2;
}
async function releaseScaleDown(ctx, nodes) {
  let changed2 = false;
  for (const n2 of nodes) {
    if (n2.metadata.annotations?.[SCALE_DOWN_BY_US] === void 0) continue;
    await updateNode(
      ctx,
      n2.metadata.name,
      (x) => {
        if (x.metadata.annotations?.[SCALE_DOWN_BY_US] === void 0) return void 0;
        changed2 = true;
        return { annotations: { [SCALE_DOWN_DISABLED]: null, [SCALE_DOWN_BY_US]: null } };
      },
      n2
    );
  }
  return changed2;
}

// src/roll/phase.ts
async function runPhase(ctx, group3, name, body, skipMessage) {
  ctx.emit({ type: "phase.start", group: group3, phase: name });
  try {
    const r = await body();
    ctx.emit({
      type: "phase.end",
      group: group3,
      phase: name,
      result: r === "skipped" ? "skipped" : "success",
      ...r === "skipped" && skipMessage && { message: skipMessage }
    });
    return r;
  } catch (e) {
    ctx.emit({
      type: "phase.end",
      group: group3,
      phase: name,
      result: ctx.signal.aborted ? "cancelled" : "failure",
      message: e.message
    });
    throw e;
  }
}

// src/kinds/self-managed/job.ts
var GroupRoll = class {
  /** capacity.ts: the last read of the group, reused while it still answers. */
  lastRead;
  /** capacity.ts: the roll's writes to the group's members (detach, terminate) so far. */
  writes = 0;
  /** down.ts: the nodes the plan replaces, and the instances it replaces that had no node. */
  replaced;
  noNode;
  /** capacity.ts: the instances the plan replaces; any other member is new (or someone's). */
  planned;
  /** down.ts: the nodes whose instances the roll has terminated. */
  terminated = /* @__PURE__ */ new Set();
  /** left.ts: instances found gone by someone else's hand; the upgrade does not come back. */
  left = /* @__PURE__ */ new Set();
  /** surge-tag.ts: the surge tag was refused (no ec2:CreateTags), and that was said once. */
  untagged = false;
  /** surge.ts: instances this run detached for surge. */
  surged = 0;
  /**
   * surge.ts: surge nodes given up when Auto Scaling refused a detach; they may be out of
   * service instead (capacity.ts adds them to maxUnavailable), as kOps' window stays as wide.
   */
  surgeGivenUp = 0;
  /** gates.ts: the group's health gates, read while it rolls. */
  gates;
  /** window.ts: the nodes started since the last validation (the wave a halt names). */
  wave = [];
  /** gates.ts: the checkpoints this run has reached. */
  checkpointsPassed = /* @__PURE__ */ new Set();
  constructor(plan) {
    this.replaced = new Set(plan.replacements.flatMap((r) => r.node ? [r.node] : []));
    this.planned = new Set(plan.replacements.map((r) => r.instance));
    this.noNode = new Set(
      plan.replacements.flatMap((r) => r.down === "no-node" ? [r.instance] : [])
    );
  }
};
function selfManagedJob(job) {
  return { ...job, roll: new GroupRoll(job.plan) };
}

// src/kinds/self-managed/down.ts
function isDownReplacement(job, n2) {
  const { replaced, terminated } = job.roll;
  const name = n2.metadata.name;
  return replaced.has(name) && !terminated.has(name) && !isReady(n2);
}
function isNoNode(job, id2) {
  return job.roll.noNode.has(id2) && !job.nodes.byInstance(id2);
}
function noteTerminated(job, node) {
  job.roll.terminated.add(node);
}

// src/kinds/self-managed/capacity.ts
var POLL_MS3 = 1e4;
var STALE_MS = 6e4;
function groupWritten(job) {
  job.roll.writes++;
}
function stillGood(job, last, now2, toAct) {
  if (last.writes !== job.roll.writes) return false;
  const age = now2 - last.at;
  if (age < POLL_MS3) return true;
  if (toAct || age >= STALE_MS) return false;
  return job.nodes.joinedSince(last.joins).every((n2) => last.members.has(instanceIdOf(n2) ?? ""));
}
async function readGroup(ctx, job, toAct) {
  const now2 = monotonicMs(ctx.clock);
  const last = job.roll.lastRead;
  if (last && stillGood(job, last, now2, toAct)) return last;
  const writes = job.roll.writes;
  const joins = job.nodes.joins;
  const asgName = job.plan.name;
  const [asg] = await ctx.cloud.autoScaling.describeAutoScalingGroups({
    AutoScalingGroupNames: [asgName]
  });
  if (!asg) throw new RollError("NodeCreationFailure", `Auto Scaling group ${asgName} is gone`);
  const members = new Set(asg.Instances.map((i) => i.InstanceId));
  const read = { at: now2, writes, joins, members, asg };
  job.roll.lastRead = read;
  return read;
}
async function groupInstances(ctx, job) {
  return (await readGroup(ctx, job, false)).asg.Instances;
}
function leftGroup(job, instance) {
  const read = job.roll.lastRead;
  if (!read) return void 0;
  if (!read.members.has(instance)) return "absent";
  const i = read.asg.Instances.find((x) => x.InstanceId === instance);
  return i && leftState(i.LifecycleState);
}
function leftState(state) {
  if (state.startsWith("Terminat")) return "terminating";
  return state.startsWith("Detach") ? "detaching" : void 0;
}
var inService = (state) => state === "InService" || state.startsWith("Pending");
function readiness(job, { asg, members }) {
  const serving = asg.Instances.filter((i) => inService(i.LifecycleState));
  const ready = [];
  const waiting2 = [];
  const down = [];
  for (const i of serving) {
    const n2 = job.nodes.byInstance(i.InstanceId);
    if (n2 && isReady(n2)) ready.push(i.InstanceId);
    else waiting2.push(i.InstanceId);
    if (n2 ? isDownReplacement(job, n2) : isNoNode(job, i.InstanceId)) down.push(i.InstanceId);
  }
  return { desired: asg.DesiredCapacity, ready, waiting: waiting2, down, members };
}
var capacityBack = (r, want) => r.ready.length + r.down.length >= want;
async function decide(ctx, job, judge, acts) {
  const read = await readGroup(ctx, job, false);
  const answer = judge(readiness(job, read));
  if (!acts(answer) || stillGood(job, read, monotonicMs(ctx.clock), true)) return answer;
  return judge(readiness(job, await readGroup(ctx, job, true)));
}
async function machineFailures(ctx, job) {
  if (job.plan.role === "bastion") return [];
  const { asg } = await readGroup(ctx, job, false);
  const group3 = job.plan.name;
  const staying = asg.Instances.filter((i) => inService(i.LifecycleState));
  const failures = [];
  if (staying.length < asg.DesiredCapacity)
    failures.push({
      message: `group ${group3} has ${staying.length} of ${asg.DesiredCapacity} instances`,
      group: group3
    });
  for (const i of staying)
    if (!job.nodes.byInstance(i.InstanceId) && !job.roll.planned.has(i.InstanceId))
      failures.push({
        message: `machine ${i.InstanceId} of ${group3} has not yet joined the cluster`,
        group: group3
      });
  return failures;
}
async function waitForCapacity(ctx, job, want) {
  const timeoutMs = job.plan.settings.validation.timeoutMs;
  const deadline = ctx.clock.now().getTime() + timeoutMs;
  for (; ; ) {
    const late = ctx.clock.now().getTime() > deadline;
    const r = await decide(
      ctx,
      job,
      (x) => x,
      (x) => late || capacityBack(x, want(x.desired))
    );
    if (capacityBack(r, want(r.desired))) return r.ready;
    if (late) throw creationFailure(job, r, want(r.desired));
    await job.nodes.changed(POLL_MS3);
    if (ctx.signal.aborted)
      throw new RollError("Cancelled", "cancelled while waiting for new nodes");
  }
}
function capacityRoom(ctx, job, busy, acts = () => false) {
  return decide(ctx, job, (r) => roomOf(job, r, busy), acts);
}
function roomOf(job, r, busy) {
  const schedulable = (n2) => n2 !== void 0 && isReady(n2) && !n2.spec.unschedulable && !n2.metadata.deletionTimestamp && !busy.has(n2.metadata.name);
  let count2 = 0;
  for (const id2 of r.ready) if (schedulable(job.nodes.byInstance(id2))) count2++;
  for (const id2 of r.waiting) if (isNoNode(job, id2) && !busy.has(id2)) count2++;
  for (const n2 of job.nodes.byName.values())
    if (n2.metadata.labels?.[DETACHED_LABEL] === job.plan.name && !r.members.has(instanceIdOf(n2) ?? "") && schedulable(n2))
      count2++;
  const floor = r.desired - job.plan.budgets.maxUnavailable - job.roll.surgeGivenUp;
  return { room: count2 - floor, ready: r.ready, waiting: r.waiting, desired: r.desired };
}
function creationFailure(job, r, want) {
  const timeoutMs = job.plan.settings.validation.timeoutMs;
  return new RollError(
    "NodeCreationFailure",
    `${job.plan.name}: ${r.ready.length} of ${want} nodes Ready after ${Math.round(timeoutMs / 6e4)} min; instances without a Ready node: ${r.waiting.join(", ") || "none launched (check the group's scaling activities)"}`
  );
}
async function protectNewNodes(ctx, job, instanceIds, old) {
  for (const id2 of instanceIds) {
    if (old.has(id2)) continue;
    const n2 = job.nodes.byInstance(id2);
    if (n2 && n2.metadata.annotations?.[SCALE_DOWN_DISABLED] === void 0) {
      await updateNode(
        ctx,
        n2.metadata.name,
        (x) => x.metadata.annotations?.[SCALE_DOWN_DISABLED] !== void 0 ? void 0 : { annotations: { [SCALE_DOWN_DISABLED]: "true", [SCALE_DOWN_BY_US]: job.runId } },
        n2
      );
    }
  }
}
async function releaseNewNodes(ctx, _job) {
  const { items } = await listAll((cont) => ctx.cluster.listNodes(pageOf(cont)));
  for (const n2 of items) {
    if (n2.metadata.annotations?.[SCALE_DOWN_BY_US] === void 0) continue;
    await updateNode(
      ctx,
      n2.metadata.name,
      (x) => x.metadata.annotations?.[SCALE_DOWN_BY_US] === void 0 ? void 0 : { annotations: { [SCALE_DOWN_DISABLED]: null, [SCALE_DOWN_BY_US]: null } },
      n2
    );
  }
}

// src/roll/validate.ts
var VALIDATION_PERIOD_MS2 = 1e4;
function nodeFailures(nodes, ownerOf) {
  const failures = [];
  for (const n2 of nodes) {
    if (n2.metadata.deletionTimestamp || hasReadyCondition(n2.status.conditions)) continue;
    const owner = ownerOf(n2);
    failures.push({
      message: `node ${n2.metadata.name} is not Ready`,
      ...owner.group && { group: owner.group },
      ...owner.controlPlane && { controlPlane: true }
    });
  }
  return failures;
}
async function validateCluster(ctx, ownerOf, cached2, learn) {
  const [nodes, critical] = await Promise.all([
    cached2 ? [...cached2()] : listAll((cont) => ctx.cluster.listNodes(pageOf(cont))).then((r) => r.items),
    criticalPods(ctx)
  ]);
  await learn?.(nodes);
  return [...nodeFailures(nodes, ownerOf), ...podFailures(critical, nodes, ownerOf)];
}
function podFailures(pods, nodes, ownerOf) {
  const byName = new Map(nodes.map((n2) => [n2.metadata.name, n2]));
  const failures = [];
  for (const p of pods) {
    const priority = criticalPriority(p);
    if (!priority || p.status.phase === "Succeeded" || p.metadata.deletionTimestamp) continue;
    if (hasReadyCondition(p.status.conditions)) continue;
    const node = p.spec.nodeName ? byName.get(p.spec.nodeName) : void 0;
    if (p.spec.nodeName && !node) continue;
    const owner = priority === "system-node-critical" && node ? ownerOf(node) : {};
    failures.push({
      message: `${priority} pod ${p.metadata.namespace}/${p.metadata.name} is not Ready`,
      ...owner.group && { group: owner.group },
      ...owner.controlPlane && { controlPlane: true }
    });
  }
  return failures;
}
async function criticalPods(ctx) {
  const cached2 = (await watchedPodsOf(ctx))?.critical();
  if (cached2) return cached2;
  const r = await listAll(
    (cont) => ctx.cluster.listPods(void 0, { ...pageOf(cont), resourceVersion: "0" })
  );
  return r.items.filter((p) => criticalPriority(p));
}
function concerns(f, group3) {
  return f.group === void 0 || f.controlPlane === true || f.group === group3;
}
async function validateUntilStable(ctx, ownerOf, group3, o) {
  const deadline = (o.startedAt ?? ctx.clock.now().getTime()) + o.timeoutMs;
  let streak = 0;
  let last;
  for (; ; ) {
    const [cluster, machines] = await Promise.all([
      validateCluster(ctx, ownerOf, o.nodes, o.learn),
      o.machines?.() ?? []
    ]);
    const failures = [...cluster, ...machines];
    last = failures.filter((f) => concerns(f, group3));
    ctx.emit({
      type: "validation",
      ...group3 && { group: group3 },
      ok: last.length === 0,
      failures: failures.map((f) => f.message)
    });
    streak = last.length === 0 ? streak + 1 : 0;
    if (streak >= o.count) return;
    if (ctx.clock.now().getTime() + VALIDATION_PERIOD_MS2 > deadline) break;
    await ctx.clock.sleep(VALIDATION_PERIOD_MS2, ctx.signal);
  }
  throw new RollError(
    "ValidationFailed",
    `the cluster did not validate ${o.count} time${o.count === 1 ? "" : "s"} in a row within ${Math.round(o.timeoutMs / 1e3)} s: ${last.map((f) => f.message).slice(0, 5).join("; ") || "flapping"}`
  );
}

// src/kinds/self-managed/validate.ts
function seen(job, gone2) {
  return () => [...job.nodes.byName.values()].filter(
    (n2) => !gone2.has(n2.metadata.name) && !isDownReplacement(job, n2)
  );
}
function validateGroup(ctx, job, count2, o = {}) {
  return validateUntilStable(ctx, job.ownerOf, job.plan.name, {
    count: count2,
    learn: job.learnOwners,
    timeoutMs: job.plan.settings.validation.timeoutMs,
    nodes: seen(job, o.gone ?? /* @__PURE__ */ new Set()),
    ...o.machines !== false && { machines: () => machineFailures(ctx, job) },
    ...o.startedAt !== void 0 && { startedAt: o.startedAt }
  });
}
async function nodesValid(ctx, job, o = {}) {
  const nodes = [...seen(job, o.gone ?? /* @__PURE__ */ new Set())()];
  await job.learnOwners(nodes);
  if (!nodeFailures(nodes, job.ownerOf).every((f) => !concerns(f, job.plan.name))) return false;
  return o.machines === false || (await machineFailures(ctx, job)).length === 0;
}

// src/kinds/self-managed/left.ts
var RUNS = /* @__PURE__ */ new Set(["pending", "running", "stopping", "stopped"]);
var hasLeft = (job, instance) => job.roll.left.has(instance);
async function stillRuns(ctx, instance) {
  try {
    const [i] = await ctx.cloud.ec2.describeInstances({ InstanceIds: [instance] });
    return i !== void 0 && RUNS.has(i.State.Name);
  } catch (e) {
    if (e instanceof AwsApiError && e.code === "InvalidInstanceID.NotFound") return false;
    throw e;
  }
}
async function leftByOthers(ctx, job, r, left2, when2) {
  job.roll.left.add(r.instance);
  const detached = left2 === "detaching" || left2 === "absent" && await stillRuns(ctx, r.instance);
  if (detached) {
    if (r.node) await clearMarks(ctx, r.node, true);
    await ctx.cloud.ec2.deleteTags({ Resources: [r.instance], Tags: [{ Key: DETACHED_LABEL }] }).catch(() => void 0);
  }
  groupWritten(job);
  const [asg] = await ctx.cloud.autoScaling.describeAutoScalingGroups({
    AutoScalingGroupNames: [job.plan.name]
  });
  ctx.emit({
    type: "note",
    group: job.plan.name,
    message: `${job.plan.name}: ${r.instance}${r.node ? ` (${r.node})` : ""} left the group ${when2}, by someone else's hand — ${detached ? "detached and running on: no longer the group's, its node unmarked" : `a scale-in (the group's desired capacity is ${asg?.DesiredCapacity ?? "unknown"} now)`}; not the roll's to replace any more`
  });
}

// src/roll/budgets.ts
function takesDisruption(pod) {
  if (pod.status.phase !== "Running" || pod.metadata.deletionTimestamp !== void 0) return false;
  return hasReadyCondition(pod.status.conditions);
}
var keyOf2 = (b) => `${b.metadata.namespace ?? "default"}/${b.metadata.name}`;
var BudgetCache = class extends Informer {
  /** namespace → name → budget */
  byNamespace = /* @__PURE__ */ new Map();
  /**
   * The watch is refused (no RBAC "watch" on poddisruptionbudgets, say): what is cached may be
   * old, so it holds nothing back and the drains ask the eviction API as before.
   */
  refused = false;
  /** Drains waiting for a budget to change, by "namespace/name". */
  waiting = /* @__PURE__ */ new Map();
  /** budgetOf's answers by namespace and labels (pods of one controller share them), until a
   * budget comes, goes or changes its selector. */
  selecting = /* @__PURE__ */ new Map();
  /** Evictions asked under a budget and not yet answered: each may take one disruption. */
  asking = /* @__PURE__ */ new Map();
  list() {
    return listAll((cont) => this.ctx.cluster.listPodDisruptionBudgets(void 0, pageOf(cont)));
  }
  watch(opts) {
    return this.ctx.cluster.watchPodDisruptionBudgets(void 0, opts);
  }
  apply(e) {
    this.refused = false;
    const key = keyOf2(e.object);
    const was = this.get(key);
    if (e.type !== "MODIFIED" || JSON.stringify(was?.spec.selector) !== JSON.stringify(e.object.spec.selector))
      this.selecting.clear();
    if (e.type !== "DELETED") this.put(e.object);
    else
      this.byNamespace.get(e.object.metadata.namespace ?? "default")?.delete(e.object.metadata.name);
    this.wake(key);
  }
  wake(key) {
    const w = this.waiting.get(key);
    this.waiting.delete(key);
    for (const resolve of w ?? []) resolve();
  }
  reset(items) {
    this.byNamespace.clear();
    this.selecting.clear();
    for (const b of items) this.put(b);
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    for (const resolve of all) resolve();
  }
  /** Resolves when the budget changes (its watch event, or a new list), or after `maxMs`. */
  async budgetChanged(key, maxMs, signal) {
    const wake = new AbortController();
    let mine = () => {
    };
    const woken = new Promise((resolve) => {
      mine = resolve;
      const list3 = this.waiting.get(key);
      if (list3) list3.push(resolve);
      else this.waiting.set(key, [resolve]);
    });
    const until = AbortSignal.any([wake.signal, signal]);
    await Promise.race([woken, this.ctx.clock.sleep(maxMs, until).catch(() => void 0)]);
    wake.abort(SETTLED);
    const left2 = this.waiting.get(key)?.filter((r) => r !== mine);
    if (left2?.length) this.waiting.set(key, left2);
    else this.waiting.delete(key);
  }
  failed(e) {
    if (!(e instanceof KubeApiError) || ![401, 403, 404, 405].includes(e.status)) return;
    this.refused = true;
    for (const key of [...this.waiting.keys()]) this.wake(key);
  }
  put(b) {
    const ns = b.metadata.namespace ?? "default";
    let m = this.byNamespace.get(ns);
    if (!m) this.byNamespace.set(ns, m = /* @__PURE__ */ new Map());
    m.set(b.metadata.name, b);
  }
  /** "namespace/name" of the one budget that selects the pod; undefined for none or several. */
  budgetOf(pod) {
    const ns = pod.metadata.namespace ?? "default";
    const labels = pod.metadata.labels ?? {};
    const memo = `${ns}
${Object.keys(labels).sort().map((k) => `${k}=${labels[k]}`).join(",")}`;
    if (this.selecting.has(memo)) return this.selecting.get(memo);
    let found2;
    let several = false;
    for (const b of this.byNamespace.get(ns)?.values() ?? []) {
      if (!matchesSelector(b.spec.selector, labels)) continue;
      several = found2 !== void 0;
      if (several) break;
      found2 = b;
    }
    const key = found2 && !several ? keyOf2(found2) : void 0;
    this.selecting.set(memo, key);
    return key;
  }
  /** The budget's resourceVersion as cached (what a granted eviction is measured against). */
  versionOf(key) {
    return this.get(key)?.metadata.resourceVersion;
  }
  get(key) {
    const [ns, name] = key.split("/");
    return this.byNamespace.get(ns)?.get(name);
  }
  /** Whether the eviction API is sure to refuse to evict the pod, which `key` selects alone. */
  refuses(key, pod) {
    const b = this.get(key);
    if (!b || this.refused || !takesDisruption(pod)) return false;
    const generation = b.metadata.generation;
    const observed = b.status?.observedGeneration;
    if (generation !== void 0 && (observed === void 0 || observed < generation)) return false;
    return (b.status?.disruptionsAllowed ?? 0) - (this.asking.get(key) ?? 0) <= 0;
  }
  /**
   * An eviction is asked under the budget (the cache showed a disruption allowed): until its
   * answer, the disruption it may take is not there for another drain. `answered` with the
   * answer's status; a 201 counts as granted (below).
   */
  ask(key) {
    const version = this.versionOf(key);
    this.asking.set(key, (this.asking.get(key) ?? 0) + 1);
    let done = false;
    return (status2) => {
      if (done) return;
      done = true;
      const n2 = (this.asking.get(key) ?? 1) - 1;
      if (n2 > 0) this.asking.set(key, n2);
      else this.asking.delete(key);
      if (status2 === 201) this.granted(key, version);
      this.wake(key);
    };
  }
  /**
   * The API server granted an eviction under the budget: it has taken one from
   * disruptionsAllowed, which the watch shows soon. Until it does (the budget's version is still
   * `version`, the one before the eviction), the cache takes it too, so that the drain next in
   * line does not ask for an eviction sure to be refused.
   */
  granted(key, version) {
    const b = this.get(key);
    if (!b || version === void 0 || b.metadata.resourceVersion !== version) return;
    const allowed = Math.max(0, (b.status?.disruptionsAllowed ?? 0) - 1);
    this.put({ ...b, status: { ...b.status, disruptionsAllowed: allowed } });
  }
};
var LINGER_MS = 3e5;
async function close(h) {
  h.idle?.abort(SETTLED);
  await h.cache.close();
}
var BUDGETS = new RunPart("PodDisruptionBudgets", close);
async function closeBudgets(ctx, h) {
  if (ctx.state.peek(BUDGETS) !== h) return;
  ctx.state.drop(BUDGETS);
  await close(h);
}
async function holdBudgets(ctx) {
  const h = ctx.state.of(BUDGETS, () => {
    const cache = new BudgetCache(ctx);
    const started = cache.start().then(
      () => true,
      () => false
    );
    return { cache, started, holders: 0 };
  });
  h.holders++;
  h.idle?.abort(SETTLED);
  h.idle = void 0;
  let released = false;
  const release3 = () => {
    if (released) return;
    released = true;
    if (--h.holders > 0 || ctx.state.peek(BUDGETS) !== h) return;
    const idle = h.idle = new AbortController();
    void ctx.clock.sleep(LINGER_MS, idle.signal).then(
      async () => {
        if (h.holders === 0) await closeBudgets(ctx, h);
      },
      () => void 0
    );
  };
  const ok = await h.started;
  if (!ok && ctx.state.peek(BUDGETS) === h && h.holders === 1) ctx.state.drop(BUDGETS);
  return { cache: ok ? h.cache : void 0, release: release3 };
}

// src/roll/drain-wait.ts
async function podsOn(ctx, node, fresh) {
  const r = await listAll(
    (cont) => ctx.cluster.listPods(void 0, {
      ...pageOf(cont, { fieldSelector: `spec.nodeName=${node}` }),
      ...!fresh && { resourceVersion: "0" }
    })
  );
  return { pods: podsToMove(r.items), resourceVersion: r.resourceVersion };
}
var podWatchOptions = (node, resourceVersion, signal) => ({
  fieldSelector: `spec.nodeName=${node}`,
  resourceVersion,
  allowWatchBookmarks: true,
  timeoutSeconds: WATCH_TIMEOUT_SECONDS,
  signal
});
function watchFromList(ctx, node, resourceVersion) {
  const ctl = new AbortController();
  const close2 = () => ctl.abort(SETTLED);
  try {
    const options = podWatchOptions(node, resourceVersion, ctl.signal);
    return { events: ctx.cluster.watchPods(void 0, options), close: close2 };
  } catch (e) {
    const next = () => Promise.reject(e);
    return { events: { [Symbol.asyncIterator]: () => ({ next }) }, close: close2 };
  }
}
var awaitedOf = (p) => ({
  uid: p.metadata.uid,
  dueMs: p.metadata.deletionTimestamp ? Date.parse(p.metadata.deletionTimestamp) : void 0
});
var leftBehind = (a, now2) => a.dueMs !== void 0 && now2 >= unreachableLeaveAt(a.dueMs);
var RECHECK_MS = 6e4;
async function waitGone(ctx, o) {
  const left2 = [];
  const leave2 = () => {
    if (o.pods.size === 0 || !o.unreachable()) return;
    const now2 = ctx.clock.now().getTime();
    for (const [id2, a] of o.pods)
      if (leftBehind(a, now2)) {
        left2.push(id2);
        o.pods.delete(id2);
      }
  };
  leave2();
  if (o.pods.size === 0) return { gone: true, left: left2 };
  const stop = new AbortController();
  const changes = new Changes();
  void follow2(ctx, o, AbortSignal.any([stop.signal, ctx.signal]), changes);
  try {
    while (o.pods.size > 0 && !ctx.signal.aborted) {
      const now2 = ctx.clock.now().getTime();
      const deadline = o.unreachable() ? Math.max(o.deadline, lastLook(o.pods)) : o.deadline;
      if (now2 >= deadline) break;
      await changes.next(ctx, Math.min(deadline, nextLook(o.pods, now2)) - now2);
      leave2();
    }
    if (ctx.signal.aborted) throw new RollError("Cancelled", `cancelled while ${o.node} drained`);
    return { gone: o.pods.size === 0, left: left2 };
  } finally {
    stop.abort(SETTLED);
    o.early?.close();
  }
}
function lastLook(pods) {
  let at5 = Number.NEGATIVE_INFINITY;
  for (const a of pods.values())
    if (a.dueMs !== void 0) at5 = Math.max(at5, unreachableLeaveAt(a.dueMs));
  return at5;
}
function nextLook(pods, now2) {
  let at5 = Number.POSITIVE_INFINITY;
  for (const a of pods.values())
    if (a.dueMs !== void 0) at5 = Math.min(at5, unreachableLeaveAt(a.dueMs));
  return at5 > now2 ? at5 : now2 + RECHECK_MS;
}
var Changes = class {
  #wake = () => {
  };
  #next = this.#renew();
  #renew() {
    return new Promise((resolve) => this.#wake = resolve);
  }
  notify() {
    this.#wake();
    this.#next = this.#renew();
  }
  /** The next change, or `ms` passing, whichever comes first. */
  async next(ctx, ms2) {
    const timer = new AbortController();
    const signal = AbortSignal.any([timer.signal, ctx.signal]);
    try {
      await Promise.race([this.#next, ctx.clock.sleep(Math.max(0, ms2), signal)]);
    } catch (e) {
      if (!isAbort(e)) throw e;
    } finally {
      timer.abort(SETTLED);
    }
  }
};
async function follow2(ctx, o, signal, changes) {
  let early = o.early;
  let failures = 0;
  while (!signal.aborted && o.pods.size > 0) {
    try {
      let open;
      if (early) {
        const { events, close: close2 } = early;
        early = void 0;
        open = (s) => {
          s.addEventListener("abort", close2, { once: true });
          return events;
        };
      } else {
        const now2 = await podsOn(ctx, o.node, false);
        seen2(o.pods, now2.pods);
        changes.notify();
        if (o.pods.size === 0 || signal.aborted) return;
        open = (s) => ctx.cluster.watchPods(void 0, podWatchOptions(o.node, now2.resourceVersion, s));
      }
      for await (const e of guardedWatch(ctx.clock, open, signal)) {
        failures = 0;
        if (e.type === "BOOKMARK") continue;
        if (changed(o.pods, e)) changes.notify();
        if (o.pods.size === 0) return;
      }
      await ctx.clock.sleep(1e3, signal);
    } catch (e) {
      if (isAbort(e) || signal.aborted) return;
      await ctx.clock.sleep(watchBackoffMs(e, failures++), signal).catch(() => void 0);
    }
  }
}
var same = (a, p) => !a.uid || !p.metadata.uid || a.uid === p.metadata.uid;
function seen2(pods, listed2) {
  const present = /* @__PURE__ */ new Map();
  for (const p of listed2) present.set(podId2(p), p);
  for (const [id2, a] of pods) {
    const p = present.get(id2);
    if (!p || !same(a, p)) pods.delete(id2);
    else a.dueMs = awaitedOf(p).dueMs ?? a.dueMs;
  }
}
function changed(pods, e) {
  const id2 = podId2(e.object);
  const a = pods.get(id2);
  if (!a) return false;
  if (e.type === "DELETED" || !same(a, e.object)) {
    pods.delete(id2);
    return true;
  }
  const due = awaitedOf(e.object).dueMs;
  if (due === void 0 || due === a.dueMs) return false;
  a.dueMs = due;
  return true;
}

// src/roll/drain.ts
var EVICTED_PODS_SHOWN = 50;
function evictedNames(pods, blockers2) {
  const blocked = new Set(blockers2.map((b) => b.pod));
  const names2 = pods.map(podId2).filter((id2) => !blocked.has(id2)).sort();
  if (names2.length === 0) return {};
  const shown = names2.slice(0, EVICTED_PODS_SHOWN);
  return {
    evictedPods: shown,
    ...names2.length > shown.length && { evictedPodsNotShown: names2.length - shown.length }
  };
}
var RETRY_MS2 = 5e3;
async function budgetsOf2(ctx, pod) {
  const ns = pod.metadata.namespace ?? "default";
  const { items } = await listAll((cont) => ctx.cluster.listPodDisruptionBudgets(ns, pageOf(cont)));
  return items.filter((b) => matchesSelector(b.spec.selector, pod.metadata.labels ?? {})).map((b) => `${ns}/${b.metadata.name}`);
}
function pdbFromMessage(message) {
  return /disruption budget "?([a-z0-9][\w.-]*)"? needs/i.exec(message)?.[1] ?? "";
}
var BudgetTurns = class {
  tails = /* @__PURE__ */ new Map();
  /** Budgets whose last ask at once was refused, while pods queue for them. */
  patient = /* @__PURE__ */ new Set();
  /** Wait for this budget's turn (false: it came at once); `release` hands it on. */
  async take(key, signal) {
    const before = this.tails.get(key);
    let release3 = () => {
    };
    const mine = new Promise((resolve) => release3 = resolve);
    const tail = before ? before.then(() => mine) : mine;
    this.tails.set(key, tail);
    const done = () => {
      release3();
      if (this.tails.get(key) === tail) {
        this.tails.delete(key);
        this.patient.delete(key);
      }
    };
    if (!before) return { waited: false, release: done };
    let onAbort = () => {
    };
    try {
      await Promise.race([
        before,
        new Promise((_, reject) => {
          onAbort = () => reject(abortError(signal));
          if (signal.aborted) onAbort();
          else signal.addEventListener("abort", onAbort, { once: true });
        })
      ]);
    } catch (e) {
      done();
      throw e;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    return { waited: true, release: done };
  }
};
var TURNS = new RunPart("budgets' turns");
function budgetTurns(ctx) {
  return ctx.state.of(TURNS, () => new BudgetTurns());
}
var RECHECK_MS2 = 6e4;
async function heldBack(ctx, o, pod, deadline, signal, budgets, s) {
  const key = takesDisruption(pod) ? budgets?.budgetOf(pod) : void 0;
  if (!budgets || !key) return void 0;
  if (budgets.refuses(key, pod)) {
    const pdb = key.slice(key.indexOf("/") + 1);
    const why2 = `PodDisruptionBudget ${pdb} allows no disruption`;
    if (s.reported !== why2) {
      ctx.emit({ type: "eviction.blocked", group: o.group, node: o.node, pod: podId2(pod), pdb });
      s.reported = why2;
    }
    const now2 = () => ctx.clock.now().getTime();
    try {
      s.turn ??= (await budgetTurns(ctx).take(key, signal)).release;
      const until = Math.min(deadline, now2() + RECHECK_MS2);
      while (budgets.refuses(key, pod) && now2() < until && !signal.aborted)
        await budgets.budgetChanged(key, until - now2(), signal);
      if (signal.aborted) throw abortError(signal);
    } catch (e) {
      if (ctx.signal.aborted || !isAbort(e)) throw e;
      return { blocker: { pod: podId2(pod), why: why2 } };
    }
    if (budgets.refuses(key, pod) && now2() >= deadline)
      return { blocker: { pod: podId2(pod), why: why2 } };
  }
  return { answered: budgets.ask(key) };
}
async function evict(ctx, o, pod, deadline, signal, budgets) {
  const ns = pod.metadata.namespace ?? "default";
  const s = { reported: "" };
  try {
    for (; ; ) {
      const held = await heldBack(ctx, o, pod, deadline, signal, budgets, s);
      if (held && "blocker" in held) return held.blocker;
      const r = await ctx.cluster.evictPod(ns, pod.metadata.name).catch((e) => {
        held?.answered(0);
        throw e;
      });
      held?.answered(r.status);
      if (s.atOnce) {
        const patient = budgetTurns(ctx).patient;
        if (r.status === 429) patient.add(s.atOnce);
        else patient.delete(s.atOnce);
      }
      if (r.status === 201 || r.status === 404) return void 0;
      const blocker = await refused(ctx, o, pod, r, deadline, signal, s);
      if (blocker) return blocker;
    }
  } finally {
    s.turn?.();
  }
}
async function refused(ctx, o, pod, r, deadline, signal, s) {
  s.atOnce = void 0;
  const ns = pod.metadata.namespace ?? "default";
  const id2 = podId2(pod);
  if (r.status === 403 && !r.namespaceTerminating) {
    const why3 = `the eviction API refused it (403 Forbidden: ${r.message})`;
    return { pod: id2, why: why3, final: true };
  }
  if (r.status === 500) {
    const pdbs = await budgetsOf2(ctx, pod);
    const named3 = pdbs.length > 0 ? pdbs.join(", ") : "several";
    const blocked = { group: o.group, node: o.node, pod: id2, pdb: named3 };
    ctx.emit({ type: "eviction.blocked", ...blocked, final: true });
    const why3 = `PodDisruptionBudgets ${named3} all select it, and the eviction API refuses a pod more than one budget selects (${r.message})`;
    return { pod: id2, why: why3, final: true };
  }
  const pdb = r.status === 429 ? r.pdb ?? [...r.causes, r.message].map(pdbFromMessage).find(Boolean) ?? "" : "";
  const why2 = r.status === 429 ? `PodDisruptionBudget ${pdb || "(unnamed)"} allows no disruption` : `the eviction API answered ${r.status}: ${r.message}`;
  const wait = r.status === 429 ? retryAfterMs(r.retryAfterSeconds, RETRY_MS2) : RETRY_MS2;
  const last = ctx.clock.now().getTime() + wait > deadline || signal.aborted;
  if (why2 !== s.reported && r.status === 429) {
    const blocked = { group: o.group, node: o.node, pod: id2, pdb: pdb || "unknown" };
    ctx.emit({ type: "eviction.blocked", ...blocked, ...last && { final: true } });
    s.reported = why2;
  }
  if (last) return { pod: id2, why: why2 };
  try {
    if (!s.turn && r.status === 429 && pdb) {
      const key = `${ns}/${pdb}`;
      const t = await budgetTurns(ctx).take(key, signal);
      s.turn = t.release;
      if (t.waited && !budgetTurns(ctx).patient.has(key)) {
        s.atOnce = key;
        return void 0;
      }
    }
    await ctx.clock.sleep(wait, signal);
    return void 0;
  } catch (e) {
    s.turn?.();
    if (ctx.signal.aborted || !isAbort(e)) throw e;
    return { pod: id2, why: why2 };
  }
}
async function evictAll(ctx, o, pods, deadline) {
  if (pods.length === 0) return [];
  const stop = new AbortController();
  const signal = AbortSignal.any([stop.signal, ctx.signal]);
  const budgets = await holdBudgets(ctx);
  try {
    const results = await Promise.all(
      pods.map(async (p) => {
        const b = await evict(ctx, o, p, deadline, signal, budgets.cache);
        if (b?.final && !o.deleteAfterDrainTimeout) stop.abort();
        return b;
      })
    );
    return results.filter((b) => b !== void 0);
  } finally {
    budgets.release();
  }
}
function evictionFailure(o, blockers2) {
  const final = blockers2.filter((b) => b.final);
  const shown = (final.length > 0 ? final : blockers2).map((b) => `${b.pod} (${b.why})`);
  const when2 = final.length > 0 ? "" : ` within ${Math.round(o.timeoutMs / 6e4)} min`;
  return new RollError(
    "PodEvictionFailure",
    `could not drain ${o.node}${when2}: ${shown.slice(0, 10).join("; ")}. Scale the workloads up or relax the PodDisruptionBudgets, or set deleteAfterDrainTimeout to delete them`
  );
}
async function drainNode(ctx, o) {
  ctx.emit({ type: "node.drain.start", group: o.group, node: o.node });
  const deadline = ctx.clock.now().getTime() + o.timeoutMs;
  const listed2 = await podsOn(ctx, o.node, true);
  const now2 = ctx.clock.now().getTime();
  const lost = o.unreachable?.() ? listed2.pods.filter((p) => leftBehind(awaitedOf(p), now2)) : [];
  const pods = listed2.pods.filter((p) => !lost.includes(p));
  refuseOrphans(o.node, o.evictUnmanaged, pods);
  const early = pods.length > 0 ? watchFromList(ctx, o.node, listed2.resourceVersion) : void 0;
  try {
    return await evictAndWait(ctx, o, pods, deadline, early, lost.map(podId2));
  } finally {
    early?.close();
  }
}
async function evictAndWait(ctx, o, pods, deadline, early, lost) {
  const blockers2 = await evictAll(ctx, o, pods, deadline);
  if (blockers2.length > 0 && !o.deleteAfterDrainTimeout) throw evictionFailure(o, blockers2);
  const evicted = pods.length - blockers2.length;
  const deleted = blockers2.map((b) => b.pod);
  for (const id2 of deleted) {
    const [ns, name] = id2.split("/");
    await ctx.cluster.deletePod(ns, name).catch(() => void 0);
  }
  const waited = new Map(pods.map((p) => [podId2(p), awaitedOf(p)]));
  const { gone: gone2, left: left2 } = await waitGone(ctx, {
    node: o.node,
    pods: waited,
    deadline,
    early,
    unreachable: o.unreachable ?? (() => false)
  });
  if (!gone2 && !o.deleteAfterDrainTimeout) {
    throw new RollError(
      "PodEvictionFailure",
      `pods on ${o.node} did not terminate in time: ${[...waited.keys()].slice(0, 10).join(", ")}`
    );
  }
  const stayed = [...lost, ...left2];
  ctx.emit({
    type: "node.drain.end",
    group: o.group,
    node: o.node,
    evicted,
    ...evictedNames(pods, blockers2),
    ...deleted.length > 0 && { deleted },
    ...stayed.length > 0 && { leftBehind: stayed }
  });
  return { evicted, deleted, leftBehind: stayed, moved: movedPods(pods, deadline - o.timeoutMs) };
}

// src/kinds/self-managed/gates.ts
function watchGates(ctx, job) {
  const before = new Set(job.live.instances.map((i) => i.id));
  return new GateWatch(ctx, {
    group: job.plan.name,
    settings: job.plan.settings.gates,
    replacements: async () => (await groupInstances(ctx, job)).filter((i) => !before.has(i.InstanceId) && inService(i.LifecycleState)).map((i) => ({ instance: i.InstanceId, node: job.nodes.byInstance(i.InstanceId) }))
  });
}
var GatedRoll = class {
  constructor(ctx, job) {
    this.ctx = ctx;
    this.job = job;
    this.gates = watchGates(ctx, job);
    job.roll.gates = this.gates;
    this.gctx = { ...ctx, signal: AbortSignal.any([ctx.signal, this.gates.halted]) };
    this.first = this.gates.start();
  }
  ctx;
  job;
  gates;
  gctx;
  /** The first reading of the gates, which every phase waits for before it writes. */
  first;
  async run(body) {
    let result;
    try {
      await this.first;
      if (this.gctx.signal.aborted) throw abortError(this.gctx.signal);
      result = await body(this.gctx);
    } catch (e) {
      if (this.ctx.signal.aborted || !this.gates.stopped || !halted(e)) throw e;
      throw await this.halt();
    }
    if (this.gates.stopped && !this.ctx.signal.aborted) throw await this.halt();
    return result;
  }
  close() {
    return this.gates.close();
  }
  /** The halt undone where it interrupted, then what the stop comes to (roll/gates.ts). */
  async halt() {
    const { job } = this;
    await undoHalted(this.ctx, job);
    const stop = this.gates.stopped;
    const at5 = { cluster: job.cluster, group: job.plan.name, settings: job.plan.settings.gates };
    return stopOnGate(this.ctx, { ...at5, stop }, { wave: job.roll.wave, where: left(job) });
  }
};
var halted = (e) => isAbort(e) || e instanceof RollError && e.code === "Cancelled";
async function undoHalted(ctx, job) {
  const members = new Set((await groupInstances(ctx, job)).map((i) => i.InstanceId));
  const cordoned = [];
  let tainted = 0;
  for (const r of job.plan.replacements) {
    const node = r.node && job.nodes.byName.get(r.node);
    if (!node || job.roll.terminated.has(node.metadata.name)) continue;
    const ours = node.metadata.annotations?.[CORDONED_ANNOTATION] !== void 0;
    if (!await clearMarks(ctx, node.metadata.name, members.has(r.instance))) continue;
    if (ours) cordoned.push(node.metadata.name);
    else tainted++;
  }
  const said2 = [
    ...cordoned.length > 0 ? [`made schedulable again: ${cordoned.join(", ")}`] : [],
    ...tainted > 0 ? [`the PreferNoSchedule taint taken off ${tainted} node${tainted === 1 ? "" : "s"}`] : []
  ];
  if (said2.length > 0)
    ctx.emit({
      type: "note",
      group: job.plan.name,
      message: `${job.plan.name}: the gate halted the roll; ${said2.join("; ")}`
    });
}
var watchFor2 = (ctx, job, ms2, why2) => watchFor(ctx, job.roll.gates, job.plan.name, ms2, why2);
async function keepCheckpoint(ctx, job, at5) {
  const { bakeMs, checkpointDelayMs } = job.plan.settings.gates;
  const share = `${Math.round(at5 * 100)}%`;
  if (checkpointDelayMs !== void 0) {
    await watchFor2(ctx, job, Math.max(bakeMs, checkpointDelayMs), `checkpoint ${share}`);
    return void 0;
  }
  await watchFor2(ctx, job, bakeMs, "bake");
  const reason = `checkpoint ${share} of ${job.plan.name} reached`;
  return (await pauseFor(ctx, job.cluster, job.plan.name, reason, left(job))).stop;
}
function left(job) {
  const n2 = job.plan.replacements.length - job.roll.terminated.size;
  return `${n2} node${n2 === 1 ? "" : "s"} of ${job.plan.name} left`;
}
function nextCheckpoint(job) {
  const total = job.plan.nodes;
  const todo = job.plan.replacements.length;
  const base = total - todo;
  for (const share of job.plan.settings.gates.checkpoints) {
    if (job.roll.checkpointsPassed.has(share)) continue;
    const count2 = Math.ceil(share * total - 1e-9) - base;
    if (count2 > 0 && count2 < todo) return { share, count: count2 };
  }
  return void 0;
}
var inWaves = (job, w) => job.plan.settings.gates.bakeMs > 0 || w.checkpoint !== void 0;
function checkpointRoom(job, w, inFlight, queued) {
  const next = nextCheckpoint(job);
  if (!next) return Infinity;
  const room = next.count - w.started;
  if (room <= 0 && inFlight === 0 && queued > 0 && w.checkpoint === void 0) {
    w.checkpoint = next.share;
    job.roll.checkpointsPassed.add(next.share);
  }
  return Math.max(0, room);
}

// src/kinds/self-managed/terminations.ts
var TerminationBatch = class {
  #held = [];
  #wake = () => void 0;
  #woken;
  /** When a batch was let go last. */
  #released = -Infinity;
  constructor() {
    this.#woken = this.#next();
  }
  #next() {
    return new Promise((resolve) => this.#wake = resolve);
  }
  /** How long since a batch was let go last. */
  sinceRelease(now2) {
    return now2 - this.#released;
  }
  get size() {
    return this.#held.length;
  }
  /** Resolves when a drained node starts waiting: the window then looks whether it may go. */
  added() {
    return this.#woken;
  }
  /** A drained node waits for its turn to be terminated: until the window releases it, or at
   * once within a validation period of the last release — drains that end together (the
   * same pods' grace, no budget between them) go in one batch. */
  wait(now2) {
    if (now2 - this.#released <= VALIDATION_PERIOD_MS) return Promise.resolve();
    return new Promise((go) => {
      this.#held.push({ since: now2, go });
      const wake = this.#wake;
      this.#woken = this.#next();
      wake();
    });
  }
  /** Let every held node go: the group's replacements have registered, or the window stops. */
  releaseAll(now2) {
    this.#released = now2;
    this.#let(() => true);
  }
  /** Let go the nodes held a boot's estimate already: the wait is bounded whatever the group
   * does (a replacement that never turns Ready is the window's to report, not to wait on). */
  releaseOverdue(now2) {
    this.#let((h) => now2 - h.since >= BOOT_ESTIMATE_MS);
  }
  #let(which) {
    const go = this.#held.filter(which);
    this.#held = this.#held.filter((h) => !which(h));
    for (const h of go) h.go();
  }
};

// src/kinds/self-managed/writes.ts
var TRIES = ATTEMPTS.network;
async function member(ctx, group3, instanceId) {
  const [asg] = await ctx.cloud.autoScaling.describeAutoScalingGroups({
    AutoScalingGroupNames: [group3]
  });
  return asg?.Instances.find((i) => i.InstanceId === instanceId);
}
async function leftNow(ctx, group3, instanceId) {
  const i = await member(ctx, group3, instanceId);
  return i ? leftState(i.LifecycleState) : "absent";
}
async function confirmed(ctx, write, done) {
  for (let n2 = 1; ; n2++) {
    try {
      await write();
      return;
    } catch (e) {
      if (!isLostAnswer(e) || n2 >= TRIES) throw e;
      if (await done()) return;
      await ctx.clock.sleep(1e3 * 2 ** n2, ctx.signal);
    }
  }
}
async function refusedAsGone(ctx, group3, instanceId, e) {
  if (!(e instanceof AwsApiError) || e.code !== "ValidationError") throw e;
  const left2 = await leftNow(ctx, group3, instanceId);
  if (!left2) throw e;
  return left2;
}
async function takeOut(ctx, group3, instanceId, send, state) {
  try {
    await confirmed(ctx, send, async () => {
      const i = await member(ctx, group3, instanceId);
      return !i || i.LifecycleState.startsWith(state);
    });
    return "done";
  } catch (e) {
    return refusedAsGone(ctx, group3, instanceId, e);
  }
}
function detachConfirmed(ctx, group3, instanceId) {
  const send = () => ctx.cloud.autoScaling.detachInstances({
    AutoScalingGroupName: group3,
    InstanceIds: [instanceId],
    ShouldDecrementDesiredCapacity: false
  });
  return takeOut(ctx, group3, instanceId, send, "Detach");
}
function terminateConfirmed(ctx, group3, instanceId) {
  const send = () => ctx.cloud.autoScaling.terminateInstanceInAutoScalingGroup({
    InstanceId: instanceId,
    ShouldDecrementDesiredCapacity: false
  });
  return takeOut(ctx, group3, instanceId, send, "Terminat");
}

// src/kinds/self-managed/window.ts
var POLL_MS4 = 1e4;
var BATCH_CADENCE_MS = 7e4;
var worthHolding = (held, booting) => held < booting + Math.floor(booting / 2);
async function emptyNode(ctx, job, node, moved) {
  const group3 = job.plan.name;
  const s = job.plan.settings;
  const bastion = job.plan.role === "bastion";
  if (ctx.signal.aborted) throw abortError(ctx.signal);
  await cordon(ctx, node, job.runId, { excludeLb: !bastion, known: job.nodes.byName.get(node) });
  ctx.emit({ type: "node.cordon", group: group3, node });
  if (bastion) return;
  ctx.emit({ type: "node.label", group: group3, node, label: `${EXCLUDE_LB_LABEL}=true` });
  const unreachable = () => {
    const n2 = job.nodes.byName.get(node);
    return n2 !== void 0 && isUnreachable(n2);
  };
  const drained2 = await drainNode(ctx, {
    group: group3,
    node,
    timeoutMs: s.drainTimeoutMs,
    deleteAfterDrainTimeout: s.deleteAfterDrainTimeout,
    evictUnmanaged: s.unmanagedPods === "evict",
    unreachable
  });
  moved.push(...drained2.moved);
  await ctx.clock.sleep(s.postDrainDelayMs, ctx.signal);
}
function ended(job, flight, w) {
  flight.terminated = true;
  if (flight.r.node) {
    w.gone.add(flight.r.node);
    noteTerminated(job, flight.r.node);
  }
}
function nodeGone(job, r) {
  return new RollError(
    "StalePlan",
    `${job.plan.name}: node ${r.node} of instance ${r.instance} is gone from the cluster since the plan, while the instance still runs in the group: not terminating it without a drain. Run apply again: its plan takes the instance as one with no node`
  );
}
async function replaceOne(ctx, job, flight, w) {
  const { r } = flight;
  const before = isDetached(r) ? void 0 : leftGroup(job, r.instance);
  if (before) {
    ended(job, flight, w);
    return leftByOthers(ctx, job, r, before, "before its turn");
  }
  if (r.node && !job.nodes.byName.has(r.node) && !isDetached(r)) {
    const gone2 = await leftNow(ctx, job.plan.name, r.instance);
    if (!gone2) throw nodeGone(job, r);
    ended(job, flight, w);
    return leftByOthers(ctx, job, r, gone2, "before its turn");
  }
  const node = r.node ?? job.nodes.byInstance(r.instance)?.metadata.name;
  if (node && job.nodes.byName.has(node)) await emptyNode(ctx, job, node, w.moved);
  if (isDetached(r)) await ctx.cloud.ec2.terminateInstances({ InstanceIds: [r.instance] });
  else {
    await w.batch.wait(ctx.clock.now().getTime());
    if (ctx.signal.aborted) throw abortError(ctx.signal);
    const done = await terminateConfirmed(ctx, job.plan.name, r.instance);
    groupWritten(job);
    if (done !== "done") {
      ended(job, flight, w);
      return leftByOthers(ctx, job, r, done, "before the roll terminated it");
    }
  }
  ended(job, flight, w);
  ctx.emit({
    type: "instance.terminate",
    group: job.plan.name,
    instance: r.instance,
    decrement: false
  });
  await ctx.clock.sleep(job.plan.settings.intervalMs, ctx.signal);
}
function stopped(job, stop, left2) {
  return new Stopped(
    stop,
    `${left2} node${left2 === 1 ? "" : "s"} of ${job.plan.name} left for the next run`
  );
}
var busyNodes = (w) => new Set(
  [...w.inFlight.values()].flatMap((f) => f.r.node ? [f.r.node, f.r.instance] : [f.r.instance])
);
async function startable(ctx, job, w, old, next, validate) {
  if (validate && !await nodesValid(ctx, job, validate)) return 0;
  const room = await capacityRoom(ctx, job, busyNodes(w), (x) => fit(job, next, x.room).costly);
  await protectNewNodes(ctx, job, room.ready, old);
  const { n: n2 } = fit(job, next, room.room);
  if (n2 === 0) return n2;
  if (validate) await validateGroup(ctx, job, job.plan.settings.validation.count, validate);
  return n2;
}
function costOf(job, r) {
  if (!isDetached(r) && leftGroup(job, r.instance)) return 0;
  const node = r.node ? job.nodes.byName.get(r.node) : void 0;
  if (!node) return isDetached(r) || r.node ? 0 : 1;
  return isReady(node) && !node.spec.unschedulable ? 1 : 0;
}
function downFirst(job, queue) {
  const free = queue.filter((r) => costOf(job, r) === 0);
  if (free.length === 0 || free.length === queue.length) return;
  const rest = queue.filter((r) => costOf(job, r) !== 0);
  queue.splice(0, queue.length, ...free, ...rest);
}
function fit(job, next, room) {
  let n2 = 0;
  let left2 = room;
  for (const r of next) {
    const cost = costOf(job, r);
    if (cost > 0 && cost > left2) break;
    left2 -= cost;
    n2++;
  }
  return { n: n2, costly: left2 < room };
}
async function bootingUnregistered(ctx, job, w, now2) {
  const key = `${job.nodes.byName.size}/${w.gone.size}`;
  const last = w.booting;
  if (last && last.key === key && now2 - last.at < POLL_MS4) return last.count;
  const r = await capacityRoom(ctx, job, busyNodes(w));
  const unlaunched = Math.max(0, r.desired - r.ready.length - r.waiting.length);
  const count2 = unlaunched + r.waiting.filter((id2) => !job.nodes.byInstance(id2)).length;
  w.booting = { key, at: now2, count: count2 };
  return count2;
}
async function releaseHeld(ctx, job, w, stop, left2) {
  if (w.batch.size === 0) return;
  const now2 = ctx.clock.now().getTime();
  if (stop || left2 === 0) return w.batch.releaseAll(now2);
  w.batch.releaseOverdue(now2);
  if (w.batch.size === 0) return;
  if (w.batch.sinceRelease(now2) >= BATCH_CADENCE_MS) return w.batch.releaseAll(now2);
  const booting = await bootingUnregistered(ctx, job, w, now2);
  if (booting === 0 || !worthHolding(w.batch.size, booting)) w.batch.releaseAll(now2);
}
function launch(ctx, job, w, queue, n2) {
  for (let i = 0; i < n2; i++) {
    const flight = {
      r: queue.shift(),
      done: Promise.resolve(),
      terminated: false
    };
    job.roll.wave.push(flight.r.node ?? flight.r.instance);
    w.started++;
    flight.done = replaceOne(ctx, job, flight, w).then(
      () => {
        w.inFlight.delete(flight.r.instance);
        w.completed++;
      },
      (e) => {
        w.inFlight.delete(flight.r.instance);
        w.failure ??= e;
      }
    );
    w.inFlight.set(flight.r.instance, flight);
  }
}
function betweenNodes(w) {
  return { gone: w.gone, machines: w.proving };
}
async function waitedTooLong(ctx, job, w, check) {
  const r = await capacityRoom(ctx, job, busyNodes(w), (x) => x.room <= 0);
  if (r.room <= 0) throw creationFailure(job, r, r.desired);
  await validateGroup(ctx, job, job.plan.settings.validation.count, check);
}
var newWindow = (canary) => ({
  inFlight: /* @__PURE__ */ new Map(),
  gone: /* @__PURE__ */ new Set(),
  batch: new TerminationBatch(),
  completed: 0,
  moved: [],
  proving: canary,
  started: 0
});
async function upgrade(ctx, job, queue, canary) {
  const window = rollWindow(job.plan.budgets);
  const old = new Set(queue.map((r) => r.instance));
  let limit = canary ? 1 : window;
  const w = newWindow(canary);
  const { inFlight } = w;
  let unvalidated = false;
  let waitingSince;
  const timeoutMs = job.plan.settings.validation.timeoutMs;
  try {
    while ((queue.length > 0 || inFlight.size > 0) && w.failure === void 0) {
      const stop = w.paused ?? job.stopReason();
      const halted2 = ctx.signal.aborted;
      const room = checkpointRoom(job, w, inFlight.size, queue.length);
      const hold = inWaves(job, w) && inFlight.size > 0;
      const free = stop || halted2 || hold ? 0 : Math.min(limit - inFlight.size, queue.length, room);
      await releaseHeld(ctx, job, w, stop !== void 0 || halted2, queue.length);
      let blocked = false;
      if (!stop && !halted2 && unvalidated && inWaves(job, w) && inFlight.size === 0) {
        unvalidated = await betweenWaves(ctx, job, w);
        continue;
      }
      if (free > 0) {
        downFirst(job, queue);
        const check = unvalidated ? betweenNodes(w) : void 0;
        const n2 = await startable(ctx, job, w, old, queue.slice(0, free), check);
        if (n2 > 0 && unvalidated) [unvalidated, w.proving, job.roll.wave] = [false, false, []];
        launch(ctx, job, w, queue, n2);
        blocked = n2 < free;
        const now2 = ctx.clock.now().getTime();
        if (n2 > 0 || !blocked) waitingSince = void 0;
        if (blocked && waitingSince === void 0) waitingSince = now2;
        else if (blocked && now2 - (waitingSince ?? now2) > timeoutMs)
          await waitedTooLong(ctx, job, w, { ...betweenNodes(w), startedAt: waitingSince });
      }
      if (inFlight.size === 0) {
        if (halted2 && !stop) throw abortError(ctx.signal);
        if (stop) {
          await settled(ctx, job, old);
          throw stopped(job, stop, queue.length);
        }
        if (queue.length === 0) break;
      }
      const before = w.completed;
      await Promise.race([
        ...[...inFlight.values()].map((x) => x.done),
        w.batch.added(),
        ...blocked || w.batch.size > 0 ? [job.nodes.changed(POLL_MS4)] : []
      ]);
      if (w.completed > before) {
        unvalidated = true;
        limit = window;
      }
    }
  } finally {
    w.batch.releaseAll(ctx.clock.now().getTime());
  }
  await Promise.allSettled([...inFlight.values()].map((x) => x.done));
  if (w.failure !== void 0) throw w.failure;
  await finished(ctx, job, old, w.moved);
}
async function betweenWaves(ctx, job, w) {
  await validateGroup(ctx, job, job.plan.settings.validation.count, betweenNodes(w));
  [w.proving, job.roll.wave] = [false, []];
  const { bakeMs } = job.plan.settings.gates;
  const at5 = w.checkpoint;
  w.checkpoint = void 0;
  if (at5 === void 0) await watchFor2(ctx, job, bakeMs, "bake");
  else w.paused = await keepCheckpoint(ctx, job, at5);
  return false;
}
async function finished(ctx, job, old, moved) {
  await settled(ctx, job, old);
  await watchFor2(ctx, job, job.plan.settings.gates.bakeMs, "bake");
  await awaitRescheduled(ctx, {
    group: job.plan.name,
    moved,
    timeoutMs: job.plan.settings.validation.timeoutMs,
    nodes: job.nodes.byName.values()
  });
}
async function settled(ctx, job, old) {
  const ready = await waitForCapacity(ctx, job, (d) => d);
  await protectNewNodes(ctx, job, ready, old);
  const start = ctx.clock.now().getTime();
  const deadline = start + job.plan.settings.validation.timeoutMs;
  while (!await nodesValid(ctx, job) && ctx.clock.now().getTime() < deadline && !ctx.signal.aborted)
    await job.nodes.changed(POLL_MS4, ctx.signal);
  await validateGroup(ctx, job, job.plan.settings.validation.count, { startedAt: start });
}

// src/kinds/self-managed/surge-tag.ts
function denied(ctx, job, e) {
  if (!isDenied(e)) throw e;
  if (job.roll.untagged) return;
  job.roll.untagged = true;
  ctx.emit({
    type: "note",
    group: job.plan.name,
    message: `${job.plan.name}: could not tag instances detached for surge (${e.code}: grant ec2:CreateTags and ec2:DeleteTags, see the IAM policies in noderoll's docs/action.md); marked by their nodes' label only, a detached instance whose node object is deleted first will not be found again`
  });
}
async function tagForSurge(ctx, job, instance) {
  if (job.roll.untagged) return;
  const tag2 = { Key: DETACHED_LABEL, Value: job.plan.name };
  await ctx.cloud.ec2.createTags({ Resources: [instance], Tags: [tag2] }).catch((e) => {
    denied(ctx, job, e);
  });
}
async function untagStale(ctx, job, todo) {
  const replaced = new Set(todo.map((r) => r.instance));
  const stale = job.live.instances.filter((i) => i.markedForSurge && !replaced.has(i.id));
  if (stale.length > 0)
    await untag(
      ctx,
      job,
      stale.map((i) => i.id)
    );
}
async function untagSurge(ctx, job, instance) {
  if (!job.roll.untagged) await untag(ctx, job, [instance]);
}
async function untag(ctx, job, ids) {
  await ctx.cloud.ec2.deleteTags({ Resources: ids, Tags: [{ Key: DETACHED_LABEL }] }).catch((e) => {
    denied(ctx, job, e);
  });
}

// src/kinds/self-managed/surge.ts
async function markNode(ctx, job, r, on) {
  if (!r.node) return;
  const value = on ? job.plan.name : void 0;
  await updateNode(
    ctx,
    r.node,
    (n2) => n2.metadata.labels?.[DETACHED_LABEL] === value ? void 0 : { labels: { [DETACHED_LABEL]: value ?? null } },
    job.nodes.byName.get(r.node)
  );
}
async function detach(ctx, job, r) {
  await tagForSurge(ctx, job, r.instance);
  await markNode(ctx, job, r, true);
  let done;
  try {
    done = await detachConfirmed(ctx, job.plan.name, r.instance);
  } catch (e) {
    if (!(e instanceof AwsApiError) || ctx.signal.aborted) throw e;
    await untagSurge(ctx, job, r.instance);
    await markNode(ctx, job, r, false);
    return { refused: e };
  }
  groupWritten(job);
  if (done !== "done") {
    await leftByOthers(ctx, job, r, done, "before the roll detached it");
    return "left";
  }
  r.reasons.push({ kind: "detached-for-surge" });
  ctx.emit({ type: "instance.detach", group: job.plan.name, instance: r.instance });
  return "detached";
}
function giveUp(ctx, job, instance, nodes, e) {
  job.roll.surgeGivenUp = nodes;
  ctx.emit({
    type: "surge.given-up",
    group: job.plan.name,
    instance,
    nodes,
    reason: `${e.code}: ${e.message}`,
    maxUnavailable: job.plan.budgets.maxUnavailable + job.roll.surgeGivenUp
  });
}
async function surgeAndWait(ctx, job, candidates, n2, o) {
  let detached = 0;
  let refused3;
  while (detached < n2 && candidates.length > 0 && job.roll.surgeGivenUp === 0) {
    if (ctx.signal.aborted) throw abortError(ctx.signal);
    const r = candidates.shift();
    const result = await detach(ctx, job, r);
    if (result === "detached") {
      detached++;
      job.roll.surged++;
    } else if (result !== "left") {
      refused3 = { instance: r.instance, e: result.refused };
      if (isDenied(result.refused)) break;
    }
  }
  if (detached < n2 && refused3 && job.roll.surgeGivenUp === 0)
    giveUp(ctx, job, refused3.instance, o.planned - job.roll.surged, refused3.e);
  await protectNewNodes(ctx, job, await waitForCapacity(ctx, job, (d) => d), o.old);
}

// src/kinds/self-managed/warm-pool.ts
var waiting = (state) => state.startsWith("Warmed:") && !/Terminat/.test(state);
async function refreshWarmPool(ctx, job) {
  const planned = job.plan.warmPool?.replace ?? [];
  if (planned.length === 0 || !job.plan.settings.drainAndTerminate) return;
  const group3 = job.plan.name;
  const listed2 = await ctx.cloud.autoScaling.describeWarmPool({ AutoScalingGroupName: group3 });
  const still = new Set(listed2.filter((i) => waiting(i.LifecycleState)).map((i) => i.InstanceId));
  const joined = planned.filter((id2) => still.has(id2) && job.nodes.byInstance(id2));
  if (joined.length > 0)
    ctx.emit({
      type: "note",
      group: group3,
      message: `${group3}: warm-pool instance${joined.length === 1 ? "" : "s"} ${joined.join(", ")} registered as node${joined.length === 1 ? "" : "s"} while in the pool: not terminated without a drain; keep the pool's kubelets from joining (a lifecycle hook) or replace them by hand`
    });
  const ids = planned.filter((id2) => still.has(id2) && !job.nodes.byInstance(id2));
  if (ids.length === 0) return;
  await ctx.cloud.ec2.terminateInstances({ InstanceIds: ids });
  for (const instance of ids)
    ctx.emit({ type: "instance.terminate", group: group3, instance, decrement: false, warmPool: true });
  ctx.emit({
    type: "note",
    group: group3,
    message: `${group3}: ${ids.length} warm-pool instance${ids.length === 1 ? "" : "s"} from an older launch template terminated; the pool refills from the group's template`
  });
}

// src/kinds/self-managed/roll.ts
async function setup(ctx, job, todo) {
  const bastion = job.plan.role === "bastion";
  const lt = job.plan.launchTemplate;
  if (lt) {
    await ctx.cloud.autoScaling.updateAutoScalingGroup({
      AutoScalingGroupName: job.plan.name,
      LaunchTemplate: { LaunchTemplateId: lt.id, Version: lt.version }
    });
    ctx.emit({
      type: "note",
      group: job.plan.name,
      message: `${job.plan.name}: launch template version set to ${lt.version}`
    });
  }
  await untagStale(ctx, job, todo);
  if (!bastion && todo.length > 0) await validateGroup(ctx, job, 1);
  await refreshWarmPool(ctx, job);
  for (const r of todo) {
    if (bastion || !r.node || !job.nodes.byName.has(r.node)) continue;
    if (await addTaint(ctx, r.node, SCHEDULED_TAINT2, job.nodes.byName.get(r.node)))
      ctx.emit({
        type: "node.taint",
        group: job.plan.name,
        node: r.node,
        taint: `${SCHEDULED_TAINT2.key}:${SCHEDULED_TAINT2.effect}`
      });
  }
}
async function endLost(ctx, job, lost) {
  for (const r of lost) {
    await ctx.cloud.ec2.terminateInstances({ InstanceIds: [r.instance] });
    ctx.emit({
      type: "instance.terminate",
      group: job.plan.name,
      instance: r.instance,
      decrement: false
    });
  }
}
async function scaleUp(ctx, job, attached, detached, canary) {
  const surge = job.plan.budgets.maxSurge;
  const more = Math.max(0, surge - detached.length);
  if (surge === 0 || more === 0 && detached.length === 0) return "skipped";
  const old = new Set([...attached, ...detached].map((r) => r.instance));
  const candidates = attached.filter((r) => r.node && job.nodes.byName.has(r.node)).reverse();
  const picks = Math.min(more, candidates.length, nextCheckpoint(job)?.count ?? Infinity);
  const first = canary && detached.length === 0 ? Math.min(1, picks) : picks;
  await surgeAndWait(ctx, job, candidates, first, { old, planned: picks });
  if (first < picks && job.roll.surgeGivenUp === 0) {
    await validateGroup(ctx, job, job.plan.settings.validation.count);
    await watchFor2(ctx, job, job.plan.settings.gates.bakeMs, "bake");
    await surgeAndWait(ctx, job, candidates, picks - first, { old, planned: picks });
  }
  await validateGroup(ctx, job, job.plan.settings.validation.count);
  return "done";
}
function upgradeQueue(job, attached, detached) {
  const ours = (r) => r.node ? job.nodes.byName.get(r.node)?.metadata.annotations?.[CORDONED_ANNOTATION] !== void 0 : false;
  const ordered = attached.filter((r) => !isDetached(r));
  return [
    ...ordered.filter(ours),
    ...ordered.filter((r) => !ours(r)),
    ...attached.filter(isDetached),
    ...detached
  ].filter((r) => !hasLeft(job, r.instance));
}
async function rollSelfManaged(ctx, group3) {
  const job = selfManagedJob(group3);
  const held = job.plan.replacements.length > 0 ? [] : [...job.live.suspendedByNoderoll ?? []];
  try {
    await rollPhases(ctx, job, held);
  } finally {
    if (!ctx.signal.aborted) await restoreProcesses(ctx, job.plan.name, held);
  }
}
async function rollPhases(ctx, job, held) {
  const group3 = job.plan.name;
  const todo = job.plan.replacements.map((r) => ({ ...r, reasons: [...r.reasons] }));
  const ends = job.plan.settings.drainAndTerminate;
  const lost = ends ? todo.filter((r) => isDetached(r) && !(r.node && job.nodes.byName.has(r.node))) : [];
  const detached = todo.filter((r) => isDetached(r) && !lost.includes(r));
  const attached = todo.filter((r) => !isDetached(r));
  const canary = job.plan.schedule.waves[0]?.canary === true;
  await runPhase(ctx, group3, "setup", async () => {
    if (todo.length > 0) held.push(...await holdProcesses(ctx, job.live));
    await setup(ctx, job, todo);
    await endLost(ctx, job, lost);
  });
  const gated = new GatedRoll(ctx, job);
  try {
    await runPhase(
      ctx,
      group3,
      "scale-up",
      () => gated.run((g) => scaleUp(g, job, attached, detached, canary)),
      "maxSurge is 0: nodes are replaced in place"
    );
    await runPhase(
      ctx,
      group3,
      "upgrade",
      () => gated.run(async (g) => {
        if (!job.plan.settings.drainAndTerminate || todo.length === 0) return "skipped";
        const queue = upgradeQueue(job, attached, detached);
        const inPlace = job.plan.budgets.maxSurge === 0 || job.roll.surged + detached.length === 0;
        await upgrade(g, job, queue, canary && inPlace);
        return "done";
      }),
      todo.length === 0 ? "nothing to replace: the group is neither drained nor validated" : "drainAndTerminate is false: nodes stay tainted, nothing is drained or terminated"
    );
  } finally {
    await gated.close();
  }
  await runPhase(
    ctx,
    group3,
    "scale-down",
    async () => {
      await releaseNewNodes(ctx, job);
      return "skipped";
    },
    "surge by detaching leaves desired capacity as it was; nothing to scale down"
  );
}

// src/kinds/self-managed/turns.ts
var NO_PODS = Object.freeze([]);
function budgetsOf3(rs, podsByNode2, pdbs) {
  const budgets = /* @__PURE__ */ new Map();
  const held = [];
  const counts = [];
  const items = rs.map((r, index) => {
    let n2 = 0;
    const pods = r.node && podsByNode2.get(r.node) || NO_PODS;
    const selected = budgetsOnNode(pdbs, pods);
    for (let i = 0; i < pods.length; i++) {
      const p = pods[i];
      if (!asksBudgets(p)) continue;
      const selecting = selected[i];
      const pdb = selecting.length === 1 ? selecting[0] : void 0;
      if (!pdb || pdb.disruptionsAllowed <= 0) continue;
      let b = budgets.get(pdb);
      if (!b) {
        b = { pods: 0, allowed: pdb.disruptionsAllowed, placed: 0, items: [], next: 0 };
        budgets.set(pdb, b);
      }
      b.pods++;
      let h = 0;
      while (h < n2 && held[h] !== b) h++;
      if (h < n2) counts[h]++;
      else {
        held[n2] = b;
        counts[n2++] = 1;
      }
    }
    const item = {
      r,
      index,
      held: held.slice(0, n2),
      counts: counts.slice(0, n2),
      placed: false
    };
    for (let h = 0; h < n2; h++) held[h].items.push(item);
    return item;
  });
  return { items, budgets: [...budgets.values()] };
}
var Heap = class {
  a = [];
  less(i, j) {
    const x = this.a[i];
    const y = this.a[j];
    return x[0] < y[0] || x[0] === y[0] && x[1] < y[1];
  }
  swap(i, j) {
    const t = this.a[i];
    this.a[i] = this.a[j];
    this.a[j] = t;
  }
  push(e) {
    this.a.push(e);
    for (let i = this.a.length - 1; i > 0 && this.less(i, i - 1 >> 1); i = i - 1 >> 1)
      this.swap(i, i - 1 >> 1);
  }
  pop() {
    const top = this.a[0];
    const last = this.a.pop();
    if (this.a.length > 0 && last) {
      this.a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < this.a.length && this.less(l, m)) m = l;
        if (r < this.a.length && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
};
function orderForTurns(rs, podsByNode2, pdbs) {
  const { items, budgets } = budgetsOf3(rs, podsByNode2, pdbs);
  let longest = 0;
  for (const b of budgets) longest = Math.max(longest, b.pods / b.allowed);
  if (longest <= 1) return rs;
  const due = (b) => longest - (b.pods - b.placed) / b.allowed;
  const nextOf = (b) => {
    while (b.next < b.items.length && b.items[b.next].placed) b.next++;
    return b.items[b.next];
  };
  const heap = new Heap();
  const push = (b) => {
    const it = nextOf(b);
    if (it) heap.push([due(b), it.index, b]);
  };
  for (const b of budgets) push(b);
  const out = [];
  for (let e = heap.pop(); e; e = heap.pop()) {
    const b = e[2];
    const it = nextOf(b);
    if (!it) continue;
    if (due(b) > e[0] || it.index > e[1]) {
      heap.push([due(b), it.index, b]);
      continue;
    }
    it.placed = true;
    out.push(it.r);
    for (let h = 0; h < it.held.length; h++)
      it.held[h].placed += it.counts[h];
    push(b);
  }
  for (const it of items) if (!it.placed) out.push(it.r);
  return out;
}

// src/kinds/self-managed/schedule.ts
var HELD_BY2 = ["pdb-blocks"];
function replacementOrder(input) {
  const { replacements, settings } = input;
  const attached = replacements.filter((r) => !isDetached(r));
  const down = attached.filter((r) => r.down);
  const up = attached.filter((r) => !r.down);
  const detached = replacements.filter(isDetached);
  const zoned = settings.spreadAcrossZones ? interleaveByZone(up) : up;
  return [...down, ...orderForTurns(zoned, input.podsByNode, input.pdbs), ...detached];
}
function startsWithCanary(toReplace) {
  return toReplace > 1;
}
function checkpointWaits(input, groups2) {
  const { checkpoints, checkpointDelayMs } = input.settings.gates;
  const total = input.upToDate + input.replacements.length;
  let done = input.upToDate;
  return groups2.map((g) => {
    const before = done;
    done += g.length;
    const reached2 = checkpoints.some((c) => before < c * total && done >= c * total);
    return reached2 && done < total ? checkpointDelayMs ?? 0 : 0;
  });
}
function selfManagedSchedule(_live, input) {
  const { settings, replacements, budgets } = input;
  if (replacements.length === 0) return { waves: [], zoneOrder: [], surge: 0, estimatedMs: 0 };
  const ordered = replacementOrder(input);
  const window = rollWindow(budgets);
  const canary = startsWithCanary(ordered.length);
  const groups2 = canary ? [ordered.slice(0, 1), ...chunk(ordered.slice(1), window)] : chunk(ordered, window);
  const perNodeFixed = settings.postDrainDelayMs + settings.intervalMs + (settings.validation.count - 1) * VALIDATION_PERIOD_MS;
  const drainInput = {
    ...input,
    timeoutMs: settings.drainTimeoutMs,
    deleteAfterDrainTimeout: settings.deleteAfterDrainTimeout,
    held: heldBy(input.holds, HELD_BY2)
  };
  const waits = checkpointWaits(input, groups2);
  let t = budgets.maxSurge > 0 ? BOOT_ESTIMATE_MS : 0;
  const waves = groups2.map((g, i) => {
    const boot = budgets.maxSurge === 0 ? BOOT_ESTIMATE_MS : i === 0 && canary ? BOOT_ESTIMATE_MS : 0;
    const durationMs = settings.drainAndTerminate ? waveDrainMs(g, drainInput, t) + perNodeFixed + boot + settings.gates.bakeMs + (waits[i] ?? 0) : 0;
    const wave = {
      nodes: g.map((r) => r.node ?? r.instance),
      canary: canary && i === 0,
      startMs: t,
      durationMs
    };
    t += durationMs;
    return wave;
  });
  return {
    waves,
    zoneOrder: [...new Set(ordered.map((r) => r.zone))],
    surge: budgets.maxSurge,
    estimatedMs: t
  };
}

// src/kinds/self-managed/select.ts
function selfManagedTarget(group3, live) {
  const lt = live.launchTemplate;
  if (!lt) return {};
  const v = group3.target?.launchTemplateVersion;
  const version = v === void 0 ? lt.resolved : v === "$Latest" ? lt.latest : v === "$Default" ? lt.default : Number(v);
  return { ...lt.id && { launchTemplate: lt.id }, launchTemplateVersion: version };
}
function otherTemplate(instance, target) {
  return target.launchTemplate !== void 0 && instance.launchTemplate !== void 0 && instance.launchTemplate !== target.launchTemplate;
}
function instanceReasons(instance, target) {
  const reasons = [];
  const other = otherTemplate(instance, target);
  if (target.launchTemplateVersion !== void 0 && (other || instance.launchTemplateVersion !== target.launchTemplateVersion)) {
    reasons.push({
      kind: "launch-template",
      from: instance.launchTemplateVersion,
      to: target.launchTemplateVersion,
      ...other && {
        fromTemplate: instance.launchTemplate,
        toTemplate: target.launchTemplate
      }
    });
  }
  if (instance.detachedForSurge) reasons.push({ kind: "detached-for-surge" });
  return reasons;
}
function selectSelfManaged(live, target, input) {
  return selectWith(live, input, (i) => instanceReasons(i, target));
}
function staleWarmPool(live, target, roll2) {
  if (!roll2.drainAndTerminate) return [];
  return (live.warmPool ?? []).filter(
    (i) => instanceReasons(i, target).some((r) => r.kind === "launch-template")
  );
}
function launchTemplateChange(group3, live) {
  const lt = live.launchTemplate;
  const wanted2 = group3.target?.launchTemplateVersion;
  if (!lt || wanted2 === void 0 || String(wanted2) === lt.configured) return void 0;
  return { id: lt.id, version: String(wanted2) };
}
function selfManagedConfigChanges(group3, live, target, settings) {
  const lt = live.launchTemplate;
  const change = launchTemplateChange(group3, live);
  const stale = staleWarmPool(live, target, settings.roll);
  const versions2 = [...new Set(stale.map((i) => i.launchTemplateVersion ?? "?"))].join(", ");
  return [
    ...lt && change ? [
      {
        field: "launchTemplate.version",
        from: `${lt.configured} (${lt.resolved})`,
        to: `${change.version} (${target.launchTemplateVersion})`
      }
    ] : [],
    ...stale.length > 0 ? [
      {
        field: "warmPool",
        from: `${stale.length} instance${stale.length === 1 ? "" : "s"} on version ${versions2}`,
        to: `terminated first, refilled from ${target.launchTemplateVersion}`
      }
    ] : []
  ];
}

// src/kinds/self-managed/settings.ts
function resolveSelfManaged(policy, group3) {
  const w = writtenSettings(policy, group3);
  const notes2 = [];
  if (w.role === "control-plane" && w.merged.maxSurge !== void 0 && w.own.maxSurge === void 0)
    notes2.push("maxSurge from defaults does not apply: a control-plane group never surges");
  return { role: w.role, written: w, roll: rollSettings(w.merged), notes: notes2 };
}
function surgeBudget(s, facts) {
  if (s.role === "control-plane") return { surge: 0, text: "control-plane groups never surge" };
  const written = s.written.merged.maxSurge;
  const value = written ?? KOPS_DEFAULTS.maxSurge;
  const surge = resolveSurge(value, facts.size, facts.needUpdate);
  let text3 = written === void 0 ? "kOps default" : describeBudget(value, facts.size, "up", surge);
  if (surge < surgeOf(value, facts.size))
    text3 += `, capped at the ${facts.needUpdate} node${facts.needUpdate === 1 ? "" : "s"} that need update`;
  return { surge, text: text3 };
}
function unavailableText(value, resolved, surge, size) {
  if (value === void 0) return `kOps default when maxSurge is ${surge === 0 ? "0" : "not 0"}`;
  const atLeastOne = isPercent(value) && resolved === 1 && roundedDown(value, size) === 0;
  return describeBudget(value, size, "down", resolved) + (atLeastOne ? " (a percentage: at least 1)" : "");
}
function selfManagedBudgets(s, facts) {
  const { surge, text: text3 } = surgeBudget(s, facts);
  const written = s.written.merged.maxUnavailable;
  const value = written ?? defaultUnavailable(surge === 0);
  const unavailable = resolveUnavailable(value, facts.size);
  return {
    maxUnavailable: unavailable,
    maxSurge: surge,
    derivation: {
      maxUnavailable: unavailableText(written, unavailable, surge, facts.size),
      maxSurge: text3
    },
    spec: {
      maxUnavailable: String(written ?? "kOps default"),
      maxSurge: s.role === "control-plane" ? "none (control-plane)" : String(s.written.merged.maxSurge ?? "kOps default")
    }
  };
}

// src/kinds/self-managed/rollback.ts
function selfManagedVersions(live, replaced) {
  const counts = /* @__PURE__ */ new Map();
  for (const i of live.instances)
    if (replaced.has(i.id) && i.launchTemplateVersion !== void 0)
      counts.set(i.launchTemplateVersion, (counts.get(i.launchTemplateVersion) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0];
  return top ? { launchTemplateVersion: top[0] } : void 0;
}

// src/kinds/self-managed/index.ts
function notes(plan, _group, live) {
  const out = [];
  if (plan.settings && !plan.settings.drainAndTerminate)
    out.push(
      "drainAndTerminate is false: nodes are tainted (and surged) but not drained or terminated"
    );
  if (live.mixedInstances)
    out.push(
      "the group uses a mixed-instances policy; its launch template decides what is up to date"
    );
  return out;
}
var selfManagedKind = {
  id: "self-managed",
  // A node whose instance the roll detached for surge is in no Auto Scaling group any more: the
  // mark the roll put on it names the group (kinds/self-managed/roll.ts, detach).
  labelledGroup: (n2) => n2.metadata.labels?.[DETACHED_LABEL],
  // EC2 Auto Scaling tags every instance it launches with its group's name (the EC2 Auto
  // Scaling user guide, "Tag Auto Scaling groups and instances": aws:autoscaling:groupName).
  taggedGroup: (tags) => tags.find((t) => t.Key === "aws:autoscaling:groupName")?.Value,
  surgeAdvice: "lower maxSurge",
  drainTimeoutAdvice: "raise the group's drainTimeout above LONGEST, or shorten the pods' terminationGracePeriodSeconds (and preStop)",
  leavesUnreachable: true,
  pacesNoNode: true,
  versions: selfManagedVersions,
  rollbackRefusal: () => void 0,
  observe: observeSelfManaged,
  resolve: resolveSelfManaged,
  // EKS's update strategy means nothing to an Auto Scaling group noderoll rolls itself: its
  // surge is maxSurge.
  conflicts: (w) => w.own.updateStrategy === void 0 ? [] : [
    {
      key: "updateStrategy",
      message: "updateStrategy is EKS's, for a managed node group; a self-managed group surges by maxSurge (0 replaces nodes in place)"
    }
  ],
  budgets: selfManagedBudgets,
  target: selfManagedTarget,
  select: selectSelfManaged,
  configChanges: selfManagedConfigChanges,
  setup: (group3, live, settings) => {
    const lt = launchTemplateChange(group3, live);
    const target = selfManagedTarget(group3, live);
    const warm = staleWarmPool(live, target, settings.roll).map((i) => i.id);
    return {
      ...lt && { launchTemplate: lt },
      ...warm.length > 0 && { warmPool: { replace: warm } }
    };
  },
  schedule: selfManagedSchedule,
  findings: (live) => suspendedFindings(live),
  notes,
  roll: rollSelfManaged,
  release: (ctx, live) => restoreProcesses(ctx, live.name, live.suspendedByNoderoll ?? [])
};

// src/kinds/registry.ts
var KINDS = [managedKind, selfManagedKind];
function kindOf(live) {
  const id2 = typeof live === "string" ? live : live.kind;
  return KINDS.find((k) => k.id === id2);
}
async function observeGroups(input) {
  const out = [];
  let names2 = input.names;
  for (const kind of KINDS) {
    const found2 = await kind.observe({ ...input, names: names2 });
    const claimed = new Set(found2.map((g) => g.name));
    names2 = names2.filter((n2) => !claimed.has(n2));
    out.push(...found2);
  }
  return out;
}
function groupOfNode(groups2) {
  const byInstance = /* @__PURE__ */ new Map();
  for (const g of groups2) for (const i of g.instances) byInstance.set(i.id, g.name);
  return (n2) => {
    const id2 = instanceIdOf(n2);
    const read = id2 ? byInstance.get(id2) : void 0;
    if (read) return read;
    for (const kind of KINDS) {
      const named3 = kind.labelledGroup(n2);
      if (named3) return named3;
    }
    return void 0;
  };
}
function groupOfInstance(tags) {
  for (const kind of KINDS) {
    const named3 = kind.taggedGroup(tags);
    if (named3) return named3;
  }
  return void 0;
}

// src/roll/lease-record.ts
var ATTEMPTS3 = 5;
var absent = (e) => e instanceof KubeApiError && e.status === 404;
var lostAnswer = (e) => asNetworkError(e) !== void 0 || asNetworkError(e?.cause) !== void 0;
async function readLease(cluster, name) {
  return cluster.getLease(LEASE_NAMESPACE, name).catch((e) => {
    if (absent(e)) return void 0;
    throw e;
  });
}
async function rewriteAnnotation(cluster, name, annotation, change) {
  for (let attempt = 1; ; attempt++) {
    const current2 = await readLease(cluster, name);
    const was = current2?.metadata.annotations?.[annotation];
    const next = change(was);
    if (next === void 0 || next === was) return was;
    const annotations = { ...current2?.metadata.annotations, [annotation]: next };
    try {
      if (current2)
        await cluster.updateLease(LEASE_NAMESPACE, {
          ...current2,
          metadata: { ...current2.metadata, annotations }
        });
      else
        await cluster.createLease(LEASE_NAMESPACE, {
          metadata: { name, namespace: LEASE_NAMESPACE, annotations },
          spec: {}
        });
      return next;
    } catch (e) {
      const again = e instanceof KubeApiError && e.status === 409 || lostAnswer(e);
      if (!again || attempt >= ATTEMPTS3) throw e;
    }
  }
}

// src/roll/before.ts
var KINDS2 = ["managed", "self-managed"];
var BEFORE_ANNOTATION = "noderoll.io/before";
var beforeLeaseName = (cluster) => `${leaseName(cluster)}-rollback`;
var versions = (v) => {
  if (!v || typeof v !== "object") return void 0;
  const o = v;
  const s = (x) => typeof x === "string" && x.length <= 64 ? x : void 0;
  const lt = typeof o.launchTemplateVersion === "number" ? o.launchTemplateVersion : void 0;
  return {
    ...s(o.kubernetesVersion) && { kubernetesVersion: s(o.kubernetesVersion) },
    ...s(o.releaseVersion) && { releaseVersion: s(o.releaseVersion) },
    ...lt !== void 0 && Number.isInteger(lt) && lt >= 1 && { launchTemplateVersion: lt }
  };
};
function beforeOf(lease) {
  return parseBefore(lease?.metadata.annotations?.[BEFORE_ANNOTATION]);
}
function parseBefore(raw) {
  if (!raw) return {};
  let parsed;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {};
  }
  const out = {};
  for (const [group3, v] of Object.entries(parsed ?? {})) {
    const e = v;
    const from = versions(e?.from);
    const to = versions(e?.to);
    const kind = KINDS2.find((k) => k === e?.kind);
    if (!from || !to || !kind || Object.keys(from).length === 0) continue;
    const done = e.done;
    out[group3] = {
      kind,
      from,
      to,
      runId: String(e.runId ?? ""),
      at: String(e.at ?? ""),
      ...done && { done: { runId: String(done.runId ?? ""), at: String(done.at ?? "") } }
    };
  }
  return out;
}
async function readBefore(cluster, name) {
  return beforeOf(await readLease(cluster, beforeLeaseName(name)));
}
async function updateBefore(cluster, name, change) {
  const after = await rewriteAnnotation(
    cluster,
    beforeLeaseName(name),
    BEFORE_ANNOTATION,
    (raw) => {
      const next = change(parseBefore(raw));
      return next && JSON.stringify(next);
    }
  );
  return parseBefore(after);
}

// src/engine/rollback.ts
function recordBefore(groups2, live, current2, stamp) {
  const next = { ...current2 };
  let changed2 = false;
  for (const g of groups2) {
    const l = live.find((x) => x.name === g.name);
    if (!l || g.kind === "missing" || g.replacements.length === 0 || !g.target) continue;
    const to = targetOf(g);
    const had = current2[g.name];
    if (had && !had.done && sameVersions(had.to, to)) continue;
    const from = had && !had.done ? had.from : kindOf(l).versions(l, replacedOf(g));
    if (!from) continue;
    next[g.name] = { kind: l.kind, from, to, ...stamp };
    changed2 = true;
  }
  return changed2 ? next : void 0;
}
var replacedOf = (g) => new Set(g.replacements.map((r) => r.instance));
function targetOf(g) {
  if (!g.target) return void 0;
  return {
    ...g.target.kubernetesVersion && { kubernetesVersion: g.target.kubernetesVersion },
    ...g.target.releaseVersion && { releaseVersion: g.target.releaseVersion },
    ...g.target.launchTemplateVersion !== void 0 && {
      launchTemplateVersion: g.target.launchTemplateVersion
    }
  };
}
function recordDone(current2, g, stamp) {
  const had = current2[g.name];
  const to = targetOf(g);
  if (!had || had.done || !to || !sameVersions(had.to, to)) return void 0;
  return { ...current2, [g.name]: { ...had, done: stamp } };
}
async function noteBefore(ctx, cluster, runId, g, l) {
  const stamp = { runId, at: ctx.clock.now().toISOString() };
  await updateBefore(ctx.cluster, cluster, (c) => recordBefore([g], [l], c, stamp));
}
async function noteDone(ctx, cluster, runId, g) {
  const stamp = { runId, at: ctx.clock.now().toISOString() };
  try {
    await updateBefore(ctx.cluster, cluster, (c) => recordDone(c, g, stamp));
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    ctx.emit({
      type: "note",
      group: g.name,
      message: `${g.name}: its rollback record could not be marked done (${describeFailure(e)}); a rollback after a later halt of this roll may take it back too`
    });
  }
}
var sameVersions = (a, b) => a.kubernetesVersion === b.kubernetesVersion && a.releaseVersion === b.releaseVersion && a.launchTemplateVersion === b.launchTemplateVersion;
function refusal(b, now2) {
  return kindOf(b.kind).rollbackRefusal(b.from, now2 ?? b.to);
}
function rollbackGates(defaults, own, without) {
  const gates = { ...mergeGates(defaults, own), onFailure: "halt" };
  if (!without) return gates;
  const cut = without.indexOf("/");
  const [kind, name] = [without.slice(0, cut), without.slice(cut + 1)];
  return {
    ...gates,
    ...kind === "alarm" && { alarms: (gates.alarms ?? []).filter((a) => a !== name) },
    ...kind === "prometheus" && {
      prometheus: (gates.prometheus ?? []).filter((p) => p.name !== name)
    }
    // The built-in gate is not dropped: a rollback's own replacements must turn Ready too.
  };
}
function rollbackPolicy(policy, record2, o = {}) {
  const refused3 = [];
  const groups2 = policy.groups.flatMap((g) => {
    const b = record2[g.name];
    if (!b || o.only && !o.only.includes(g.name)) return [];
    if (o.ofRun !== void 0 && b.done && b.done.runId !== o.ofRun) return [];
    const why2 = refusal(b, o.now?.[g.name]);
    if (why2) {
      refused3.push({ group: g.name, why: why2 });
      return [];
    }
    const { from } = b;
    const target = {
      ...from.kubernetesVersion && { kubernetesVersion: from.kubernetesVersion },
      ...from.releaseVersion && { releaseVersion: from.releaseVersion },
      ...from.launchTemplateVersion !== void 0 && {
        launchTemplateVersion: from.launchTemplateVersion
      }
    };
    const gates = rollbackGates(policy.defaults?.gates, g.rollingUpdate?.gates, o.withoutGate);
    return [{ ...g, target, rollingUpdate: { ...g.rollingUpdate, gates } }];
  });
  return { policy: { ...policy, groups: groups2 }, refused: refused3 };
}

// src/roll/nodes.ts
var NodeCache = class extends Informer {
  byName = /* @__PURE__ */ new Map();
  nameOfInstance = /* @__PURE__ */ new Map();
  /**
   * Nodes in the order they joined the cache after its first list (a relist's new ones too):
   * what a reader that remembered `joins` has not seen yet (`joinedSince`).
   */
  joined = [];
  listed = false;
  /** A mark for `joinedSince`: how many nodes have joined so far. */
  get joins() {
    return this.joined.length;
  }
  /** The nodes that joined after `mark` (a value of `joins`) and are still here. */
  joinedSince(mark) {
    const nodes = [];
    for (let i = mark; i < this.joined.length; i++) {
      const n2 = this.byName.get(this.joined[i]);
      if (n2) nodes.push(n2);
    }
    return nodes;
  }
  byInstance(id2) {
    const name = this.nameOfInstance.get(id2);
    return name === void 0 ? void 0 : this.byName.get(name);
  }
  /** Cache `n`; `joins`: it is new to the cache (a watch runs only after the first list). */
  put(n2, joins = !this.byName.has(n2.metadata.name)) {
    if (joins) this.joined.push(n2.metadata.name);
    this.byName.set(n2.metadata.name, n2);
    const id2 = instanceIdOf(n2);
    if (id2) this.nameOfInstance.set(id2, n2.metadata.name);
  }
  remove(n2) {
    this.byName.delete(n2.metadata.name);
    const id2 = instanceIdOf(n2);
    if (id2 && this.nameOfInstance.get(id2) === n2.metadata.name) this.nameOfInstance.delete(id2);
  }
  list() {
    return listAll((cont) => this.ctx.cluster.listNodes(pageOf(cont)));
  }
  watch(opts) {
    return this.ctx.cluster.watchNodes(opts);
  }
  reset(items) {
    const before = this.listed ? new Set(this.byName.keys()) : void 0;
    this.byName.clear();
    this.nameOfInstance.clear();
    for (const n2 of items) this.put(n2, before !== void 0 && !before.has(n2.metadata.name));
    this.listed = true;
  }
  apply(e) {
    if (e.type === "DELETED") this.remove(e.object);
    else this.put(e.object);
  }
};

// src/engine/plan.ts
var runOptions = (o) => ({
  replaceAll: o.replaceAll ?? false,
  deleteAfterDrainTimeout: o.deleteAfterDrainTimeout ?? false,
  ...o.groups && { groups: o.groups }
});
var forceSplit = (flag) => `${flag("force")} meant three things and was split: ${flag("replace-all")} replaces every node of the groups whatever its version (kOps' --force); ${flag("delete-after-drain-timeout")} deletes what a drain leaves at its timeout, past PodDisruptionBudgets (EKS's force); pods with no controller are evicted as kOps drains them, unless the policy says unmanagedPods: refuse (kubectl drain's --force)`;
var forced = (o) => Boolean(o.replaceAll || o.deleteAfterDrainTimeout);
function podsOnReplaced(replacements, pods) {
  const out = /* @__PURE__ */ new Map();
  for (const r of replacements) if (r.node && !out.has(r.node)) out.set(r.node, pods.on(r.node));
  return out;
}
function context(policy, snapshot, options, memo) {
  const nodesByInstance = /* @__PURE__ */ new Map();
  for (const n2 of snapshot.nodes) if (n2.instanceId) nodesByInstance.set(n2.instanceId, n2);
  const unhealthy = unhealthyZones(snapshot.nodes);
  return { policy, snapshot, options, memo, nodesByInstance, unhealthyZones: unhealthy };
}
function settingsOf(ctx, kind, group3) {
  const key = `${kind.id}\0${group3.name}`;
  let s = ctx.memo.get(key);
  if (!s) {
    s = kind.resolve(ctx.policy, group3);
    ctx.memo.set(key, s);
  }
  return s;
}
function missingGroup(group3, role, snapshot) {
  const names2 = snapshot.knownGroups ?? snapshot.groups.map((g) => g.name).sort();
  const guess = closest(group3.name, names2);
  const shown = names2.slice(0, 20).join(", ") + (names2.length > 20 ? ", …" : "");
  const hint = (guess ? `; did you mean "${guess}"?` : "") + (names2.length > 0 ? ` It has: ${shown}` : "");
  return {
    name: group3.name,
    kind: "missing",
    role,
    status: "error",
    nodes: 0,
    configChanges: [],
    replacements: [],
    cleanup: [],
    budgets: { maxUnavailable: 0, maxSurge: 0, derivation: { maxUnavailable: "", maxSurge: "" } },
    schedule: NO_SCHEDULE,
    findings: [],
    notes: [],
    errors: [
      `cluster ${snapshot.cluster.name} has no EKS managed node group or Auto Scaling group named "${group3.name}"${hint}`
    ]
  };
}
function statusOf(p) {
  if (p.errors.length > 0) return "error";
  if (p.replacements.length > 0)
    return p.findings.some((f) => f.severity === "blocker") ? "blocked" : "roll";
  if (p.configChanges.length > 0) return "config-only";
  return p.cleanup.length > 0 ? "cleanup" : "no-change";
}
function groupErrors(ctx, kind, settings, live) {
  const errors = kind.conflicts(settings.written).map((e) => `rollingUpdate.${e.key}: ${e.message}`);
  const { cluster, takenAt } = ctx.snapshot;
  const foreign = groupNotOfCluster(live, cluster.name, ctx.nodesByInstance, takenAt);
  return foreign ? [...errors, foreign] : errors;
}
var withRun = (roll2, run) => ({
  ...roll2,
  deleteAfterDrainTimeout: roll2.deleteAfterDrainTimeout || run.deleteAfterDrainTimeout
});
function planGroup(ctx, group3, role, live) {
  const { snapshot, options } = ctx;
  const kind = kindOf(live);
  const settings = settingsOf(ctx, kind, group3);
  const run = runOptions(options);
  const roll2 = withRun(settings.roll, run);
  const members = liveInstances(live).filter((i) => !i.detachedForSurge).length;
  const target = kind.target(group3, live, snapshot);
  const replacements = kind.select(live, target, {
    nodesByInstance: ctx.nodesByInstance,
    now: snapshot.takenAt,
    replaceAll: run.replaceAll,
    ...roll2.maxNodeAgeMs !== void 0 && { maxNodeAgeMs: roll2.maxNodeAgeMs }
  });
  const size = Math.max(live.desired, members);
  const podsByNode2 = podsOnReplaced(replacements, snapshot.pods);
  const nodes = [...podsByNode2.values()];
  const budgets = kind.budgets(settings, { size, needUpdate: replacements.length }, live);
  const schedule = kind.schedule(live, {
    replacements,
    upToDate: members - replacements.filter((r) => !isDetached(r)).length,
    zones: live.zones,
    settings: roll2,
    budgets,
    podsByNode: podsByNode2,
    now: snapshot.takenAt,
    pdbs: snapshot.pdbs,
    leavesUnreachable: kind.leavesUnreachable,
    ...roll2.deleteAfterDrainTimeout && { holds: drainHolds(nodes, snapshot) }
  });
  const findings = replacements.length > 0 ? preflight({
    group: live,
    nodes,
    snapshot,
    deleteAfterDrainTimeout: roll2.deleteAfterDrainTimeout,
    unmanagedPods: roll2.unmanagedPods,
    surge: schedule.surge,
    maxUnavailable: budgets.maxUnavailable,
    surgeAdvice: kind.surgeAdvice,
    groupFindings: kind.findings(live, schedule.surge, target, roll2),
    drainTimeoutMs: roll2.drainTimeoutMs,
    drainTimeoutAdvice: kind.drainTimeoutAdvice,
    leavesUnreachable: kind.leavesUnreachable,
    pacesNoNode: kind.pacesNoNode,
    replacements,
    unhealthyZones: ctx.unhealthyZones
  }) : [];
  const plan = {
    name: group3.name,
    kind: kind.id,
    role,
    status: "no-change",
    nodes: members,
    configChanges: kind.configChanges(group3, live, target, settings),
    // In the order apply takes them: decided here, once (the schedule's waves).
    replacements: inWaveOrder(schedule, replacements),
    cleanup: marksLeft(
      live,
      snapshot.nodes,
      new Set(replacements.flatMap((r) => r.node ? [r.node, r.instance] : [r.instance]))
    ),
    budgets: { ...budgets, maxSurge: schedule.surge },
    schedule,
    findings,
    notes: [],
    errors: groupErrors(ctx, kind, settings, live),
    settings: roll2,
    target,
    ...kind.setup(group3, live, settings)
  };
  plan.status = statusOf(plan);
  plan.notes = [...settings.notes, ...kind.notes(plan, group3, live, snapshot)];
  return plan;
}
function buildPlan(policy, file, snapshot, options = {}, memo = /* @__PURE__ */ new Map()) {
  const wanted2 = options.groups ? new Set(options.groups) : void 0;
  const ctx = context(policy, snapshot, options, memo);
  const ordered = orderGroups(
    policy.groups.map((g) => ({ ...g, role: g.role ?? "node" })),
    policy.order
  );
  const groups2 = ordered.filter((g) => !wanted2 || wanted2.has(g.name)).map((g) => {
    const live = snapshot.groups.find((l) => l.name === g.name);
    return live ? planGroup(ctx, g, g.role, live) : missingGroup(g, g.role, snapshot);
  });
  return {
    schemaVersion: 1,
    policy: { name: policy.metadata.name, file },
    cluster: snapshot.cluster,
    takenAt: snapshot.takenAt.toISOString(),
    options: runOptions(options),
    ...policy.window && { window: planWindow(policy.window, snapshot.takenAt) },
    summary: summarize(groups2),
    groups: groups2
  };
}

// src/engine/verify.ts
var NAME_AT_MOST = 100;
async function whose(cloud, api, except) {
  const names2 = (await cloud.eks.listClusters()).filter((n2) => n2 !== except);
  const described4 = await mapLimit(
    names2.slice(0, NAME_AT_MOST),
    CONCURRENCY,
    (n2) => cloud.eks.describeCluster(n2).catch(() => void 0)
  );
  return described4.find((c) => c && proveByEndpoint(c, api))?.name;
}
function mismatch(policy, eks, api, other, evidence) {
  const { name, region } = policy.cluster;
  const at5 = api ? `The Kubernetes API at ${api.server}` : "The Kubernetes API this run reads";
  const theirs = other ? `it is EKS cluster ${other}'s` : api ? `it is no EKS cluster of this account and region that noderoll can name${api.insecure ? " (its TLS is not verified)" : ""}` : "";
  const expected = eks.endpoint ? ` (DescribeCluster ${name}: endpoint ${eks.endpoint})` : "";
  const nodes = `${evidence.found} of the ${evidence.judged} instances of the policy's groups ${evidence.found === 1 ? "is a node" : "are nodes"} there`;
  return new RollError(
    "ClusterMismatch",
    `${at5} is not EKS cluster ${name}'s${expected}${theirs ? `: ${theirs}` : ""}; ${nodes}. Nothing was planned or changed. Use a kubeconfig for ${name} (aws eks update-kubeconfig --name ${name} --region ${region}), or none: noderoll then reaches ${name} through EKS itself`
  );
}
async function verifyCluster(policy, ports, input) {
  const api = ports.cluster.endpoint;
  const proven = proveByEndpoint(input.eks, api);
  if (proven) return proven;
  const evidence = instanceEvidence(input.groups, input.nodes, input.now, policy.cluster.name);
  const other = api ? await whose(ports.cloud, api, policy.cluster.name) : void 0;
  const byNodes = other ? void 0 : proveByNodes(api, evidence);
  if (byNodes) return byNodes;
  throw mismatch(policy, input.eks, api, other, evidence);
}

// src/engine/observe.ts
function podCapacity(n2) {
  const pods = Number(n2.status.allocatable?.pods ?? n2.status.capacity?.pods);
  return Number.isFinite(pods) && pods >= 0 ? pods : DEFAULT_MAX_PODS;
}
async function observe(policy, ports, onProgress) {
  let listed2 = 0;
  const [eksCluster, nodes] = await Promise.all([
    ports.cloud.eks.describeCluster(policy.cluster.name),
    listAll(async (cont) => {
      const page = await ports.cluster.listNodes(pageOf(cont));
      listed2 += page.items.length;
      const last = !page.metadata.continue;
      onProgress?.({ phase: "nodes", done: listed2, ...last && { total: listed2 } });
      return page;
    }).then((r) => r.items)
  ]);
  const now2 = ports.clock.now();
  const total = policy.groups.length;
  onProgress?.({ phase: "groups", done: 0, total });
  const groups2 = await observeGroups({
    clusterName: policy.cluster.name,
    names: policy.groups.map((g) => g.name),
    cloud: ports.cloud,
    nodes,
    now: now2
  });
  const verified = await verifyCluster(policy, ports, { eks: eksCluster, nodes, groups: groups2, now: now2 });
  const latest = await latestReleases(policy, ports, eksCluster.version, groups2);
  onProgress?.({ phase: "groups", done: total, total });
  const groupOf = groupOfNode(groups2);
  const known = await knownGroups(policy, ports, groups2, nodes);
  return {
    ...known && { knownGroups: known },
    cluster: {
      name: policy.cluster.name,
      region: policy.cluster.region,
      version: eksCluster.version,
      verified
    },
    takenAt: now2,
    groups: groups2,
    latestReleaseVersions: latest,
    nodes: nodes.map((n2) => nodeInfo(n2, groupOf)),
    pods: nodePods([]),
    pdbs: [],
    workloads: [],
    clusterNodeCount: nodes.length,
    clusterPodCapacity: nodes.reduce((n2, node) => n2 + podCapacity(node), 0)
  };
}
async function latestReleases(policy, ports, clusterVersion, groups2) {
  const versions2 = /* @__PURE__ */ new Set([clusterVersion]);
  for (const g of policy.groups)
    if (g.target?.kubernetesVersion) versions2.add(g.target.kubernetesVersion);
  for (const g of groups2) if ("version" in g) versions2.add(g.version);
  const read = ports.cloud.eks.latestReleaseVersions?.([...versions2].sort()) ?? Promise.resolve({});
  const needed = policy.groups.some((g) => g.target?.releaseVersion === "latest");
  return needed ? read : read.catch(() => ({}));
}
var GROUP_LABELS = [
  "eks.amazonaws.com/nodegroup",
  "alpha.eksctl.io/nodegroup-name",
  "kops.k8s.io/instancegroup"
];
async function knownGroups(policy, ports, groups2, nodes) {
  const found2 = new Set(groups2.map((g) => g.name));
  if (policy.groups.every((g) => found2.has(g.name))) return void 0;
  const managed = await ports.cloud.eks.listNodegroups(policy.cluster.name).catch(() => []);
  const labelled = nodes.flatMap(
    (n2) => GROUP_LABELS.flatMap((k) => n2.metadata.labels?.[k] ? [n2.metadata.labels[k]] : [])
  );
  return [.../* @__PURE__ */ new Set([...managed, ...labelled, ...found2])].sort();
}
var Planner = class {
  constructor(policy, file, options = {}, readPath2, replans = true) {
    this.policy = policy;
    this.file = file;
    this.options = options;
    this.readPath = readPath2;
    this.owners = new OwnerCache(replans);
  }
  policy;
  file;
  options;
  readPath;
  memo = /* @__PURE__ */ new Map();
  owners;
  plan(snapshot, groups2 = this.options.groups) {
    const options = { ...this.options, ...groups2 && { groups: groups2 } };
    return buildPlan(this.policy, this.file, snapshot, options, this.memo);
  }
  /**
   * Observe and plan the policy's groups (or only `groups`); reading reports to `onProgress`.
   * With the run's `signal`, a cancelled run stops reading at once instead of retrying into
   * closed ports.
   */
  async observe(ports, groups2 = this.options.groups, onProgress) {
    const clock2 = ports.clock;
    const options = ports.signal ? { signal: ports.signal } : {};
    const p = {
      cloud: resilient(ports.cloud, clock2, options),
      cluster: resilient(ports.cluster, clock2, options),
      clock: clock2
    };
    const base = await observe(this.policy, p, onProgress);
    const draft = this.plan(base, groups2);
    const nodes = draft.groups.flatMap(
      (g) => g.replacements.flatMap((r) => r.node ? [r.node] : [])
    );
    const snapshot = await addWorkloads(
      base,
      nodes,
      p.cluster,
      onProgress,
      this.owners,
      this.readPath
    );
    return { plan: this.plan(snapshot, groups2), snapshot };
  }
};

// src/engine/owners.ts
var TAGGED = new RunPart("instance groups");
var CONTROL_PLANE_LABELS = [
  "node-role.kubernetes.io/control-plane",
  "node-role.kubernetes.io/master"
];
var IDS_PER_CALL = 500;
async function described3(ctx, ids) {
  try {
    return await ctx.cloud.ec2.describeInstances({ InstanceIds: ids });
  } catch (e) {
    if (!(e instanceof AwsApiError) || !e.code.startsWith("InvalidInstanceID")) throw e;
    if (ids.length === 1) return [];
    const out = [];
    for (const id2 of ids) out.push(...await described3(ctx, [id2]));
    return out;
  }
}
function nodeOwners(ctx, groups2, policy) {
  const placed = groupOfNode(groups2);
  const tagged = ctx.state.of(TAGGED, () => /* @__PURE__ */ new Map());
  const controlPlane = new Set(
    policy.groups.filter((g) => g.role === "control-plane").map((g) => g.name)
  );
  const groupOf = (n2) => {
    const group3 = placed(n2);
    if (group3) return group3;
    const id2 = instanceIdOf(n2);
    return id2 && tagged.get(id2) || void 0;
  };
  const ownerOf = (n2) => {
    const group3 = groupOf(n2);
    const labels = n2.metadata.labels ?? {};
    const cp = group3 && controlPlane.has(group3) || CONTROL_PLANE_LABELS.some((l) => l in labels);
    return { ...group3 && { group: group3 }, ...cp && { controlPlane: true } };
  };
  const learnOwners = async (nodes) => {
    const ids = [...nodes].filter((n2) => !hasReadyCondition(n2.status.conditions) && !groupOf(n2)).flatMap((n2) => instanceIdOf(n2) ?? []).filter((id2) => !tagged.has(id2));
    for (let i = 0; i < ids.length; i += IDS_PER_CALL) {
      const batch = ids.slice(i, i + IDS_PER_CALL);
      for (const id2 of batch) tagged.set(id2, null);
      for (const inst of await described3(ctx, batch))
        tagged.set(inst.InstanceId, groupOfInstance(inst.Tags) ?? null);
    }
  };
  return { ownerOf, learnOwners };
}

// src/engine/in-flight.ts
var workOf = (w) => kindOf(w.kind)?.inFlight;
function othersWork(lock, name, groups2) {
  const out = lock.inFlight.filter((w) => w.group !== name);
  for (const g of groups2) {
    if (g.name === name) continue;
    const w = kindOf(g).inFlight?.ongoing(g);
    if (w && !out.some((x) => sameWork(x, w))) out.push(w);
  }
  return out;
}
async function settleInFlight(ctx, run, name, groups2) {
  const { lock, policy } = run;
  const works = othersWork(lock, name, groups2);
  for (const w of works) {
    const work = workOf(w);
    if (work) {
      const what = work.describe(policy.cluster, w);
      ctx.emit({ type: "wait.start", group: name, what });
      ctx.emit({ type: "note", group: name, message: `waiting before ${name}: ${what}` });
      await work.awaitEnd(ctx, policy.cluster.name, w, run.stopReason);
      ctx.emit({ type: "wait.end", group: name });
      ctx.emit({ type: "note", group: name, message: `${w.group}: its update is over` });
    }
    await lock.untrack(w);
  }
  return works.length > 0;
}
async function resolvePending(lock, cloud, cluster) {
  for (const w of lock.inFlight.filter((x) => x.id === PENDING)) {
    const work = workOf(w);
    lock.amend(w, work ? await work.resolve(cloud, cluster, w).catch(() => w) : void 0);
  }
}
function stillGoing(lock, cluster) {
  const lines = lock.inFlight.flatMap((w) => {
    const d = workOf(w)?.describe(cluster, w);
    return d ? [d] : [];
  });
  return lines.length > 0 ? ` ${lines.join(". ")}.` : "";
}

// src/engine/context.ts
var RETRY_NOTE_EVERY_MS = 5 * 6e4;
function retryNotes(clock2, log) {
  const last = /* @__PURE__ */ new Map();
  return (info) => {
    const key = `${info.api}/${info.why}`;
    const now2 = clock2.now().getTime();
    if (now2 - (last.get(key) ?? -Infinity) < RETRY_NOTE_EVERY_MS) return;
    last.set(key, now2);
    const what = info.why === "throttled" ? `throttled ${info.call} (${info.error instanceof KubeApiError ? "429 TooManyRequests, API Priority and Fairness" : "ThrottlingException"}); not a PodDisruptionBudget's refusal` : info.why === "busy" ? `refused ${info.call} for now (${info.error.code ?? "busy"})` : `gave no answer to ${info.call} (${info.error.message})`;
    log.emit({
      type: "note",
      message: `${info.api} ${what}; retrying in ${Math.round(info.waitMs / 1e3)} s (attempt ${info.attempts})`
    });
  };
}
function rollContext(ports, log, options, signal) {
  const start = ports.clock.now();
  const onRetry = retryNotes(ports.clock, log);
  return {
    cloud: resilient(ports.cloud, ports.clock, { signal, onRetry }),
    cluster: resilient(ports.cluster, ports.clock, { signal, onRetry }),
    clock: ports.clock,
    ...ports.metrics && { metrics: resilient(ports.metrics, ports.clock, { signal, onRetry }) },
    emit: log.emit,
    signal,
    state: new RunState(),
    ...options.maxDurationMs !== void 0 && {
      deadline: new Date(start.getTime() + options.maxDurationMs)
    }
  };
}

// src/engine/contract.ts
function checkCovers(policy, plan) {
  const order = plan.groups.map((g) => g.name);
  const wanted2 = plan.options.groups ? new Set(plan.options.groups) : void 0;
  const named3 = orderGroups(
    policy.groups.map((g) => ({ ...g, role: g.role ?? "node" })),
    policy.order
  ).map((g) => g.name).filter((n2) => !wanted2 || wanted2.has(n2));
  const stale = [
    ...plan.cluster.name !== policy.cluster.name ? [
      {
        decision: "group",
        detail: `the plan is cluster ${plan.cluster.name}'s, the policy ${policy.cluster.name}'s`
      }
    ] : [],
    ...named3.filter((n2) => !order.includes(n2)).map((n2) => ({
      decision: "group",
      detail: `${n2} is in the policy, not in the plan`
    })),
    ...order.filter((n2) => !named3.includes(n2)).map((n2) => ({
      decision: "group",
      detail: `${n2} is in the plan, not in the policy`
    }))
  ];
  if (named3.join() !== order.join() && stale.length === 0)
    stale.push({
      decision: "group",
      detail: `the plan's order ${order.join(", ")} is not the policy's ${named3.join(", ")}`
    });
  if (stale.length > 0) throw new StalePlan(void 0, stale);
}
function carriedOut(plan, fresh) {
  const planned = plan.groups.find((g) => g.name === fresh.name);
  const stale = staleDecisions(planned, fresh);
  if (stale.length > 0) throw new StalePlan(fresh.name, stale);
  const now2 = new Map(fresh.replacements.map((r) => [r.instance, r]));
  const inPlan = planned.replacements.flatMap((r) => now2.get(r.instance) ?? []);
  const known = new Set(planned.replacements.map((r) => r.instance));
  const joined = fresh.replacements.filter((r) => !known.has(r.instance));
  return { ...fresh, replacements: [...inPlan, ...joined] };
}
var EVICTION_BLOCKERS = /* @__PURE__ */ new Set([
  "pdb-blocks",
  "multiple-pdbs",
  "tolerates-everything",
  "stuck-terminating",
  "unmanaged-pods",
  "grace-exceeds-drain-timeout"
]);
function readyPlan(plan, live) {
  if (!live || !plan.settings || !plan.target || plan.status === "error")
    throw new RollError("UpdateFailed", plan.errors.join("; ") || `group ${plan.name} not found`);
  if (plan.status === "blocked") {
    const blockers2 = plan.findings.filter((f) => f.severity === "blocker").map((f) => f.message);
    const evictions = plan.findings.some(
      (f) => f.severity === "blocker" && EVICTION_BLOCKERS.has(f.code)
    );
    throw new RollError(
      evictions ? "PodEvictionFailure" : "UpdateFailed",
      `not started, it would fail: ${blockers2.join("; ")}`
    );
  }
  return plan;
}

// src/engine/apply.ts
function stopReason(run) {
  const { ctx, policy, options } = run;
  if (ctx.signal.aborted) return run.abortedBy ?? { kind: "cancelled" };
  if (run.lock.request) return stopOf(run.lock.request);
  const now2 = ctx.clock.now();
  if (ctx.deadline && now2 >= ctx.deadline) return { kind: "deadline", at: now2.toISOString() };
  if (policy.window && !options.ignoreWindow && !isWindowOpen(policy.window, now2)) {
    const next = nextWindowOpening(policy.window, now2);
    return {
      kind: "window-closed",
      ...next && {
        nextOpening: next.toISOString(),
        nextOpeningLocal: wallClock(next, policy.window.timeZone)
      }
    };
  }
  return void 0;
}
async function rollGroup(run, name) {
  const { ctx, policy, nodes } = run;
  let seen3 = await run.planner.observe(ctx, [name]);
  const others = { ...run, stopReason: () => stopReason(run) };
  if (await settleInFlight(ctx, others, name, seen3.snapshot.groups))
    seen3 = await run.planner.observe(ctx, [name]);
  const { snapshot } = seen3;
  const live = snapshot.groups.find((g) => g.name === name);
  if (reachedAlready(run, name, live)) return;
  const plan = carriedOut(run.plan, seen3.plan.groups[0]);
  ctx.emit({
    type: "group.start",
    group: name,
    kind: plan.kind,
    nodes: plan.nodes,
    replace: plan.replacements.length
  });
  let ready;
  try {
    ready = readyPlan(plan, live);
  } catch (e) {
    if (live) await kindOf(live).release?.(ctx, live);
    throw e;
  }
  if (!run.options.rollback && plan.replacements.length > 0)
    await noteBefore(ctx, policy.cluster.name, run.options.runId, plan, live);
  const { owners: owners2, moving } = await clearLeftMarks(run, plan, snapshot);
  const at5 = ctx.clock.now().getTime();
  await kindOf(live).roll(ctx, {
    plan: ready,
    live,
    cluster: policy.cluster.name,
    runId: run.options.runId,
    nodes,
    ...owners2,
    stopReason: () => stopReason(run),
    track: (w) => run.lock.track(w),
    untrack: (w) => run.lock.untrack(w),
    toMove: () => plannedMoves(snapshot.pods, [...moving], at5)
  });
  if (plan.replacements.length === 0) saidCleared(ctx, plan);
}
function reachedAlready(run, name, live) {
  const planned = run.plan.groups.find((g) => g.name === name);
  if (!live || !planned || !kindOf(live).reachedTarget?.(planned, live)) return false;
  const { ctx } = run;
  ctx.emit({
    type: "group.start",
    group: name,
    kind: planned.kind,
    nodes: planned.nodes,
    replace: 0
  });
  ctx.emit({
    type: "note",
    group: name,
    message: `${name}: at the plan's target already (an earlier run's update, or another's): nothing left to do`
  });
  return true;
}
async function clearLeftMarks(run, plan, snapshot) {
  const { ctx, nodes, policy } = run;
  const live = snapshot.groups.find((g) => g.name === plan.name);
  const owners2 = nodeOwners(ctx, snapshot.groups, policy);
  const groupNodes = [...nodes.byName.values()].filter(
    (n2) => owners2.ownerOf(n2).group === plan.name
  );
  const moving = new Set(plan.replacements.flatMap((r) => r.node ? [r.node] : []));
  const members = new Set(live?.instances.filter((i) => !i.detachedForSurge).map((i) => i.id));
  await clearStaleMarks(ctx, moving, groupNodes, members);
  if (plan.replacements.length === 0) await releaseScaleDown(ctx, groupNodes);
  return { owners: owners2, moving };
}
function saidCleared(ctx, plan) {
  if (plan.cleanup.length === 0) return;
  ctx.emit({
    type: "note",
    group: plan.name,
    message: `${plan.name}: cleared the marks an earlier run left (${cleanupMarks(plan.cleanup)})`
  });
}
async function clearOutsideWindow(run, order) {
  for (const name of order) {
    const { plan: planned, snapshot } = await run.planner.observe(run.ctx, [name]);
    const plan = planned.groups[0];
    const live = snapshot.groups.find((g) => g.name === name);
    if (plan.status !== "cleanup" || !live) continue;
    await clearLeftMarks(run, plan, snapshot);
    await kindOf(live).release?.(run.ctx, live);
    saidCleared(run.ctx, plan);
  }
}
var cleanupMarks = (cleanup) => cleanup.map((c) => `${c.mark} on ${c.objects.length}`).join("; ");
async function rollGroups(run, order) {
  const { ctx } = run;
  for (const name of order) {
    const stop = stopReason(run);
    if (stop) throw new Stopped(stop, `group ${name} and after it left for the next run`);
    try {
      await rollGroup(run, name);
      for (const w of run.lock.inFlight.filter((x) => x.group === name)) await run.lock.untrack(w);
      const planned = run.plan.groups.find((g) => g.name === name);
      if (!run.options.rollback && planned)
        await noteDone(ctx, run.policy.cluster.name, run.options.runId, planned);
      ctx.emit({ type: "group.end", group: name, result: "success" });
    } catch (e) {
      const cancelled = ctx.signal.aborted || e instanceof Stopped;
      if (!cancelled)
        run.left = notStartedAfter(run.plan.groups, order.indexOf(name)).map((g) => g.name);
      ctx.emit({
        type: "group.end",
        group: name,
        result: cancelled ? "cancelled" : "failure",
        message: e.message
      });
      throw e;
    }
  }
}
function notStarted(e, signal) {
  return outcomeOf(e, signal ?? new AbortController().signal);
}
function outcomeOf(e, signal, abortedBy, left2 = [], policyFile) {
  const code = e instanceof RollError ? e.code : void 0;
  if (signal.aborted) {
    const stop = abortedBy ?? { kind: "cancelled" };
    const where = code && !(e instanceof Stopped) ? ` (${e.message})` : "";
    return {
      result: resultOfStop(stop),
      stop,
      message: `Cancelled: ${describeStop(stop)}${where}; what was in flight was abandoned, leaving only marks the next run resumes from. Run apply again to continue: it picks up where this run stopped.`
    };
  }
  const text3 = (e instanceof RollError ? e.message : describeFailure(e)).replace(/\.?$/, ".");
  if (e instanceof Stopped)
    return {
      result: resultOfStop(e.stop),
      stop: e.stop,
      message: `${e.code}: ${text3} ${howToContinue(e.stop, policyFile)}`
    };
  const after = left2.length > 0 ? ` Not started after it: ${left2.join(", ")} (apply stops at the first group that fails).` : "";
  return {
    result: "failure",
    message: `${code ? `${code}: ` : ""}${text3}${after}`,
    ...e instanceof GateFailed && {
      halted: { group: e.group, gate: e.gate, verdict: e.verdict }
    }
  };
}
async function verifyBeforeLock(policy, ctx) {
  const eks = await ctx.cloud.eks.describeCluster(policy.cluster.name);
  if (proveByEndpoint(eks, ctx.cluster.endpoint)) return;
  await observe(policy, ctx);
}
var SETTLE_MS = 3e3;
async function settlePending(lock, ports, cluster) {
  if (!lock.inFlight.some((w) => w.id === PENDING)) return;
  const timer = new AbortController();
  const cloud = resilient(ports.cloud, ports.clock, {
    callTimeoutMs: SETTLE_MS,
    signal: timer.signal
  });
  await Promise.race([
    resolvePending(lock, cloud, cluster).catch(() => void 0),
    ports.clock.sleep(SETTLE_MS, timer.signal).catch(() => void 0)
  ]);
  timer.abort();
}
var RELEASE_MS = 5e3;
async function release(lock, ports, log) {
  const clock2 = ports.clock;
  const timer = new AbortController();
  const cluster = resilient(ports.cluster, clock2, {
    callTimeoutMs: RELEASE_MS,
    signal: timer.signal
  });
  const holder = lock.me.holder;
  const outcome2 = await Promise.race([
    lock.release(cluster).then(
      (released) => released ? "released" : "no longer this run's",
      (e) => describeFailure(e)
    ),
    clock2.sleep(RELEASE_MS, timer.signal).then(
      () => `no answer within ${RELEASE_MS / 1e3} s`,
      () => "stopped"
    )
  ]);
  timer.abort();
  if (outcome2 === "released") log.emit({ type: "lock.release", holder });
  else if (outcome2 === "no longer this run's")
    log.emit({
      type: "note",
      message: "the cluster lock was no longer this run's: nothing to give back"
    });
  else
    log.emit({
      type: "lock.kept",
      holder,
      why: `${outcome2}: the action's post step gives it back; otherwise it frees itself once unchanged for ${LEASE_DURATION_SECONDS} s`
    });
}
async function apply(policy, plan, ports, log, options) {
  const lockLost = new AbortController();
  const signal = AbortSignal.any([options.signal ?? new AbortController().signal, lockLost.signal]);
  const ctx = rollContext(ports, log, options, signal);
  const planner = options.planner ?? new Planner(policy, plan.policy.file, plan.options);
  const order = plan.groups.map((g) => g.name);
  ctx.emit({
    type: "roll.start",
    cluster: policy.cluster.name,
    policy: policy.metadata.name,
    groups: order,
    replaceAll: plan.options.replaceAll,
    deleteAfterDrainTimeout: plan.options.deleteAfterDrainTimeout,
    ...options.reason && { reason: options.reason },
    ...options.runUrl && { run: options.runUrl },
    ...options.rollback && { rollback: true }
  });
  const holder = holderIdentity(options.runId);
  const lost = (why2) => {
    ctx.emit({ type: "note", message: `${why2}: stopping everything in flight` });
    run.abortedBy = { kind: "lock-lost", why: why2 };
    lockLost.abort();
  };
  const lock = new ClusterLock(
    ctx,
    policy.cluster.name,
    holder,
    options.runUrl,
    lost,
    ports.cluster
  );
  const run = { ctx, policy, plan, options, planner, nodes: new NodeCache(ctx), lock };
  let outcome2 = { result: "success", message: doneMessage(plan) };
  let locked = false;
  try {
    checkCovers(policy, plan);
    await verifyBeforeLock(policy, ctx);
    await lock.acquire(options.lockWaitMs ?? 0);
    locked = true;
    await rollHeld(run, order);
  } catch (e) {
    outcome2 = outcomeOf(e, signal, run.abortedBy, run.left, plan.policy.file);
  } finally {
    await wrapUp(run, ports, log, locked ? outcome2 : void 0);
    ctx.emit({
      type: "roll.end",
      result: outcome2.result,
      message: outcome2.message,
      ...outcome2.stop && { stop: outcome2.stop }
    });
  }
  return outcome2;
}
function doneMessage(plan) {
  const n2 = (k, what) => `${k} group${k === 1 ? "" : "s"}${what}`;
  const configured = reachedGroups(plan.groups).filter((g) => g.status === "config-only").length;
  const cleared = plan.summary.cleanups ?? 0;
  return `${n2(plan.summary.groupsToRoll, " rolled")}${configured > 0 ? `, ${n2(configured, " reconfigured")}` : ""}${cleared > 0 ? `, marks cleared on ${n2(cleared, "")}` : ""}`;
}
async function rollHeld(run, order) {
  const stop = stopReason(run);
  await run.nodes.start();
  if (!stop) return rollGroups(run, order);
  if (!run.ctx.signal.aborted && !byRequest(stop)) await clearOutsideWindow(run, order);
  throw new Stopped(stop, "nothing was started");
}
async function wrapUp(run, ports, log, outcome2) {
  const { ctx, lock, policy } = run;
  await run.nodes.close();
  await ctx.state.close();
  if (!outcome2) return;
  if (outcome2.result !== "success") {
    await settlePending(lock, ports, policy.cluster.name);
    outcome2.message += stillGoing(lock, policy.cluster);
  }
  await release(lock, ports, log);
}

// src/app/read-progress.ts
var n = (x) => x.toLocaleString("en-US");
var of = (p) => p.total === void 0 ? n(p.done) : `${n(p.done)}/${n(p.total)}`;
var PHASE = {
  groups: (p) => `groups ${of(p)} read`,
  // Without a total the pods come from a cluster-wide list, counted as they are listed.
  pods: (p) => p.total === void 0 ? `${n(p.done)} pods listed` : `pods of ${of(p)} nodes to replace read`,
  budgets: (p) => `PDBs of ${of(p)} namespaces read`,
  owners: (p) => `owners ${of(p)} looked up`
};
function readLine(latest, current2, elapsedMs2) {
  const parts = ["reading live state", `${Math.round(elapsedMs2 / 1e3)}s`];
  const nodes = latest.get("nodes");
  if (nodes) parts.push(`${n(nodes.done)} nodes listed`);
  const now2 = current2 && current2 !== "nodes" ? latest.get(current2) : void 0;
  if (current2 && current2 !== "nodes" && now2) parts.push(PHASE[current2](now2));
  return parts.join(" · ");
}
async function withReadProgress(write, read, everyMs = 5e3) {
  const latest = /* @__PURE__ */ new Map();
  let current2;
  const started = Date.now();
  let written = started;
  const tick = () => {
    const now2 = Date.now();
    if (now2 - written < everyMs) return;
    written = now2;
    write(`${readLine(latest, current2, now2 - started)}
`);
  };
  const timer = setInterval(tick, Math.max(1, Math.floor(everyMs / 5)));
  timer.unref();
  try {
    return await read((p) => {
      latest.set(p.phase, p);
      current2 = p.phase;
      tick();
    });
  } finally {
    clearInterval(timer);
  }
}

// src/app/session.ts
var now = (task) => task;
function driveOf(session) {
  return session.drive ?? now;
}
async function readAndPlan(session, req, replans = false) {
  const planner = req.planner ?? new Planner(req.policy, req.file, req.options, void 0, replans);
  const drive = driveOf(session);
  const ports = { ...session.ports, ...session.signal && { signal: session.signal } };
  const read = (onProgress) => drive(planner.observe(ports, void 0, onProgress));
  const planned = session.progress ? await withReadProgress(session.progress, read) : await read();
  return { ...planned, planner };
}

// src/app/carry-out.ts
async function carryOut(session, req) {
  const planned = await readAndPlan(session, req, true);
  const shown = await req.onPlan?.(planned);
  if (shown === false)
    return {
      result: "failure",
      message: "Apply cancelled: the plan was not approved; nothing was changed.",
      plan: planned.plan
    };
  const plan = typeof shown === "object" ? shown : planned.plan;
  const { policy } = req;
  const result = await driveOf(session)(
    apply(policy, plan, session.ports, req.log, {
      ...req.apply,
      planner: planned.planner,
      ...session.signal && { signal: session.signal }
    })
  );
  return { ...result, plan };
}

// src/app/rollback.ts
async function clearRollbackRequest(cluster, name) {
  await setRequest(
    cluster,
    LEASE_NAMESPACE,
    leaseName(name),
    void 0,
    (standing) => standing?.rollback === true
  );
}
async function rollBack(session, req) {
  const { ports } = session;
  const cluster = resilient(ports.cluster, ports.clock, {
    ...session.signal && { signal: session.signal }
  });
  const record2 = await driveOf(session)(readBefore(cluster, req.policy.cluster.name));
  const { policy, refused: refused3 } = rollbackPolicy(req.policy, record2, {
    ...req.only && { only: req.only },
    ...req.withoutGate && { withoutGate: req.withoutGate },
    ...req.ofRun !== void 0 && { ofRun: req.ofRun }
  });
  for (const r of refused3)
    req.log.emit({
      type: "note",
      group: r.group,
      message: `${r.group}: not rolled back: ${r.why}`
    });
  const refusedText = refused3.map((r) => `${r.group} (${r.why})`).join("; ");
  if (policy.groups.length === 0)
    return {
      result: "failure",
      message: refused3.length ? `Nothing rolled back: ${refusedText}.` : `Nothing to roll back: no roll of ${req.only?.join(", ") ?? "the policy's groups"} is recorded on the cluster (Lease ${LEASE_NAMESPACE}/${beforeLeaseName(req.policy.cluster.name)}).`
    };
  await driveOf(session)(clearRollbackRequest(cluster, req.policy.cluster.name));
  const back = await carryOut(session, {
    ...req,
    policy,
    apply: { ...req.apply, rollback: true }
  });
  return refused3.length ? { ...back, message: `${back.message} Not rolled back: ${refusedText}.` } : back;
}

// src/app/apply.ts
async function applyPolicy(session, req) {
  const result = await carryOut(session, req);
  const back = rollbackAfter(result);
  if (!back) return result;
  req.log.emit({ type: "note", message: `${back.why}: rolling back ${back.groups.join(", ")}` });
  const { onPlan: _shown, ...rest } = req;
  const rolled = await rollBack(session, {
    ...rest,
    only: back.groups,
    ofRun: req.apply.runId,
    ...back.withoutGate && { withoutGate: back.withoutGate }
  });
  const took = rolled.plan?.groups.map((g) => g.name) ?? [];
  const said2 = rolled.result === "success" ? `Rolled back: ${took.join(", ")} on what ${took.length === 1 ? "it" : "they"} ran before.` : `The rollback did not finish: ${rolled.message}`;
  return { ...result, message: `${result.message} ${said2}` };
}
function rollbackAfter(r) {
  const order = r.plan.groups.map((g) => g.name);
  const h = r.halted;
  const halted2 = h && r.plan.groups.find((g) => g.name === h.group);
  if (h?.verdict === "fail" && halted2?.settings?.gates.onFailure === "rollback")
    return {
      groups: order.slice(0, order.indexOf(h.group) + 1),
      withoutGate: h.gate,
      why: `gate ${h.gate} failed on ${h.group} (onFailure: rollback)`
    };
  if (r.stop?.kind === "aborted" && r.stop.rollback)
    return { groups: order, why: `aborted with rollback by ${r.stop.by ?? "someone"}` };
  return void 0;
}
async function planAndApply(policy, file, ports, log, options) {
  const { replaceAll, deleteAfterDrainTimeout, groups: groups2, planner, signal, ...rest } = options;
  let planned = false;
  try {
    return await applyPolicy(
      { ports, ...signal && { signal } },
      {
        policy,
        file,
        options: runOptions({ replaceAll, deleteAfterDrainTimeout, ...groups2 && { groups: groups2 } }),
        log,
        apply: rest,
        onPlan: () => planned = true,
        ...planner && { planner }
      }
    );
  } catch (e) {
    if (planned) throw e;
    return notStarted(e, signal);
  }
}

// src/app/control.ts
function holderOf(lease) {
  const holder = lease?.spec.holderIdentity;
  if (!holder) return void 0;
  const runUrl = lease.metadata.annotations?.[RUN_URL_ANNOTATION];
  return { holder, ...runUrl && { runUrl } };
}
var named2 = (h) => `${h.holder}${h.runUrl ? ` (${h.runUrl})` : ""}`;
async function onLease(session, policy, write) {
  const signal = session.signal ?? new AbortController().signal;
  const ctx = rollContext(session.ports, { emit: () => void 0 }, {}, signal);
  return driveOf(session)(
    (async () => {
      await verifyBeforeLock(policy, ctx);
      return write(ctx.cluster, leaseName(policy.cluster.name));
    })()
  );
}
async function requestStop(session, policy, file, ask) {
  const mine = {
    action: ask.action,
    by: ask.by,
    ...ask.reason && { reason: ask.reason },
    at: session.ports.clock.now().toISOString(),
    ...ask.action === "abort" && ask.rollback && { rollback: true }
  };
  const written = await onLease(
    session,
    policy,
    (cluster, name) => setRequest(cluster, LEASE_NAMESPACE, name, mine)
  );
  const request = requestOf(written.lease) ?? mine;
  const holder = holderOf(written.lease);
  const lease = `${LEASE_NAMESPACE}/${leaseName(policy.cluster.name)}`;
  const stands = written.changed ? `${describeRequest(request)} is on Lease ${lease}` : `${describeRequest(request)} stood on Lease ${lease} already; left as it is`;
  const what = request.action === "pause" ? "paused" : "aborted";
  const then = request.rollback ? ", then rolls the groups back to what they ran before" : "";
  const run = holder ? `${named2(holder)} holds the cluster: it sees the request within ${RENEW_EVERY_MS / 1e3} s (it reads the Lease as it renews it) and stops at its next node boundary — no new node starts, the nodes in flight finish, their drains included — and ends ${what}${then}` : "No run holds the cluster now";
  const after = request.rollback ? holder ? "The rollback clears the abort." : "The rollback starts here, and clears the abort." : `Every apply of ${policy.cluster.name} refuses to start until \`noderoll resume --policy ${file}\` (the action: \`mode: resume\`) clears it.`;
  return {
    request,
    already: !written.changed,
    ...holder && { holder },
    lease,
    message: `${stands}. ${run}. ${after}`
  };
}
async function clearStop(session, policy) {
  const written = await onLease(
    session,
    policy,
    (cluster, name) => setRequest(cluster, LEASE_NAMESPACE, name, void 0)
  );
  const holder = holderOf(written.lease);
  const lease = `${LEASE_NAMESPACE}/${leaseName(policy.cluster.name)}`;
  const still = holder ? ` ${named2(holder)} holds the cluster: if it has not stopped yet, it goes on, and apply waits for it as for any holder (--lock-wait)` : "";
  return {
    ...written.before && { cleared: written.before },
    ...holder && { holder },
    lease,
    message: written.before ? `cleared ${describeRequest(written.before)} from Lease ${lease}.${still}` : `no pause or abort stood on Lease ${lease}: nothing to clear.${still}`
  };
}
async function resumePolicy(session, req, onCleared) {
  const cleared = await clearStop(session, req.policy);
  onCleared?.(cleared);
  return applyPolicy(session, req);
}

// src/render/json.ts
function renderPlanJson(plan) {
  return `${JSON.stringify(plan, null, 2)}
`;
}

// src/render/time.ts
var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
var ZoneTime = class {
  constructor(timeZone) {
    this.timeZone = timeZone;
    this.format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      weekday: "short",
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23"
    });
  }
  timeZone;
  format;
  parts(at5) {
    const out = {};
    for (const p of this.format.formatToParts(new Date(at5))) out[p.type] = p.value;
    return out;
  }
  /** "Mon 5 Jan 2026 09:00 UTC". */
  readable(at5) {
    const p = this.parts(at5);
    return `${p.weekday} ${p.day} ${p.month} ${p.year} ${p.hour}:${p.minute} ${this.timeZone}`;
  }
  /** "Mon 5 Jan 09:00". */
  short(at5) {
    const p = this.parts(at5);
    return `${p.weekday} ${p.day} ${p.month} ${p.hour}:${p.minute}`;
  }
  /** "2026-01-05 09:02:30", as Mermaid's dateFormat reads it. */
  stamp(at5) {
    const p = this.parts(at5);
    const month = String(MONTHS.indexOf(p.month ?? "") + 1).padStart(2, "0");
    return `${p.year}-${month}-${(p.day ?? "").padStart(2, "0")} ${p.hour}:${p.minute}:${p.second}`;
  }
};
function readableTime(at5, timeZone = "UTC") {
  return new ZoneTime(timeZone).readable(at5);
}
function shortTime(at5, timeZone = "UTC") {
  return new ZoneTime(timeZone).short(at5);
}
function roughly(ms2) {
  if (ms2 <= 0) return "-";
  const unit = ms2 >= 36e5 ? 6e4 : 1e3;
  return `~${formatDuration(Math.max(unit, Math.round(ms2 / unit) * unit))}`;
}
function spansOf(total, each2) {
  return each2 > 0 ? Math.max(1, Math.ceil(total / each2)) : 1;
}

// src/render/words.ts
var plural = (n2, word) => `${n2} ${word}${n2 === 1 ? "" : "s"}`;
function estimate(ms2) {
  return ms2 <= 0 ? "-" : `~${formatDuration(Math.round(ms2 / 1e3) * 1e3)}`;
}
var DOWN_WORD = {
  "not-ready": "node NotReady",
  unreachable: "node unreachable (kubelet not reporting)",
  "no-node": "no node (never joined)"
};
var STATUS_WORD = {
  roll: "roll",
  "config-only": "config change",
  cleanup: "marks to clear",
  "no-change": "no change",
  blocked: "blocked",
  error: "error"
};
var KIND_WORDS = {
  managed: {
    name: "EKS managed node group",
    surge: "EKS scale-up",
    budget: "scale-up",
    bar: "scale-up",
    // EKS runs the update in its own waves, and nothing stops it midway.
    gates: {
      bakeAfter: "the update",
      checkpoints: false,
      halts: "a failed gate stops the run (EKS's update itself goes on)"
    }
  },
  "self-managed": {
    name: "self-managed Auto Scaling group",
    surge: "maxSurge",
    budget: "maxSurge",
    bar: "surge",
    gates: { bakeAfter: "each wave", checkpoints: true, halts: "a failed gate halts" }
  },
  missing: {
    name: "not found",
    surge: "",
    budget: "",
    bar: "",
    gates: { bakeAfter: "", checkpoints: false, halts: "" }
  }
};
function kindWord(g) {
  return KIND_WORDS[g.kind].name;
}
var KIND_LABEL = {
  managed: "managed",
  "self-managed": "ASG",
  missing: "not found"
};
function release2(from, to) {
  const short = (v) => v.replace(/-\d{8}$/, "");
  return short(from) === short(to) ? [from, to] : [short(from), short(to)];
}
function shortReason(r) {
  switch (r.kind) {
    case "release-version": {
      const [from, to] = release2(r.from, r.to);
      return `AMI ${from} → ${to}`;
    }
    case "kubernetes-version":
      return `Kubernetes ${r.from} → ${r.to}`;
    case "launch-template":
      return r.fromTemplate !== r.toTemplate ? `another launch template (${r.fromTemplate ?? "?"})` : `launch template ${r.from ?? "?"} → ${r.to}`;
    case "max-node-age":
      return `older than ${Math.floor(r.maxMs / 864e5)}d`;
    case "annotated":
      return "annotated";
    case "detached-for-surge":
      return "left detached";
    case "group-update":
      return "whole-group update";
    case "replace-all":
      return "replace-all";
  }
}
function whyCell(g) {
  const counts = /* @__PURE__ */ new Map();
  for (const r of g.replacements)
    for (const reason of r.reasons)
      if (reason.kind !== "group-update")
        counts.set(shortReason(reason), (counts.get(shortReason(reason)) ?? 0) + 1);
  const reasons = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([t]) => t);
  const config = g.configChanges.map((c) => `${c.field.replace(/^.*\./, "")} ${c.from} → ${c.to}`);
  const all = [...reasons, ...config];
  if (g.status === "error") return "see errors";
  return all.length > 0 ? all.join(", ") : "-";
}
function surgeWord(g) {
  return KIND_WORDS[g.kind].surge;
}
function surgeBudgetWord(g) {
  return KIND_WORDS[g.kind].budget;
}
function surgeBar(g) {
  return KIND_WORDS[g.kind].bar;
}
function reasonCounts(replacements) {
  const counts = /* @__PURE__ */ new Map();
  for (const r of replacements)
    for (const reason of r.reasons)
      counts.set(describeReason(reason), (counts.get(describeReason(reason)) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([text3, n2]) => `${text3} (${n2})`).join(", ");
}
function waveSummary(g) {
  const waves = g.schedule.waves;
  if (waves.length === 0) return "";
  const canary = waves[0]?.canary ? "a canary, then " : "";
  const rest = waves[0]?.canary ? waves.slice(1) : waves;
  const sizes = [...new Set(rest.map((w) => w.nodes.length))];
  const shape = rest.length === 0 ? "" : `${plural(rest.length, "wave")} of ${sizes.length === 1 ? sizes[0] : `up to ${Math.max(...sizes)}`}`;
  const zones = g.schedule.zoneOrder.length > 1 ? `, zones in turn (${g.schedule.zoneOrder.join(" → ")})` : "";
  return `${canary}${shape}${zones}`;
}
function gatesText(g) {
  const s = g.settings?.gates;
  if (!s || g.replacements.length === 0) return "";
  const r = s.replacements;
  const builtIn = `Ready within ${formatDuration(r.readyWithinMs)}, ${r.crashLoopingPods === 1 ? "no crash-looping pod" : `fewer than ${r.crashLoopingPods} crash-looping pods`}`;
  if (hasDefaultGates(g)) return "";
  const parts = [
    `replacements ${builtIn}`,
    ...s.alarms.length > 0 ? [`CloudWatch alarm${s.alarms.length === 1 ? "" : "s"} ${s.alarms.join(", ")} not in ALARM`] : [],
    ...s.prometheus.map(
      (p) => `Prometheus ${p.name} ${"above" in p.fail ? `≤ ${p.fail.above}` : `≥ ${p.fail.below}`}`
    )
  ];
  const words = KIND_WORDS[g.kind].gates;
  const bake = s.bakeMs > 0 ? `; bake ${formatDuration(s.bakeMs)} after ${words.bakeAfter}` : "";
  const checkpoints = words.checkpoints && s.checkpoints.length > 0 ? `; checkpoints at ${s.checkpoints.map((c) => `${Math.round(c * 100)}%`).join(", ")} (${s.checkpointDelayMs !== void 0 ? `wait ${formatDuration(s.checkpointDelayMs)}, then go on` : "pause until resumed"})` : "";
  const onFailure = s.onFailure === "rollback" ? ", then rolls back" : "";
  return `${parts.join("; ")}${bake}${checkpoints}; ${words.halts}${onFailure}, an inconclusive one ${INCONCLUSIVE_WORD[s.onInconclusive]}`;
}
var DEFAULT_GATES = JSON.stringify(gateSettings({}));
var hasDefaultGates = (g) => g.replacements.length > 0 && JSON.stringify(g.settings?.gates) === DEFAULT_GATES;
function defaultGatesText(groups2) {
  const plain = groups2.filter(hasDefaultGates);
  if (plain.length === 0) return "";
  const r = gateSettings({}).replacements;
  const every = plain.length === groups2.filter((g) => g.replacements.length > 0).length;
  const on = every ? "every group" : plain.map((g) => g.name).join(", ");
  return `the built-in gate on ${on} — replacements Ready within ${formatDuration(r.readyWithinMs)} and no pod crash-looping on them, read every 30 s; a failure halts the roll (the policy's \`gates\`, docs/gates.md)`;
}
var INCONCLUSIVE_WORD = { pause: "pauses", halt: "halts", continue: "is noted" };
function budgetText(g) {
  if (g.kind === "missing" || g.replacements.length === 0) return "-";
  return `maxUnavailable ${g.budgets.maxUnavailable} · ${surgeWord(g)} ${g.budgets.maxSurge}`;
}
var MARK_WORD = {
  "scale-down-disabled": "the cluster autoscaler kept off (scale-down-disabled)",
  cordon: "cordoned by noderoll",
  "scheduled-taint": "tainted scheduled-for-update",
  "surge-mark": "marked for surge, never detached",
  "suspended-process": "a scaling process noderoll suspended on the group"
};
function cleanupText(cleanup) {
  return cleanup.map(
    (c) => `${MARK_WORD[c.mark]}: ${c.objects.slice(0, 5).join(", ")}${c.objects.length > 5 ? ` and ${c.objects.length - 5} more` : ""}`
  ).join("; ");
}
var STOPPED_WORD = {
  cancelled: "Cancelled",
  "lock-lost": "Stopped, the cluster lock lost",
  deadline: "Paused at --max-duration",
  "window-closed": "Paused, the maintenance window closed",
  paused: "Paused on request (noderoll pause)",
  aborted: "Aborted on request (noderoll abort)"
};
var FORCED = [
  {
    on: (o) => o.replaceAll,
    flag: "replace-all",
    does: "every selected node is replaced, whatever its version"
  },
  {
    on: (o) => o.deleteAfterDrainTimeout,
    flag: "delete-after-drain-timeout",
    does: "what a drain leaves at its timeout is deleted, past PodDisruptionBudgets"
  }
];
function forcedFlags(o) {
  return FORCED.filter((f) => f.on(o)).map((f) => f.flag);
}
function alertMarkdown(alerts) {
  return alerts.flatMap((a) => [`> [!${a.kind}]`, ...a.lines.map((l) => l ? `> ${l}` : ">"), ""]);
}
function forcedAlerts(o) {
  const lines = FORCED.filter((f) => f.on(o)).map((f) => `**${f.flag}**: ${f.does}.`);
  return lines.length > 0 ? [{ kind: "WARNING", lines }] : [];
}
function inlinePlain(md, bold = (s) => s) {
  return md.replace(/\*\*(.+?)\*\*/g, (_, b) => bold(b)).replace(/`([^`]*)`/g, "$1");
}
function derived2(value, derivation) {
  return derivation && derivation !== String(value) ? `**${value}** (${derivation})` : `**${value}**`;
}
function rollLines(g) {
  if (g.replacements.length === 0) return [];
  const { maxUnavailable, maxSurge, derivation } = g.budgets;
  const gates = gatesText(g);
  return [
    `Replace **${g.replacements.length} of ${g.nodes}** nodes: ${reasonCounts(g.replacements)}`,
    `Budgets: maxUnavailable ${derived2(maxUnavailable, derivation.maxUnavailable)}; ${surgeBudgetWord(g)} ${derived2(maxSurge, derivation.maxSurge)}`,
    `Schedule: ${waveSummary(g)}; ${estimate(g.schedule.estimatedMs)}`,
    ...gates ? [`Gates: ${gates}`] : []
  ];
}
function cleanupLine(g) {
  return g.cleanup.length > 0 ? `Marks an earlier run left, which apply clears: ${cleanupText(g.cleanup)}` : "";
}

// src/render/gantt.ts
var MAX_BARS = 40;
function scheduleStart(plan) {
  const w = plan.window;
  const taken = new Date(plan.takenAt).getTime();
  if (!w) return { at: taken, timeZone: "UTC" };
  const next = !w.openAtPlan && w.nextOpening ? new Date(w.nextOpening).getTime() : taken;
  return { at: next, timeZone: w.timeZone };
}
var sectionName = (name) => name.replace(/[:#;]/g, "_");
function waveBars(g, offset, at5) {
  const bars = [];
  const first = g.schedule.waves[0];
  if (first && first.startMs > 0)
    bars.push(`  ${surgeBar(g)} : ${at5(offset)}, ${at5(offset + first.startMs)}`);
  g.schedule.waves.forEach((w, i) => {
    const start = offset + w.startMs;
    const end = Math.max(start + 1e3, start + w.durationMs);
    bars.push(
      `  ${w.canary ? "canary" : `wave ${i + 1}`} (${w.nodes.length}) : ${at5(start)}, ${at5(end)}`
    );
  });
  return bars;
}
function rehearsedBars(plan, at5, perGroup) {
  const rolled = plan.rehearsal.groups.filter((g) => g.phases.length > 0);
  if (perGroup)
    return [
      "  section groups",
      ...rolled.map((g) => {
        const start = g.phases[0]?.startMs ?? 0;
        return `  ${sectionName(g.group)} : ${at5(start)}, ${at5(start + Math.max(1e3, g.durationMs))}`;
      })
    ];
  return rolled.flatMap((g) => [
    `  section ${sectionName(g.group)}`,
    ...g.phases.map(
      (p) => `  ${p.phase} : ${at5(p.startMs)}, ${at5(Math.max(p.startMs + 1e3, p.endMs))}`
    )
  ]);
}
function gantt(plan, detail = "waves") {
  if (plan.rehearsal?.groups.some((g) => g.phases.length > 0)) return rehearsedGantt(plan, detail);
  const groups2 = reachedGroups(plan.groups).filter((g) => g.schedule.waves.length > 0);
  if (groups2.length === 0) return [];
  const { at: start, timeZone } = scheduleStart(plan);
  const zone = new ZoneTime(timeZone);
  const at5 = (ms2) => zone.stamp(start + ms2);
  const bars = groups2.reduce((n2, g) => n2 + g.schedule.waves.length + 1, 0);
  const perGroup = detail === "groups" || bars > MAX_BARS;
  const total = groups2.reduce((n2, g) => n2 + g.schedule.estimatedMs, 0);
  const lines = [
    "```mermaid",
    "gantt",
    `  title Predicted schedule from ${shortTime(start, timeZone)} (${timeZone}), estimate`,
    "  dateFormat YYYY-MM-DD HH:mm:ss",
    `  axisFormat ${total > 20 * 36e5 ? "%a %H:%M" : "%H:%M"}`
  ];
  let offset = 0;
  if (perGroup) lines.push("  section groups");
  for (const g of groups2) {
    if (perGroup) {
      const end = offset + Math.max(1e3, g.schedule.estimatedMs);
      lines.push(
        `  ${sectionName(g.name)} (${g.replacements.length} nodes) : ${at5(offset)}, ${at5(end)}`
      );
    } else {
      lines.push(`  section ${sectionName(g.name)}`, ...waveBars(g, offset, at5));
    }
    offset += g.schedule.estimatedMs;
  }
  return [...lines, "```"];
}
function rehearsedGantt(plan, detail) {
  const { at: start, timeZone } = scheduleStart(plan);
  const zone = new ZoneTime(timeZone);
  const at5 = (ms2) => zone.stamp(start + ms2);
  const r = plan.rehearsal;
  const bars = r.groups.reduce((n2, g) => n2 + g.phases.length, 0);
  return [
    "```mermaid",
    "gantt",
    `  title Rehearsed schedule from ${shortTime(start, timeZone)} (${timeZone})`,
    "  dateFormat YYYY-MM-DD HH:mm:ss",
    `  axisFormat ${r.durationMs > 20 * 36e5 ? "%a %H:%M" : "%H:%M"}`,
    ...rehearsedBars(plan, at5, detail === "groups" || bars > MAX_BARS),
    "```"
  ];
}

// src/render/headline.ts
function stopPoint(plan) {
  const index = stopIndex(plan.groups);
  if (index < 0) return void 0;
  return {
    index,
    group: plan.groups[index],
    notRolled: notStartedAfter(plan.groups, index)
  };
}
function forcedDeletions(plan) {
  const stop = stopPoint(plan);
  const rolling = stop ? plan.groups.slice(0, stop.index) : plan.groups;
  return rolling.flatMap((g) => {
    const pods = g.findings.filter((f) => f.severity !== "blocker").flatMap(
      (f) => f.code === "pdb-blocks" ? f.objects.filter((o) => !o.startsWith("PodDisruptionBudget/")) : f.code === "multiple-pdbs" ? f.objects.map((o) => o.replace(/ \(.*$/, "")) : []
    );
    return pods.length > 0 ? [{ group: g.name, pods: [...new Set(pods)] }] : [];
  });
}
var names = (groups2) => groups2.map((g) => `\`${g.name}\``);
function andList(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
function stopReason2(g) {
  if (g.status === "error") return g.errors[0] ?? "the group is in error";
  return g.findings.find((f) => f.severity === "blocker")?.message ?? "a preflight check blocks it";
}
function planAlerts(plan) {
  const out = [];
  const stop = stopPoint(plan);
  if (stop) {
    const parts = [
      ...stop.notRolled.length > 0 ? [`${andList(names(stop.notRolled))} will not roll`] : [],
      ...stop.index > 0 ? ["the groups before it roll first"] : []
    ];
    out.push({
      kind: "CAUTION",
      lines: [
        `**apply stops at group ${stop.index + 1} \`${stop.group.name}\`** (${stop.group.status})${parts.length > 0 ? `: ${parts.join("; ")}` : ""}.`,
        "",
        stopReason2(stop.group)
      ]
    });
  }
  const deleted = forcedDeletions(plan);
  if (deleted.length > 0) {
    const count2 = deleted.reduce((n2, d) => n2 + d.pods.length, 0);
    const list3 = deleted.flatMap((d) => d.pods.slice(0, 10).map((p) => `\`${p}\``));
    const more = count2 > list3.length ? ` and ${count2 - list3.length} more` : "";
    out.push({
      kind: "WARNING",
      lines: [
        `**${plural(count2, "pod")} will be deleted** (deleteAfterDrainTimeout), past their PodDisruptionBudgets at the drain timeout: ${list3.join(", ")}${more}.`
      ]
    });
  }
  return out;
}
function alertLines(plan) {
  return alertMarkdown(planAlerts(plan));
}

// src/render/rehearsal.ts
var MAX_ROWS = 30;
var id = (w) => `${w.kind}/${w.namespace}/${w.name}`;
var dur = (ms2) => estimate(ms2).replace(/^~/, "");
function downWorkloads(r) {
  return r.workloads.filter((w) => w.msAtZero > 0).sort((a, b) => b.msAtZero - a.msAtZero);
}
function stopsAsPlanned(plan) {
  const r = plan.rehearsal;
  const stop = stopPoint(plan);
  if (!r || !stop || r.result === "success") return false;
  const g = r.groups.find((x) => x.group === stop.group.name);
  return g !== void 0 && g.result !== "success" && g.phases.length === 0;
}
var notRolled = (g) => g.phases.length === 0 && g.durationMs === 0 && g.result !== "success" ? g.result : void 0;
function rehearsalCautions(plan) {
  const r = plan.rehearsal;
  if (!r) return [];
  const out = [];
  if (r.result !== "success" && !stopsAsPlanned(plan))
    out.push({
      kind: "CAUTION",
      lines: [`**The rehearsal did not complete** (${r.result}): ${r.message}`]
    });
  const down = downWorkloads(r);
  if (down.length > 0)
    out.push({
      kind: "WARNING",
      lines: [
        `**The rehearsal takes ${plural(down.length, "workload")} down:** ${down.slice(0, 10).map((w) => `\`${id(w)}\` for ${dur(w.msAtZero)}`).join(", ")}${down.length > 10 ? ` and ${down.length - 10} more` : ""}.`
      ]
    });
  return out;
}
function rehearsalAlerts(plan) {
  return alertMarkdown(rehearsalCautions(plan));
}
function outcome(plan, r) {
  const stop = stopPoint(plan);
  const took = dur(r.durationMs) === "-" ? "" : ` in ${dur(r.durationMs)}`;
  return stop && stopsAsPlanned(plan) ? `**stopped at group ${stop.index + 1} \`${stop.group.name}\`** (where apply stops)${took}` : `**${r.result}**${took}`;
}
var at2 = (ms2) => `at +${dur(ms2) === "-" ? "0s" : dur(ms2)}`;
function stallLines(r) {
  const deleted = new Map(
    r.stalls.filter((s) => s.kind === "deleted").map((s) => [`${s.object} ${s.node}`, s])
  );
  const held = new Set(
    r.stalls.filter((s) => s.kind === "pdb").map((s) => `${s.object} ${s.node}`)
  );
  return r.stalls.flatMap((s) => {
    if (s.kind === "deleted" && held.has(`${s.object} ${s.node}`)) return [];
    if (s.kind !== "pdb") return [stallLine(s)];
    const then = deleted.get(`${s.object} ${s.node}`);
    const line = stallLine(s);
    return [
      then ? line.replace(
        / \(at \+[^)]*\)$/,
        `, then deleted past it at the drain timeout (${at2(s.fromMs)})`
      ) : line
    ];
  });
}
function stallLine(s) {
  if (s.kind === "pdb")
    return `\`${s.object}\` held on \`${s.node}\` by PodDisruptionBudget \`${s.by}\` for ${dur(s.forMs)} (${at2(s.fromMs)})`;
  if (s.kind === "pending")
    return `${plural(s.pods ?? 1, "pod")} of \`${s.object}\` Pending for ${dur(s.forMs)}: no node had room (${at2(s.fromMs)})`;
  return `\`${s.object}\` deleted past its PodDisruptionBudget at the drain timeout on \`${s.node}\` (${at2(s.fromMs)})`;
}
function workloadRows(r) {
  const hit = r.workloads.filter(
    (w) => w.minReady < w.desired || w.msAtZero > 0 || w.msBelowPdb > 0
  );
  if (hit.length === 0)
    return ["Every Deployment and StatefulSet kept all its replicas Ready.", ""];
  const worst = [...hit].sort((a, b) => b.msAtZero - a.msAtZero || b.msBelowPdb - a.msBelowPdb);
  return [
    "| workload | ready at least | below its PDB | down |",
    "| --- | --: | --: | --: |",
    ...worst.slice(0, MAX_ROWS).map(
      (w) => `| \`${id(w)}\` | ${w.minReady} of ${w.desired} | ${w.msBelowPdb > 0 ? dur(w.msBelowPdb) : "-"} | ${w.msAtZero > 0 ? `**${dur(w.msAtZero)}**` : "-"} |`
    ),
    ...worst.length > MAX_ROWS ? [`| … ${worst.length - MAX_ROWS} more | | | |`] : [],
    ""
  ];
}
function timingLines(r) {
  return [
    "<details>",
    "<summary>Timings the twin assumed</summary>",
    "",
    "| timing | seconds | from |",
    "| --- | --: | --- |",
    ...Object.entries(r.timings.sources).map(
      ([k, from]) => `| \`${k}\` | ${r.timings.values[k] ?? "-"} | ${from} |`
    ),
    "",
    "</details>"
  ];
}
function rehearsalMarkdown(plan) {
  const r = plan.rehearsal;
  if (!r) return [];
  const groups2 = r.groups.map((g) => `\`${g.group}\` ${notRolled(g) ?? dur(g.durationMs)}`).join(", ");
  const out = [
    "#### Rehearsal on a twin of the cluster",
    "",
    `The roll, run on a sandbox twin of the cluster in virtual time (nothing live was touched): ${outcome(plan, r)}${groups2 ? ` — ${groups2}` : ""}. At its peak it ran ${plural(r.peakExtraNodes, "extra node")} and made ${r.peakRequestsPerMinute} API requests a minute.`,
    "",
    ...workloadRows(r)
  ];
  const stalls = stallLines(r);
  if (stalls.length > 0)
    out.push(
      ...stalls.slice(0, 20).map((s) => `- ${s}`),
      ...stalls.length > 20 ? [`- … ${stalls.length - 20} more`] : [],
      ""
    );
  return [...out, ...timingLines(r), ""];
}
function rehearsalText(plan) {
  const r = plan.rehearsal;
  if (!r) return [];
  const out = [
    `rehearsal on a twin of the cluster (nothing live touched): ${inlinePlain(outcome(plan, r))}; peak ${plural(r.peakExtraNodes, "extra node")}, ${r.peakRequestsPerMinute} requests/min`
  ];
  for (const g of r.groups)
    out.push(`   ${g.group}: ${notRolled(g) ?? `${dur(g.durationMs)} (${g.result})`}`);
  for (const w of r.workloads)
    if (w.msAtZero > 0 || w.msBelowPdb > 0)
      out.push(
        `   ${w.msAtZero > 0 ? "✗ down" : "! below its PDB"}: ${id(w)} ${w.msAtZero > 0 ? dur(w.msAtZero) : dur(w.msBelowPdb)} (ready at least ${w.minReady} of ${w.desired})`
      );
  for (const s of stallLines(r)) out.push(`   stall: ${inlinePlain(s)}`);
  if (r.result !== "success" && !stopsAsPlanned(plan)) out.push(`   ✗ ${r.message}`);
  return [...out, ""];
}

// src/render/limits.ts
var WEEK = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
function dayList(days) {
  const idx = WEEK.map((d, i) => days.includes(d) ? i : -1).filter((i) => i >= 0);
  if (idx.length === 7) return "every day";
  const runs = [];
  for (const i of idx) {
    const last = runs.at(-1);
    if (last && last.at(-1) === i - 1) last.push(i);
    else runs.push([i]);
  }
  return runs.map(
    (r) => r.length >= 3 ? `${WEEK[r[0]]}–${WEEK[r.at(-1)]}` : r.map((i) => WEEK[i]).join(", ")
  ).join(", ");
}
function windowState(w) {
  if (w.openAtPlan)
    return `open when planned${w.closesAt ? `, closes ${shortTime(w.closesAt, w.timeZone)}` : ""}`;
  return `closed when planned${w.nextOpening ? `; next opening ${shortTime(w.nextOpening, w.timeZone)}` : "; it does not open in the next 15 days"}`;
}
function fitWords(estimate2, w, maxMs) {
  const out = [];
  if (w && estimate2 > w.openingMs)
    out.push(`≈ ${spansOf(estimate2, w.openingMs)} openings of ${formatDuration(w.openingMs)}`);
  if (maxMs !== void 0 && estimate2 > maxMs)
    out.push(`≈ ${spansOf(estimate2, maxMs)} runs of ${formatDuration(maxMs)} (max-duration)`);
  return out;
}
function limitFacts(plan, info = {}) {
  const w = plan.window;
  const estimate2 = plan.summary.estimatedMs;
  const out = [];
  if (w)
    out.push({
      label: "Maintenance window",
      text: `${dayList(w.days)} ${w.start}–${w.end} ${w.timeZone} · ${windowState(w)}`
    });
  if (estimate2 > 0) {
    const fit2 = fitWords(estimate2, w, info.maxDurationMs);
    const max = info.maxDurationMs !== void 0 ? ` · max-duration ${formatDuration(info.maxDurationMs)} per run` : "";
    out.push({
      label: "Time",
      text: `estimate ${roughly(estimate2)}${max}${fit2.length > 0 ? ` · needs ${fit2.join(" and ")}` : w || max ? " · fits" : ""}`
    });
  }
  return out;
}
function limitLines(plan, info = {}) {
  const out = limitFacts(plan, info).map((f) => `- **${f.label}**: ${f.text}`);
  return out.length > 0 ? [...out, ""] : [];
}
function readAt(plan) {
  return readableTime(plan.takenAt, plan.window?.timeZone);
}
function limitAlerts(plan, info = {}) {
  const w = plan.window;
  const estimate2 = plan.summary.estimatedMs;
  if (estimate2 <= 0) return [];
  const remaining = w?.openAtPlan && w.closesAt ? new Date(w.closesAt).getTime() - new Date(plan.takenAt).getTime() : void 0;
  const closed = w !== void 0 && !w.openAtPlan;
  const tooLongForWindow = w !== void 0 && estimate2 > (remaining ?? w.openingMs);
  const tooLongForRun = info.maxDurationMs !== void 0 && estimate2 > info.maxDurationMs;
  if (!closed && !tooLongForWindow && !tooLongForRun) return [];
  const lines = [];
  if (closed)
    lines.push(
      `The window is closed now: a merge before ${w.nextOpening ? shortTime(w.nextOpening, w.timeZone) : "it opens"} (${w.timeZone}) ends \`skipped\` without starting a node.`
    );
  if (tooLongForWindow || tooLongForRun) {
    const why2 = [
      tooLongForWindow && "the window closes",
      tooLongForRun && "max-duration is reached"
    ].filter(Boolean).join(" or ");
    lines.push(
      `The roll (${roughly(estimate2)}) does not finish in one go: apply starts no node once ${why2}, and ends early.`
    );
  }
  lines.push(
    "Nothing starts apply again by itself: keep the apply workflow's `schedule` trigger (it resumes the roll in the next opening), or run it by hand (`workflow_dispatch`)."
  );
  return [{ kind: "IMPORTANT", lines }];
}
function limitAlert(plan, info = {}) {
  return alertMarkdown(limitAlerts(plan, info));
}

// src/render/reviewed.ts
function digestOf(g) {
  const d = decisionsOf(g);
  return {
    status: g.status,
    nodes: g.replacements.length,
    target: d.target,
    config: d.config,
    budgets: `${g.budgets.maxUnavailable}/${g.budgets.maxSurge}`,
    settings: fnv(d.settings).slice(0, 8)
  };
}
function fnv(text3) {
  let h1 = 2166136261;
  let h2 = 16777619;
  for (let i = 0; i < text3.length; i++) {
    const c = text3.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 16777619) >>> 0;
    h2 = Math.imul(h2 ^ c, 1540483477) >>> 0;
  }
  return `${h1.toString(16).padStart(8, "0")}${h2.toString(16).padStart(8, "0")}`.slice(0, 12);
}
function digests(plan) {
  return Object.fromEntries(plan.groups.map((g) => [g.name, digestOf(g)]));
}
function planFingerprint(plan) {
  return fnv(JSON.stringify([plan.cluster.name, plan.options, digests(plan)]));
}
function reviewedMarker(plan, sha) {
  const data = {
    fingerprint: planFingerprint(plan),
    ...sha && { sha },
    groups: digests(plan)
  };
  return `<!-- noderoll:reviewed ${Buffer.from(JSON.stringify(data)).toString("base64url")} -->`;
}

// src/render/colour.ts
var TONES = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33 };
var plainPaint = (text3) => text3;
var ansiPaint = (text3, ...tones) => {
  const codes = tones.filter((t) => t !== void 0).map((t) => TONES[t]);
  return codes.length > 0 && text3 ? `\x1B[${codes.join(";")}m${text3}\x1B[0m` : text3;
};
var painter = (colour) => colour ? ansiPaint : plainPaint;

// src/render/text.ts
var MARK = { blocker: "✗", warning: "!", info: "·" };
var FINDING_TONE = { blocker: "red", warning: "yellow", info: void 0 };
var ALERT = {
  CAUTION: { mark: "✗", tone: "red" },
  WARNING: { mark: "!", tone: "yellow" },
  IMPORTANT: { mark: "!", tone: "yellow" }
};
var STATUS_TONE = { blocked: "red", error: "red" };
function alertText(a, paint) {
  const { mark, tone: tone2 } = ALERT[a.kind];
  const lines = a.lines.filter(Boolean).map((l) => inlinePlain(l, (b) => paint(b, "bold", tone2)));
  return [...lines.map((l, i) => i === 0 ? `${paint(mark, tone2)} ${l}` : `  ${l}`), ""];
}
function notReached(groups2, i) {
  const stop = stopIndex(groups2);
  return stop < 0 || i <= stop || groups2[i]?.status === "no-change" ? "" : " · not reached";
}
function groupText(plan, i, paint) {
  const g = plan.groups[i];
  const status2 = `${paint(STATUS_WORD[g.status], STATUS_TONE[g.status])}${notReached(plan.groups, i)}`;
  const lines = [`${i + 1}. ${paint(g.name, "bold")} (${kindWord(g)}, ${g.role}): ${status2}`];
  for (const e of g.errors) lines.push(`   ${paint(`error: ${e}`, "red")}`);
  for (const c of g.configChanges) lines.push(`   ~ ${c.field}: ${c.from} → ${c.to}`);
  const cleanup = cleanupLine(g);
  if (cleanup) lines.push(`   - ${cleanup}`);
  lines.push(...rollLines(g).map((l) => `   ${inlinePlain(l)}`));
  for (const f of g.findings)
    lines.push(
      `   ${paint(`${MARK[f.severity]} ${f.severity}: ${f.message}`, FINDING_TONE[f.severity])}`
    );
  for (const n2 of g.notes) lines.push(`   note: ${n2}`);
  return lines;
}
var factText = (f) => `${f.label}: ${inlinePlain(f.text)}`;
function renderPlanText(plan, options = {}) {
  const paint = painter(options.colour);
  const info = options.info ?? {};
  const head2 = [
    `noderoll plan: policy ${plan.policy.name} (${plan.policy.file}), cluster ${plan.cluster.name} (${plan.cluster.region}, Kubernetes ${plan.cluster.version}) · read ${readAt(plan)} · plan ${planFingerprint(plan)}`,
    ""
  ];
  const alerts = [...planAlerts(plan), ...rehearsalCautions(plan), ...limitAlerts(plan, info)];
  head2.push(...alerts.flatMap((a) => alertText(a, paint)));
  const gates = defaultGatesText(plan.groups);
  const facts = [
    ...limitFacts(plan, info),
    ...gates ? [{ label: "Gates", text: gates }] : []
  ].map(factText);
  if (facts.length > 0) head2.push(...facts, "");
  head2.push(...forcedAlerts(plan.options).flatMap((a) => alertText(a, paint)));
  const body = [
    ...plan.groups.flatMap((_, i) => [...groupText(plan, i, paint), ""]),
    ...rehearsalText(plan)
  ];
  return `${[...head2, ...body, paint(summaryLine(plan.summary), "bold")].join("\n")}
`;
}

// src/render/markdown.ts
var ICON = {
  roll: "🔄",
  "config-only": "⚙️",
  cleanup: "🧹",
  "no-change": "✅",
  blocked: "⛔",
  error: "❌"
};
var FINDING_ICON = { blocker: "⛔", warning: "⚠️", info: "ℹ️" };
var FULL_DETAIL = {
  nodeRows: Infinity,
  gantt: "waves",
  findings: Infinity
};
function cell(text3) {
  return text3.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}
function overviewTable(plan) {
  const rows = plan.groups.map((g, i) => {
    const replace = g.replacements.length > 0 ? `${g.replacements.length} of ${g.nodes}` : "-";
    const time = g.replacements.length > 0 ? estimate(g.schedule.estimatedMs) : "-";
    return `| ${i + 1} | \`${cell(g.name)}\` | ${KIND_LABEL[g.kind]} | ${ICON[g.status]} ${STATUS_WORD[g.status]}${notReached(plan.groups, i)} | ${replace} | ${cell(whyCell(g))} | ${cell(budgetText(g))} | ${time} |`;
  });
  return [
    "| # | group | kind | status | replace | why | budgets | estimate |",
    "| -: | --- | --- | --- | --: | --- | --- | --: |",
    ...rows
  ];
}
var whyReplaced = (r) => [r.reasons.map(describeReason).join(", "), ...r.down ? [`**${DOWN_WORD[r.down]}**`] : []].join(
  "; "
);
function nodeTable(g, limit) {
  if (g.replacements.length === 0) return [];
  const shown = g.replacements.slice(0, limit);
  const rows = shown.map(
    (r) => `| \`${cell(r.node ?? "-")}\` | \`${r.instance}\` | ${r.zone} | ${cell(whyReplaced(r))} |`
  );
  const more = g.replacements.length > shown.length ? [`| … | ${g.replacements.length - shown.length} more | | |`] : [];
  return [
    "<details>",
    `<summary>Nodes to replace (${g.replacements.length})</summary>`,
    "",
    "| node | instance | zone | why |",
    "| --- | --- | --- | --- |",
    ...rows,
    ...more,
    "",
    "</details>"
  ];
}
function groupSection(plan, i, detail) {
  const g = plan.groups[i];
  const out = [
    `#### ${i + 1}. \`${g.name}\` · ${kindWord(g)} · ${ICON[g.status]} ${STATUS_WORD[g.status]}${notReached(plan.groups, i)}`,
    ""
  ];
  for (const e of g.errors) out.push(`- ❌ ${e}`);
  const ordered = [...g.findings].sort(
    (a, b) => Number(b.severity === "blocker") - Number(a.severity === "blocker")
  );
  const findings = ordered.slice(0, detail.findings);
  for (const f of findings.filter((x) => x.severity === "blocker"))
    out.push(`- ${FINDING_ICON.blocker} **blocker**: ${f.message}`);
  for (const c of g.configChanges) out.push(`- ⚙️ \`${c.field}\`: ${c.from} → **${c.to}**`);
  const cleanup = cleanupLine(g);
  if (cleanup) out.push(`- 🧹 ${cleanup}`);
  out.push(...rollLines(g).map((l) => `- ${l}`));
  for (const f of findings.filter((x) => x.severity !== "blocker"))
    out.push(`- ${FINDING_ICON[f.severity]} **${f.severity}**: ${f.message}`);
  if (g.findings.length > findings.length)
    out.push(`- … ${g.findings.length - findings.length} more findings`);
  for (const n2 of g.notes) out.push(`- ${n2}`);
  if (detail.nodeRows > 0 && g.replacements.length > 0)
    out.push("", ...nodeTable(g, detail.nodeRows));
  return [...out, ""];
}
function provenance(info) {
  const parts = [
    ...info.sha ? [`commit \`${info.sha.slice(0, 7)}\``] : [],
    ...info.runUrl ? [`[workflow run](${info.runUrl})`] : []
  ];
  return parts.join(" · ");
}
function metaLine(plan, info) {
  const where = `Cluster \`${plan.cluster.name}\` (${plan.cluster.region}, Kubernetes ${plan.cluster.version}) · policy \`${plan.policy.file}\``;
  const from = provenance(info);
  return `${where} · read ${readAt(plan)}${from ? ` · ${from}` : ""} · plan \`${planFingerprint(plan)}\``;
}
function renderPlanMarkdown(plan, detail = FULL_DETAIL, info = {}) {
  const out = [`### noderoll plan · \`${plan.policy.name}\``, ""];
  if (detail.note) out.push(detail.note, "");
  out.push(...alertLines(plan), ...rehearsalAlerts(plan));
  out.push(`**${summaryLine(plan.summary)}**`, "", metaLine(plan, info), "");
  out.push(...limitLines(plan, info), ...limitAlert(plan, info));
  const gates = defaultGatesText(plan.groups);
  if (gates) out.push(`- **Gates**: ${gates}`, "");
  out.push(...alertMarkdown(forcedAlerts(plan.options)));
  if (plan.groups.length > 0) out.push(...overviewTable(plan), "");
  plan.groups.forEach((_, i) => out.push(...groupSection(plan, i, detail)));
  out.push(...rehearsalMarkdown(plan));
  if (detail.gantt) {
    const chart = gantt(plan, detail.gantt);
    if (chart.length > 0)
      out.push(
        "<details>",
        `<summary>${plan.rehearsal ? "Rehearsed" : "Predicted"} schedule</summary>`,
        "",
        ...chart,
        "",
        "</details>",
        ""
      );
  }
  return out.join("\n");
}
var COMMENT_LIMIT = 65536;
var CHECK_OUTPUT_LIMIT = 65535;
var STEPS = [
  { detail: FULL_DETAIL, note: "" },
  {
    detail: { nodeRows: 50, gantt: "groups", findings: Infinity },
    note: "node lists cut to 50 rows per group, one schedule bar per group"
  },
  {
    detail: { nodeRows: 10, gantt: "groups", findings: 20 },
    note: "node lists cut to 10 rows, one schedule bar per group, some findings left out"
  },
  {
    detail: { nodeRows: 0, gantt: false, findings: 5 },
    note: "node lists and schedule chart left out, findings cut to 5 per group"
  }
];
function shortenedNote(limit, what, fullAt) {
  const where = fullAt ? `the [job summary](${fullAt}) and \`--format json\`` : "the job summary and `--format json`";
  return `> [!NOTE]
> Shortened to fit GitHub's limit of ${limit} characters: ${what}. The full plan is in ${where}.`;
}
function fitMarkdown(render, limit, suffix = "", fullAt) {
  for (const step of STEPS) {
    const detail = step.note ? { ...step.detail, note: shortenedNote(limit, step.note, fullAt) } : step.detail;
    const body = `${render(detail)}${suffix}`;
    if (body.length <= limit) return body;
  }
  const last = STEPS[STEPS.length - 1];
  const note2 = `

${shortenedNote(limit, "cut at the limit", fullAt)}
`;
  const head2 = render({ ...last.detail, note: shortenedNote(limit, last.note, fullAt) }).slice(
    0,
    limit - note2.length - suffix.length
  );
  return `${head2}${note2}${suffix}`;
}

// src/render/lines.ts
var cap = (c) => `desired ${c.desired} (min ${c.min}, max ${c.max})`;
function renderProgressLine(e) {
  switch (e.type) {
    case "phase.start":
      return `${e.group}: ${e.phase} …`;
    case "phase.end":
      return `${e.group}: ${e.phase} ${e.result}${e.message ? ` (${e.message})` : ""}`;
    case "group.end":
      return `${e.group}: ${e.result}${e.message ? ` (${e.message})` : ""}`;
    case "roll.end":
      return `roll ${e.result}${e.message ? `: ${e.message}` : ""}`;
    default:
      return void 0;
  }
}
function drained(e) {
  const deleted = e.deleted?.length ? `, ${e.deleted.length} deleted past their PodDisruptionBudgets at the drain timeout: ${e.deleted.join(", ")}` : "";
  const left2 = e.leftBehind?.length ? `, ${e.leftBehind.length} left behind on the unreachable node, their deletion long past due: ${e.leftBehind.join(", ")}` : "";
  return `${e.group}: drained ${e.node} (${e.evicted} pod${e.evicted === 1 ? "" : "s"} evicted${deleted}${left2})`;
}
function blockedLine(e) {
  const next = e.final ? "not retried" : "retrying";
  if (noBudgetHeld(e.pdb))
    return `${e.group}: ${e.pod} could not be evicted (PodDisruptionBudget: ${e.pdb}); ${next}`;
  return `${e.group}: eviction of ${e.pod} refused by PodDisruptionBudget ${e.pdb}; ${next}`;
}
function nodeLine(e) {
  switch (e.type) {
    case "asg.resize":
      return `${e.group}: Auto Scaling group ${cap(e.from)} → ${cap(e.to)}`;
    case "instance.detach":
      return `${e.group}: detached ${e.instance} (surge: the group launches a replacement)`;
    case "surge.given-up":
      return `${e.group}: surge given up, Auto Scaling refused to detach ${e.instance} (${e.reason}); replacing in place, up to ${e.maxUnavailable} node${e.maxUnavailable === 1 ? "" : "s"} out of service at once`;
    case "node.taint":
      return `${e.group}: tainted ${e.node} ${e.taint}`;
    case "node.cordon":
      return `${e.group}: cordoned ${e.node}`;
    case "node.drain.start":
      return `${e.group}: draining ${e.node}`;
    case "node.drain.end":
      return drained(e);
    case "eviction.blocked":
      return blockedLine(e);
    case "instance.terminate":
      return `${e.group}: terminated ${e.instance}${e.warmPool ? " (warm pool)" : ""}`;
    case "validation":
      return e.ok ? void 0 : `validation: not yet (${e.failures.slice(0, 3).join("; ")})`;
    case "gate.verdict":
      return e.verdict === "pass" ? void 0 : `${e.group}: gate ${e.gate} ${e.verdict === "fail" ? "failed" : "inconclusive"} — ${e.value}${e.detail ? ` (${e.detail})` : ""}`;
    case "eks.update":
      return `${e.group}: EKS ${e.updateType} ${e.updateId} ${e.status}${e.errors.length ? `: ${e.errors.map((x) => `${x.code} ${x.message}`).join("; ")}` : ""}`;
    default:
      return void 0;
  }
}
function forcedWith(o) {
  const flags = forcedFlags(o);
  return flags.length > 0 ? ` with ${flags.join(", ")}` : "";
}
function eventLine(e) {
  switch (e.type) {
    case "roll.start":
      return `${e.rollback ? "rolling back" : "rolling"} ${e.groups.join(", ")} of cluster ${e.cluster}${forcedWith(e)}${e.reason ? ` (reason: ${e.reason})` : ""}`;
    case "lock.acquire":
      return `lock taken by ${e.holder}${e.takenOver ? ` (taken over from ${e.takenOver})` : ""}`;
    case "lock.release":
      return `lock released`;
    case "lock.kept":
      return `lock NOT released (${e.why})`;
    case "lock.wait":
      return `waiting for the cluster lock, held by ${e.holder}${e.runUrl ? ` (${e.runUrl})` : ""}: ${e.alive ? "it renews it, a run in progress" : `it stopped renewing it; free by ${e.freeBy?.slice(11, 19) ?? "?"} if it stays unchanged`}`;
    case "group.start":
      return `${e.group}: ${e.kind}, ${e.replace} of ${e.nodes} nodes to replace`;
    case "window.wait":
      return `waiting for the maintenance window (${e.until})`;
    case "note":
      return e.message;
    default:
      return nodeLine(e) ?? renderProgressLine(e);
  }
}

// src/render/progress.ts
var TIMELINE_LIMIT = 2e3;
var emptyPhases = () => ({
  setup: "pending",
  "scale-up": "pending",
  upgrade: "pending",
  "scale-down": "pending"
});
function emptyProgress() {
  return {
    replaceAll: false,
    deleteAfterDrainTimeout: false,
    groups: [],
    blocked: [],
    forced: [],
    timeline: [],
    draining: {},
    eks: {},
    holding: {},
    drainStarts: {}
  };
}
function group(p, name) {
  let g = p.groups.find((x) => x.name === name);
  if (!g) {
    g = { name, phases: emptyPhases(), nodes: 0, toReplace: 0, replaced: 0 };
    p.groups.push(g);
  }
  return g;
}
function seedFromPlan(p, plan) {
  const reached2 = new Set(reachedGroups(plan.groups).map((g) => g.name));
  for (const g of plan.groups)
    Object.assign(group(p, g.name), {
      kind: g.kind,
      nodes: g.nodes,
      toReplace: g.replacements.length,
      ...!reached2.has(g.name) && { beyondStop: true },
      planned: g.status,
      estimatedMs: g.schedule.estimatedMs,
      waves: g.schedule.waves.map((w) => ({
        nodes: w.nodes.length,
        startMs: w.startMs,
        durationMs: w.durationMs
      })),
      ...g.settings && {
        drainTimeoutMs: g.settings.drainTimeoutMs,
        deleteAfterDrainTimeout: g.settings.deleteAfterDrainTimeout
      }
    });
  p.estimatedMs = plan.summary.estimatedMs;
  return p;
}
function record(p, e) {
  const line = nodeLine(e);
  if (!line) return;
  p.timeline.push(`${e.t.slice(11, 19)} ${line}`);
  if (p.timeline.length > TIMELINE_LIMIT) p.timeline.splice(0, p.timeline.length - TIMELINE_LIMIT);
}
function onNode(p, e) {
  if (e.type === "node.drain.start") {
    p.draining[e.group] = { node: e.node, since: e.t };
    p.drainStarts[e.node] = e.t;
  }
  if (e.type === "eviction.blocked" && !e.final && !p.holding[e.group]) {
    const drainSince = p.drainStarts[e.node];
    p.holding[e.group] = {
      node: e.node,
      pod: e.pod,
      pdb: e.pdb,
      since: e.t,
      ...drainSince && { drainSince }
    };
  }
  if (e.type === "node.drain.end") {
    delete p.drainStarts[e.node];
    if (p.holding[e.group]?.node === e.node) delete p.holding[e.group];
    delete p.draining[e.group];
    for (const pod of e.deleted ?? []) if (!p.forced.includes(pod)) p.forced.push(pod);
  }
  if (e.type === "instance.terminate" && !e.warmPool) group(p, e.group).replaced += 1;
  if (e.type === "eks.update") p.eks[e.group] = `${e.updateType} ${e.status}`;
  if (e.type === "gate.verdict") {
    const g = group(p, e.group);
    g.gates ??= {};
    g.gates[e.gate] = {
      verdict: e.verdict,
      value: e.value,
      t: e.t,
      ...e.detail && { detail: e.detail }
    };
  }
  if (e.type === "eviction.blocked" && !p.blocked.includes(`${e.pod} (${e.pdb})`))
    p.blocked.push(`${e.pod} (${e.pdb})`);
}
function applyEvent(p, e) {
  record(p, e);
  if (p.rollback && e.type !== "roll.end") return p;
  switch (e.type) {
    case "roll.start":
      if (e.rollback && p.result) {
        p.rollback = { startedAt: e.t };
        break;
      }
      Object.assign(p, {
        cluster: e.cluster,
        policy: e.policy,
        replaceAll: e.replaceAll,
        deleteAfterDrainTimeout: e.deleteAfterDrainTimeout,
        startedAt: e.t,
        ...e.reason && { reason: e.reason }
      });
      for (const name of e.groups) group(p, name);
      break;
    case "roll.end":
      if (p.rollback) {
        Object.assign(p.rollback, { result: e.result, endedAt: e.t, message: e.message });
        break;
      }
      Object.assign(p, {
        result: e.result,
        message: e.message,
        endedAt: e.t,
        ...e.stop && { stop: e.stop }
      });
      delete p.lockWait;
      break;
    case "lock.wait": {
      const { type: _t, t: _at, ...wait } = e;
      p.lockWait = wait;
      break;
    }
    case "lock.acquire":
      delete p.lockWait;
      break;
    case "wait.start":
      p.waiting = { what: e.what, since: e.t };
      break;
    case "wait.end":
      delete p.waiting;
      break;
    case "group.start":
      Object.assign(group(p, e.group), {
        kind: e.kind,
        nodes: e.nodes,
        toReplace: e.replace,
        started: true,
        startedAt: e.t
      });
      break;
    case "group.end":
      Object.assign(group(p, e.group), { result: e.result, message: e.message });
      delete p.draining[e.group];
      delete p.holding[e.group];
      break;
    case "phase.start":
      group(p, e.group).phases[e.phase] = "running";
      p.lastPhaseChange = `${e.group}/${e.phase}/start`;
      break;
    case "phase.end":
      group(p, e.group).phases[e.phase] = e.result;
      p.lastPhaseChange = `${e.group}/${e.phase}/${e.result}`;
      break;
    default:
      onNode(p, e);
  }
  return p;
}
function wasBlocked(g) {
  return g.result === "failure" && (g.message?.includes("not started") ?? false);
}
function notStartedGroups(p) {
  return p.groups.filter((g) => !g.started && g.planned !== "no-change");
}
function nodeCounts(p) {
  const done = p.groups.reduce((n2, g) => n2 + g.replaced, 0);
  const planned = p.groups.reduce((n2, g) => n2 + (g.beyondStop ? 0 : g.toReplace), 0);
  return { done, total: Math.max(done, planned) };
}

// src/render/progress-markdown.ts
var PHASE_ICON = {
  pending: "·",
  running: "⏳",
  success: "✅",
  failure: "❌",
  cancelled: "⏹️",
  skipped: "—"
};
var STATE = {
  success: "✅ done",
  failure: "❌ failed",
  cancelled: "⏹️ stopped",
  skipped: "— skipped"
};
function groupState(g, p) {
  if (wasBlocked(g)) return "⛔ blocked, not started";
  if (g.result === "success") return g.toReplace === 0 ? "✅ nothing to replace" : "✅ rolled";
  if (g.result === "failure") return "❌ failed";
  if (g.result === "cancelled") return "⏹️ stopped";
  if (g.result === "skipped") return "— skipped";
  if (g.started) return "⏳ rolling";
  if (p.result) return g.planned === "no-change" ? "no change" : "not started";
  return g.planned === "blocked" ? "· pending (blocked in the plan)" : "· pending";
}
function timing(p) {
  const parts = [];
  if (p.startedAt) parts.push(`started ${readableTime(p.startedAt)}`);
  if (p.endedAt) {
    const end = readableTime(p.endedAt);
    const sameDay = p.startedAt && readableTime(p.startedAt).slice(0, -10) === end.slice(0, -10);
    parts.push(`ended ${sameDay ? end.slice(-9) : end}`);
  }
  if (p.startedAt && p.endedAt) {
    const took = new Date(p.endedAt).getTime() - new Date(p.startedAt).getTime();
    const est = p.estimatedMs ? ` (estimated ${roughly(p.estimatedMs)})` : "";
    parts.push(`took ${formatDuration(Math.round(took / 1e3) * 1e3)}${est}`);
  } else if (p.estimatedMs) parts.push(`estimated ${roughly(p.estimatedMs)}`);
  return parts.join(" · ");
}
function headerLines(p, info) {
  const { done, total } = nodeCounts(p);
  const who2 = [
    ...p.trigger ? [`trigger: ${p.trigger}`] : [],
    ...p.reason ? [`reason: ${p.reason}`] : [],
    ...forcedFlags(p).map((f) => `**${f}**`)
  ];
  const from = provenance(info);
  return [
    `**${done} of ${total} planned node${total === 1 ? "" : "s"} replaced** · ${timing(p) || "not started yet"}`,
    "",
    ...who2.length > 0 || from ? [[...who2, ...from ? [from] : []].join(" · "), ""] : []
  ];
}
function driftLines(p) {
  if (!p.drift || p.drift.length === 0) return [];
  return [
    "> [!WARNING]",
    "> **The plan applied differs from the one reviewed on the pull request:**",
    ...p.drift.slice(0, 20).map((d) => `> - ${d}`),
    ""
  ];
}
function groupTable(p) {
  const rows = p.groups.map((g, i) => {
    const phases = PHASES.map((ph) => `${PHASE_ICON[g.phases[ph]]} ${g.phases[ph]}`).join(" | ");
    const kind = g.kind ? KIND_LABEL[g.kind] : "";
    return `| ${i + 1} | \`${g.name}\` | ${kind} | ${phases} | ${g.replaced} / ${g.toReplace} | ${groupState(g, p)} |`;
  });
  return [
    `| # | group | kind | ${PHASES.join(" | ")} | nodes | state |`,
    `| -: | --- | --- | ${PHASES.map(() => ":-:").join(" | ")} | --: | --- |`,
    ...rows,
    ""
  ];
}
var bare = (m) => m.replace(/^[A-Za-z]+: /, "").replace(/\.$/, "");
function messageLines(p) {
  const out = [];
  const said2 = [];
  for (const g of p.groups)
    if (g.message) {
      out.push(`- \`${g.name}\`: ${g.message}`);
      said2.push(bare(g.message));
    }
  if (p.message && !said2.some((s) => bare(p.message).includes(s)))
    out.push(`- ${p.message}`);
  else if (p.message && /Run apply again/.test(p.message))
    out.push("- Run apply again to continue: it picks up where this run stopped.");
  return out;
}
function listed(items, max = 20) {
  const shown = items.slice(0, max).join(", ");
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}
function pdbLines(p) {
  const out = [];
  if (p.blocked.length > 0) {
    const pods = listed(p.blocked);
    const waited = `- PodDisruptionBudgets made ${p.blocked.length} eviction${p.blocked.length === 1 ? "" : "s"} wait (${pods})`;
    out.push(
      p.result !== "success" ? `- Evictions refused by PodDisruptionBudgets (retried): ${pods}` : p.forced.length === 0 ? `${waited}; they were retried until allowed, and honoured` : `${waited}; retried until allowed or until the drain timeout`
    );
  }
  if (p.forced.length > 0)
    out.push(
      `- **delete-after-drain-timeout**: deleted past their PodDisruptionBudgets at the drain timeout: ${listed(p.forced.map((x) => `\`${x}\``))}`
    );
  return out;
}
var VERDICT_ICON = { pass: "✅", fail: "❌", inconclusive: "❔" };
function gateLines(p) {
  return p.groups.flatMap((g) => {
    const gates = Object.entries(g.gates ?? {});
    if (gates.length === 0) return [];
    const read = gates.map(
      ([name, v]) => `${VERDICT_ICON[v.verdict]} ${name} ${v.value}${v.verdict !== "pass" && v.detail ? ` (${v.detail})` : ""}`
    );
    return [`- \`${g.name}\` gates, as last read: ${read.join(" · ")}`];
  });
}
function rollbackLines(p) {
  const r = p.rollback;
  if (!r) return [];
  const state = r.result ? STATE[r.result] : "⏳ in progress";
  return [`- ↩️ **rollback**: ${state}${r.message ? ` — ${r.message}` : ""}`];
}
function renderProgressMarkdown(p, title = "noderoll apply", info = {}) {
  const state = p.stop ? `${p.result === "skipped" ? "⏸️" : "⏹️"} ${STOPPED_WORD[p.stop.kind].toLowerCase()}` : p.result ? STATE[p.result] : "⏳ in progress";
  const out = [`### ${title} · \`${p.policy ?? "?"}\` · ${state}`, ""];
  out.push(...headerLines(p, info), ...driftLines(p), ...groupTable(p));
  const notes2 = [...messageLines(p), ...rollbackLines(p), ...gateLines(p), ...pdbLines(p)];
  if (notes2.length > 0) out.push(...notes2, "");
  return `${out.join("\n")}`;
}
function renderTimeline(p, max = 65535) {
  if (p.timeline.length === 0) return "";
  const lines = [...p.timeline];
  let size = lines.reduce((n2, l) => n2 + l.length + 1, 0);
  let dropped = 0;
  while (size > max - 200 && lines.length > 0) {
    size -= lines.shift().length + 1;
    dropped++;
  }
  const earlier = dropped > 0 ? [`… ${dropped} earlier lines are in the job's log`, ""] : [];
  return ["#### Node by node", "", ...earlier, "```text", ...lines, "```", ""].join("\n");
}

// src/render/check-run.ts
var TITLE_LIMIT = 250;
function cutWords(text3, max = TITLE_LIMIT) {
  if (text3.length <= max) return text3;
  const head2 = text3.slice(0, max - 1);
  const space = head2.lastIndexOf(" ");
  return `${(space > max / 2 ? head2.slice(0, space) : head2).replace(/[\s,;:·(]+$/, "")}…`;
}
var ENDED = {
  success: "Rolled",
  failure: "Failed",
  cancelled: "Stopped",
  skipped: "Skipped"
};
function withRunReason(title, p) {
  const flags = forcedFlags(p);
  const tail = p.reason ? ` · reason: ${p.reason}` : flags.length > 0 ? ` · ${flags.join(", ")}` : "";
  return cutWords(`${title}${tail}`);
}
function progressTitle(p) {
  return withRunReason(progressState(p), p);
}
function progressState(p) {
  const { done, total } = nodeCounts(p);
  const counted = total > 0 ? ` ${done}/${total} nodes` : "";
  if (p.result) {
    const blocked = p.groups.find(wasBlocked);
    const why2 = blocked ? `blocked at ${blocked.name}; ${plural(notStartedGroups(p).length, "group")} not started` : (p.message ?? "").replace(/ Run apply again.*$/, "");
    const ended2 = p.stop ? STOPPED_WORD[p.stop.kind] : ENDED[p.result];
    return cutWords(`${ended2}${counted}: ${why2}`);
  }
  const running = p.groups.flatMap(
    (g) => PHASES.filter((ph) => g.phases[ph] === "running").map((ph) => `${g.name}: ${ph}`)
  );
  const last = p.lastPhaseChange?.split("/");
  const where = running.join(", ") || (last ? `${last[0]}: ${last[1]} ${last[2] === "start" ? "started" : last[2]}` : "starting");
  return cutWords(counted ? `${where} ·${counted}` : where);
}
var CONCLUSION = {
  success: "success",
  failure: "failure",
  cancelled: "cancelled",
  skipped: "neutral"
};
function progressCheckRun(p, info = {}) {
  const summary = renderProgressMarkdown(p, "noderoll apply", info).slice(0, CHECK_OUTPUT_LIMIT);
  const text3 = renderTimeline(p, CHECK_OUTPUT_LIMIT);
  const output = { title: progressTitle(p), summary, ...text3 && { text: text3 } };
  if (!p.result) return { status: "in_progress", output };
  return { status: "completed", conclusion: CONCLUSION[p.result], output };
}

// src/render/comment.ts
function stickyMarker(policyName) {
  return `<!-- noderoll:policy:${policyName} -->`;
}
function applyMarkdown(p, plan, info, d) {
  const below = plan ? `
<details>
<summary>The plan this roll carries out</summary>

${renderPlanMarkdown(plan, d, info)}
</details>
` : "";
  return `${renderProgressMarkdown(p, "noderoll apply", info)}${below}`;
}
function applyComment(policyName, p, plan, info, reviewed) {
  return fitMarkdown(
    (d) => applyMarkdown(p, plan, info, d),
    COMMENT_LIMIT,
    `
${reviewed ? `${reviewed}
` : ""}${stickyMarker(policyName)}`,
    info.runUrl
  );
}

// src/render/status.ts
function current(p) {
  return p.groups.find((g) => g.started && !g.result);
}
function elapsedMs(p, now2) {
  return p.startedAt ? Math.max(0, now2.getTime() - new Date(p.startedAt).getTime()) : 0;
}
var FLOOR_MS = 6e4;
function wavesOf(g, estimateMs) {
  if (g.waves && g.waves.length > 0) return g.waves;
  const n2 = Math.max(1, g.toReplace);
  return Array.from({ length: n2 }, (_, i) => ({
    nodes: 1,
    startMs: i * estimateMs / n2,
    durationMs: estimateMs / n2
  }));
}
function waveOf(waves, done) {
  let through = 0;
  let doneMs = 0;
  for (const w of waves) {
    through += w.nodes;
    if (through > done) return { wave: w, doneMs };
    doneMs = w.startMs + w.durationMs;
  }
  return { doneMs };
}
function currentLeftMs(p, g, now2) {
  const estimateMs = g.estimatedMs ?? 0;
  const { wave, doneMs } = waveOf(wavesOf(g, estimateMs), g.replaced);
  const wait = heldWait(p, g, now2);
  if (wait?.forced && wave && g.drainTimeoutMs) {
    const drainMs = Math.min(wave.durationMs, g.drainTimeoutMs);
    return Math.max(FLOOR_MS, wait.leftMs + estimateMs - wave.startMs - drainMs);
  }
  const sinceStart = g.startedAt ? Math.max(0, now2.getTime() - Date.parse(g.startedAt)) : 0;
  const waveEnd = wave ? wave.startMs + wave.durationMs : estimateMs;
  const byTime = p.eks[g.name] ? sinceStart : Math.min(sinceStart, waveEnd);
  return Math.max(FLOOR_MS, estimateMs - Math.max(doneMs, byTime));
}
function remainingMs(p, now2) {
  if (!p.estimatedMs) return void 0;
  return p.groups.reduce((left2, g) => {
    if (g.result || !g.estimatedMs || g.beyondStop && !g.started) return left2;
    return left2 + (g.started ? currentLeftMs(p, g, now2) : g.estimatedMs);
  }, 0);
}
function heldWait(p, g, now2) {
  const held = g && p.holding[g.name];
  if (!g || !held?.drainSince || !g.drainTimeoutMs || noBudgetHeld(held.pdb)) return void 0;
  const leftMs = Math.max(0, Date.parse(held.drainSince) + g.drainTimeoutMs - now2.getTime());
  return {
    pdb: held.pdb,
    leftMs,
    forced: Boolean(g.deleteAfterDrainTimeout || p.deleteAfterDrainTimeout)
  };
}
function etaText(p, g, now2, brief) {
  const left2 = remainingMs(p, now2);
  if (left2 === void 0 || left2 <= 0) return "";
  const wait = heldWait(p, g, now2);
  if (!wait) return ` · ETA ${roughly(left2)}`;
  if (brief) return ` · ETA ${roughly(left2)}${wait.forced ? "" : ` once ${wait.pdb} allows`}`;
  const timeout = roughly(wait.leftMs).replace(/^~/, "");
  return wait.forced ? ` · ETA ${roughly(left2)} · PodDisruptionBudget ${wait.pdb} holds a drain: what is left is deleted at its timeout in ${timeout}` : ` · ETA ${roughly(left2)} once PodDisruptionBudget ${wait.pdb} allows; the drain times out in ${timeout}`;
}
var whole = (ms2) => formatDuration(Math.round(ms2 / 1e3) * 1e3);
function statusLine(p, now2, brief = false) {
  const g = current(p);
  const phase = g ? PHASES.find((ph) => g.phases[ph] === "running") : void 0;
  const { done, total } = nodeCounts(p);
  const where = g ? `${g.name} ${phase ?? "between phases"} ${g.replaced}/${g.toReplace}` : `${done}/${total} nodes`;
  return `${where} · ${whole(elapsedMs(p, now2))}${etaText(p, g, now2, brief)}`;
}
function heartbeatLine(p, now2) {
  const w = p.lockWait;
  if (w)
    return `waiting for the cluster lock · held by ${w.holder}${w.runUrl ? ` (${w.runUrl})` : ""} · ${w.alive ? "it renews it" : `it stopped renewing it; free by ${w.freeBy?.slice(11, 19) ?? "?"}`} · ${whole(now2.getTime() - new Date(p.startedAt ?? now2).getTime())}`;
  if (p.waiting)
    return `waiting · ${whole(now2.getTime() - new Date(p.waiting.since).getTime())} · ${p.waiting.what}`;
  const g = current(p);
  const { done, total } = nodeCounts(p);
  const doing = [];
  if (g) {
    const drain = p.draining[g.name];
    if (drain)
      doing.push(
        `draining ${drain.node} for ${whole(now2.getTime() - new Date(drain.since).getTime())}`
      );
    const held = holdingLine(p, g);
    if (held) doing.push(held);
    if (p.eks[g.name]) doing.push(`EKS ${p.eks[g.name]}`);
  }
  const what = doing.length > 0 ? `: ${doing.join("; ")}` : "";
  return `still rolling · ${statusLine(p, now2, true)} · ${done}/${total} nodes in all${what}`;
}
function holdingLine(p, g) {
  const held = p.holding[g.name];
  if (!held) return void 0;
  const by = noBudgetHeld(held.pdb) ? `${held.pod} holds the drain of ${held.node}` : `PodDisruptionBudget ${held.pdb} holds ${held.pod} on ${held.node}`;
  const until = held.drainSince && g.drainTimeoutMs ? `; at ${new Date(Date.parse(held.drainSince) + g.drainTimeoutMs).toISOString().slice(11, 19)} its drain times out and ${g.deleteAfterDrainTimeout ? "what is left is deleted (deleteAfterDrainTimeout)" : "the roll stops (PodEvictionFailure)"}` : "";
  return `${by} since ${held.since.slice(11, 19)}${until}`;
}
var HEARTBEAT_MS = 3e4;
function heartbeatDue(p, now2, lastWritten) {
  if (p.result || !p.startedAt) return void 0;
  if (lastWritten !== void 0 && now2.getTime() - lastWritten < HEARTBEAT_MS) return void 0;
  return `${now2.toISOString().slice(11, 19)} ${heartbeatLine(p, now2)}`;
}

// src/app/progress.ts
var AT_ONCE = /* @__PURE__ */ new Set([
  "phase.start",
  "phase.end",
  "group.start",
  "group.end"
]);
function sendsAtOnce(e) {
  return AT_ONCE.has(e.type);
}
var ProgressFeed = class {
  constructor(progress, send) {
    this.progress = progress;
    this.send = send;
  }
  progress;
  send;
  event = (e) => {
    applyEvent(this.progress, e);
    if (e.type !== "roll.end") this.send(structuredClone(this.progress), sendsAtOnce(e));
  };
};

// src/cli/args.ts
import { parseArgs } from "node:util";

// src/adapters/files/read-policy.ts
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
function fileError(file, message) {
  const d = { file, line: 1, col: 1, path: "", message, severity: "error" };
  return { ok: false, errors: [d], warnings: [] };
}
function readPolicyFile(path, file = path) {
  const text3 = readYamlText(path, file, "a policy file");
  return typeof text3 === "string" ? loadPolicy(text3, file) : text3;
}
function readYamlText(path, file, what) {
  let fd;
  try {
    if (statSync(path).isDirectory()) return fileError(file, `is a directory; expected ${what}`);
    fd = openSync(path, "r");
  } catch (e) {
    const code = e.code;
    return fileError(
      file,
      code === "ENOENT" ? "no such file" : `cannot be read (${code ?? String(e)})`
    );
  }
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, MAX_POLICY_BYTES) + 1);
    const n2 = readSync(fd, buffer, 0, buffer.length, 0);
    if (n2 > MAX_POLICY_BYTES) return fileError(file, sizeMessage(size));
    if (buffer[0] === 255 && buffer[1] === 254 || buffer[0] === 254 && buffer[1] === 255) {
      return fileError(file, "is saved as UTF-16; save it as UTF-8");
    }
    const text3 = buffer.subarray(0, n2).toString("utf8");
    if (text3.includes("\0")) return fileError(file, "is a binary file, not YAML");
    return text3.replace(/^\uFEFF/, "");
  } finally {
    closeSync(fd);
  }
}

// src/cli/heap.ts
import { spawn } from "node:child_process";
import { constants, totalmem } from "node:os";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
var RELAUNCHED_ENV = "NODEROLL_HEAP_RAISED";
var LIVE_BYTES_PER_POD = 1e3;
var LIVE_BYTES_PER_NODE = 4e3;
var FULL_SHARE = 1 / 3;
var ROOM = 2.5;
var MEMORY_SHARE = 0.75;
var WORTH = 1.25;
var MIB = 1024 * 1024;
var liveBytes = (scale, worlds) => worlds * (scale.pods * LIVE_BYTES_PER_POD + scale.nodes * LIVE_BYTES_PER_NODE);
function heapFor(scale, worlds, limitBytes, memoryBytes2) {
  const live = liveBytes(scale, worlds);
  if (live <= limitBytes * FULL_SHARE) return void 0;
  const to = Math.min(live * ROOM, memoryBytes2 * MEMORY_SHARE);
  if (to < limitBytes * WORTH) return void 0;
  return { fromMiB: Math.round(limitBytes / MIB), toMiB: Math.floor(to / MIB) };
}
var HeapTooSmall = class extends Error {
  constructor(choice, pods) {
    super(`a sandbox world of ${pods} pods needs --max-old-space-size=${choice.toMiB}`);
    this.choice = choice;
    this.pods = pods;
  }
  choice;
  pods;
};
function memoryBytes() {
  const limit = process.constrainedMemory();
  return limit > 0 ? Math.min(limit, totalmem()) : totalmem();
}
function checkHeapFor(scale, worlds = 1) {
  if (relaunched()) return;
  const choice = heapFor(scale, worlds, getHeapStatistics().heap_size_limit, memoryBytes());
  if (choice) throw new HeapTooSmall(choice, scale.pods * worlds);
}
var FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGWINCH", "SIGCONT"];
var RERAISED = /* @__PURE__ */ new Set(["SIGINT", "SIGTERM", "SIGHUP"]);
function nodeFlags() {
  const out = [];
  const flags = process.execArgv;
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i];
    if (/^--(inspect|debug)/.test(flag)) {
      if (/^--(inspect|debug)-port$/.test(flag)) i++;
      continue;
    }
    out.push(flag);
  }
  return out;
}
function relaunch(e, argv) {
  process.stderr.write(
    `noderoll: a sandbox world of ${e.pods.toLocaleString("en-US")} pods: running again with --max-old-space-size=${e.choice.toMiB} (the heap limit was ${e.choice.fromMiB.toLocaleString("en-US")} MiB)
`
  );
  const flags = [...nodeFlags(), `--max-old-space-size=${e.choice.toMiB}`];
  const child = spawn(process.execPath, [...flags, ...argv], {
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    detached: true,
    env: { ...process.env, [RELAUNCHED_ENV]: "1" }
  });
  const handlers = /* @__PURE__ */ new Map();
  for (const s of FORWARDED) handlers.set(s, () => void child.kill(s));
  handlers.set("SIGTSTP", () => {
    child.kill("SIGSTOP");
    process.kill(process.pid, "SIGSTOP");
  });
  for (const [s, h] of handlers) process.on(s, h);
  const done = () => {
    for (const [s, h] of handlers) process.off(s, h);
    if (child.connected) child.disconnect();
  };
  return new Promise((resolve, reject) => {
    child.once("error", (err) => {
      done();
      reject(err);
    });
    child.once("exit", (code, signal) => {
      done();
      if (signal && RERAISED.has(signal)) process.kill(process.pid, signal);
      else if (signal)
        process.stderr.write(
          `noderoll: the run with --max-old-space-size=${e.choice.toMiB} ended on ${signal}
`
        );
      resolve(signal ? 128 + (constants.signals[signal] ?? 0) : code ?? 1);
    });
  });
}
function followParent() {
  if (!relaunched() || !process.channel) return;
  process.channel.unref();
  process.once("disconnect", () => {
    if (process.listenerCount("disconnect") === 0) process.kill(process.pid, "SIGTERM");
  });
}
var relaunched = () => Boolean(process.env[RELAUNCHED_ENV]);
var ROOMY_SHARE = 1 / 4;
var GROWING_PERCENT = 1500;
function roomToGrow(scale, worlds, limitBytes) {
  return liveBytes(scale, worlds) <= limitBytes * ROOMY_SHARE;
}
function builtWithRoom(scale, worlds, build) {
  const limit = getHeapStatistics().heap_size_limit;
  if (v8FlagGiven("heap-growing-percent") || !roomToGrow(scale, worlds, limit)) return build();
  setFlagsFromString(`--heap-growing-percent=${GROWING_PERCENT}`);
  try {
    return build();
  } finally {
    setFlagsFromString("--heap-growing-percent=0");
  }
}

// src/cli/args.ts
var UsageError = class extends Error {
};
function policyOrExit(file, hints) {
  if (!file) throw new UsageError("--policy FILE is required");
  const r = readPolicyFile(file);
  if (!relaunched()) for (const w of r.warnings) process.stderr.write(`${formatDiagnostic(w)}
`);
  if (!r.ok) {
    for (const e of r.errors) process.stderr.write(`${formatDiagnostic(e)}
`);
    process.stderr.write(`${file}: invalid policy; nothing was read or changed
`);
    return { exitCode: 1 };
  }
  Object.assign(hints, { cluster: r.policy.cluster.name, region: r.policy.cluster.region });
  return { policy: r.policy };
}
function splitList(value) {
  const items = value?.split(",").map((s) => s.trim()).filter(Boolean);
  return items && items.length > 0 ? items : void 0;
}
function durationArg(name, value, parse2) {
  if (value === void 0) return void 0;
  const ms2 = parse2(value);
  if (ms2 === void 0)
    throw new UsageError(`${name} takes a duration such as 5h30m, not ${value}`);
  return ms2;
}
function groupsOf(policy, value) {
  const groups2 = splitList(value);
  if (value !== void 0 && !groups2)
    throw new GroupsError(
      `--groups ${JSON.stringify(value)} names no group; name groups (comma-separated), or leave --groups out to roll every group`
    );
  const problem = unknownGroupsProblem(policy, groups2, "--groups");
  if (problem) throw new GroupsError(problem);
  return groups2;
}
var GroupsError = class extends UsageError {
};
function runFlags(values, reason) {
  if (values.force) throw new UsageError(forceSplit((n2) => `--${n2}`));
  const options = {
    replaceAll: values["replace-all"],
    deleteAfterDrainTimeout: values["delete-after-drain-timeout"]
  };
  if (reason && forced(options) && !reason.reason?.trim())
    throw new UsageError(
      `${options.replaceAll ? "--replace-all" : "--delete-after-drain-timeout"} needs --reason: say why the roll is forced (it is recorded with the result)`
    );
  return options;
}
function parseFlags(args, options, positionals = false) {
  for (const [name, o] of Object.entries(options)) {
    if (o.type !== "string" || o.multiple) continue;
    const given = args.filter((a) => a === `--${name}` || a.startsWith(`--${name}=`)).length;
    if (given > 1) throw new UsageError(`--${name} is given ${given} times; give it once`);
  }
  try {
    return parseArgs({ args, options, allowPositionals: positionals });
  } catch (e) {
    const m = /^Unknown option '(--[^']+)'/.exec(e.message);
    if (!m) throw e;
    const flag = m[1];
    const guess = closest(
      flag,
      Object.keys(options).map((k) => `--${k}`)
    );
    throw new UsageError(`unknown flag ${flag}${guess ? `; did you mean ${guess}?` : ""}`);
  }
}

// src/cli/flags.ts
var RUN_FLAGS = {
  "replace-all": {
    type: "boolean",
    default: false,
    help: "replace every node of the groups, whatever its version (kOps' --force); apply needs --reason"
  },
  "delete-after-drain-timeout": {
    type: "boolean",
    default: false,
    help: "what a drain leaves at its timeout is deleted, past PodDisruptionBudgets (EKS's force); apply needs --reason"
  },
  force: {
    type: "boolean",
    default: false,
    help: "refused: it meant three things; use --replace-all, --delete-after-drain-timeout or the policy's unmanagedPods"
  }
};
var CONNECT_FLAGS = {
  policy: { type: "string", arg: "FILE", help: "the upgrade policy (required)" },
  sandbox: {
    type: "string",
    arg: "S",
    help: "a sandbox scenario instead of a live cluster: demo, or a scenario file"
  },
  kubeconfig: {
    type: "string",
    arg: "PATH",
    help: "the Kubernetes API from this kubeconfig; default: the endpoint EKS names, with an EKS token"
  }
};
var SOURCE_FLAGS = {
  ...CONNECT_FLAGS,
  groups: { type: "string", arg: "a,b", help: "only these groups of the policy" }
};
var PLAN_OPTIONS = {
  ...SOURCE_FLAGS,
  format: {
    type: "string",
    default: "text",
    arg: "text|markdown|json",
    help: "how to print the plan"
  },
  "detailed-exitcode": {
    type: "boolean",
    default: false,
    help: "exit 0 when nothing would change, 2 when something would"
  },
  out: {
    type: "string",
    arg: "FILE",
    help: "also save the plan to FILE, for `apply FILE` to carry out exactly (refused there if a decision in it no longer holds)"
  },
  ...RUN_FLAGS,
  rehearse: {
    type: "boolean",
    default: false,
    help: "also run the roll on a sandbox twin of the cluster, in virtual time (docs/rehearsal.md)"
  },
  "rehearse-events": {
    type: "string",
    arg: "FILE.jsonl",
    help: "write the rehearsal's event log here"
  },
  "rehearse-timing": {
    type: "string",
    arg: "boot=90s,...",
    help: "timings the rehearsal assumes where the cluster cannot show them"
  }
};
var APPLY_OPTIONS = {
  ...SOURCE_FLAGS,
  policy: {
    type: "string",
    arg: "FILE",
    help: "the upgrade policy (required; with `apply FILE`, the saved plan names it)"
  },
  events: {
    type: "string",
    arg: "FILE.jsonl",
    help: "write the roll's event log here, a line an event"
  },
  ...RUN_FLAGS,
  reason: {
    type: "string",
    arg: "TEXT",
    help: "why (required with a forced roll); recorded with the result"
  },
  "max-duration": {
    type: "string",
    arg: "5h30m",
    help: "start no node after this long; exit 3, run again to continue"
  },
  "ignore-window": {
    type: "boolean",
    default: false,
    help: "start nodes outside the policy's maintenance window"
  },
  "lock-wait": {
    type: "string",
    arg: "10m",
    help: "wait this long for another run's cluster lock (default: do not wait)"
  },
  "run-id": {
    type: "string",
    arg: "ID",
    help: "this run's name on the cluster lock (default: host and process)"
  },
  out: { type: "string", arg: "DIR", help: "write the plan, the events and the report here" },
  quiet: { type: "boolean", default: false, help: "do not print the plan before rolling" },
  "auto-approve": {
    type: "boolean",
    default: false,
    help: "on a terminal, roll without asking (off a terminal nothing is asked)"
  }
};
var APPLY_ARGUMENTS = {
  FILE: "a plan saved by `plan --out FILE`: carried out exactly, without asking; refused (exit 1, nothing changed) if a decision in it no longer holds. It fixes --policy, --groups, --replace-all and --delete-after-drain-timeout"
};
var FIXED_BY_SAVED_PLAN = [
  "policy",
  "groups",
  "replace-all",
  "delete-after-drain-timeout"
];
var CONTROL_OPTIONS = {
  ...CONNECT_FLAGS,
  reason: {
    type: "string",
    arg: "TEXT",
    help: "why; recorded on the cluster's Lease and in the stopped run's result"
  }
};
var ABORT_OPTIONS = {
  ...CONTROL_OPTIONS,
  rollback: {
    type: "boolean",
    help: "then roll back: the run holding the cluster does, once stopped; with none, this command does (as noderoll rollback)"
  }
};
function flagLines(options, args = {}) {
  const rows = [
    ...Object.entries(args),
    ...Object.entries(options).map(([name, o]) => [`--${name}${o.arg ? ` ${o.arg}` : ""}`, o.help])
  ];
  const width = Math.max(...rows.map(([head2]) => head2.length)) + 2;
  return rows.map(([head2, help]) => `    ${head2.padEnd(width)}${help}`).join("\n");
}
var FLEET_OPTIONS = {
  fleet: { type: "string", arg: "FILE", help: "the fleet file (required)" },
  sandbox: {
    type: "string",
    multiple: true,
    arg: "S",
    help: "sandbox scenarios instead of live clusters, one per cluster (again for each): one account, one virtual clock"
  },
  format: {
    type: "string",
    default: "text",
    arg: "text|markdown|json",
    help: "how to print the fleet's plan (json: its `due` list is a workflow's matrix)"
  },
  "retry-failed": {
    type: "boolean",
    default: false,
    help: "the clusters that failed are due again, with the same pinned release"
  },
  every: {
    type: "string",
    arg: "1h",
    help: "apply with --sandbox: run again every this long of virtual time until the fleet is done, halted or paused — a whole rollout, soaks included, in seconds"
  },
  only: {
    type: "string",
    arg: "POLICY",
    help: "apply: roll only this policy's cluster, and only if the fleet says it is due (a matrix job)"
  },
  reason: {
    type: "string",
    arg: "TEXT",
    help: "why (pause: recorded on every cluster of the fleet)"
  },
  "run-id": {
    type: "string",
    arg: "ID",
    help: "this run's name in the fleet's records and the clusters' locks (default: host and process)"
  }
};
var VALIDATE_OPTIONS = {
  format: {
    type: "string",
    default: "text",
    arg: "text|json",
    help: "how to print the result: each error as file:line:col, or JSON"
  }
};
var SERVE_OPTIONS = {
  scenario: {
    type: "string",
    multiple: true,
    arg: "S",
    help: "demo (default) or a scenario file; again for each more cluster (at most 8, one account)"
  },
  port: { type: "string", arg: "N", help: "the HTTP port on 127.0.0.1 (default: any free one)" },
  kubeconfig: {
    type: "string",
    arg: "PATH",
    help: "write the first cluster's kubeconfig here, each other's with its name inserted"
  },
  speed: {
    type: "string",
    arg: "X",
    help: "virtual seconds per real second (default 1; time also jumps while every client waits)"
  },
  repo: {
    type: "string",
    arg: "OWNER/NAME",
    help: "the repository the GitHub API serves (default octo-org/infra)"
  },
  pull: {
    type: "string",
    multiple: true,
    arg: "N:FILE[,FILE]",
    help: "an open pull request N changing these files; again for each"
  },
  "read-only-token": {
    type: "string",
    multiple: true,
    arg: "TOKEN",
    help: "a token that may only read (a fork's); again for each"
  }
};
var GENERATE_OPTIONS = {
  nodes: { type: "string", arg: "N", help: "nodes in all (required)" },
  groups: { type: "string", arg: "G", help: "node groups to spread them over (default 4)" },
  "pods-per-node": { type: "string", arg: "P", help: "workload pods per node (default 30)" },
  seed: { type: "string", arg: "S", help: "the same scenario for the same seed (default 1)" },
  cluster: {
    type: "string",
    arg: "NAME",
    help: "the cluster's name (default generated), also starting its groups' names"
  },
  "policy-out": {
    type: "string",
    arg: "FILE",
    help: "also write a policy covering the scenario's groups here"
  }
};

// src/rehearsal/recent.ts
var RECENT_MS = 7 * 864e5;
function isRecentNode(n2, now2) {
  const created = Date.parse(n2.metadata.creationTimestamp ?? "");
  return Number.isFinite(created) && now2 - created <= RECENT_MS;
}

// src/rehearsal/timings.ts
var REHEARSAL_TIMINGS = {
  boot: 60,
  bootJitter: 15,
  register: 10,
  nodeReady: 20,
  terminate: 30,
  nodeDelete: 10,
  podShutdown: 2,
  podStart: 5,
  podReady: 5
};
var PLAUSIBLE_S = 30 * 60;
function podStartup(p, now2) {
  const scheduled = transition(p.status.conditions, "PodScheduled");
  const ready = transition(p.status.conditions, "Ready");
  if (scheduled === void 0 || ready === void 0 || now2 - ready > RECENT_MS) return void 0;
  const s = (ready - scheduled) / 1e3;
  return s > 0 && s < PLAUSIBLE_S ? s : void 0;
}
var NEVER_READY_S = PLAUSIBLE_S;
function stuckUnready(p, now2) {
  if (p.status.phase !== "Running" && p.status.phase !== "Pending") return false;
  if (p.status.conditions?.some((c) => c.type === "Ready" && c.status === "True")) return false;
  const since = transition(p.status.conditions, "PodScheduled") ?? Date.parse(p.status.startTime ?? "");
  return Number.isFinite(since) && (now2 - since) / 1e3 > NEVER_READY_S;
}
function median(xs) {
  if (xs.length === 0) return void 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
var transition = (cs, type) => {
  const t = cs?.find((c) => c.type === type && c.status === "True")?.lastTransitionTime;
  return t ? Date.parse(t) : void 0;
};
function observedNodes(snapshot, live) {
  const now2 = snapshot.takenAt.getTime();
  const toNode = [];
  const toReady = [];
  for (const n2 of live.nodes) {
    if (!isRecentNode(n2, now2)) continue;
    const created = Date.parse(n2.metadata.creationTimestamp ?? "");
    const launch2 = live.launched.get(instanceIdOf(n2) ?? "")?.getTime();
    if (launch2 !== void 0) toNode.push((created - launch2) / 1e3);
    const ready = transition(n2.status.conditions, "Ready");
    if (ready !== void 0 && hasReadyCondition(n2.status.conditions))
      toReady.push((ready - created) / 1e3);
  }
  const ok = (xs) => xs.filter((x) => x > 0 && x < PLAUSIBLE_S);
  return { toNode: ok(toNode), toReady: ok(toReady) };
}
function twinTimings(snapshot, live, overrides = {}) {
  const values = { ...REHEARSAL_TIMINGS };
  const sources = Object.fromEntries(
    Object.keys(REHEARSAL_TIMINGS).map((k) => [k, "default"])
  );
  if (live.physics) {
    Object.assign(values, live.physics.timings);
    for (const k of Object.keys(sources))
      if (k in live.physics.timings)
        sources[k] = `the sandbox's own (${live.physics.name})`;
  }
  const seen3 = live.physics ? { toNode: [], toReady: [] } : observedNodes(snapshot, live);
  const toNode = median(seen3.toNode);
  if (toNode !== void 0) {
    values.boot = Math.max(1, toNode - values.register);
    values.bootJitter = 0;
    sources.boot = `observed (median of ${seen3.toNode.length} recent nodes' launch to registration)`;
  }
  const toReady = median(seen3.toReady);
  if (toReady !== void 0) {
    values.nodeReady = toReady;
    sources.nodeReady = `observed (median of ${seen3.toReady.length} recent nodes' registration to Ready)`;
  }
  for (const [k, v] of Object.entries(overrides)) {
    if (v === void 0 || !(k in REHEARSAL_TIMINGS)) continue;
    values[k] = v;
    sources[k] = "given";
  }
  const { podStart, podReady, ...scenario } = values;
  return { values: scenario, sources, pod: { start: podStart, ready: podReady } };
}
function givenTimings(written) {
  const out = {};
  for (const [k, v] of Object.entries(written ?? {})) {
    const ms2 = v === void 0 ? void 0 : parseDuration(v);
    if (ms2 !== void 0) out[k] = ms2 / 1e3;
  }
  return out;
}

// src/rehearsal/live.ts
var OWNER_KINDS = /* @__PURE__ */ new Set([
  "ReplicaSet",
  "Deployment",
  "StatefulSet",
  "DaemonSet"
]);
function controllerOf2(o) {
  return o.metadata.ownerReferences?.find((r) => r.controller) ?? o.metadata.ownerReferences?.[0];
}
async function owners(cluster, pods) {
  const out = /* @__PURE__ */ new Map();
  const wanted2 = /* @__PURE__ */ new Map();
  for (const p of pods) {
    const o = controllerOf2(p);
    if (!o || !OWNER_KINDS.has(o.kind)) continue;
    const ns = p.metadata.namespace ?? "default";
    wanted2.set(`${o.kind}/${ns}/${o.name}`, { kind: o.kind, ns, name: o.name });
  }
  const read = async (k) => {
    const key = `${k.kind}/${k.ns}/${k.name}`;
    if (out.has(key)) return;
    const w = await cluster.getWorkload(k.kind, k.ns, k.name).catch((e) => {
      if (e instanceof KubeApiError && e.status === 404) return void 0;
      throw e;
    });
    if (w) out.set(key, w);
    const parent = w && k.kind === "ReplicaSet" ? controllerOf2(w) : void 0;
    if (parent?.kind === "Deployment")
      await read({ kind: "Deployment", ns: k.ns, name: parent.name });
  };
  await mapLimit([...wanted2.values()], CONCURRENCY, read);
  return out;
}
async function readLiveCluster(ports, signal, instances = /* @__PURE__ */ new Set()) {
  const options = { ...signal && { signal } };
  const cluster = resilient(ports.cluster, ports.clock, options);
  const [nodes, pods, pdbs] = await Promise.all([
    listAll((c) => cluster.listNodes(pageOf(c))).then((r) => r.items),
    listAll((c) => cluster.listPods(void 0, pageOf(c))).then((r) => r.items),
    listAll((c) => cluster.listPodDisruptionBudgets(void 0, pageOf(c))).then((r) => r.items)
  ]);
  const cloud = resilient(ports.cloud, ports.clock, options);
  const launched = await recentLaunches(cloud, nodes, instances, ports.clock.now().getTime());
  return { nodes, pods, pdbs, owners: await owners(cluster, pods), launched };
}
async function recentLaunches(cloud, nodes, instances, now2) {
  const ids = nodes.filter((n2) => isRecentNode(n2, now2)).flatMap((n2) => instanceIdOf(n2) ?? []).filter((id2) => instances.has(id2));
  return launchTimes(cloud, ids).catch((e) => {
    if (e instanceof AwsApiError && e.code.startsWith("InvalidInstanceID")) return /* @__PURE__ */ new Map();
    throw e;
  });
}
function physicsOf(world) {
  return {
    name: world.scenario.metadata.name,
    seed: world.scenario.seed,
    timings: { ...world.scenario.timings }
  };
}

// src/rehearsal/watch.ts
var EVERY_MS = 5e3;
var STALL_MS = 3e4;
var RehearsalWatch = class {
  constructor(world) {
    this.world = world;
    this.start = world.clock.nowMs();
    this.baseline = this.instances();
    this.tick();
  }
  world;
  start;
  baseline;
  stopped = false;
  peakExtraNodes = 0;
  peakRequestsPerMinute = 0;
  calls = [];
  open = /* @__PURE__ */ new Map();
  pending = [];
  instances() {
    let n2 = 0;
    for (const i of this.world.ec2.instances.values())
      if (i.state === "pending" || i.state === "running") n2++;
    return n2;
  }
  totalCalls() {
    let n2 = 0;
    for (const v of this.world.calls.values()) n2 += v;
    return n2;
  }
  tick = () => {
    if (this.stopped) return;
    const now2 = this.world.clock.nowMs();
    this.peakExtraNodes = Math.max(this.peakExtraNodes, this.instances() - this.baseline);
    this.sampleCalls(now2);
    this.samplePending(now2);
    this.world.clock.after(EVERY_MS, this.tick);
  };
  sampleCalls(now2) {
    this.calls.push({ at: now2, total: this.totalCalls() });
    while (this.calls.length > 1 && now2 - this.calls[0].at > 6e4) this.calls.shift();
    const first = this.calls[0];
    this.peakRequestsPerMinute = Math.max(
      this.peakRequestsPerMinute,
      this.totalCalls() - first.total
    );
  }
  samplePending(now2) {
    const by = /* @__PURE__ */ new Map();
    for (const p of this.world.kube.pending) {
      const key = p.workload?.key ?? `Pod/${p.namespace}/${p.name}`;
      by.set(key, (by.get(key) ?? 0) + 1);
    }
    for (const [key, n2] of by) {
      const o = this.open.get(key) ?? { from: now2, max: 0 };
      o.max = Math.max(o.max, n2);
      this.open.set(key, o);
    }
    for (const [key, o] of [...this.open]) if (!by.has(key)) this.close(key, o, now2);
  }
  close(key, o, now2) {
    this.open.delete(key);
    if (now2 - o.from >= STALL_MS)
      this.pending.push({
        workload: key,
        fromMs: o.from - this.start,
        forMs: now2 - o.from,
        maxPods: o.max
      });
  }
  stop() {
    const now2 = this.world.clock.nowMs();
    for (const [key, o] of [...this.open]) this.close(key, o, now2);
    this.stopped = true;
  }
};

// src/rehearsal/report.ts
var at3 = (e) => Date.parse(e.t);
function groups(events, start) {
  const out = [];
  for (const e of events) {
    if (e.type === "group.start" && !out.some((x) => x.group === e.group))
      out.push({ group: e.group, durationMs: 0, phases: [], result: "running" });
    const g = e.group ? out.find((x) => x.group === e.group) : void 0;
    if (!g) continue;
    if (e.type === "phase.start")
      g.phases.push({ phase: e.phase, startMs: at3(e) - start, endMs: at3(e) - start });
    if (e.type === "phase.end") {
      const p = g.phases.findLast((x) => x.phase === e.phase);
      if (p) p.endMs = at3(e) - start;
    }
    if (e.type === "group.end" && g.result !== "success") {
      const begun = events.find((x) => x.type === "group.start" && x.group === e.group);
      g.durationMs = at3(e) - at3(begun);
      g.result = e.result;
    }
  }
  return out;
}
function pdbStalls(world, events, start, end) {
  const out = [];
  const seen3 = /* @__PURE__ */ new Set();
  const timeline = world.timeline.events;
  const twinEnds = /* @__PURE__ */ new Map();
  const rollEnds = /* @__PURE__ */ new Map();
  const note2 = (ends, node, ms2) => {
    if (typeof node !== "string") return;
    const list3 = ends.get(node);
    if (list3) list3.push(ms2);
    else ends.set(node, [ms2]);
  };
  for (const x of timeline) if (x.type === "node.drain.end") note2(twinEnds, x.node, x.at);
  for (const x of events) if (x.type === "node.drain.end") note2(rollEnds, x.node, at3(x));
  const firstEnd = (ends, node, from) => ends.get(node)?.find((ms2) => ms2 >= from);
  for (const e of timeline) {
    if (e.type !== "eviction.blocked" || typeof e.pod !== "string" || seen3.has(e.pod)) continue;
    seen3.add(e.pod);
    const node = typeof e.node === "string" ? e.node : "";
    const done = firstEnd(twinEnds, node, e.at) ?? firstEnd(rollEnds, node, e.at);
    const forMs = (done ?? end) - e.at;
    if (forMs < STALL_MS) continue;
    out.push({
      kind: "pdb",
      object: e.pod,
      ...typeof e.pdb === "string" && { by: e.pdb },
      node,
      fromMs: e.at - start,
      forMs
    });
  }
  return out;
}
function forced2(events, start) {
  return events.flatMap(
    (e) => e.type === "node.drain.end" && e.deleted?.length ? e.deleted.map((pod) => ({
      kind: "deleted",
      object: pod,
      node: e.node,
      fromMs: at3(e) - start,
      forMs: 0
    })) : []
  );
}
function timeBelow(samples, floor, start, end) {
  let ms2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i];
    const from = Math.max(s.at, start);
    const to = Math.min(samples[i + 1]?.at ?? end, end);
    if (to > from && s.available < floor) ms2 += to - from;
  }
  return ms2;
}
function pdbFloor(world, w, desired) {
  const scaled2 = (v) => typeof v === "number" ? v : Math.ceil(Number(v.replace("%", "")) * desired / 100);
  const first = w.pods.values().next().value;
  if (!first) return 0;
  for (const b of world.kube.pdbs.get(w.namespace) ?? []) {
    if (!b.pods.has(first)) continue;
    if (b.minAvailable !== void 0) return scaled2(b.minAvailable);
    if (b.maxUnavailable !== void 0) return desired - scaled2(b.maxUnavailable);
  }
  return 0;
}
function workloads(world, start, end) {
  const out = [];
  for (const w of world.kube.workloads.values()) {
    if (w.kind !== "Deployment" && w.kind !== "StatefulSet") continue;
    const samples = world.availability.samples(w.key);
    const during = samples.filter((s) => s.at >= start && s.at <= end);
    const before = samples.filter((s) => s.at < start).at(-1);
    const seen3 = [...before ? [before] : [], ...during];
    const floor = pdbFloor(world, w, w.replicas);
    out.push({
      kind: w.kind,
      namespace: w.namespace,
      name: w.name,
      desired: w.replicas,
      minReady: Math.min(...seen3.map((s) => s.available)),
      msBelowPdb: floor > 0 ? timeBelow(samples, floor, start, end) : 0,
      msAtZero: timeBelow(samples, 1, start, end)
    });
  }
  return out.sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
}
function rehearsalReport(world, events, watch, result) {
  const start = at3(events[0]);
  const end = at3(events.at(-1));
  return {
    result: result.result,
    message: result.message,
    durationMs: end - start,
    groups: groups(events, start),
    workloads: workloads(world, start, end),
    stalls: [
      ...pdbStalls(world, events, start, end),
      ...watch.pending.map((p) => ({
        kind: "pending",
        object: p.workload,
        fromMs: p.fromMs,
        forMs: p.forMs,
        pods: p.maxPods
      })),
      ...forced2(events, start)
    ],
    peakExtraNodes: watch.peakExtraNodes,
    peakRequestsPerMinute: watch.peakRequestsPerMinute
  };
}
function stoppedWhereApplyStops(report2, plan) {
  const stop = plan.summary.stopsAt;
  if (!stop) return report2;
  const after = plan.groups.slice(stop.index + 1).map((g) => g.name);
  const row = (group3, result) => ({ group: group3, durationMs: 0, result, phases: [] });
  return {
    ...report2,
    result: "failure",
    message: `Stopped at group ${stop.index + 1} ${stop.group} (${stop.status}), where apply stops${after.length > 0 ? `; not reached: ${after.join(", ")}` : ""}.`,
    groups: [
      ...report2.groups,
      row(stop.group, stop.status),
      ...after.map((g) => row(g, "not reached"))
    ]
  };
}

// src/rehearsal/workloads.ts
var NEVER_READY_TWIN_S = 365 * 86400;
var PER_POD = /* @__PURE__ */ new Set([
  "pod-template-hash",
  "controller-revision-hash",
  "statefulset.kubernetes.io/pod-name",
  "pod-template-generation",
  "apps.kubernetes.io/pod-index"
]);
function workloadOf(p, owners2) {
  const namespace = p.metadata.namespace ?? "default";
  const o = p.metadata.ownerReferences?.find((r) => r.controller) ?? p.metadata.ownerReferences?.[0];
  if (o?.kind === "StatefulSet" || o?.kind === "DaemonSet")
    return { kind: o.kind, namespace, name: o.name };
  if (o?.kind === "ReplicaSet") {
    const rs = owners2.get(`ReplicaSet/${namespace}/${o.name}`);
    const d = rs?.metadata.ownerReferences?.find((r) => r.kind === "Deployment");
    return { kind: "Deployment", namespace, name: d?.name ?? o.name };
  }
  return { kind: "Pod", namespace, name: p.metadata.name };
}
function requests(p) {
  let cpu = 0;
  let memory = 0;
  for (const c of p.spec.containers) {
    cpu += parseCpu(c.resources?.requests?.cpu ?? "0") || 0;
    memory += parseMemory(c.resources?.requests?.memory ?? "0") || 0;
  }
  return { cpu: formatCpu(cpu), memory: formatMemory(memory) };
}
function preStop(p) {
  let s = 0;
  for (const c of p.spec.containers) {
    const hook = c.lifecycle?.preStop;
    const n2 = hook?.sleep?.seconds ?? Number(/\bsleep\s+(\d+)/.exec(hook?.exec?.command.join(" ") ?? "")?.[1] ?? 0);
    s = Math.max(s, n2);
  }
  return s;
}
function replicas(key, pods, owners2) {
  if (key.kind === "Pod" || key.kind === "DaemonSet") return 1;
  const w = owners2.get(`${key.kind}/${key.namespace}/${key.name}`);
  return w?.spec.replicas ?? pods.length;
}
function workload(key, pods, live, t, now2) {
  const p = pods[0];
  const labels = Object.fromEntries(
    Object.entries(p.metadata.labels ?? {}).filter(([k]) => !PER_POD.has(k))
  );
  const startup = median(pods.flatMap((x) => podStartup(x, now2) ?? []));
  const stuck = pods.every((x) => stuckUnready(x, now2));
  return {
    kind: key.kind,
    name: key.name,
    namespace: key.namespace,
    replicas: replicas(key, pods, live.owners),
    labels,
    requests: requests(p),
    tolerations: (p.spec.tolerations ?? []).map(({ tolerationSeconds: _s, ...t2 }) => t2),
    nodeSelector: p.spec.nodeSelector ?? {},
    terminationGracePeriod: p.spec.terminationGracePeriodSeconds ?? 30,
    preStop: preStop(p),
    start: startup !== void 0 ? Math.max(0, startup - t.pod.ready) : t.pod.start,
    ready: stuck ? NEVER_READY_TWIN_S : t.pod.ready,
    readinessProbe: p.spec.containers.some((c) => c.readinessProbe !== void 0)
  };
}
var SKIP = (p) => isFinished(p.status.phase) || isMirrorPod(p);
function twinWorkloads(live, t, now2) {
  const groups2 = /* @__PURE__ */ new Map();
  for (const p of live.pods) {
    if (SKIP(p)) continue;
    const key = workloadOf(p, live.owners);
    const id2 = `${key.kind}/${key.namespace}/${key.name}`;
    const g = groups2.get(id2) ?? { key, pods: [] };
    g.pods.push(p);
    groups2.set(id2, g);
  }
  return [...groups2.values()].map((g) => workload(g.key, g.pods, live, t, now2));
}
function twinPdbs(live) {
  return live.pdbs.flatMap((b) => {
    if (!b.spec.selector) return [];
    const budget2 = b.spec.minAvailable !== void 0 ? { minAvailable: b.spec.minAvailable } : { maxUnavailable: b.spec.maxUnavailable ?? 0 };
    return [
      {
        name: b.metadata.name,
        namespace: b.metadata.namespace ?? "default",
        selector: b.spec.selector,
        ...budget2,
        ...b.spec.unhealthyPodEvictionPolicy && {
          unhealthyPodEvictionPolicy: b.spec.unhealthyPodEvictionPolicy
        }
      }
    ];
  });
}

// src/rehearsal/twin.ts
var PLATFORM = /^(kubernetes\.io|k8s\.io|node\.kubernetes\.io|topology\.kubernetes\.io|beta\.kubernetes\.io|eks\.amazonaws\.com|alpha\.eksctl\.io|noderoll\.io|node-role\.kubernetes\.io|failure-domain\.beta\.kubernetes\.io)\//;
function common(items, key) {
  if (items.length === 0) return [];
  const [first, ...rest] = items;
  return (first ?? []).filter((t) => rest.every((l) => l.some((u) => key(u) === key(t))));
}
function nodesOf(g, live) {
  const ids = new Set(g.instances.map((i) => i.id));
  return live.nodes.filter((n2) => ids.has(instanceIdOf(n2) ?? ""));
}
function ownLabels(nodes) {
  const pairs = common(
    nodes.map((n2) => Object.entries(n2.metadata.labels ?? {}).filter(([k]) => !PLATFORM.test(k))),
    ([k, v]) => `${k}=${v}`
  );
  return Object.fromEntries(pairs);
}
function ownTaints(nodes) {
  return common(
    nodes.map(
      (n2) => (n2.spec.taints ?? []).filter((t) => !PLATFORM.test(`${t.key}/`) && !PLATFORM.test(t.key))
    ),
    (t) => `${t.key}=${t.value ?? ""}:${t.effect}`
  ).map((t) => ({
    key: t.key,
    ...t.value !== void 0 && { value: t.value },
    effect: t.effect
  }));
}
function capacity(nodes) {
  const a = nodes[0]?.status.allocatable ?? nodes[0]?.status.capacity ?? {};
  return {
    ...a.cpu && { cpu: a.cpu },
    ...a.memory && { memory: a.memory },
    ...a.pods && { pods: Number(a.pods) }
  };
}
function groupBase(g, live) {
  const nodes = nodesOf(g, live);
  const type = nodes[0]?.metadata.labels?.["node.kubernetes.io/instance-type"];
  return {
    name: g.name,
    zones: g.zones.length > 0 ? g.zones : [...new Set(g.instances.map((i) => i.zone))].sort(),
    ...type && { instanceType: type },
    capacity: capacity(nodes),
    size: { min: g.min, max: Math.max(g.max, g.desired), desired: g.desired },
    labels: ownLabels(nodes),
    taints: ownTaints(nodes)
  };
}
function instanceCounts(g) {
  const counts = /* @__PURE__ */ new Map();
  for (const i of g.instances) {
    if (i.detachedForSurge || /^Terminat/.test(i.lifecycleState)) continue;
    const version = i.launchTemplateVersion ?? g.launchTemplate?.resolved ?? 1;
    const key = `${version}/${i.zone}`;
    const c = counts.get(key) ?? { version, count: 0, zone: i.zone };
    c.count++;
    counts.set(key, c);
  }
  return [...counts.values()];
}
function template(g) {
  const lt = g.launchTemplate;
  if (!lt) return {};
  const use = lt.configured === "$Latest" || lt.configured === "$Default" ? lt.configured : Number(lt.configured);
  return { launchTemplate: { versions: lt.latest, default: lt.default, use } };
}
var KIND_FIELDS = {
  managed: (g) => ({
    type: "managed",
    version: g.version,
    releaseVersion: g.releaseVersion,
    updateConfig: g.updateConfig
  }),
  "self-managed": (g) => ({
    type: "self-managed",
    instances: instanceCounts(g),
    mixedInstances: g.mixedInstances
  })
};
function group2(g, live) {
  const fields = KIND_FIELDS[g.kind];
  return { ...groupBase(g, live), ...template(g), ...fields(g) };
}
function releases(snapshot) {
  const out = {};
  const add = (minor2, release3) => (out[minor2] ??= /* @__PURE__ */ new Set()).add(release3);
  for (const g of snapshot.groups) if ("releaseVersion" in g) add(g.version, g.releaseVersion);
  for (const [minor2, release3] of Object.entries(snapshot.latestReleaseVersions))
    add(minor2, release3);
  add(snapshot.cluster.version, `${snapshot.cluster.version}.0-twin`);
  return Object.fromEntries(
    Object.entries(out).map(([k, v]) => [k, [...v].sort((a, b) => a.localeCompare(b))])
  );
}
function twinScenario(snapshot, live, overrides = {}) {
  const timings = twinTimings(snapshot, live, overrides);
  const zones = [...new Set(snapshot.groups.flatMap((g) => g.zones))].sort();
  const scenario = {
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: { name: `twin-${snapshot.cluster.name}`.slice(0, 63) },
    // A sandbox's own randomness replays; a real cluster's cannot be known: any seed will do.
    seed: live.physics?.seed ?? 1,
    start: snapshot.takenAt.toISOString(),
    cluster: {
      name: snapshot.cluster.name,
      region: snapshot.cluster.region,
      version: snapshot.cluster.version
    },
    releases: releases(snapshot),
    zones: zones.length > 0 ? zones : ["a"],
    timings: timings.values,
    nodeGroups: snapshot.groups.map((g) => group2(g, live)),
    workloads: twinWorkloads(live, timings, snapshot.takenAt.getTime()),
    pdbs: twinPdbs(live)
  };
  return { scenario, timings };
}

// src/rehearsal/index.ts
var REHEARSE_AUTO_MAX_NODES = 300;
function parseTimingFlag(text3) {
  const out = {};
  for (const part of text3.split(",").map((p) => p.trim()).filter(Boolean)) {
    const m = /^([A-Za-z]+)=(\S+)$/.exec(part);
    if (!m) return `"${part}" is not name=duration (such as boot=90s)`;
    const [, name, value] = m;
    if (!(name in REHEARSAL_TIMINGS))
      return `"${name}" is not a rehearsal timing; they are ${Object.keys(REHEARSAL_TIMINGS).join(", ")}`;
    if (parseDuration(value) === void 0) return `"${value}" is not a duration (such as 90s)`;
    out[name] = value;
  }
  return out;
}

// src/cli/live.ts
async function connectLive(...args) {
  const { connectLive: live } = await import("./connect-XYPVVSHO.js");
  return live(...args);
}

// src/cli/sandbox-world.ts
var import_yaml = __toESM(require_dist(), 1);
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
function loadWorld(scenario, worlds = 1) {
  if (!scenario || scenario === "demo") return World.demo();
  const text3 = readScenario(scenario);
  const json = scenarioJson(text3);
  const unchecked = json === void 0 ? void 0 : uncheckedScale(json);
  if (unchecked) checkHeapFor(unchecked, worlds);
  const parsed = World.scenarioOf(text3, scenario, json);
  const scale = scenarioScale(parsed);
  checkHeapFor(scale, worlds);
  return builtWithRoom(scale, worlds, () => new World(parsed));
}
var sum = (scales) => ({
  nodes: scales.reduce((n2, s) => n2 + s.nodes, 0),
  pods: scales.reduce((n2, s) => n2 + s.pods, 0)
});
function readScenario(file) {
  if (!existsSync(file)) {
    const near = closest(file, ["demo"]);
    throw new GroupsError(
      `--sandbox ${file}: no such scenario file${near ? `; did you mean "${near}" (the built-in demo cluster)?` : '; "demo" is the built-in demo cluster'}`
    );
  }
  return readFileSync(file, "utf8");
}
function expandScenarios(files) {
  return files.flatMap((file) => {
    if (file === "demo") return [file];
    const doc = (0, import_yaml.parse)(readScenario(file));
    if (doc?.kind !== "SandboxFleet") return [file];
    const list3 = doc.scenarios;
    if (!Array.isArray(list3) || list3.length === 0 || !list3.every((x) => typeof x === "string"))
      throw new Error(
        `${file}: a SandboxFleet lists its clusters' scenario files under "scenarios:", relative to it`
      );
    return list3.map((f) => join(dirname(file), f));
  });
}
function loadAccount(given) {
  const files = expandScenarios(given);
  const read = files.map((file) => {
    if (file === "demo") return { file };
    const text3 = readScenario(file);
    return { file, text: text3, json: scenarioJson(text3) };
  });
  const unchecked = read.map((r) => r.json === void 0 ? void 0 : uncheckedScale(r.json));
  if (unchecked.some((u) => u)) checkHeapFor(sum(unchecked.filter((u) => u !== void 0)));
  const scenarios = read.map((r) => ({
    scenario: r.text === void 0 ? demoScenario() : World.scenarioOf(r.text, r.file, r.json),
    file: r.file
  }));
  const scale = sum(scenarios.map((s) => scenarioScale(s.scenario)));
  checkHeapFor(scale);
  return new Account(scenarios, { build: (_s, make) => builtWithRoom(scale, 1, make) });
}

// src/cli/session.ts
function sandboxSession(scenario, worlds = 1) {
  const world = loadWorld(scenario, worlds);
  return {
    ports: world,
    drive: (task) => world.run(task),
    physics: physicsOf(world),
    close: () => {
    }
  };
}
async function liveSession(policy, kubeconfig, hints, closeOn) {
  if (kubeconfig) hints.kubeconfig = kubeconfig;
  const ports = await connectLive({
    clusterName: policy.cluster.name,
    region: policy.cluster.region,
    ...kubeconfig && { kubeconfig },
    ...closeOn && { signal: closeOn }
  });
  return { ports, close: () => ports.close() };
}

// src/cli/terminal.ts
function useColour(screen, env) {
  return Boolean(screen.isTTY) && !env.NO_COLOR;
}
function tone(line) {
  if (/\bretrying\b/.test(line)) return "yellow";
  if (/\b(failure|failed|refused|Failed)\b/.test(line)) return "red";
  if (/\b(success|Successful)\b/.test(line)) return "green";
  if (/\b(cancelled|skipped|retrying|deleted)\b/.test(line)) return "yellow";
  return void 0;
}
var Terminal = class {
  constructor(screen, env, plan) {
    this.screen = screen;
    this.colour = useColour(screen, env);
    if (plan) seedFromPlan(this.progress, plan);
  }
  screen;
  progress = emptyProgress();
  colour;
  lastPrint;
  statusShown = false;
  paint(text3, c) {
    return this.colour ? ansiPaint(text3, c) : text3;
  }
  clearStatus() {
    if (this.statusShown) this.screen.write("\r\x1B[K");
    this.statusShown = false;
  }
  drawStatus(now2) {
    if (!this.screen.isTTY || this.progress.result || !this.progress.startedAt) return;
    this.screen.write(this.paint(statusLine(this.progress, now2), "dim"));
    this.statusShown = true;
  }
  /** One event: its line (roll.end excepted: the command closes with one line of its own). */
  event(e) {
    applyEvent(this.progress, e);
    const line = e.type === "roll.end" ? void 0 : eventLine(e);
    const now2 = new Date(e.t);
    if (line) {
      this.clearStatus();
      this.screen.write(
        `${this.paint(e.t.slice(11, 19), "dim")} ${this.paint(line, tone(line))}
`
      );
      this.lastPrint = now2.getTime();
    }
    if (this.screen.isTTY) {
      this.clearStatus();
      this.drawStatus(now2);
    } else this.beat(now2);
  }
  /** Off a TTY: a heartbeat line when nothing was printed for HEARTBEAT_MS. */
  beat(now2) {
    if (this.screen.isTTY) return;
    const line = heartbeatDue(this.progress, now2, this.lastPrint);
    if (!line) return;
    this.screen.write(`${line}
`);
    this.lastPrint = now2.getTime();
  }
  /** Redraw the status line (a TTY's clock ticking between events). */
  tick(now2) {
    if (!this.screen.isTTY) return this.beat(now2);
    this.clearStatus();
    this.drawStatus(now2);
  }
  close() {
    this.clearStatus();
  }
};

// src/cli/approve.ts
function mustAsk(o) {
  return Boolean(o.stdinTTY) && !o.autoApprove && o.hasWork;
}
var QUESTION = "\nDo you want to perform these actions?\n  noderoll will perform the actions described above.\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ";
function approve(input, output, signal) {
  output.write(QUESTION);
  return new Promise((resolve) => {
    let line = "";
    const done = (yes) => {
      input.off("data", onData);
      input.off("end", onEnd);
      signal?.removeEventListener("abort", onEnd);
      input.pause();
      resolve(yes);
    };
    const onData = (chunk2) => {
      line += chunk2.toString();
      const end = line.indexOf("\n");
      if (end >= 0) done(line.slice(0, end).replace(/\r$/, "").trim() === "yes");
    };
    const onEnd = () => done(false);
    if (signal?.aborted) return done(false);
    signal?.addEventListener("abort", onEnd, { once: true });
    input.on("data", onData);
    input.on("end", onEnd);
    input.resume();
  });
}

// src/cli/saved-plan.ts
import { createHash } from "node:crypto";
import { existsSync as existsSync2, readFileSync as readFileSync3, writeFileSync } from "node:fs";

// src/plan/saved.ts
function savedPlanText(plan, stamp) {
  return `${JSON.stringify({ ...plan, saved: stamp }, null, 2)}
`;
}
function savedPlanChanges(saved, now2) {
  const out = [];
  const was = saved.saved;
  if (was.noderoll !== now2.saved.noderoll)
    out.push({ what: "noderoll", was: was.noderoll, now: now2.saved.noderoll });
  if (was.policySha256 !== now2.saved.policySha256)
    out.push({
      what: "policy",
      file: saved.policy.file,
      was: was.policySha256,
      now: now2.saved.policySha256
    });
  out.push(...clusterChanges(saved, now2), ...optionChanges(saved, now2));
  const order = (p) => p.groups.map((g) => g.name);
  if (order(saved).join() !== order(now2).join())
    out.push({ what: "groups", was: order(saved), now: order(now2) });
  for (const g of saved.groups) {
    const fresh = now2.groups.find((x) => x.name === g.name);
    if (fresh) out.push(...groupChanges(g, fresh));
  }
  return out;
}
function clusterChanges(saved, now2) {
  const server = (p) => p.cluster.verified?.server;
  const sides = [
    ["name", saved.cluster.name, now2.cluster.name],
    ["region", saved.cluster.region, now2.cluster.region],
    ["ARN", saved.saved.clusterArn, now2.saved.clusterArn]
  ];
  if (server(saved) && server(now2)) sides.push(["Kubernetes API", server(saved), server(now2)]);
  return sides.flatMap(
    ([field, was, is]) => was !== is ? [{ what: "cluster", field, was: was ?? "none", now: is ?? "none" }] : []
  );
}
function optionChanges(saved, now2) {
  const said2 = (p) => ({
    replaceAll: String(p.options.replaceAll),
    deleteAfterDrainTimeout: String(p.options.deleteAfterDrainTimeout),
    groups: p.options.groups?.join(",") ?? "all"
  });
  const was = said2(saved);
  const is = said2(now2);
  return Object.keys(was).flatMap(
    (option) => was[option] !== is[option] ? [{ what: "option", option, was: was[option], now: is[option] }] : []
  );
}
function budgetSaid(g, d, budget2) {
  const count2 = g.budgets[budget2];
  const spec2 = g.budgets.spec ? d.budgets[budget2] : void 0;
  if (spec2 === void 0 || spec2 === String(count2) || spec2.startsWith(`${count2} `))
    return spec2 ?? String(count2);
  return `${spec2} (${count2} node${count2 === 1 ? "" : "s"})`;
}
function differentKeys(was, now2) {
  const a = was;
  const b = now2;
  return [.../* @__PURE__ */ new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])
  );
}
function groupChanges(saved, fresh) {
  const group3 = saved.name;
  const was = decisionsOf(saved);
  const now2 = decisionsOf(fresh);
  const out = [];
  if (was.kind !== now2.kind) out.push({ what: "kind", group: group3, was: was.kind, now: now2.kind });
  for (const key of differentKeys(was.target, now2.target))
    out.push({
      what: "target",
      group: group3,
      key,
      ...was.target[key] !== void 0 && { was: was.target[key] },
      ...now2.target[key] !== void 0 && { now: now2.target[key] }
    });
  for (const budget2 of ["maxUnavailable", "maxSurge"]) {
    const [b0, b1] = [budgetSaid(saved, was, budget2), budgetSaid(fresh, now2, budget2)];
    if (b0 !== b1) out.push({ what: "budget", group: group3, budget: budget2, was: b0, now: b1 });
  }
  const ids = (g) => g.replacements.map((r) => r.instance);
  const gone2 = ids(saved).filter((i) => !ids(fresh).includes(i));
  const added = ids(fresh).filter((i) => !ids(saved).includes(i));
  if (gone2.length + added.length > 0)
    out.push({
      what: "replacements",
      group: group3,
      was: saved.replacements.length,
      now: fresh.replacements.length,
      gone: gone2,
      added
    });
  if (was.config.join("\n") !== now2.config.join("\n"))
    out.push({ what: "config", group: group3, was: was.config, now: now2.config });
  const keys = differentKeys(saved.settings ?? {}, fresh.settings ?? {});
  if (keys.length > 0) out.push({ what: "settings", group: group3, keys });
  const blockers2 = (g) => g.findings.filter((f) => f.severity === "blocker");
  const known = new Set(blockers2(saved).map((f) => f.code));
  for (const f of blockers2(fresh).filter((x) => !known.has(x.code)))
    out.push({ what: "blocker", group: group3, message: f.message });
  for (const e of fresh.errors.filter((x) => !saved.errors.includes(x)))
    out.push({ what: "error", group: group3, message: e });
  return out;
}
var list2 = (xs) => xs.length > 0 ? xs.join(", ") : "none";
function describeChange(c) {
  switch (c.what) {
    case "noderoll":
      return `the saved plan was made by noderoll ${c.was}, this is noderoll ${c.now}`;
    case "policy":
      return `the policy ${c.file} changed since the plan was saved (sha256 ${c.was.slice(0, 12)}…, now ${c.now.slice(0, 12)}…)`;
    case "cluster":
      return `the cluster's ${c.field} was ${c.was} in the saved plan, is now ${c.now}`;
    case "option":
      return `the option ${c.option} was ${c.was} in the saved plan, is now ${c.now}`;
    case "groups":
      return `the groups were ${list2(c.was)} in the saved plan, are now ${list2(c.now)}`;
    case "kind":
      return `group ${c.group}: was ${c.was} in the saved plan, is now ${c.now}`;
    case "target":
      return `group ${c.group}: target ${c.key} was ${c.was ?? "none"} in the saved plan, is now ${c.now ?? "none"}`;
    case "budget":
      return `group ${c.group}: ${c.budget} was ${c.was} in the saved plan, is now ${c.now}`;
    case "replacements": {
      const which = [
        ...c.gone.length > 0 ? [`no longer: ${c.gone.join(", ")}`] : [],
        ...c.added.length > 0 ? [`new: ${c.added.join(", ")}`] : []
      ];
      return `group ${c.group}: the nodes to replace changed: ${c.was} in the saved plan, ${c.now} now (${which.join("; ")})`;
    }
    case "config":
      return `group ${c.group}: the configuration to set was ${list2(c.was)} in the saved plan, is now ${list2(c.now)}`;
    case "settings":
      return `group ${c.group}: the roll settings ${c.keys.join(", ")} changed since the saved plan`;
    case "blocker":
      return `group ${c.group}: a new blocker: ${c.message}`;
    case "error":
      return `group ${c.group}: a new error: ${c.message}`;
  }
}
var NotASavedPlan = class extends Error {
};
var isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
var at4 = (v, key) => isObject(v) ? v[key] : void 0;
function need(ok, path, what) {
  if (!ok)
    throw new NotASavedPlan(
      `is not a saved plan noderoll can read: ${path} is missing or not ${what}`
    );
}
var str = (v, path) => need(typeof v === "string", path, "a string");
var num = (v, path) => need(typeof v === "number", path, "a number");
var bool2 = (v, path) => need(typeof v === "boolean", path, "true or false");
function each(v, path, check) {
  need(Array.isArray(v), path, "a list");
  v.forEach((x, i) => check(x, `${path}[${i}]`));
}
function checkGroup(g, path) {
  need(isObject(g), path, "an object");
  for (const k of ["name", "kind", "status"]) str(at4(g, k), `${path}.${k}`);
  num(at4(g, "nodes"), `${path}.nodes`);
  for (const b of ["maxUnavailable", "maxSurge"])
    num(at4(at4(g, "budgets"), b), `${path}.budgets.${b}`);
  each(
    at4(g, "replacements"),
    `${path}.replacements`,
    (r, p) => str(at4(r, "instance"), `${p}.instance`)
  );
  each(at4(g, "findings"), `${path}.findings`, (f, p) => {
    for (const k of ["code", "severity", "message"]) str(at4(f, k), `${p}.${k}`);
  });
  each(at4(g, "errors"), `${path}.errors`, str);
  each(at4(g, "configChanges"), `${path}.configChanges`, (c, p) => {
    for (const k of ["field", "to"]) str(at4(c, k), `${p}.${k}`);
  });
  each(at4(g, "cleanup"), `${path}.cleanup`, (c, p) => str(at4(c, "mark"), `${p}.mark`));
  for (const k of ["target", "settings"])
    need(at4(g, k) === void 0 || isObject(at4(g, k)), `${path}.${k}`, "an object");
}
function readSavedPlan(text3) {
  let data;
  try {
    data = JSON.parse(text3);
  } catch (e) {
    throw new NotASavedPlan(`is not JSON (${e.message})`);
  }
  if (!isObject(data)) throw new NotASavedPlan("is not a saved plan: not a JSON object");
  num(data.schemaVersion, "schemaVersion");
  if (data.schemaVersion !== 1)
    throw new NotASavedPlan(
      `is a plan of schemaVersion ${String(data.schemaVersion)}; this noderoll reads schemaVersion 1`
    );
  if (data.saved === void 0)
    throw new NotASavedPlan(
      'is a plan without the "saved" stamp (as `plan --format json` prints it), not a saved plan: save one with `noderoll plan --out FILE`'
    );
  str(at4(data.saved, "noderoll"), "saved.noderoll");
  need(
    /^[0-9a-f]{64}$/.test(String(at4(data.saved, "policySha256"))),
    "saved.policySha256",
    "a sha256"
  );
  const arn = at4(data.saved, "clusterArn");
  need(arn === void 0 || typeof arn === "string", "saved.clusterArn", "a string");
  str(at4(data.policy, "file"), "policy.file");
  str(at4(data.policy, "name"), "policy.name");
  for (const k of ["name", "region"]) str(at4(data.cluster, k), `cluster.${k}`);
  str(data.takenAt, "takenAt");
  for (const k of ["replaceAll", "deleteAfterDrainTimeout"])
    bool2(at4(data.options, k), `options.${k}`);
  const groups2 = at4(data.options, "groups");
  if (groups2 !== void 0) each(groups2, "options.groups", str);
  need(isObject(data.summary), "summary", "an object");
  each(data.groups, "groups", checkGroup);
  return data;
}

// src/cli/version.ts
import { readFileSync as readFileSync2 } from "node:fs";
function noderollVersion() {
  for (const up of ["../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync2(new URL(up, import.meta.url), "utf8"));
      if (pkg.name === "noderoll" && pkg.version) return pkg.version;
    } catch {
    }
  }
  return "unknown";
}

// src/cli/saved-plan.ts
function policySha256(file) {
  try {
    return createHash("sha256").update(readFileSync3(file)).digest("hex");
  } catch {
    return "";
  }
}
async function stampNow(session, policy, sha256) {
  const eks = await driveOf(session)(session.ports.cloud.eks.describeCluster(policy.cluster.name));
  return {
    noderoll: noderollVersion(),
    policySha256: sha256,
    ...eks.arn && { clusterArn: eks.arn }
  };
}
function reachFlags(values) {
  return [
    ...values.sandbox !== void 0 ? [` --sandbox ${values.sandbox}`] : [],
    ...values.kubeconfig !== void 0 ? [` --kubeconfig ${values.kubeconfig}`] : []
  ].join("");
}
async function savePlan(out, plan, made) {
  const text3 = savedPlanText(plan, await stampNow(made.session, made.policy, made.sha256));
  try {
    writeFileSync(out, text3);
  } catch (e) {
    throw new Error(
      `the plan could not be saved to ${out}: ${e.code ?? e.message}`,
      { cause: e }
    );
  }
  return `
Saved the plan to ${out}.
To carry out exactly this plan, run: noderoll apply ${out}${made.reach}
`;
}
function savedPlanArgument(command, positionals, values) {
  if (positionals.length === 0) {
    if (values.policy === void 0 && command === "apply")
      throw new UsageError("--policy FILE is required (or a saved plan: apply FILE)");
    return void 0;
  }
  if (command !== "apply")
    throw new UsageError(
      `${command} takes no saved plan (${positionals.join(" ")}); give it --policy P`
    );
  if (positionals.length > 1)
    throw new UsageError(
      `apply takes one saved plan, not ${positionals.length}: ${positionals.join(" ")}`
    );
  const file = positionals[0];
  for (const flag of FIXED_BY_SAVED_PLAN) {
    const given = values[flag];
    if (given !== void 0 && given !== false)
      throw new UsageError(
        `--${flag} cannot be given with a saved plan: ${file} fixes it; plan again with --${flag} and --out to change it`
      );
  }
  return file;
}
function loadSavedPlan(file) {
  let text3;
  try {
    text3 = readFileSync3(file, "utf8");
  } catch (e) {
    const code = e.code;
    const why2 = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "a directory" : code;
    return said(`saved plan ${file} cannot be read: ${why2 ?? String(e)}`);
  }
  if (/^\s*kind\s*:\s*["']?UpgradePolicy\b/m.test(text3))
    return said(
      `${file} is a policy, not a saved plan: did you mean noderoll apply --policy ${file}?`
    );
  try {
    return { saved: readSavedPlan(text3) };
  } catch (e) {
    if (!(e instanceof NotASavedPlan)) throw e;
    return said(`saved plan ${file} ${e.message}`);
  }
}
function said(what) {
  process.stderr.write(`noderoll: ${what}; nothing was read or changed
`);
  return { exitCode: 1 };
}
var SavedPlanRefused = class extends Error {
  constructor(file, saved, changes, reach = "") {
    const { options } = saved;
    const again = [
      `noderoll plan --policy ${saved.policy.file}${reach}`,
      ...options.groups ? [`--groups ${options.groups.join(",")}`] : [],
      ...options.replaceAll ? ["--replace-all"] : [],
      ...options.deleteAfterDrainTimeout ? ["--delete-after-drain-timeout"] : [],
      `--out ${file}`
    ].join(" ");
    super(
      `the saved plan ${file} no longer holds; nothing was changed:
${changes.map((c) => `  - ${describeChange(c)}`).join("\n")}
Run \`${again}\` again, review it, and apply that file.`
    );
  }
};
function readable(file, saved) {
  const now2 = noderollVersion();
  if (saved.saved.noderoll !== now2)
    throw new SavedPlanRefused(file, saved, [{ what: "noderoll", was: saved.saved.noderoll, now: now2 }]);
  const policy = saved.policy.file;
  if (!existsSync2(policy))
    return said(
      `saved plan ${file} was made from the policy ${policy}, which is not there from ${process.cwd()}: run apply where plan ran`
    );
  return void 0;
}
async function stillHolds(saved, now2) {
  const stamp = await stampNow(now2.session, now2.policy, saved.sha256);
  const changes = savedPlanChanges(saved.plan, { ...now2.fresh, saved: stamp });
  if (changes.length > 0) throw new SavedPlanRefused(saved.file, saved.plan, changes, saved.reach);
  return saved.plan;
}

// src/cli/apply.ts
var OPTIONS = APPLY_OPTIONS;
var EXIT = { success: 0, failure: 1, stopped: 3 };
var STOP_WITHIN_MS = 3e4;
var CLOSE_AFTER_MS = 2e4;
function onStopSignals(controller, adapters) {
  let stopping2 = false;
  const stop = (signal) => {
    if (stopping2) {
      process.stderr.write(`
${signal} again: exiting now; run apply again to continue
`);
      process.exit(EXIT.stopped);
    }
    stopping2 = true;
    process.stderr.write(
      `
${signal}: stopping now; what is in flight is abandoned, leaving only marks the next run resumes from. Run apply again to continue
`
    );
    controller.abort();
    setTimeout(() => adapters.abort(), CLOSE_AFTER_MS).unref();
    setTimeout(() => {
      process.stderr.write(
        `noderoll: still running ${STOP_WITHIN_MS / 1e3} s after ${signal}; exiting
`
      );
      process.exit(EXIT.stopped);
    }, STOP_WITHIN_MS).unref();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("disconnect", () => {
    if (!stopping2) stop("the first process is gone");
  });
}
function exitCodeFor(r) {
  return r.result === "success" ? EXIT.success : r.result === "failure" ? EXIT.failure : EXIT.stopped;
}
function writeOut(dir, plan, events) {
  mkdirSync(dir, { recursive: true });
  writeFileSync2(join2(dir, "plan.txt"), renderPlanText(plan));
  writeFileSync2(join2(dir, "plan.md"), renderPlanMarkdown(plan));
  writeFileSync2(join2(dir, "plan.json"), renderPlanJson(plan));
  writeFileSync2(join2(dir, "events.jsonl"), events.map((e) => JSON.stringify(e)).join("\n") + "\n");
  const payloads = [];
  const feed = new ProgressFeed(
    seedFromPlan({ ...emptyProgress(), trigger: "cli" }, plan),
    (p, atOnce) => {
      if (atOnce) payloads.push(progressCheckRun(p));
    }
  );
  for (const e of events) feed.event(e);
  payloads.push(progressCheckRun(feed.progress));
  writeFileSync2(join2(dir, "check-runs.json"), JSON.stringify(payloads, null, 2) + "\n");
  const comment = applyComment(plan.policy.name, feed.progress, plan, {}, reviewedMarker(plan));
  writeFileSync2(join2(dir, "comment.md"), comment);
}
function applyOrResume(run) {
  if (run.mode === "rollback")
    return (s, r) => rollBack(s, { ...r, ...run.groups && { only: run.groups } });
  if (run.mode === "apply") return applyPolicy;
  return (s, r) => resumePolicy(s, r, (c) => process.stdout.write(`resume: ${c.message}
`));
}
async function approved(run, plan) {
  const hasWork = plan.summary.nodesToReplace + plan.summary.configChanges + plan.summary.cleanups > 0;
  const ask = mustAsk({
    stdinTTY: process.stdin.isTTY,
    autoApprove: run.values["auto-approve"],
    hasWork
  });
  if (!ask) return true;
  if (run.values.quiet) process.stdout.write(`${summaryLine(plan.summary)}
`);
  return approve(process.stdin, process.stderr, run.signal);
}
function follow3(run, log, plan, clock2) {
  const { values } = run;
  const terminal = new Terminal(process.stdout, process.env, plan);
  log.on((e) => {
    if (values.events) appendFileSync(values.events, JSON.stringify(e) + "\n");
    if (!values.quiet) terminal.event(e);
  });
  const ticker = setInterval(
    () => !values.quiet && terminal.tick(clock2.now()),
    process.stdout.isTTY ? 1e3 : 15e3
  );
  ticker.unref();
  return () => {
    clearInterval(ticker);
    terminal.close();
  };
}
async function roll(run, session) {
  const { policy, file, groups: groups2, values } = run;
  const log = new EventLog(session.ports.clock);
  let stop = () => {
  };
  const result = await applyOrResume(run)(
    { ...session, signal: run.signal, progress: (l) => process.stderr.write(l) },
    {
      policy,
      file,
      options: { ...run.options, ...groups2 && { groups: groups2 } },
      log,
      apply: {
        runId: values["run-id"] ?? `noderoll-cli-${hostname()}-${process.pid}`,
        ignoreWindow: values["ignore-window"],
        ...values.reason && { reason: values.reason },
        ...run.maxDurationMs !== void 0 && { maxDurationMs: run.maxDurationMs },
        ...run.lockWaitMs !== void 0 && { lockWaitMs: run.lockWaitMs }
      },
      onPlan: async ({ plan: fresh }) => {
        const plan = run.saved ? await stillHolds(run.saved, { fresh, session, policy }) : fresh;
        if (!values.quiet)
          process.stdout.write(
            renderPlanText(plan, { colour: useColour(process.stdout, process.env) }) + "\n"
          );
        if (!run.saved && !await approved(run, plan)) return false;
        stop = follow3(run, log, plan, session.ports.clock);
        return plan;
      }
    }
  ).finally(() => stop());
  if (values.out && result.plan) writeOut(values.out, result.plan, log.events);
  process.stdout.write(`${result.result}: ${result.message}
`);
  return exitCodeFor(result);
}
async function runApply(args, hints, mode = "apply") {
  const { values, positionals } = parseFlags(args, OPTIONS, true);
  const file = savedPlanArgument(mode, positionals, values);
  const read = file !== void 0 ? loadSavedPlan(file) : void 0;
  if (read && "exitCode" in read) return read.exitCode;
  try {
    return await applyWith(values, mode, hints, read && { file, plan: read.saved });
  } catch (e) {
    if (!(e instanceof SavedPlanRefused)) throw e;
    process.stderr.write(`noderoll: ${e.message}
`);
    return EXIT.failure;
  }
}
function savedValues(saved, values) {
  return {
    ...values,
    policy: saved.policy.file,
    "replace-all": saved.options.replaceAll,
    "delete-after-drain-timeout": saved.options.deleteAfterDrainTimeout
  };
}
async function applyWith(flags, mode, hints, saved) {
  const unread = saved && readable(saved.file, saved.plan);
  if (unread) return unread.exitCode;
  const values = saved ? savedValues(saved.plan, flags) : flags;
  const options = runFlags(values, { reason: values.reason });
  const maxDurationMs = durationArg("--max-duration", values["max-duration"], parseDuration);
  const lockWaitMs = durationArg("--lock-wait", values["lock-wait"], parseDuration);
  const sha256 = saved ? policySha256(values.policy) : "";
  const loaded = policyOrExit(values.policy, hints);
  if ("exitCode" in loaded) return loaded.exitCode;
  const { policy } = loaded;
  const groups2 = saved ? saved.plan.options.groups : groupsOf(policy, values.groups);
  const sandbox = values.sandbox !== void 0 ? sandboxSession(values.sandbox) : void 0;
  const controller = new AbortController();
  const adapters = new AbortController();
  onStopSignals(controller, adapters);
  if (values.events) {
    mkdirSync(dirname2(values.events), { recursive: true });
    writeFileSync2(values.events, "");
  }
  const run = {
    policy,
    file: values.policy,
    groups: groups2,
    options,
    values,
    signal: controller.signal,
    maxDurationMs,
    lockWaitMs,
    mode,
    ...saved && { saved: { ...saved, sha256, reach: reachFlags(flags) } }
  };
  const session = sandbox ?? await liveSession(policy, values.kubeconfig, hints, adapters.signal);
  try {
    return await roll(run, session);
  } finally {
    session.close();
  }
}

// src/cli/control.ts
import { hostname as hostname2, userInfo } from "node:os";
function asker() {
  let user = process.env.USER ?? "someone";
  try {
    user = userInfo().username;
  } catch {
  }
  return `${user}@${hostname2()}`;
}
async function runControl(action, args, hints) {
  const { values } = parseFlags(args, action === "abort" ? ABORT_OPTIONS : CONTROL_OPTIONS);
  const rollback = "rollback" in values && values.rollback === true;
  const loaded = policyOrExit(values.policy, hints);
  if ("exitCode" in loaded) return loaded.exitCode;
  const { policy } = loaded;
  const session = values.sandbox !== void 0 ? sandboxSession(values.sandbox) : await liveSession(policy, values.kubeconfig, hints);
  try {
    const asked = await requestStop(session, policy, values.policy, {
      action,
      by: asker(),
      ...values.reason?.trim() && { reason: values.reason.trim() },
      ...rollback && { rollback: true }
    });
    process.stdout.write(`${asked.message}
`);
    if (!rollback || asked.holder) return 0;
  } finally {
    session.close();
  }
  return runApply(
    args.filter((a) => a !== "--rollback"),
    hints,
    "rollback"
  );
}

// src/cli/fleet.ts
import { hostname as hostname3, userInfo as userInfo2 } from "node:os";

// src/fleet/agree.ts
var TARGET_KEYS = ["kubernetesVersion", "releaseVersion", "launchTemplateVersion"];
function releaseDisagreements(fleet, fleetFile, policies) {
  return policies.flatMap(
    ({ policy, source }) => policy.groups.flatMap(
      (group3, i) => TARGET_KEYS.flatMap((key) => {
        const own = group3.target?.[key];
        const fleets = fleet.release[key];
        if (own === void 0 || fleets === void 0 || String(own) === String(fleets)) return [];
        const path = ["groups", i, "target"];
        return [
          diagnostic({
            file: source.file,
            ...locate(source, path, key),
            path: formatPath([...path, key]),
            message: `fleet "${fleet.metadata.name}" (${fleetFile}) rolls every group to ${key} ${JSON.stringify(fleets)}; this group says ${JSON.stringify(own)}: remove it here (the fleet sets it) or make it agree`,
            severity: "error"
          })
        ];
      })
    )
  );
}
function underFleet(target, release3) {
  return { ...target, ...release3 };
}

// src/fleet/record.ts
function promotionOf(fleet) {
  const r = fleet.release;
  const keys = ["kubernetesVersion", "releaseVersion", "launchTemplateVersion"];
  return `${fleet.metadata.name}:${keys.map((k) => `${k}=${r[k] === void 0 ? "" : String(r[k])}`).join(",")}`;
}
function parseRecord(text3) {
  if (!text3) return void 0;
  try {
    const r = JSON.parse(text3);
    const states = ["rolling", "succeeded", "failed"];
    if (typeof r.fleet !== "string" || typeof r.promotion !== "string" || typeof r.stage !== "string" || typeof r.startedAt !== "string" || !states.includes(String(r.state)) || r.release === null || typeof r.release !== "object")
      return void 0;
    return r;
  } catch {
    return void 0;
  }
}

// src/fleet/schedule.ts
function concurrencyOf(c, clusters) {
  if (c === void 0) return 1;
  if (typeof c === "number") return c;
  return Math.max(1, Math.floor(clusters * Number(c.slice(0, -1)) / 100));
}
function scheduleFleet(input) {
  const { fleet, promotion } = input;
  const pinned = pinnedRecord(input.views, promotion);
  const stages = [];
  let upstream;
  for (const stage of fleet.stages) {
    const views = input.views.filter((v) => v.stage === stage.name);
    const plan = upstream ? blockedStage(stage, views, promotion, upstream) : activeStage(stage, views, input);
    stages.push(plan);
    if (!upstream && plan.state.kind !== "soaked" && plan.state.kind !== "blocked")
      upstream = { stage: stage.name, state: plan.state };
  }
  const due = input.paused ? [] : stages.flatMap(
    (s) => s.clusters.flatMap(
      ({ view, state }) => state.kind === "due" ? [{ stage: s.stage, view, resume: state.resume }] : []
    )
  );
  return {
    fleet: fleet.metadata.name,
    promotion,
    pinned: pinned?.release,
    ...pinned?.images?.length && { images: pinned.images },
    ...input.paused && { paused: input.paused },
    stages,
    due
  };
}
function pinnedRecord(views, promotion) {
  return views.find((v) => v.record?.promotion === promotion)?.record;
}
function recorded(view, promotion, retry) {
  if (view.unreadable) return { kind: "unreadable", why: view.unreadable };
  const r = view.record;
  if (r?.state === "rolling" && view.locked)
    return { kind: "rolling", since: r.startedAt, run: r.run };
  if (!r || r.promotion !== promotion) return void 0;
  if (r.state === "succeeded") return { kind: "done", finishedAt: r.finishedAt ?? r.startedAt };
  if (r.state === "failed")
    return { kind: "failed", at: r.finishedAt ?? r.startedAt, message: r.message, retry };
  return { kind: "due", resume: true };
}
function blockedStage(stage, views, promotion, by) {
  const clusters = views.map((view) => {
    const state = recorded(view, promotion, false);
    return {
      view,
      state: state && state.kind !== "due" ? state : { kind: "blocked", by }
    };
  });
  return {
    stage,
    state: { kind: "blocked", by },
    clusters,
    concurrency: concurrencyOf(stage.maxConcurrency, views.length)
  };
}
function activeStage(stage, views, input) {
  const concurrency = concurrencyOf(stage.maxConcurrency, views.length);
  const states = views.map((v) => recorded(v, input.promotion, input.retryFailed ?? false));
  const failed = states.filter((s) => s?.kind === "failed").length;
  const threshold = stage.failureThreshold ?? 0;
  const halted2 = failed > threshold && !input.retryFailed;
  let slots = concurrency - states.filter((s) => s?.kind === "rolling").length;
  const clusters = views.map((view, i) => {
    let state = states[i];
    const wants = !state || state.kind === "due" || state.kind === "failed" && state.retry;
    if (wants) {
      const resume2 = state?.kind === "due" && state.resume;
      state = !halted2 && slots > 0 ? { kind: "due", resume: resume2 } : { kind: "queued" };
      if (state.kind === "due") slots--;
    }
    return { view, state };
  });
  return {
    stage,
    state: stageState(stage, clusters, input, halted2, failed),
    clusters,
    concurrency
  };
}
function stageState(stage, clusters, input, halted2, failed) {
  if (halted2)
    return {
      kind: "halted",
      why: `${failed} cluster${failed === 1 ? "" : "s"} failed (failureThreshold ${stage.failureThreshold ?? 0}); fleet apply --retry-failed reruns them with the same release`
    };
  if (clusters.length === 0) return { kind: "soaked", at: input.now.toISOString() };
  const finished2 = clusters.filter((c) => c.state.kind === "done" || c.state.kind === "failed");
  if (finished2.length < clusters.length) return { kind: "rolling" };
  const judged = (v) => clusters.find((c) => c.state.kind === "done" && c.view.gates?.verdict === v);
  const red = judged("fail");
  if (red)
    return {
      kind: "halted",
      why: `gates failing on ${red.view.cluster} while it soaks: ${red.view.gates?.detail}`
    };
  const amber = judged("inconclusive");
  const last = Math.max(
    ...finished2.map(
      (c) => Date.parse(
        c.state.finishedAt ?? c.state.at
      )
    )
  );
  const until = last + (stage.soak ? parseDuration(stage.soak) ?? 0 : 0);
  if (until > input.now.getTime() || amber)
    return {
      kind: "soaking",
      until: new Date(until).toISOString(),
      ...amber && {
        pending: `gates of ${amber.view.cluster} inconclusive: ${amber.view.gates?.detail}`
      }
    };
  return { kind: "soaked", at: new Date(until).toISOString() };
}

// src/app/fleet-images.ts
async function latestGroups(session, policy) {
  const { eks, autoScaling, ec2 } = session.ports.cloud;
  const managed = new Set(await eks.listNodegroups(policy.cluster.name));
  const names2 = policy.groups.filter((g) => g.target?.launchTemplateVersion === "$Latest" && !managed.has(g.name)).map((g) => g.name);
  if (names2.length === 0) return [];
  const groups2 = await autoScaling.describeAutoScalingGroups({ AutoScalingGroupNames: names2 });
  return Promise.all(
    groups2.map(async (a) => {
      const spec2 = a.LaunchTemplate ?? a.MixedInstancesPolicy?.LaunchTemplate.LaunchTemplateSpecification;
      const versions2 = await ec2.describeLaunchTemplateVersions({
        ...spec2?.LaunchTemplateId && { LaunchTemplateId: spec2.LaunchTemplateId },
        ...spec2?.LaunchTemplateName && { LaunchTemplateName: spec2.LaunchTemplateName }
      });
      return { group: a.AutoScalingGroupName, versions: versions2 };
    })
  );
}
var newest = (versions2) => [...versions2].sort((a, b) => b.VersionNumber - a.VersionNumber);
async function latestImages(session, policy) {
  const groups2 = await latestGroups(session, policy);
  const images = groups2.flatMap((g) => newest(g.versions)[0]?.LaunchTemplateData.ImageId ?? []);
  return [...new Set(images)].sort();
}
async function pinnedToImages(session, policy, images) {
  if (images.length === 0) return policy;
  const groups2 = await latestGroups(session, policy);
  const version = /* @__PURE__ */ new Map();
  for (const g of groups2) {
    const match = newest(g.versions).find(
      (v) => images.includes(v.LaunchTemplateData.ImageId ?? "")
    );
    if (!match)
      throw new Error(
        `${g.group}: no version of its launch template runs the fleet's pinned AMI (${images.join(", ")}, what the first stage rolled); publish a version with it, or name a launchTemplateVersion`
      );
    version.set(g.group, match.VersionNumber);
  }
  return {
    ...policy,
    groups: policy.groups.map((g) => {
      const v = version.get(g.name);
      return v === void 0 ? g : { ...g, target: { ...g.target, launchTemplateVersion: v } };
    })
  };
}

// src/app/fleet-store.ts
var FLEET_ANNOTATION = "noderoll.io/fleet";
var FLEET_PAUSE_ANNOTATION = "noderoll.io/fleet-pause";
var fleetLeaseName = (cluster) => `${leaseName(cluster)}-fleet`.slice(0, 63);
function pauseOf(raw, fleet) {
  if (!raw) return void 0;
  try {
    const p = JSON.parse(raw);
    return p.fleet === fleet && typeof p.at === "string" ? p : void 0;
  } catch {
    return void 0;
  }
}
async function readStored(cluster, clusterName, fleet, clock2) {
  const [mine, lock] = await Promise.all([
    readLease(cluster, fleetLeaseName(clusterName)),
    readLease(cluster, leaseName(clusterName))
  ]);
  const now2 = clock2();
  const record2 = parseRecord(mine?.metadata.annotations?.[FLEET_ANNOTATION]);
  const renewed = Date.parse(lock?.spec.renewTime ?? "");
  const duration2 = (lock?.spec.leaseDurationSeconds ?? LEASE_DURATION_SECONDS) * 1e3;
  return {
    ...record2?.fleet === fleet && { record: record2 },
    ...pauseOf(mine?.metadata.annotations?.[FLEET_PAUSE_ANNOTATION], fleet) && {
      pause: pauseOf(mine?.metadata.annotations?.[FLEET_PAUSE_ANNOTATION], fleet)
    },
    locked: Boolean(lock?.spec.holderIdentity) && now2.getTime() - renewed < duration2,
    now: now2
  };
}
async function writeRecord(cluster, clusterName, record2) {
  await rewriteAnnotation(
    cluster,
    fleetLeaseName(clusterName),
    FLEET_ANNOTATION,
    () => JSON.stringify(record2)
  );
}
async function writePause(cluster, clusterName, pause) {
  await rewriteAnnotation(
    cluster,
    fleetLeaseName(clusterName),
    FLEET_PAUSE_ANNOTATION,
    (was) => pause ? JSON.stringify(pause) : was === void 0 || was === "" ? void 0 : ""
  );
}
function viewOf(base, stored) {
  return { ...base, ...stored.record && { record: stored.record }, locked: stored.locked };
}

// src/app/fleet.ts
async function readFleet(fleet, members, deps, options = {}) {
  const sessions = /* @__PURE__ */ new Map();
  const promotion = promotionOf(fleet);
  const read = await mapLimit(members, deps.readConcurrency ?? CONCURRENCY, async (m) => {
    const base = {
      stage: m.stage,
      policyFile: m.file,
      cluster: m.policy.cluster.name,
      region: m.policy.cluster.region
    };
    try {
      const session = await deps.connect(m);
      sessions.set(m.file, session);
      const [stored, current2] = await driveOf(session)(
        Promise.all([
          readStored(
            session.ports.cluster,
            base.cluster,
            fleet.metadata.name,
            () => session.ports.clock.now()
          ),
          currentRelease(session, m.policy).catch(() => void 0)
        ])
      );
      const done = stored.record?.promotion === promotion && stored.record.state === "succeeded";
      const gates = done ? await driveOf(session)(soakVerdict(session, m.policy)) : void 0;
      const view = {
        ...viewOf(base, stored),
        ...current2 && { current: current2 },
        ...gates && { gates }
      };
      return { view, stored, now: stored.now };
    } catch (e) {
      return { view: { ...base, unreadable: describeFailure(e) } };
    }
  });
  const now2 = read.find((r) => r.now)?.now ?? /* @__PURE__ */ new Date();
  const pause = read.map((r) => r.stored?.pause).find(Boolean);
  const plan = scheduleFleet({
    fleet,
    promotion,
    views: read.map((r) => r.view),
    now: now2,
    ...options.retryFailed && { retryFailed: true },
    ...pause && { paused: { at: pause.at, by: pause.by, reason: pause.reason } }
  });
  return { plan, sessions, now: now2 };
}
async function currentRelease(session, policy) {
  const { eks, autoScaling } = session.ports.cloud;
  const managed = new Set(await eks.listNodegroups(policy.cluster.name));
  const names2 = policy.groups.map((g) => g.name);
  const parts = /* @__PURE__ */ new Map();
  await Promise.all(
    names2.filter((n2) => managed.has(n2)).map(async (n2) => {
      const ng = await eks.describeNodegroup(policy.cluster.name, n2);
      parts.set(n2, `${n2} ${ng.releaseVersion}`);
    })
  );
  const asgs = names2.filter((n2) => !managed.has(n2));
  if (asgs.length > 0)
    for (const g of await autoScaling.describeAutoScalingGroups({ AutoScalingGroupNames: asgs })) {
      const used = [...new Set(g.Instances.map((i) => i.LaunchTemplate?.Version ?? "?"))].sort();
      parts.set(
        g.AutoScalingGroupName,
        `${g.AutoScalingGroupName} launch template ${used.join("+")}`
      );
    }
  return names2.flatMap((n2) => parts.get(n2) ?? []).join("; ");
}
function fleetGated(members) {
  return members.some((m) => {
    const s = policySignals(m.policy);
    return s.alarms.length > 0 || s.prometheus.length > 0;
  });
}
async function soakVerdict(session, policy) {
  const signals = policySignals(policy);
  if (signals.alarms.length === 0 && signals.prometheus.length === 0) return void 0;
  const { cloud, metrics } = session.ports;
  const readings = await readSignals({ cloud, ...metrics && { metrics } }, signals);
  const say = (v) => readings.filter((r) => r.verdict === v).map((r) => `${r.gate} ${r.value}${r.detail ? ` (${r.detail})` : ""}`).join("; ");
  if (readings.some((r) => r.verdict === "fail")) return { verdict: "fail", detail: say("fail") };
  if (readings.some((r) => r.verdict === "inconclusive"))
    return { verdict: "inconclusive", detail: say("inconclusive") };
  return { verdict: "pass", detail: readings.map((r) => `${r.gate} ${r.value}`).join("; ") };
}
async function resolveRelease(release3, session) {
  if (release3.releaseVersion !== "latest" || !release3.kubernetesVersion) return release3;
  const eks = session.ports.cloud.eks;
  const latest = await driveOf(session)(
    eks.latestReleaseVersions?.([release3.kubernetesVersion]) ?? Promise.resolve({})
  );
  const version = latest[release3.kubernetesVersion];
  if (!version)
    throw new Error(
      `the latest EKS AMI release for Kubernetes ${release3.kubernetesVersion} is not known: name releaseVersion in the fleet's release`
    );
  return { ...release3, releaseVersion: version };
}
async function applyFleet(fleet, members, deps, options = {}) {
  const read = await readFleet(fleet, members, deps, options);
  const wanted2 = read.plan.due.filter(
    (d) => !options.only || options.only.includes(d.view.policyFile)
  );
  const due = wanted2.flatMap((d) => {
    const member2 = members.find((m) => m.file === d.view.policyFile);
    const session = read.sessions.get(d.view.policyFile);
    return member2 && session ? [{ member: member2, session, stage: d.stage.name }] : [];
  });
  const [first] = due;
  if (!first) return { read, rolled: [] };
  const release3 = read.plan.pinned ?? await resolveRelease(fleet.release, first.session);
  const images = read.plan.pinned ? read.plan.images ?? [] : await driveOf(first.session)(
    latestImages(first.session, underRelease(first.member.policy, release3))
  );
  const promotion = promotionOf(fleet);
  const rolled = await driveOf(first.session)(
    Promise.all(
      due.map(async ({ member: member2, session, stage }) => {
        const ports = { ...session, drive: void 0 };
        const record2 = {
          fleet: fleet.metadata.name,
          promotion,
          release: release3,
          ...images.length > 0 && { images },
          stage,
          state: "rolling",
          startedAt: session.ports.clock.now().toISOString(),
          run: deps.runId
        };
        await writeRecord(session.ports.cluster, member2.policy.cluster.name, record2);
        const out = await rollOne(deps, member2, ports, release3, images);
        if (out.result === "success" || out.result === "failure")
          await writeRecord(session.ports.cluster, member2.policy.cluster.name, {
            ...record2,
            state: out.result === "success" ? "succeeded" : "failed",
            finishedAt: session.ports.clock.now().toISOString(),
            ...out.result === "failure" && { message: out.message }
          });
        return { member: member2, ...out };
      })
    )
  );
  return { read, release: release3, rolled };
}
var underRelease = (policy, release3) => ({
  ...policy,
  groups: policy.groups.map((g) => ({ ...g, target: underFleet(g.target, release3) }))
});
async function rollOne(deps, member2, session, release3, images) {
  try {
    const policy = await pinnedToImages(session, underRelease(member2.policy, release3), images);
    return await deps.roll(member2, session, policy);
  } catch (e) {
    return { result: "failure", message: describeFailure(e) };
  }
}
async function holdFleet(fleet, members, deps, pause) {
  return mapLimit(members, CONCURRENCY, async (m) => {
    const cluster = m.policy.cluster.name;
    try {
      const session = await deps.connect(m);
      const at5 = session.ports.clock.now().toISOString();
      const record2 = pause && { fleet: fleet.metadata.name, at: at5, ...pause };
      await driveOf(session)(writePause(session.ports.cluster, cluster, record2));
      return { cluster };
    } catch (e) {
      return { cluster, error: describeFailure(e) };
    }
  });
}

// src/adapters/files/read-fleet.ts
import { globSync } from "node:fs";
import { join as join3 } from "node:path";

// src/fleet/schema.ts
var FLEET_KIND = "Fleet";
var CONCURRENCY_PATTERN = "^(100|[1-9][0-9]?)%$";
function concurrencyProblem(v) {
  if (typeof v === "number" && Number.isInteger(v) && v >= 1) return void 0;
  if (typeof v === "string" && new RegExp(CONCURRENCY_PATTERN).test(v)) return void 0;
  return `a whole number of clusters >= 1, or a percentage of the stage's clusters from "1%" to "100%"`;
}
var nonNegativeInt = (description, defaultValue) => leaf(
  (v) => typeof v === "number" && Number.isInteger(v) && v >= 0 ? void 0 : "a whole number >= 0",
  { type: "integer", minimum: 0, description, default: defaultValue }
);
var StageSchema = strictObject({
  name: text(
    "The stage's name: dev, staging, prod.",
    /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/,
    "a lower-case name of letters, digits and '-' (at most 63 characters)",
    63
  ),
  policies: array(
    text(
      "A policy file, or a glob of them, from the repository's root.",
      /^[^\0]+$/,
      "a path or glob such as policies/dev-*.yaml",
      1024
    ),
    { error: "expected a list of policy files or globs, such as [policies/dev-*.yaml]" }
  ).min(1, { error: "expected at least one policy file or glob" }),
  maxConcurrency: leaf(concurrencyProblem, {
    description: "Clusters of this stage rolling at once: a count or a percentage (default 1).",
    anyOf: [
      { type: "integer", minimum: 1 },
      { type: "string", pattern: CONCURRENCY_PATTERN }
    ],
    default: 1
  }).optional(),
  soak: duration(
    "After the stage's last cluster succeeded, how long its gates stay green before the next stage starts (default: none)."
  ).optional(),
  environment: text(
    "The GitHub Environment whose reviewers and wait timer approve this stage's jobs.",
    /^[^\0\n]+$/,
    "a GitHub Environment's name",
    255
  ).optional(),
  failureThreshold: nonNegativeInt(
    "Clusters of this stage that may fail before the stage, and the fleet, halts (default 0).",
    0
  ).optional()
}).meta({
  description: "One stage of the fleet: its clusters roll only after the stage before soaked."
});
var FleetSchema = strictObject({
  apiVersion: leaf(
    (v) => v === API_VERSION ? void 0 : `"${API_VERSION}"`,
    { const: API_VERSION }
  ),
  kind: leaf((v) => v === FLEET_KIND ? void 0 : `"${FLEET_KIND}"`, {
    const: FLEET_KIND
  }),
  metadata: strictObject({
    name: text(
      "Names the fleet: its record on each cluster and its plan comment.",
      /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/,
      "a lower-case name of letters, digits and '-' (at most 63 characters)",
      63
    )
  }),
  release: TargetSchema.meta({
    description: "The release every group of every policy is rolled to: resolved once, when the first stage starts, then pinned for every stage."
  }),
  stages: array(StageSchema, { error: 'expected a list of stages, each starting with "- name: "' }).min(1, { error: "expected at least one stage" })
}).meta({
  title: "noderoll Fleet v1",
  description: "One release rolled across many clusters, stage by stage, with soak and approval."
});

// src/fleet/load.ts
var FLEET_LANGUAGE = {
  schema: FleetSchema,
  missingHints: {
    apiVersion: 'add "apiVersion: noderoll.io/v1"',
    kind: `add "kind: ${FLEET_KIND}"`,
    metadata: 'add "metadata:" with a "name:" under it',
    release: 'add "release:" with the kubernetesVersion, releaseVersion or launchTemplateVersion every cluster is rolled to',
    stages: 'add "stages:" with at least one "- name: …" and its "policies:"',
    name: 'add "name:"',
    policies: 'add "policies:", such as [policies/dev-*.yaml]'
  }
};
function isFleetShaped(value) {
  return value !== null && typeof value === "object" && value.kind === FLEET_KIND;
}
function loadFleet(text3, file) {
  const parsed = parsePolicySource(text3, file);
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  const { source, value } = parsed;
  const at5 = locator(file, source);
  if (!isFleetShaped(value))
    return {
      ok: false,
      errors: [at5([], `not a noderoll fleet: expected "kind: ${FLEET_KIND}"`)]
    };
  const result = FleetSchema.safeParse(value, { reportInput: true });
  if (!result.success) {
    const errors2 = shapeDiagnostics(FLEET_LANGUAGE, result.error.issues, value, at5);
    return { ok: false, errors: dedupe(errors2).sort(byPosition) };
  }
  const errors = fleetRules(result.data, at5);
  if (errors.length > 0) return { ok: false, errors: errors.sort(byPosition) };
  return { ok: true, fleet: result.data, source };
}
function fleetRules(fleet, at5) {
  const errors = [];
  if (Object.keys(fleet.release).length === 0)
    errors.push(
      at5(
        ["release"],
        "expected at least one of kubernetesVersion, releaseVersion, launchTemplateVersion: a fleet promotes a release"
      )
    );
  if (fleet.release.releaseVersion === "latest" && !fleet.release.kubernetesVersion)
    errors.push(
      at5(
        ["release", "releaseVersion"],
        'releaseVersion "latest" is resolved once and pinned for every stage: add kubernetesVersion (such as "1.33") to say latest of which'
      )
    );
  errors.push(
    ...repeatedNames(
      fleet.stages.map((st) => st.name),
      ["stages"],
      "stage",
      at5
    )
  );
  const globAt = /* @__PURE__ */ new Map();
  fleet.stages.forEach((stage, i) => {
    stage.policies.forEach((glob, j) => {
      const seen3 = globAt.get(glob);
      if (seen3)
        errors.push(
          at5(
            ["stages", i, "policies", j],
            `"${glob}" is already in stage "${fleet.stages[seen3[0]]?.name}" (line ${at5(["stages", seen3[0], "policies", seen3[1]], "").line}); a cluster belongs to one stage`
          )
        );
      else globAt.set(glob, [i, j]);
    });
  });
  return errors;
}

// src/adapters/files/read-fleet.ts
var isGlob = (p) => /[*?[{]/.test(p);
var norm = (p) => p.replace(/^\.\//, "");
function readFleetFiles(file, cwd) {
  const text3 = readYamlText(join3(cwd, file), file, "a fleet file");
  if (typeof text3 !== "string") return { ok: false, errors: text3.errors };
  const loaded = loadFleet(text3, file);
  if (!loaded.ok) return loaded;
  const { fleet, source } = loaded;
  const errors = [];
  const stageOf = /* @__PURE__ */ new Map();
  const members = [];
  fleet.stages.forEach((stage, i) => {
    stage.policies.forEach((pattern, j) => {
      const at5 = (message) => diagnostic({
        file,
        ...locate(source, ["stages", i, "policies", j]),
        path: `stages[${i}].policies[${j}]`,
        message,
        severity: "error"
      });
      const files = isGlob(pattern) ? globSync(pattern, { cwd }).map(norm).sort() : [norm(pattern)];
      if (files.length === 0) errors.push(at5(`"${pattern}" matches no policy file`));
      for (const f of files) {
        const other = stageOf.get(f);
        if (other && other !== stage.name)
          errors.push(at5(`${f} is also in stage "${other}"; a cluster belongs to one stage`));
        if (other) continue;
        stageOf.set(f, stage.name);
        const read = readPolicyFile(join3(cwd, f), f);
        if (!read.ok) errors.push(...read.errors);
        else members.push({ stage: stage.name, file: f, policy: read.policy, source: read.source });
      }
    });
  });
  errors.push(...releaseDisagreements(fleet, file, members), ...sameCluster(members));
  if (errors.length > 0) return { ok: false, errors: errors.sort(byFile) };
  return { ok: true, fleet, file, members: members.map(({ source: _s, ...m }) => m) };
}
function sameCluster(members) {
  const seen3 = /* @__PURE__ */ new Map();
  return members.flatMap(({ file, policy, source }) => {
    const key = `${policy.cluster.region}/${policy.cluster.name}`;
    const other = seen3.get(key);
    seen3.set(key, other ?? file);
    return other ? [
      {
        file,
        ...locate(source, ["cluster", "name"]),
        path: "cluster.name",
        message: `cluster ${policy.cluster.name} (${policy.cluster.region}) is also ${other}'s: a fleet rolls each cluster once, from one policy`,
        severity: "error"
      }
    ] : [];
  });
}
var byFile = (a, b) => a.file.localeCompare(b.file) || byPosition(a, b);

// src/render/fleet.ts
var releaseText = (t) => t ? [
  t.kubernetesVersion && `Kubernetes ${t.kubernetesVersion}`,
  t.releaseVersion && `release ${t.releaseVersion}`,
  t.launchTemplateVersion !== void 0 && `launch template ${t.launchTemplateVersion}`
].filter(Boolean).join(", ") : "";
var when = (iso) => readableTime(iso);
function stageWords(s) {
  switch (s.kind) {
    case "blocked":
      return `waiting for stage ${s.by.stage}, ${stageWords(s.by.state)}`;
    case "rolling":
      return "in progress";
    case "soaking":
      return `soaking until ${when(s.until)}${s.pending ? `, then until its gates can be judged (${s.pending})` : ""}`;
    case "soaked":
      return "done";
    case "halted":
      return `halted: ${s.why}`;
  }
}
function clusterWords(s) {
  switch (s.kind) {
    case "done":
      return `done ${when(s.finishedAt)}`;
    case "rolling":
      return `rolling since ${when(s.since)}${s.run ? ` (${s.run})` : ""}`;
    case "failed":
      return `failed ${when(s.at)}${s.message ? `: ${s.message}` : ""}${s.retry ? " — retried by this run" : ""}`;
    case "due":
      return s.resume ? "due: the next run resumes its roll" : "due: the next run starts it";
    case "queued":
      return "waiting for a slot (maxConcurrency)";
    case "blocked":
      return `waiting for stage ${s.by.stage}`;
    case "unreadable":
      return `not read: ${s.why}`;
  }
}
function head(plan, info, release3) {
  const images = plan.images?.length ? `, launch templates' $Latest at ${plan.images.join(", ")}` : "";
  const pinned = plan.pinned ? `pinned to ${releaseText(plan.pinned)}${images} for every stage` : release3.releaseVersion === "latest" ? "not pinned yet: latest is resolved when the first cluster starts, then kept for every stage" : "pinned for every stage when the first cluster starts";
  const lines = [`Fleet ${plan.fleet} (${info.file}) promotes ${releaseText(release3)}; ${pinned}.`];
  if (plan.paused)
    lines.push(
      `Paused${plan.paused.by ? ` by ${plan.paused.by}` : ""} ${when(plan.paused.at)}${plan.paused.reason ? `: ${plan.paused.reason}` : ""}; no cluster starts until \`noderoll fleet resume\`.`
    );
  lines.push(
    info.gated ? "A stage has soaked once its soak time has passed with every cluster's gates green." : "No policy of the fleet has gates beyond the built-in: a stage soaks on time alone."
  );
  return lines;
}
function nextRunText(plan) {
  if (plan.due.length > 0)
    return `The next run starts ${plan.due.map((d) => `${d.view.cluster}${d.resume ? " (resumed)" : ""}`).join(", ")}.`;
  if (plan.paused) return "The next run starts nothing: the fleet is paused.";
  const waiting2 = plan.stages.find((s) => s.state.kind !== "soaked");
  return waiting2 ? `The next run starts nothing: stage ${waiting2.stage.name} is ${stageWords(waiting2.state)}.` : "The next run starts nothing: every stage is done.";
}
var stageHead = (s) => `stage ${s.stage.name} (maxConcurrency ${s.concurrency}${s.stage.soak ? `, soak ${s.stage.soak}` : ""}${s.stage.environment ? `, environment ${s.stage.environment}` : ""}${s.stage.failureThreshold ? `, failureThreshold ${s.stage.failureThreshold}` : ""})`;
function renderFleetText(plan, info, release3) {
  const lines = [...head(plan, info, release3), ""];
  for (const s of plan.stages) {
    lines.push(`${stageHead(s)}: ${stageWords(s.state)}`);
    for (const { view, state } of s.clusters)
      lines.push(
        `  ${view.cluster} (${view.region}, ${view.policyFile})${view.current ? ` runs ${view.current}` : ""}: ${clusterWords(state)}`
      );
    lines.push("");
  }
  lines.push(nextRunText(plan));
  return `${lines.join("\n")}
`;
}
var cell2 = (t) => t.replace(/\|/g, "\\|").replace(/\n/g, " ");
function renderFleetMarkdown(plan, info, release3) {
  const out = [`### noderoll fleet \`${plan.fleet}\``, "", ...head(plan, info, release3), ""];
  out.push(`**${nextRunText(plan)}**`, "");
  out.push("| stage | cluster | runs | state |", "| --- | --- | --- | --- |");
  for (const s of plan.stages)
    for (const { view, state } of s.clusters)
      out.push(
        `| ${cell2(s.stage.name)}: ${cell2(stageWords(s.state))} | \`${cell2(view.cluster)}\` (${cell2(view.region)}) | ${cell2(view.current ?? "")} | ${cell2(clusterWords(state))} |`
      );
  out.push("", ...fleetGantt(plan, info.now));
  return `${out.join("\n")}
`;
}
function fleetGantt(plan, now2) {
  const z = new ZoneTime("UTC");
  const at5 = (ms2) => z.stamp(ms2);
  const bars = [];
  let previous;
  plan.stages.forEach((s, i) => {
    const id2 = `s${i}`;
    const starts = s.clusters.flatMap((c) => startOf(c.view.record?.startedAt, c.state));
    const ends = s.clusters.flatMap((c) => endOf(c.state));
    bars.push(`  section ${s.stage.name.replace(/[:#;]/g, "_")}`);
    if (starts.length === 0) {
      bars.push(`  not started :${id2}, ${previous ? `after ${previous}` : at5(now2.getTime())}, 1m`);
    } else {
      const end = ends.length === s.clusters.length ? Math.max(...ends) : now2.getTime();
      bars.push(
        `  rolls :${id2}, ${at5(Math.min(...starts))}, ${at5(Math.max(end, Math.min(...starts) + 6e4))}`
      );
      if (s.state.kind === "soaking" || s.state.kind === "soaked") {
        const until = Date.parse(s.state.kind === "soaking" ? s.state.until : s.state.at);
        bars.push(`  soak :${id2}s, ${at5(end)}, ${at5(Math.max(until, end + 6e4))}`);
        previous = `${id2}s`;
        return;
      }
    }
    previous = id2;
  });
  return [
    "```mermaid",
    "gantt",
    "  dateFormat YYYY-MM-DD HH:mm:ss",
    "  axisFormat %d %b %H:%M",
    "  title Stages (UTC)",
    ...bars,
    "```"
  ];
}
var startOf = (iso, s) => iso && s.kind !== "blocked" && s.kind !== "due" && s.kind !== "queued" ? [Date.parse(iso)] : [];
var endOf = (s) => s.kind === "done" ? [Date.parse(s.finishedAt)] : s.kind === "failed" ? [Date.parse(s.at)] : [];
function renderFleetJson(plan, info, release3) {
  const doc = {
    fleet: plan.fleet,
    file: info.file,
    release: release3,
    pinned: plan.pinned ?? null,
    images: plan.images ?? [],
    paused: plan.paused ?? null,
    gated: info.gated,
    stages: plan.stages.map((s) => ({
      name: s.stage.name,
      state: s.state,
      maxConcurrency: s.concurrency,
      soak: s.stage.soak ?? null,
      environment: s.stage.environment ?? null,
      clusters: s.clusters.map(({ view, state }) => ({
        cluster: view.cluster,
        region: view.region,
        policy: view.policyFile,
        current: view.current ?? null,
        state
      }))
    })),
    due: plan.due.map((d) => ({
      stage: d.stage.name,
      environment: d.stage.environment ?? "",
      cluster: d.view.cluster,
      region: d.view.region,
      policy: d.view.policyFile,
      resume: d.resume
    }))
  };
  return `${JSON.stringify(doc, null, 2)}
`;
}

// src/cli/fleet.ts
var SUBCOMMANDS = ["plan", "apply", "pause", "resume"];
function connector(values, hints) {
  const opened = [];
  const files = values.sandbox ?? [];
  const account = files.length > 0 ? loadAccount(files) : void 0;
  const connect = async (m) => {
    if (account)
      return {
        ports: account.ports(m.policy.cluster.name),
        drive: (t) => account.run(t)
      };
    const s = await liveSession(m.policy, void 0, hints);
    opened.push(s);
    return s;
  };
  return Object.assign(connect, {
    close: () => opened.forEach((s) => s.close()),
    ...account && { account }
  });
}
function rollDeps(values, connect) {
  const runId = values["run-id"] ?? `noderoll-fleet-${hostname3()}-${process.pid}`;
  return {
    runId,
    connect,
    roll: async (m, session, policy) => {
      const name = m.policy.cluster.name;
      const log = new EventLog(session.ports.clock);
      log.on((e) => {
        if (e.type === "group.end") process.stdout.write(`${name}: ${e.group} ${e.result}
`);
      });
      process.stdout.write(`${name}: rolling ${m.file} (stage ${m.stage})
`);
      const r = await planAndApply(policy, m.file, session.ports, log, {
        runId: `${runId}-${name}`,
        ...values.reason && { reason: values.reason }
      });
      process.stdout.write(`${name}: ${r.result}: ${r.message}
`);
      return { result: r.result, message: r.message };
    }
  };
}
function print(values, read, fleet, file, gated) {
  const info = { file, gated, now: read.now };
  const render = values.format === "json" ? renderFleetJson : values.format === "markdown" ? renderFleetMarkdown : renderFleetText;
  if (!["text", "json", "markdown"].includes(values.format))
    throw new UsageError(`--format takes text, markdown or json, not ${values.format}`);
  process.stdout.write(render(read.plan, info, fleet.release));
}
var who = () => {
  try {
    return `${userInfo2().username}@${hostname3()}`;
  } catch {
    return `${process.env.USER ?? "someone"}@${hostname3()}`;
  }
};
async function runFleet(args, hints) {
  const [sub, ...rest] = args;
  if (!SUBCOMMANDS.includes(sub))
    throw new UsageError(
      `fleet takes plan, apply, pause or resume${sub ? `, not ${JSON.stringify(sub)}` : ""}`
    );
  const { values } = parseFlags(rest, FLEET_OPTIONS);
  if (!values.fleet) throw new UsageError("--fleet FILE is required");
  const files = readFleetFiles(values.fleet, process.cwd());
  if (!files.ok) {
    for (const e of files.errors) process.stderr.write(`${formatDiagnostic(e)}
`);
    process.stderr.write(`${values.fleet}: invalid fleet; nothing was read or changed
`);
    return 1;
  }
  const { fleet, members } = files;
  const only = values.only ? members.filter((m) => m.file === values.only.replace(/^\.\//, "")) : members;
  if (values.only && only.length === 0)
    throw new UsageError(`--only ${values.only}: no stage of ${values.fleet} names that policy`);
  const gated = fleetGated(members);
  const connect = connector(values, hints);
  try {
    const deps = rollDeps(values, connect);
    if (sub === "pause" || sub === "resume") {
      const pause = sub === "pause" ? { by: who(), ...values.reason && { reason: values.reason } } : void 0;
      const said2 = await holdFleet(fleet, members, deps, pause);
      for (const r of said2)
        if (r.error) process.stderr.write(`${r.cluster}: not ${sub}d: ${r.error}
`);
        else process.stdout.write(`${r.cluster}: ${sub}d
`);
      return said2.some((r) => r.error) ? 1 : 0;
    }
    if (sub === "plan") {
      print(
        values,
        await readFleet(fleet, members, deps, { retryFailed: values["retry-failed"] }),
        fleet,
        values.fleet,
        gated
      );
      return 0;
    }
    const options = {
      retryFailed: values["retry-failed"],
      // --only: the whole fleet is read (what is due is the fleet's to say), one cluster rolled.
      ...values.only && { only: only.map((m) => m.file) }
    };
    const rolled = values.every ? await everyInterval(
      values.every,
      connect.account,
      () => applyFleet(fleet, members, deps, options)
    ) : (await applyFleet(fleet, members, deps, options)).rolled;
    print(values, await readFleet(fleet, members, deps), fleet, values.fleet, gated);
    const results = rolled.map((r) => r.result);
    return results.includes("failure") ? 1 : results.some((r) => r !== "success") ? 3 : 0;
  } finally {
    connect.close();
  }
}
var MAX_RUNS = 24 * 90;
async function everyInterval(every, account, run) {
  const ms2 = durationArg("--every", every, parseDuration);
  if (!account || !ms2)
    throw new UsageError(
      "--every runs a whole rollout in the sandbox: give --sandbox for each cluster, and a duration such as 1h"
    );
  const start = account.clock.nowMs();
  const all = [];
  for (let i = 0; i < MAX_RUNS; i++) {
    const applied = await run();
    all.push(...applied.rolled);
    const { plan } = applied.read;
    const busy = plan.stages.some((s) => s.clusters.some((c) => c.state.kind === "rolling"));
    const open = plan.stages.some((s) => s.state.kind === "soaking" || s.state.kind === "rolling");
    const halted2 = plan.stages.some((s) => s.state.kind === "halted");
    if (applied.rolled.length === 0 && !busy && (!open || halted2 || plan.paused)) break;
    await account.advance(ms2);
    if (applied.rolled.length > 0)
      process.stdout.write(
        `(+${formatDuration(Math.round((account.clock.nowMs() - start) / 6e4) * 6e4)} of virtual time)
`
      );
  }
  return all;
}

// src/cli/hints.ts
function socketError(e) {
  let first;
  for (let cur = e, i = 0; cur && i < 5; cur = cur.cause, i++)
    if (typeof cur.code === "string" && /^E[A-Z]+$/.test(cur.code)) {
      if (cur.address !== void 0 || cur.hostname !== void 0)
        return cur;
      first ??= cur;
    }
  return first;
}
function apiAt(host, env) {
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith("AWS_ENDPOINT_URL") || !value) continue;
    try {
      const u = new URL(value);
      if (`${u.hostname}:${u.port}` === host) {
        const service = name.replace(/^AWS_ENDPOINT_URL_?/, "").replace(/_/g, " ") || "AWS";
        return `the ${service} API (${name}=${value})`;
      }
    } catch {
    }
  }
  return void 0;
}
function refused2(s, ctx) {
  const host = `${s.address ?? "?"}:${s.port ?? "?"}`;
  const api = apiAt(host, ctx.env ?? {}) ?? (ctx.kubeconfig ? `probably the Kubernetes API named in ${ctx.kubeconfig}` : "an AWS API (AWS_ENDPOINT_URL_*) or the cluster's Kubernetes endpoint from EKS");
  return `nothing answers at ${host}: ${api}. Check that endpoint, or try the built-in sandbox: --sandbox demo`;
}
function hintFor(e, ctx = {}) {
  const err = e ?? {};
  const text3 = `${err.name ?? ""} ${err.message ?? ""}`;
  if (err.name === "CredentialsProviderError" || /Could not load credentials/i.test(text3))
    return "no AWS credentials were found. Set AWS_PROFILE (after `aws sso login`) or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; in GitHub Actions use aws-actions/configure-aws-credentials. To try noderoll without AWS: --sandbox demo";
  if ((err.name === "ResourceNotFoundException" || err.code === "ResourceNotFoundException") && /cluster/i.test(err.message ?? ""))
    return `EKS has no cluster "${ctx.cluster ?? "?"}" in region ${ctx.region ?? "?"} of the account these credentials belong to: check cluster.name and cluster.region in the policy, and the account with \`aws sts get-caller-identity\``;
  const s = socketError(e);
  if (s?.code === "ECONNREFUSED") return refused2(s, ctx);
  if (s?.code === "ENOTFOUND" || s?.code === "EAI_AGAIN")
    return `the name ${s.hostname ?? "?"} does not resolve: check the endpoint and the network`;
  return void 0;
}

// src/cli/plan.ts
import { writeFileSync as writeFileSync3 } from "node:fs";

// src/app/rehearse.ts
function unready(world, scenario) {
  for (const w of scenario.workloads ?? []) {
    if (Number(w.ready ?? 0) < NEVER_READY_TWIN_S) continue;
    const rec = world.kube.workloads.get(`${w.kind}/${w.namespace ?? "default"}/${w.name}`);
    for (const p of rec?.pods ?? []) world.kube.setPodReady(p, false);
  }
}
var LIMIT_MS = 7 * 864e5;
async function rehearse(input) {
  const twin = twinScenario(input.snapshot, input.live, input.timings);
  const world = World.from(twin.scenario);
  unready(world, twin.scenario);
  const log = new EventLog(world.clock);
  const watch = new RehearsalWatch(world);
  const stop = input.plan?.summary.stopsAt;
  const reached2 = stop && input.plan?.groups.slice(0, stop.index).map((g) => g.name);
  const roll2 = () => world.run(
    planAndApply(input.policy, input.file, world, log, {
      runId: "rehearsal",
      ...runOptions(input.options),
      ...reached2 && { groups: reached2 },
      ...forced(input.options) && { reason: "rehearsal of a forced roll" },
      // The rehearsal predicts the roll itself; the plan says when the window lets it run.
      ignoreWindow: true,
      ...input.signal && { signal: input.signal }
    }),
    LIMIT_MS
  );
  let result = await roll2();
  while (atCheckpoint(result.stop) && !input.signal?.aborted) {
    await world.run(clearStop({ ports: world }, input.policy));
    result = await roll2();
  }
  watch.stop();
  const rolled = rehearsalReport(world, log.events, watch, result);
  const report2 = input.plan && result.result === "success" ? stoppedWhereApplyStops(rolled, input.plan) : rolled;
  return {
    rehearsal: {
      ...report2,
      timings: { values: twin.timings.values, sources: twin.timings.sources }
    },
    events: log.events
  };
}
var atCheckpoint = (s) => s?.kind === "paused" && s.by?.startsWith("noderoll (gates of") === true && /^checkpoint /.test(s.reason ?? "");
async function rehearsePlan(input, o) {
  const timings = {
    ...givenTimings(input.policy.rehearsal?.timings),
    ...givenTimings(o.timings)
  };
  const { rehearsal, events } = await rehearse({
    ...input,
    live: o.live,
    timings,
    ...o.signal && { signal: o.signal }
  });
  return { plan: withRehearsal(input.plan, rehearsal), events };
}

// src/app/plan.ts
async function planPolicy(session, req) {
  return rehearseIfAsked(session, req, await readAndPlan(session, req));
}
function wanted(r, snapshot) {
  if (!r) return false;
  return r.when === "always" || snapshot.clusterNodeCount <= REHEARSE_AUTO_MAX_NODES;
}
async function rehearseIfAsked(session, req, planned) {
  const r = req.rehearse;
  if (!wanted(r, planned.snapshot)) return planned;
  const drive = driveOf(session);
  try {
    r.onStart?.();
    const instances = new Set(planned.snapshot.groups.flatMap((g) => g.instances.map((i) => i.id)));
    const read = await drive(readLiveCluster(session.ports, session.signal, instances));
    const live = { ...read, ...session.physics && { physics: session.physics } };
    const { plan, events } = await rehearsePlan(
      { ...req, plan: planned.plan, snapshot: planned.snapshot },
      {
        live,
        ...r.timings && { timings: r.timings },
        ...session.signal && { signal: session.signal }
      }
    );
    return { ...planned, plan, rehearsal: { events } };
  } catch (e) {
    if (!r.optional) throw e;
    return { ...planned, rehearsal: { failed: describeFailure(e) } };
  }
}

// src/cli/plan.ts
function renderPlan(plan, format, colour = false) {
  if (format === "json") return renderPlanJson(plan);
  if (format === "markdown") return `${renderPlanMarkdown(plan)}
`;
  return renderPlanText(plan, { colour });
}
async function runPlan(args, hints) {
  const { values } = parseFlags(args, PLAN_OPTIONS);
  if (!["text", "markdown", "json"].includes(values.format))
    throw new UsageError(`--format must be text, markdown or json, not ${values.format}`);
  const sha256 = values.out !== void 0 ? policySha256(values.policy ?? "") : "";
  const loaded = policyOrExit(values.policy, hints);
  if ("exitCode" in loaded) return loaded.exitCode;
  const { policy } = loaded;
  const groups2 = groupsOf(policy, values.groups);
  const rehearse2 = rehearseOptions(values);
  const session = values.sandbox !== void 0 ? sandboxSession(values.sandbox, rehearse2 ? 2 : 1) : await liveSession(policy, values.kubeconfig, hints);
  let plan;
  let saved = "";
  try {
    const planned = await planPolicy(
      { ...session, progress: (l) => process.stderr.write(l) },
      {
        policy,
        file: values.policy,
        options: { ...runFlags(values), ...groups2 && { groups: groups2 } },
        ...rehearse2 && { rehearse: rehearse2 }
      }
    );
    plan = planned.plan;
    const events = planned.rehearsal && "events" in planned.rehearsal && planned.rehearsal.events;
    if (events && values["rehearse-events"])
      writeFileSync3(
        values["rehearse-events"],
        events.map((e) => JSON.stringify(e)).join("\n") + "\n"
      );
    if (values.out !== void 0)
      saved = await savePlan(values.out, plan, {
        session,
        policy,
        sha256,
        reach: reachFlags(values)
      });
  } finally {
    session.close();
  }
  process.stdout.write(renderPlan(plan, values.format, useColour(process.stdout, process.env)));
  (values.format === "text" ? process.stdout : process.stderr).write(saved);
  if (plan.summary.errors > 0) return 1;
  return values["detailed-exitcode"] && hasChanges(plan) ? 2 : 0;
}
function rehearseOptions(values) {
  if (!values.rehearse) {
    if (values["rehearse-events"] || values["rehearse-timing"])
      throw new UsageError("--rehearse-events and --rehearse-timing go with --rehearse");
    return void 0;
  }
  const timings = values["rehearse-timing"] ? parseTimingFlag(values["rehearse-timing"]) : {};
  if (typeof timings === "string") throw new UsageError(`--rehearse-timing: ${timings}`);
  return { when: "always", timings };
}

// src/cli/sandbox.ts
import { writeFileSync as writeFileSync4 } from "node:fs";

// src/sandbox/scenarios/generate.ts
var CLUSTER_NAME = /^[0-9A-Za-z][A-Za-z0-9_-]{0,54}$/;
var ZONES = ["eu-west-1a", "eu-west-1b", "eu-west-1c"];
function generateScenarioInput(opts) {
  const { nodes, podsPerNode } = opts;
  const groups2 = Math.max(1, Math.min(opts.groups, nodes));
  if (!Number.isInteger(nodes) || nodes < 1) throw new Error("--nodes must be a positive integer");
  if (!Number.isInteger(podsPerNode) || podsPerNode < 1)
    throw new Error("--pods-per-node must be a positive integer");
  if (opts.cluster !== void 0 && !CLUSTER_NAME.test(opts.cluster))
    throw new Error(
      `--cluster must be an EKS cluster name (letters, digits, - and _) of at most 55 characters, not ${JSON.stringify(opts.cluster)}`
    );
  const seed = opts.seed ?? 1;
  const random = new Random(seed);
  return {
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: {
      name: `generated-${nodes}n-${groups2}g-${podsPerNode}p-s${seed}`,
      description: `Generated: ${nodes} nodes in ${groups2} groups, ${podsPerNode} pods per node, seed ${seed}.`
    },
    seed,
    start: "2026-01-05T09:00:00Z",
    cluster: { name: opts.cluster ?? "generated", region: "eu-west-1", version: "1.33" },
    releases: {
      "1.32": ["1.32.3-20250519", "1.32.5-20250715"],
      "1.33": ["1.33.1-20250715", "1.33.4-20250904"]
    },
    zones: ZONES,
    nodeGroups: nodeGroups(opts, groups2),
    workloads: workloads2(random, nodes, podsPerNode)
  };
}
function nodeGroups(opts, groups2) {
  const { nodes, podsPerNode } = opts;
  const kind = opts.kind ?? "mixed";
  const podsCap = Math.ceil(podsPerNode * 1.6) + 4;
  const cpu = Math.ceil(podsPerNode * 100 * 1.6 / 1e3) + 1;
  const memoryGi = Math.ceil(podsPerNode * 128 * 1.6 / 1024) + 2;
  const out = [];
  for (let g = 0; g < groups2; g++) {
    const size = Math.floor(nodes / groups2) + (g < nodes % groups2 ? 1 : 0);
    const managed = kind === "managed" || kind === "mixed" && g % 2 === 0;
    const own = `${managed ? "ng" : "asg"}-${String(g + 1).padStart(3, "0")}`;
    const name = opts.cluster ? `${opts.cluster}-${own}` : own;
    const common2 = {
      name,
      instanceType: "m6i.2xlarge",
      capacity: { cpu, memory: `${memoryGi}Gi`, pods: podsCap },
      size: { min: Math.max(1, Math.floor(size / 2)), max: size * 2 + 10, desired: size },
      labels: { pool: name }
    };
    if (managed)
      out.push({
        ...common2,
        type: "managed",
        version: "1.32",
        releaseVersion: "1.32.3-20250519",
        updateConfig: { maxUnavailablePercentage: opts.maxUnavailablePercentage ?? 10 }
      });
    else
      out.push({
        ...common2,
        type: "self-managed",
        version: "1.32",
        launchTemplate: { name, versions: 4, default: 4, use: "$Latest" },
        instances: [{ version: 3, count: size }]
      });
  }
  return out;
}
function workloads2(random, nodes, podsPerNode) {
  const out = [
    {
      kind: "DaemonSet",
      name: "node-agent",
      namespace: "monitoring",
      tolerations: [{ operator: "Exists" }],
      requests: { cpu: "50m", memory: "64Mi" }
    }
  ];
  let left2 = nodes * (podsPerNode - 1);
  const sizes = [1, 2, 3, 3, 5, 10, 20, 50];
  let n2 = 0;
  while (left2 > 0) {
    const replicas2 = Math.min(left2, sizes[random.int(sizes.length)]);
    left2 -= replicas2;
    n2++;
    const stateful = replicas2 >= 3 && random.next() < 0.1;
    const name = `${stateful ? "db" : "app"}-${String(n2).padStart(4, "0")}`;
    const w = {
      kind: stateful ? "StatefulSet" : "Deployment",
      name,
      namespace: `team-${String(n2 % 20 + 1).padStart(2, "0")}`,
      replicas: replicas2,
      requests: { cpu: "100m", memory: "128Mi" },
      start: random.int(10) + 2,
      ready: random.int(20) + 3,
      terminationGracePeriod: 30,
      ...random.next() < 0.3 ? { preStop: random.int(10) + 1 } : {}
    };
    if (replicas2 >= 2) {
      const style = random.int(4);
      if (style === 0) w.pdb = { minAvailable: 1 };
      else if (style === 1) w.pdb = { maxUnavailable: 1 };
      else if (style === 2) w.pdb = { maxUnavailable: "25%" };
    }
    out.push(w);
  }
  return out;
}
function generateScenarioYaml(opts) {
  const input = generateScenarioInput(opts);
  const header = `# ${input.metadata.description}
# Regenerate: ${regenerate(opts, input.seed)}
`;
  const lines = Object.entries(input).map(([key, value]) => {
    const k = JSON.stringify(key);
    if (!Array.isArray(value) || value.length === 0) return `  ${k}: ${JSON.stringify(value)}`;
    return `  ${k}: [
${value.map((item) => `    ${JSON.stringify(item)}`).join(",\n")}
  ]`;
  });
  return `${header}{
${lines.join(",\n")}
}
`;
}
function regenerate(opts, seed) {
  const named3 = opts.cluster ? ` --cluster ${opts.cluster}` : "";
  return `noderoll sandbox generate --nodes ${opts.nodes} --groups ${opts.groups} --pods-per-node ${opts.podsPerNode} --seed ${seed}${named3}`;
}
function generatePolicyYaml(opts) {
  const input = generateScenarioInput(opts);
  const { name, region, version } = input.cluster;
  const groups2 = input.nodeGroups.map(
    (g) => g.type === "managed" ? `  - name: ${g.name}
    target:
      kubernetesVersion: "${version}"
      releaseVersion: latest
` : `  - name: ${g.name}
    target:
      launchTemplateVersion: $Latest
    rollingUpdate:
      maxSurge: "10%"
      maxUnavailable: 0
`
  );
  return [
    `# The policy for the scenario of: ${regenerate(opts, input.seed)}`,
    "apiVersion: noderoll.io/v1",
    "kind: UpgradePolicy",
    "metadata:",
    `  name: ${name}`,
    "cluster:",
    `  name: ${name}`,
    `  region: ${region}`,
    "groups:",
    groups2.join("").trimEnd(),
    ""
  ].join("\n");
}

// src/cli/sandbox.ts
function count(name, value, fallback) {
  if (value === void 0 && fallback !== void 0) return fallback;
  const n2 = Number(value);
  if (!Number.isInteger(n2) || n2 < 1) throw new UsageError(`--${name} takes a whole number >= 1`);
  return n2;
}
function pullFlags(values) {
  const pulls = values.map((value) => {
    const m = /^(\d+):(.+)$/.exec(value);
    const files = m?.[2]?.split(",").filter((f) => f.length > 0) ?? [];
    if (!m || Number(m[1]) < 1 || files.length === 0)
      throw new UsageError(
        `--pull takes N:FILE[,FILE]... (pull request N changes these files), not "${value}"`
      );
    return { number: Number(m[1]), files };
  });
  for (const [i, p] of pulls.entries())
    if (pulls.findIndex((q) => q.number === p.number) !== i)
      throw new UsageError(`--pull ${p.number} is given twice: one --pull per pull request`);
  return pulls;
}
function repoFlag(value) {
  if (value === void 0) return { owner: "octo-org", repo: "infra" };
  const m = /^([\w.-]+)\/([\w.-]+)$/.exec(value);
  if (!m) throw new UsageError(`--repo takes OWNER/NAME, not "${value}"`);
  return { owner: m[1], repo: m[2] };
}
async function serve(args) {
  const { values } = parseFlags(args, SERVE_OPTIONS);
  const { owner, repo } = repoFlag(values.repo);
  const pulls = pullFlags(values.pull ?? []);
  const speed = values.speed === void 0 ? 1 : Number(values.speed);
  if (!Number.isFinite(speed) || speed < 0)
    throw new UsageError("--speed takes a number >= 0 (virtual seconds per real second)");
  const port = values.port === void 0 ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError("--port takes a port number");
  const { MAX_SERVED_CLUSTERS, serveSandbox, servedPull } = await import("./serve-ODLSRGPS.js");
  const scenarios = expandScenarios(values.scenario ?? []);
  if (scenarios.length > MAX_SERVED_CLUSTERS)
    throw new UsageError(
      `--scenario: at most ${MAX_SERVED_CLUSTERS} clusters are served at once (each has a TLS identity, a certificate authority, of its own), not ${scenarios.length}`
    );
  const served = scenarios.length > 1 ? loadAccount(scenarios) : loadWorld(scenarios[0]);
  const server = await serveSandbox(served, {
    port,
    speed,
    ...values.kubeconfig && { kubeconfigPath: values.kubeconfig },
    github: {
      owner,
      repo,
      pulls: pulls.map((p) => servedPull(owner, repo, p.number, p.files)),
      readOnlyTokens: values["read-only-token"] ?? []
    }
  });
  process.stdout.write(server.describe());
  await new Promise((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
  return 0;
}
async function runSandbox(args) {
  const [sub, ...rest] = args;
  if (sub === "generate") {
    const { values } = parseFlags(rest, GENERATE_OPTIONS);
    const opts = {
      nodes: count("nodes", values.nodes),
      groups: count("groups", values.groups, 4),
      podsPerNode: count("pods-per-node", values["pods-per-node"], 30),
      seed: count("seed", values.seed, 1),
      ...values.cluster !== void 0 && { cluster: values.cluster }
    };
    if (values["policy-out"]) writeFileSync4(values["policy-out"], generatePolicyYaml(opts));
    process.stdout.write(generateScenarioYaml(opts));
    return 0;
  }
  if (sub === "serve") return serve(rest);
  const subs = ["serve", "generate"];
  const guess = sub && (closest(sub, subs) ?? subs.find((x) => x.startsWith(sub)));
  throw new UsageError(
    sub ? `unknown sandbox command "${sub}"${guess ? `; did you mean "${guess}"?` : "; it has serve and generate"}` : "sandbox needs a command: serve or generate"
  );
}

// src/cli/usage.ts
var SANDBOX = {
  serve: `sandbox serve [--scenario S]... [--port N] [--kubeconfig PATH] [--speed X]
      [--repo OWNER/NAME] [--pull N:FILE[,FILE]...]... [--read-only-token TOKEN]...
    The sandbox over HTTP on 127.0.0.1 (Kubernetes, EKS, Auto Scaling, EC2, CloudWatch, SSM,
    STS, GitHub, and Prometheus at /prometheus); Ctrl-C stops it. Several scenarios: several
    clusters in one AWS account and region, each Kubernetes API on a TLS port and with a CA of
    its own; a kubeconfig for each (kc.yaml: kc.NAME.yaml for the others). GitHub: merge a pull
    request with PUT /repos/OWNER/NAME/pulls/N/merge; the pull requests, their comments and
    check runs are on a page at /github/ (try the loop: npm run demo:pr).
${flagLines(SERVE_OPTIONS)}`,
  generate: `sandbox generate --nodes N --groups G --pods-per-node P [--seed S] [--policy-out FILE]
     [--cluster NAME]
    A large synthetic scenario on stdout; with --policy-out, a policy covering its groups
    (plan it: plan --policy FILE --sandbox SCENARIO). --cluster names the cluster (default
    generated) and starts its groups' names with it: a fleet's clusters share one account.
${flagLines(GENERATE_OPTIONS)}`
};
var COMMANDS = {
  validate: `validate FILE... [--format text|json]
    Check policy files, and fleet files with the policies they name; every error as
    file:line:col: path: message. Exit 0 valid, 1 invalid, 2 usage.
${flagLines(VALIDATE_OPTIONS)}`,
  plan: `plan --policy P [--sandbox S] [--format text|markdown|json] [--detailed-exitcode] [--out FILE]
     [--groups a,b] [--replace-all] [--delete-after-drain-timeout] [--kubeconfig PATH]
     [--rehearse [--rehearse-events FILE.jsonl] [--rehearse-timing boot=90s,...]]
    What apply would do; changes nothing. Exit 0 (with --detailed-exitcode: 0 no changes,
    2 changes), 1 error. --rehearse also runs the roll on a sandbox twin of the cluster
    in virtual time and shows what it does to every workload (docs/rehearsal.md).
${flagLines(PLAN_OPTIONS)}`,
  apply: `apply [FILE] [--policy P] [--sandbox S] [--events FILE.jsonl] [--groups a,b]
      [--replace-all] [--delete-after-drain-timeout] [--reason TEXT]
      [--max-duration 5h30m] [--ignore-window] [--lock-wait 10m] [--out DIR] [--kubeconfig PATH]
      [--quiet] [--auto-approve]
    Roll the nodes, with live progress: the policy's (--policy P), or exactly the plan saved in
    FILE by \`plan --out FILE\` (FILE fixes the policy and the run's options; it is refused,
    changing nothing, if a decision in it no longer holds — plan again). On a terminal it shows
    the plan and asks first (only "yes" rolls; --auto-approve, or a saved plan, does not ask);
    off a terminal it asks nothing. Exit 0 done, 1 failed (or aborted, or a saved plan refused),
    3 stopped early (cancelled, --max-duration, window closed: run it again to continue; paused:
    resume it), 2 usage. While a pause or an abort stands on the cluster's Lease, apply refuses
    to start.
${flagLines(APPLY_OPTIONS, APPLY_ARGUMENTS)}`,
  pause: `pause --policy P [--reason TEXT] [--sandbox S] [--kubeconfig PATH]
    Ask the run that holds the cluster, from this machine or any other, to stop at its next node
    boundary: it starts no new node (no cordon, no detach), lets the drains in flight finish, and
    ends "paused" (exit 3). Every apply refuses to start until resume. Exit 0 asked (and says
    whether a run holds the cluster now), 1 error, 2 usage.
${flagLines(CONTROL_OPTIONS)}`,
  abort: `abort --policy P [--rollback] [--reason TEXT] [--sandbox S] [--kubeconfig PATH]
    As pause, but the run ends "aborted", a failure (exit 1). Every apply refuses to start until
    resume. With --rollback, the groups then go back to what they ran before: the run holding
    the cluster rolls back once stopped; with none holding it, this command rolls back (exit
    codes as rollback's). Exit 0 asked, 1 error, 2 usage.
${flagLines(ABORT_OPTIONS)}`,
  rollback: `rollback --policy P [--groups a,b] [--reason TEXT] [any flag of apply]
    Roll the groups a roll changed back to what they ran before it (recorded on the cluster
    when it began): an apply with those targets, the same budgets, drain rules and gates.
    A pause or an abort standing on the Lease holds it, except the abort that asked for it.
    Exit codes as apply's; 1 when nothing is recorded to roll back.
${flagLines(APPLY_OPTIONS)}`,
  resume: `resume --policy P [--reason TEXT] [any flag of apply]
    Clear a pause or an abort standing on the cluster's Lease, then apply with the same flags
    as apply (it picks up where the stopped run left off). Exit codes as apply's.
${flagLines(APPLY_OPTIONS)}`,
  fleet: `fleet plan|apply|pause|resume --fleet FILE [--sandbox S]... [--format text|markdown|json]
      [--retry-failed] [--only POLICY] [--reason TEXT] [--run-id ID]
    One release promoted across the fleet file's clusters, stage by stage (docs/fleet.md). plan:
    per stage and cluster, the release it runs and the one pinned, its state, and what the next
    run starts (json: its "due" list is a workflow's matrix). apply: start what is due now —
    within maxConcurrency, after the stage above soaked — roll it, record it on the cluster, and
    return (it never waits out a soak; run it again, on a schedule); --only POLICY rolls that
    cluster alone, if due. pause/resume: hold or release every later start. Exit 0 done or
    nothing due, 1 invalid files or a roll failed, 3 a roll stopped early, 2 usage.
${flagLines(FLEET_OPTIONS)}`,
  sandbox: `${SANDBOX.serve}
${SANDBOX.generate}`,
  schema: `schema
    The policy's JSON Schema (for editors without network: save it and point
    "# yaml-language-server: $schema=./upgrade-policy.schema.json" at the file).`,
  help: `help [COMMAND]
    This text, or one command's.`
};
var USAGE = `usage: noderoll <command> [options]     (noderoll help <command>, noderoll --version)

${Object.values(COMMANDS).map((u) => `  ${u.replace(/\n/g, "\n  ")}`).join("\n")}

Without --sandbox, plan, apply, pause, abort, resume and rollback reach the live cluster: AWS from the
default credential chain, Kubernetes from --kubeconfig or from EKS itself. --sandbox demo is the
built-in demo cluster.
`;
function unknownCommand(command) {
  const guess = closest(command, Object.keys(COMMANDS));
  return `unknown command "${command}"${guess ? `; did you mean "${guess}"?` : ""}`;
}
function usageOf(command, sub) {
  if (command === void 0) return USAGE;
  if (command === "sandbox" && (sub === "serve" || sub === "generate"))
    return `usage: noderoll ${SANDBOX[sub]}
`;
  const text3 = COMMANDS[command];
  if (!text3)
    throw new UsageError(`no command "${command}"; commands: ${Object.keys(COMMANDS).join(", ")}`);
  return `usage: noderoll ${text3}
`;
}

// src/cli/validate.ts
var FLEET_KIND2 = /^kind[ \t]*:[ \t]*["']?Fleet["']?[ \t]*(#.*)?$/m;
function validateFleet(file) {
  const r = readFleetFiles(file, process.cwd());
  if (!r.ok) return { file, valid: false, errors: r.errors, warnings: [] };
  return {
    file,
    valid: true,
    name: r.fleet.metadata.name,
    clusters: r.members.length,
    errors: [],
    warnings: []
  };
}
function validateFiles(files) {
  return files.map((file) => {
    const text3 = readYamlText(file, file, "a policy file");
    if (typeof text3 === "string" && FLEET_KIND2.test(text3)) return validateFleet(file);
    const r = readPolicyFile(file);
    if (!r.ok) return { file, valid: false, errors: r.errors, warnings: r.warnings };
    return {
      file,
      valid: true,
      name: r.policy.metadata.name,
      groups: r.policy.groups.length,
      errors: [],
      warnings: r.warnings
    };
  });
}
function renderValidationText(reports, colour = false) {
  const paint = painter(colour);
  const lines = [];
  for (const r of reports) {
    for (const d of r.errors) lines.push(paint(formatDiagnostic(d), "red"));
    for (const d of r.warnings) lines.push(paint(formatDiagnostic(d), "yellow"));
    const what = r.clusters !== void 0 ? `fleet "${r.name}", ${r.clusters} cluster${r.clusters === 1 ? "" : "s"}` : `policy "${r.name}", ${r.groups} group${r.groups === 1 ? "" : "s"}`;
    if (r.valid) lines.push(paint(`${r.file}: valid (${what})`, "green"));
  }
  const bad = reports.filter((r) => !r.valid);
  const errorCount = bad.reduce((n2, r) => n2 + r.errors.length, 0);
  if (bad.length > 0)
    lines.push(
      paint(
        `${errorCount} error${errorCount === 1 ? "" : "s"} in ${bad.length} of ${reports.length} file${reports.length === 1 ? "" : "s"}`,
        "bold",
        "red"
      )
    );
  return `${lines.join("\n")}
`;
}
function runValidate(args) {
  const { values, positionals } = parseFlags(args, VALIDATE_OPTIONS, true);
  if (positionals.length === 0) throw new UsageError("validate needs at least one policy file");
  if (values.format !== "text" && values.format !== "json")
    throw new UsageError(`--format must be text or json, not ${values.format}`);
  const reports = validateFiles(positionals);
  process.stdout.write(
    values.format === "json" ? `${JSON.stringify({ files: reports }, null, 2)}
` : renderValidationText(reports, useColour(process.stdout, process.env))
  );
  return reports.every((r) => r.valid) ? 0 : 1;
}

// src/cli/main.ts
async function dispatch(command, rest, hints) {
  switch (command) {
    case "validate":
      return runValidate(rest);
    case "plan":
      return await runPlan(rest, hints);
    case "apply":
      return await runApply(rest, hints);
    case "resume":
    case "rollback":
      return await runApply(rest, hints, command);
    case "pause":
    case "abort":
      return await runControl(command, rest, hints);
    case "sandbox":
      return await runSandbox(rest);
    case "fleet":
      return await runFleet(rest, hints);
    case "schema":
      process.stdout.write(policyJsonSchemaText());
      return 0;
    case "help":
      process.stdout.write(usageOf(rest[0]));
      return 0;
    case "--help":
    case "-h":
      process.stdout.write(USAGE);
      return 0;
    case "--version":
    case "-V":
      process.stdout.write(`noderoll ${noderollVersion()}
`);
      return 0;
    default:
      throw new UsageError(command ? unknownCommand(command) : "no command given");
  }
}
async function relaunchOrSay(e, argv) {
  try {
    return await relaunch(e, [process.argv[1], ...argv]);
  } catch (err) {
    process.stderr.write(`noderoll: could not run again: ${err.message}
`);
    return 1;
  }
}
async function main(argv) {
  const [command, ...rest] = argv;
  const hints = {};
  try {
    if (command && COMMANDS[command] && (rest.includes("--help") || rest.includes("-h"))) {
      process.stdout.write(usageOf(command, rest[0]));
      return 0;
    }
    return await dispatch(command, rest, hints);
  } catch (e) {
    if (e instanceof HeapTooSmall) return relaunchOrSay(e, argv);
    if (e instanceof GroupsError) {
      process.stderr.write(`noderoll: ${e.message}
`);
      return 2;
    }
    if (e instanceof UsageError || e.code?.startsWith("ERR_PARSE_ARGS")) {
      const help = command && COMMANDS[command] ? usageOf(command) : USAGE;
      process.stderr.write(`noderoll: ${e.message}

${help}`);
      return 2;
    }
    const hint = hintFor(e, { ...hints, env: process.env });
    process.stderr.write(`noderoll: ${describeFailure(e)}
${hint ? `hint: ${hint}
` : ""}`);
    return 1;
  }
}
followParent();
process.exitCode = await main(process.argv.slice(2));
export {
  main
};
