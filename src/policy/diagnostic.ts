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
