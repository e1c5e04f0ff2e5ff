// The leaves policy-like files are built from (the upgrade policy, the fleet file): each a check
// that says what was expected, plus the JSON Schema fragment that tells an editor the same rule.
// That keeps every error message in our own words instead of zod's generic ones.
import * as z from "zod";
import { budgetProblem, PERCENT_PATTERN, type Budget } from "./budget.js";
import { DURATION_PATTERN, parseDuration } from "./duration.js";
import { closest } from "./suggest.js";

/** Where a leaf keeps its JSON Schema fragment, for the JSON Schema export (json-schema.ts). */
const LEAF_JSON = Symbol("leafJsonSchema");

/** A leaf's JSON Schema fragment: on the leaf itself, none on any other schema. */
export function leafJsonSchema(schema: unknown): Record<string, unknown> | undefined {
  return (schema as { [LEAF_JSON]?: Record<string, unknown> } | undefined)?.[LEAF_JSON];
}

export function leaf<T>(
  problem: (value: unknown) => string | undefined,
  json: Record<string, unknown>,
): z.ZodType<T> {
  const schema = z.custom<T>((v) => problem(v) === undefined, {
    error: (iss) => `expected ${problem(iss.input) ?? "a valid value"}`,
  });
  return Object.assign(schema, { [LEAF_JSON]: json });
}

const isBool = (v: unknown) => (typeof v === "boolean" ? undefined : "true or false");

export const budget = (description: string) =>
  leaf<Budget>(budgetProblem, {
    description,
    anyOf: [
      { type: "integer", minimum: 0 },
      { type: "string", pattern: PERCENT_PATTERN },
    ],
  });

export const duration = (description: string, defaultValue?: string) =>
  leaf<string>(
    (v) =>
      typeof v === "string" && parseDuration(v) !== undefined
        ? undefined
        : 'a duration such as "90s", "15m", "1h30m" or "30d"' +
          (typeof v === "number" ? " (a number needs a unit)" : ""),
    {
      type: "string",
      pattern: DURATION_PATTERN,
      description,
      ...(defaultValue && { default: defaultValue }),
    },
  );

export const bool = (description: string, defaultValue?: boolean) =>
  leaf<boolean>(isBool, {
    type: "boolean",
    description,
    ...(defaultValue !== undefined && { default: defaultValue }),
  });

export const positiveInt = (description: string, defaultValue: number) =>
  leaf<number>(
    (v) =>
      typeof v === "number" && Number.isInteger(v) && v >= 1 ? undefined : "a whole number >= 1",
    { type: "integer", minimum: 1, description, default: defaultValue },
  );

export const text = (description: string, pattern: RegExp, expected: string, maxLength = 253) =>
  leaf<string>(
    (v) =>
      typeof v === "string" && v.length <= maxLength && pattern.test(v) ? undefined : expected,
    { type: "string", pattern: pattern.source, maxLength, description },
  );

export const oneOf = <T extends string>(values: readonly T[], description: string) =>
  leaf<T>(
    (v) => {
      if (typeof v === "string" && (values as readonly string[]).includes(v)) return undefined;
      const guess =
        typeof v === "string"
          ? (closest(v, values) ?? values.find((x) => v.toLowerCase().startsWith(x.toLowerCase())))
          : undefined;
      const hint = guess ? ` (did you mean "${guess}"?)` : "";
      return `one of ${values.map((x) => JSON.stringify(x)).join(", ")}${hint}`;
    },
    { type: "string", enum: values, description },
  );
