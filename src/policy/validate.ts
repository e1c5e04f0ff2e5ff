// Turning a policy file into a typed Policy, or into every problem it has, each located to
// line and column with what was expected and what was found.
import * as z from "zod";
import {
  defaultUnavailable,
  isPercent,
  KOPS_DEFAULTS,
  percentOf,
  surgesNever,
  VALIDATION_PERIOD_MS,
  type Budget,
} from "./budget.js";
import { byPosition, type Diagnostic } from "./diagnostic.js";
import {
  dedupe,
  locator,
  repeatedNames,
  shapeDiagnostics,
  type At,
  type FileLanguage,
} from "./issues.js";
import { parseDuration } from "./duration.js";
import { entryMatches } from "./order.js";
import { gateProblems, mergeGates } from "./gates.js";
import { NOT_A_POLICY, parsePolicySource, type PolicySource } from "./source.js";
import {
  GroupSchema,
  KIND,
  PolicySchema,
  RollingUpdateSchema,
  ROLES,
  type Gates,
  type Policy,
  type Role,
  type RollingUpdate,
} from "./schema.js";
import { closest } from "./suggest.js";

export type LoadResult =
  | { ok: true; policy: Policy; source: PolicySource; warnings: Diagnostic[] }
  | { ok: false; errors: Diagnostic[]; warnings: Diagnostic[] };

type Path = readonly PropertyKey[];

const isZeroBudget = (b: Budget) => (isPercent(b) ? percentOf(b) === 0 : b === 0);

/**
 * Whether a document is a policy at all, right or wrong: a mapping with our apiVersion or our
 * kind — not another tool's file (a kubeconfig has apiVersion and kind too, but not ours; a Helm
 * values file has neither). Only a policy's values are ever quoted back in an error.
 */
function isPolicyShaped(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return (
    (typeof v.apiVersion === "string" && v.apiVersion.startsWith("noderoll.io/")) || v.kind === KIND
  );
}

/** Parse and validate a policy file's text. Pure: the caller reads the file. */
/** The other files of noderoll a policy's path may be given by mistake, and what to do. */
const OTHER_KINDS = {
  Fleet:
    "this is a Fleet (a release promoted across clusters), not an UpgradePolicy: plan and apply it with noderoll fleet plan|apply --fleet FILE; validate checks it with its policies",
  SandboxScenario:
    "this is a SandboxScenario (a sandbox cluster), not an UpgradePolicy: validate takes policies; a scenario is checked when it is loaded (plan or apply --sandbox FILE, sandbox serve --scenario FILE)",
} as const;

export function loadPolicy(text: string, file: string): LoadResult {
  const parsed = parsePolicySource(text, file);
  if (!parsed.ok) return { ok: false, errors: parsed.errors, warnings: [] };
  const { source, value } = parsed;
  const at = locator(file, source);

  if (!isPolicyShaped(value)) {
    // A policy written as a list of its keys gets the shape explained; anything else is not ours.
    const listed = Array.isArray(value) && value.some(isPolicyShaped);
    const message = listed
      ? 'expected a mapping that starts with "apiVersion: noderoll.io/v1", found a list (write the keys without a leading "- ")'
      : NOT_A_POLICY;
    return { ok: false, errors: [at([], message)], warnings: [] };
  }
  // Another noderoll file (a sandbox scenario) is said as what it is, not as a policy's errors.
  const kind = (value as { kind?: unknown }).kind;
  if (typeof kind === "string" && kind !== KIND && kind in OTHER_KINDS)
    return {
      ok: false,
      errors: [at([], OTHER_KINDS[kind as keyof typeof OTHER_KINDS], "kind")],
      warnings: [],
    };
  const result = PolicySchema.safeParse(value, { reportInput: true });
  if (!result.success) {
    // Report the cross-key rules too, for the parts whose shape is right: all errors at once.
    const shapeErrors = shapeDiagnostics(POLICY_LANGUAGE, result.error.issues, value, at);
    const ruleErrors = checkPolicy(wellFormedParts(value as Record<string, unknown>), at).errors;
    return {
      ok: false,
      errors: dedupe([...shapeErrors, ...ruleErrors]).sort(byPosition),
      warnings: [],
    };
  }
  const { errors, warnings } = checkPolicy(result.data, at);
  if (errors.length > 0)
    return { ok: false, errors: errors.sort(byPosition), warnings: warnings.sort(byPosition) };
  return { ok: true, policy: result.data, source, warnings: warnings.sort(byPosition) };
}

