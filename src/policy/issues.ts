// A schema's complaints about a file, said in the file's own terms: every zod issue becomes a
// diagnostic located to line and column, with what was expected, what was found and, for a
// misspelt key, what was meant. One home for the upgrade policy and the fleet file alike.
import * as z from "zod";
import { describeValue } from "./describe.js";
import { diagnostic, formatPath, type Diagnostic } from "./diagnostic.js";
import { locate, type PolicySource } from "./source.js";
import { closest } from "./suggest.js";

type Path = readonly PropertyKey[];

/** What a kind of file is checked against, and the sentences that help its authors. */
export interface FileLanguage {
  schema: z.ZodType;
  /** What to write for a missing key, where a sentence helps more than the key's name. */
  missingHints: Readonly<Record<string, string>>;
  /** Keys the file once had, and what took their place. */
  renamed?: Readonly<Record<string, string>>;
}

/** Every issue of a failed parse as diagnostics, a misspelt required key said once. */
export function shapeDiagnostics(
  lang: FileLanguage,
  issues: readonly z.core.$ZodIssue[],
  root: unknown,
  at: At,
): Diagnostic[] {
  return withoutMissingTypos(issues.flatMap((issue) => issueDiagnostics(lang, issue, root, at)));
}

export type At = (
  path: Path,
  message: string,
  key?: string,
  severity?: Diagnostic["severity"],
) => Diagnostic;

function valueAt(root: unknown, path: Path): { present: boolean; value: unknown } {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== "object" || !(key in (node as object)))
      return { present: false, value: undefined };
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return { present: true, value: node };
}

/** Keys a mapping at this path accepts, for "did you mean", read off the schema itself. */
function knownKeys(root: z.ZodType, path: Path): string[] {
  let schema: z.ZodType = root;
  for (const key of path) {
    schema = unwrap(schema);
    if (schema instanceof z.ZodObject)
      schema = (schema.shape as Record<string, z.ZodType>)[String(key)] ?? z.never();
    else if (schema instanceof z.ZodArray) schema = schema.element as z.ZodType;
    else return [];
  }
  schema = unwrap(schema);
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault) s = s.unwrap() as z.ZodType;
  return s;
}

function missingKeyMessage(lang: FileLanguage, key: string): string {
  const hint = lang.missingHints[key];
  return `missing required key "${key}"${hint ? `; ${hint}` : ""}`;
}

function unknownKeyMessage(lang: FileLanguage, path: Path, key: string): string {
  const renamed = lang.renamed?.[key];
  if (renamed && path.at(-1) !== "metadata") return renamed;
  if (key === "<<") {
    return 'YAML merge keys ("<<") are not supported; repeat the settings, or put shared ones under "defaults:"';
  }
  const keys = knownKeys(lang.schema, path);
  const guess = closest(key, keys);
  if (guess) return `unknown key "${key}"; did you mean "${guess}"?`;
  // A key written one level too high, such as maxSurge directly under a group.
  for (const parent of keys) {
    const nested = knownKeys(lang.schema, [...path, parent]);
    if (nested.includes(key)) return `unknown key "${key}" here; it belongs under "${parent}:"`;
  }
  return `unknown key "${key}"; expected one of: ${keys.join(", ")}`;
}

function issueDiagnostics(
  lang: FileLanguage,
  issue: z.core.$ZodIssue,
  root: unknown,
  at: At,
): Diagnostic[] {
  const path = issue.path;
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => at(path, unknownKeyMessage(lang, path, key), key));
  }
  const found = valueAt(root, path);
  if (!found.present) {
    const key = String(path[path.length - 1]);
    return [at(path.slice(0, -1), missingKeyMessage(lang, key))];
  }
  if (found.value === null && path.length > 0) {
    // "defaults:" with nothing under it: point at the key, not past the end of its line.
    const key = String(path[path.length - 1]);
    const what = issue.message.startsWith("expected ")
      ? issue.message
      : issue.code === "invalid_type" && issue.expected === "object"
        ? "expected a mapping of keys"
        : issue.code === "invalid_type" && issue.expected === "array"
          ? "expected a list"
          : "expected a value";
    return [
      at(
        path.slice(0, -1),
        `${what}, found an empty value; indent its keys under it, or remove the line`,
        key,
      ),
    ];
  }
  if (
    issue.code === "invalid_type" &&
    (issue.expected === "object" || issue.expected === "array")
  ) {
    const what = issue.expected === "object" ? "a mapping of keys" : "a list";
    const custom = issue.message.startsWith("expected ") ? issue.message : `expected ${what}`;
    const hint =
      issue.expected === "object" && Array.isArray(found.value)
        ? ' (write its keys without a leading "- ")'
        : "";
    return [at(path, `${custom}, found ${describeValue(found.value)}${hint}`)];
  }
  const expected = issue.message.startsWith("expected ")
    ? issue.message
    : `expected a valid value (${issue.message})`;
  return [at(path, `${expected}, found ${describeValue(found.value)}`)];
}

/**
 * A misspelt required key shows up twice: unknown ("timezone") and missing ("timeZone"). The
 * did-you-mean says it all, so the missing-key error is dropped.
 */
function withoutMissingTypos(list: Diagnostic[]): Diagnostic[] {
  const meant = new Set<string>();
  for (const d of list) {
    const m = /did you mean "([^"]+)"\?$/.exec(d.message);
    if (m && d.path.includes(".")) meant.add(`${d.path.slice(0, d.path.lastIndexOf("."))}.${m[1]}`);
    else if (m) meant.add(m[1] as string);
  }
  return list.filter((d) => {
    const m = /^missing required key "([^"]+)"/.exec(d.message);
    return !m || !meant.has(d.path ? `${d.path}.${m[1]}` : (m[1] as string));
  });
}

export function dedupe(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const k = `${d.line}:${d.col}:${d.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Each entry whose name an earlier one already has, as an error at its `name` (the list at
 * `path`, entries called `what`: "group", "stage") pointing back at the first.
 */
export function repeatedNames(
  names: readonly (string | undefined)[],
  path: readonly PropertyKey[],
  what: string,
  at: At,
): Diagnostic[] {
  const first = new Map<string, number>();
  return names.flatMap((name, i) => {
    if (name === undefined) return [];
    const seen = first.get(name);
    if (seen === undefined) {
      first.set(name, i);
      return [];
    }
    const line = at([...path, seen, "name"], "").line;
    return [
      at(
        [...path, i, "name"],
        `${what} "${name}" is listed twice (also at line ${line}); rename or remove one`,
      ),
    ];
  });
}

/** Diagnostics located in `source` (file:line:col of a path, or of a key under it). */
export function locator(file: string, source: PolicySource): At {
  return (path, message, key, severity = "error") =>
    diagnostic({
      file,
      ...locate(source, path, key),
      path: formatPath(key !== undefined ? [...path, key] : path),
      message,
      severity,
    });
}
