// A problem found in a policy file, located to the character so editors, terminals and
// GitHub annotations can point at it.

export interface Diagnostic {
  file: string;
  line: number; // 1-based
  col: number; // 1-based
  /** The key path, such as "groups[0].rollingUpdate.maxSurge" ("" for the file itself). */
  path: string;
  message: string;
  severity: "error" | "warning";
}

/**
 * Text from a policy shown on one line: control characters (a newline in a quoted key, say)
 * escaped as JSON does, so a message can never start a new line — where a CI log would read it
 * as a workflow command — nor break a table or an annotation.
 */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what it finds
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => JSON.stringify(c).slice(1, -1));
}

/** A diagnostic with its message and path on one line each. */
export function diagnostic(d: Diagnostic): Diagnostic {
  return { ...d, path: oneLine(d.path), message: oneLine(d.message), file: oneLine(d.file) };
}

export function formatDiagnostic(d: Diagnostic): string {
  const where = d.path ? `${d.path}: ` : "";
  const tag = d.severity === "warning" ? "warning: " : "";
  return `${d.file}:${d.line}:${d.col}: ${tag}${where}${d.message}`;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

export function byPosition(a: Diagnostic, b: Diagnostic): number {
  return a.line - b.line || a.col - b.col || a.message.localeCompare(b.message);
}