/** What to write for a missing key, where a sentence helps more than the key's name. */
const MISSING_HINT: Record<string, string> = {
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
  timeZone: 'add "timeZone:", such as Europe/Berlin',
};

/** Keys a policy once had, and what took their place. */
const RENAMED: Record<string, string> = {
  force:
    '"force" meant three things and was split: "deleteAfterDrainTimeout: true" deletes the pods left at drainTimeout, past their PodDisruptionBudgets (EKS\'s force); "unmanagedPods: evict | refuse" says what a drain does with pods no controller owns (kubectl drain --force); replacing every node whatever its version is a run\'s --replace-all',
};

/** The upgrade policy, as issues.ts reads a schema's complaints about it. */
const POLICY_LANGUAGE: FileLanguage = {
  schema: PolicySchema,
  missingHints: MISSING_HINT,
  renamed: RENAMED,
};

/**
 * The pieces of an invalid policy that are well formed on their own, shaped as a Policy so
 * the cross-key rules can run on them. A malformed group is left out but keeps its index.
 */
function wellFormedParts(raw: Record<string, unknown>): Policy {
  const pick = <T>(schema: z.ZodType<T>, v: unknown): T | undefined => {
    const r = schema.safeParse(v);
    return r.success ? r.data : undefined;
  };
  // Each key of a group on its own, so that one bad key does not hide the group's name.
  const group = (g: unknown) => {
    const r = (g ?? {}) as Record<string, unknown>;
    const name = pick(GroupSchema.shape.name, r.name);
    if (name === undefined) return undefined;
    return {
      name,
      role: pick(GroupSchema.shape.role, r.role),
      rollingUpdate: pick(RollingUpdateSchema, r.rollingUpdate),
    };
  };
  const groups = Array.isArray(raw.groups) ? raw.groups.map(group) : [];
  return {
    defaults: pick(RollingUpdateSchema, raw.defaults),
    order: pick(PolicySchema.shape.order, raw.order),
    groups: groups as Policy["groups"],
  } as Policy;
}

/** Rules that span several keys. Groups may be holes when called on an invalid policy. */
function checkPolicy(policy: Policy, at: At): { errors: Diagnostic[]; warnings: Diagnostic[] } {
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  errors.push(
    ...repeatedNames(
      policy.groups.map((g) => g?.name),
      ["groups"],
      "group",
      at,
    ),
  );

  errors.push(...budgetErrors(policy.defaults, ["defaults"], "node", at));
  policy.groups.forEach((group, i) => {
    if (!group) return;
    const own = group.rollingUpdate;
    const role: Role = group.role ?? "node";
    // `maxSurge: 0` (or "0%") says "no surge", which is what a control-plane group does anyway.
    if (role === "control-plane" && own?.maxSurge !== undefined && !isZeroBudget(own.maxSurge)) {
      errors.push(
        at(
          ["groups", i, "rollingUpdate"],
          "a control-plane group cannot surge: its nodes are replaced in place, maxUnavailable at a time; remove maxSurge or set it to 0",
          "maxSurge",
        ),
      );
    }
    // Only report here when this group's own entry is what makes both budgets zero.
    if (own?.maxSurge !== undefined || own?.maxUnavailable !== undefined) {
      const merged = { ...policy.defaults, ...own };
      errors.push(...budgetErrors(merged, ["groups", i, "rollingUpdate"], role, at, own));
    }
    if (own?.validation) {
      const merged = { ...policy.defaults?.validation, ...own.validation };
      errors.push(...validationErrors(merged, ["groups", i, "rollingUpdate", "validation"], at));
    }
  });
  errors.push(
    ...validationErrors(policy.defaults?.validation ?? {}, ["defaults", "validation"], at),
  );
  errors.push(...policyGateErrors(policy, at));

  const orderable = policy.groups
    .filter(Boolean)
    .map((g) => ({ name: g.name, role: g.role ?? ("node" as Role) }));
  const allGroupsKnown = orderable.length === policy.groups.length;
  (policy.order ?? []).forEach((entry, i) => {
    if (orderable.some((g) => entryMatches(entry, g)) || !allGroupsKnown) return;
    if ((ROLES as readonly string[]).includes(entry)) {
      errors.push(
        at(
          ["order", i],
          `"${entry}" is a role, but no group of this policy has it; remove it or set "role: ${entry}" on a group`,
        ),
      );
      return;
    }
    const guess = closest(entry, [...ROLES, ...orderable.map((g) => g.name)]);
    const hint = guess ? `; did you mean "${guess}"?` : `; roles are ${ROLES.join(", ")}`;
    errors.push(at(["order", i], `"${entry}" matches no role or group of this policy${hint}`));
  });
  return { errors: dedupe(errors), warnings };
}

