// A policy file as the action sees it: loaded and validated (located errors), named (the name
// check runs and comments carry, even when the file is invalid), and its problems turned into
// check-run annotations, workflow-command annotations and Markdown.
import { readFileSync, realpathSync, statSync } from "node:fs";
import { basename, isAbsolute, relative, resolve, sep } from "node:path";
import * as core from "@actions/core";
import { parse } from "yaml";
import type { Annotation } from "../adapters/github/check-run.js";
import { readPolicyFile } from "../adapters/files/read-policy.js";
import {
  formatDiagnostic,
  API_VERSION,
  KIND,
  MAX_POLICY_BYTES,
  type Diagnostic,
  type LoadResult,
} from "../policy/index.js";
import type { Plan } from "../plan/index.js";
import { locate } from "../policy/source.js";
import { cell, provenance, type RunInfo } from "../render/index.js";
import { repoPath } from "./env.js";

export interface PolicyFile {
  file: string;
  /** metadata.name, or for a file that does not validate, its best guess. */
  name: string;
  load: LoadResult;
}

const NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** The name an invalid file would have, so its check run and comment are the ones it will keep. */
function guessName(path: string, file: string): string {
  const fallback = basename(file).replace(/\.ya?ml$/i, "");
  try {
    const doc = parse(readPolicyFileText(path), { maxAliasCount: 0 }) as {
      apiVersion?: unknown;
      kind?: unknown;
      metadata?: { name?: unknown };
    };
    // Only a policy, if a broken one, lends its metadata.name: nothing of another file is shown.
    const ours = doc?.apiVersion === API_VERSION || doc?.kind === KIND;
    const name = doc?.metadata?.name;
    if (ours && typeof name === "string" && NAME.test(name)) return name;
  } catch {
    // not YAML at all: fall back to the file name
  }
  return fallback;
}

/** The text, unless the file is over the size limit (then nothing is parsed). */
function readPolicyFileText(file: string): string {
  if (statSync(file).size > MAX_POLICY_BYTES) return "";
  return readFileSync(file, "utf8");
}

/**
 * Where a policy path really leads, refused before anything reads it when that is outside the
 * workspace (a "../" path, an absolute path, a symlink out of the checkout) or inside the
 * checkout's .git (where actions/checkout keeps the job's token): a pull request must not be
 * able to make the action read, and then quote, a file that is not a policy.
 */
export function outsideWorkspace(file: string, workspace: string): string | undefined {
  let real: string;
  let root: string;
  try {
    root = realpathSync(workspace);
  } catch {
    return "the workspace cannot be resolved";
  }
  const outside = (rel: string) => rel === "" || rel.startsWith("..") || isAbsolute(rel);
  const written = resolve(workspace, file);
  if (outside(relative(resolve(workspace), written))) return OUTSIDE;
  try {
    real = realpathSync(written);
  } catch {
    return undefined; // missing: reported as "no such file" by the reader, which reads nothing
  }
  const rel = relative(root, real);
  if (outside(rel)) return OUTSIDE;
  if (
    rel.split(sep).some(isGitDir) ||
    relative(resolve(workspace), written).split(sep).some(isGitDir)
  )
    return "the path leads into the repository's .git directory; policies must be files of the repository";
  return undefined;
}

/** ".git" as any file system spells it (macOS and Windows runners ignore case). */
const isGitDir = (part: string) => part.toLowerCase() === ".git";

const OUTSIDE =
  "the path leads outside the workspace (a symlink, an absolute path or a relative path out of the checkout); policies must be files of the repository";

/** A file refused before it is read (a path outside the workspace): said at its first line. */
export function refusal(file: string, why: string): Diagnostic {
  return { file, line: 1, col: 1, path: "", message: `refused: ${why}`, severity: "error" };
}

function refused(file: string, why: string): LoadResult {
  return { ok: false, errors: [refusal(file, why)], warnings: [] };
}

export function loadPolicyFile(file: string, workspace: string): PolicyFile {
  const why = outsideWorkspace(file, workspace);
  if (why) return { file, name: basename(file).replace(/\.ya?ml$/i, ""), load: refused(file, why) };
  const path = resolve(workspace, file);
  const load = readPolicyFile(path, file);
  return { file, name: load.ok ? load.policy.metadata.name : guessName(path, file), load };
}

export function diagnosticsOf(p: PolicyFile): Diagnostic[] {
  return p.load.ok ? p.load.warnings : [...p.load.errors, ...p.load.warnings];
}

export function annotationsOf(diags: readonly Diagnostic[], workspace: string): Annotation[] {
  return diags.map((d) => ({
    path: repoPath(d.file, workspace),
    start_line: d.line,
    end_line: d.line,
    start_column: d.col,
    end_column: d.col,
    annotation_level: d.severity === "error" ? "failure" : "warning",
    title: "noderoll policy",
    message: d.path ? `${d.path}: ${d.message}` : d.message,
  }));
}

/**
 * A plan's preflight findings as diagnostics on each group's `- name:` line of the policy, so
 * the pull request's "Files changed" shows them where the group is written (blockers as
 * errors, warnings as warnings; info stays in the comment).
 */
export function findingDiagnostics(plan: Plan, p: PolicyFile): Diagnostic[] {
  if (!p.load.ok) return [];
  const { policy, source } = p.load;
  return plan.groups.flatMap((g) => {
    const index = policy.groups.findIndex((x) => x.name === g.name);
    if (index < 0) return [];
    const at = locate(source, ["groups", index, "name"]);
    return g.findings
      .filter((f) => f.severity !== "info")
      .map((f) => ({
        file: p.file,
        line: at.line,
        col: at.col,
        path: `groups[${index}].name`,
        message: `${g.name}: ${f.message}`,
        severity: f.severity === "blocker" ? ("error" as const) : ("warning" as const),
      }));
  });
}

/** Annotations as workflow commands: for when no check run can carry them. */
export function annotateInLog(diags: readonly Diagnostic[], workspace: string): void {
  for (const d of diags) {
    const props = {
      file: repoPath(d.file, workspace),
      startLine: d.line,
      startColumn: d.col,
      title: "noderoll policy",
    };
    if (d.severity === "error") core.error(formatDiagnostic(d), props);
    else core.warning(formatDiagnostic(d), props);
  }
}

export function invalidMarkdown(p: PolicyFile, title: string, info: RunInfo = {}): string {
  const errors = p.load.ok ? [] : p.load.errors;
  const shown = errors.slice(0, 100);
  const from = provenance(info);
  return [
    `### ${title} · \`${p.name}\` · ❌ invalid policy`,
    "",
    `\`${p.file}\` has ${errors.length} error${errors.length === 1 ? "" : "s"}; nothing was read or changed.${from ? ` ${from}` : ""}`,
    "",
    "| line | key | problem |",
    "| --: | --- | --- |",
    ...shown.map((d) => `| ${d.line}:${d.col} | \`${cell(d.path || "-")}\` | ${cell(d.message)} |`),
    ...(errors.length > shown.length ? [`| … | | ${errors.length - shown.length} more |`] : []),
    "",
  ].join("\n");
}
