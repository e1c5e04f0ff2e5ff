// Shared command-line plumbing: usage errors (exit 2), policy loading with located errors.
import { forceSplit, forced, type PlanOptions } from "../engine/index.js";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { formatDiagnostic, unknownGroupsProblem, type Policy } from "../policy/index.js";
import { closest } from "../policy/suggest.js";
import { readPolicyFile } from "../adapters/files/read-policy.js";
import { relaunched } from "./heap.js";
import type { HintContext } from "./hints.js";

export class UsageError extends Error {}

/**
 * A policy, or its errors printed and exit code 1 (nothing else happens); `hints` learns its
 * cluster and region, for a hint under an error that follows.
 */
export function policyOrExit(
  file: string | undefined,
  hints: HintContext,
): { policy: Policy } | { exitCode: number } {
  if (!file) throw new UsageError("--policy FILE is required");
  const r = readPolicyFile(file);
  // A relaunched child (src/cli/heap.ts): the first process printed them.
  if (!relaunched()) for (const w of r.warnings) process.stderr.write(`${formatDiagnostic(w)}\n`);
  if (!r.ok) {
    for (const e of r.errors) process.stderr.write(`${formatDiagnostic(e)}\n`);
    process.stderr.write(`${file}: invalid policy; nothing was read or changed\n`);
    return { exitCode: 1 };
  }
  Object.assign(hints, { cluster: r.policy.cluster.name, region: r.policy.cluster.region });
  return { policy: r.policy };
}

export function splitList(value: string | undefined): string[] | undefined {
  const items = value
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return items && items.length > 0 ? items : undefined;
}

/** "90m", "6h", "5h30m" → ms, or a usage error. */
export function durationArg(
  name: string,
  value: string | undefined,
  parse: (t: string) => number | undefined,
): number | undefined {
  if (value === undefined) return undefined;
  const ms = parse(value);
  if (ms === undefined)
    throw new UsageError(`${name} takes a duration such as 5h30m, not ${value}`);
  return ms;
}

/** `--groups` as given, checked against the policy: a name it does not have is a usage error. */
export function groupsOf(policy: Policy, value: string | undefined): string[] | undefined {
  const groups = splitList(value);
  // "--groups ," must not come out as every group (a stray comma in an emergency dispatch).
  if (value !== undefined && !groups)
    throw new GroupsError(
      `--groups ${JSON.stringify(value)} names no group; name groups (comma-separated), or leave --groups out to roll every group`,
    );
  const problem = unknownGroupsProblem(policy, groups, "--groups");
  if (problem) throw new GroupsError(problem);
  return groups;
}

/** A usage error that needs no usage text: the message says everything. */
export class GroupsError extends UsageError {}

/**
 * The run's options from its flags; `reason` given when the command rolls (apply), where what
 * is forced must say why.
 */
export function runFlags(
  values: { "replace-all": boolean; "delete-after-drain-timeout": boolean; force: boolean },
  reason?: { reason: string | undefined },
): PlanOptions {
  if (values.force) throw new UsageError(forceSplit((n) => `--${n}`));
  const options = {
    replaceAll: values["replace-all"],
    deleteAfterDrainTimeout: values["delete-after-drain-timeout"],
  };
  if (reason && forced(options) && !reason.reason?.trim())
    throw new UsageError(
      `${options.replaceAll ? "--replace-all" : "--delete-after-drain-timeout"} needs --reason: say why the roll is forced (it is recorded with the result)`,
    );
  return options;
}

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * parseArgs, with what it does not say: a flag that takes a value given twice (`--policy a
 * --policy b` would silently use the last) is a usage error, and an unknown flag gets the
 * nearest known one. `positionals`: the command takes arguments besides its flags (apply FILE).
 */
export function parseFlags<O extends Options>(args: string[], options: O, positionals = false) {
  for (const [name, o] of Object.entries(options)) {
    if (o.type !== "string" || o.multiple) continue;
    const given = args.filter((a) => a === `--${name}` || a.startsWith(`--${name}=`)).length;
    if (given > 1) throw new UsageError(`--${name} is given ${given} times; give it once`);
  }
  try {
    return parseArgs({ args, options, allowPositionals: positionals });
  } catch (e) {
    const m = /^Unknown option '(--[^']+)'/.exec((e as Error).message);
    if (!m) throw e;
    const flag = m[1] as string;
    const guess = closest(
      flag,
      Object.keys(options).map((k) => `--${k}`),
    );
    throw new UsageError(`unknown flag ${flag}${guess ? `; did you mean ${guess}?` : ""}`);
  }
}