/**
 * Both budgets resolving to zero would leave the roll nothing it may do. maxSurge resolves to
 * zero only for 0 or "0%" (or on a control plane); maxUnavailable then resolves to zero only
 * for the integer 0, since a percentage never resolves below 1 (kOps' settings.go).
 */
function budgetErrors(
  settings: RollingUpdate | undefined,
  path: Path,
  role: Role,
  at: At,
  own?: RollingUpdate,
): Diagnostic[] {
  if (!settings) return [];
  const surge = role === "control-plane" ? 0 : (settings.maxSurge ?? KOPS_DEFAULTS.maxSurge);
  const surgeZero = surgesNever(surge);
  const unavailable = settings.maxUnavailable ?? defaultUnavailable(surgeZero);
  if (!surgeZero || unavailable !== 0) return [];
  if (settings.maxSurge === undefined && settings.maxUnavailable === undefined) return [];
  const key = own && own.maxUnavailable === undefined ? "maxSurge" : "maxUnavailable";
  const why =
    role === "control-plane"
      ? "a control-plane group never surges, so"
      : "maxSurge resolves to 0 and";
  return [
    at(
      path,
      `${why} maxUnavailable is 0: the roll could never replace a node; allow at least one (maxUnavailable: 1 or maxSurge: 1)`,
      key,
    ),
  ];
}

/**
 * The gates' rules, defaults and groups. A checkpointDelay needs checkpoints in the merged gates:
 * defaults' delay is wrong only when no group has any; a group's own, when its merged gates have
 * none.
 */
function policyGateErrors(policy: Policy, at: At): Diagnostic[] {
  const defaults = policy.defaults?.gates;
  const hasCheckpoints = (g: Gates | undefined) => (g?.checkpoints ?? []).length > 0;
  const anyGroup = policy.groups.some((g) =>
    hasCheckpoints(mergeGates(defaults, g?.rollingUpdate?.gates)),
  );
  return [
    ...gateErrors(defaults, ["defaults", "gates"], at, anyGroup || hasCheckpoints(defaults)),
    ...policy.groups.flatMap((group, i) => {
      const own = group?.rollingUpdate?.gates;
      const merged = hasCheckpoints(mergeGates(defaults, own));
      return gateErrors(own, ["groups", i, "rollingUpdate", "gates"], at, merged);
    }),
  ];
}

function gateErrors(gates: Gates | undefined, path: Path, at: At, checkpoints: boolean) {
  return gateProblems(gates, checkpoints).map((p) => at([...path, ...p.path], p.message, p.key));
}

function validationErrors(
  v: { timeout?: string; count?: number },
  path: Path,
  at: At,
): Diagnostic[] {
  const timeout = parseDuration(v.timeout ?? KOPS_DEFAULTS.validation.timeout);
  const count = v.count ?? KOPS_DEFAULTS.validation.count;
  const needed = (count - 1) * VALIDATION_PERIOD_MS;
  if (timeout === undefined || needed <= timeout) return [];
  return [
    at(
      path,
      `validation needs ${count} successes ${VALIDATION_PERIOD_MS / 1000} s apart (${needed / 1000} s) but timeout is ${v.timeout}; raise timeout or lower count`,
      v.timeout !== undefined ? "timeout" : "count",
    ),
  ];
}
