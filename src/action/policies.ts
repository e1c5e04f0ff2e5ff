// Which policy files a run acts on: the `policy` input's paths and globs, expanded in the
// checkout, and narrowed to the files a pull request or a push changed.
import { globSync } from "node:fs";
import { matchesGlob } from "node:path";

export const isGlob = (p: string) => /[*?[{]/.test(p);

const norm = (p: string) => p.replace(/^\.\//, "");

/** Every file the patterns name in the checkout; a glob that matches nothing names nothing. */
export function expandPolicies(patterns: readonly string[], cwd: string): string[] {
  const out = new Set<string>();
  for (const p of patterns) {
    if (!isGlob(p)) out.add(norm(p));
    else for (const f of (globSync(p, { cwd }) as string[]).sort()) out.add(norm(f));
  }
  return [...out];
}

function matches(file: string, pattern: string): boolean {
  const f = norm(file);
  return isGlob(pattern) ? matchesGlob(f, norm(pattern)) : f === norm(pattern);
}

export interface Narrowed {
  files: string[];
  /** Files the patterns name that the change left alone, for the log. */
  unchanged: string[];
}

/**
 * Narrow to the changed files.
 * - `globsOnly` (pull requests): a path written out is always kept; a glob keeps only the changed
 *   files it matches — found from the change list, so a policy added by the change is included.
 * - otherwise (pushes): only changed files are kept, whether named by path or glob.
 */
export function narrowToChanged(
  patterns: readonly string[],
  expanded: readonly string[],
  changed: readonly string[],
  globsOnly: boolean,
): Narrowed {
  const changedSet = new Set(changed.map(norm));
  const files = new Set<string>();
  for (const p of patterns) {
    if (!isGlob(p) && globsOnly) files.add(norm(p));
    else for (const c of changedSet) if (matches(c, p)) files.add(c);
  }
  return {
    files: [...files].sort(),
    unchanged: expanded.filter((f) => !files.has(f)),
  };
}
