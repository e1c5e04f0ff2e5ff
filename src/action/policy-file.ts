// A policy file as the action sees it: loaded and validated (located errors), named (the name
// check runs and comments carry, even when the file is invalid), and its problems turned into
// check-run annotations, workflow-command annotations and Markdown.
import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import * as core from "@actions/core";
import { parse } from "yaml";
import type { Annotation } from "../adapters/github/check-run.js";
import { readPolicyFile } from "../adapters/files/read-policy.js";
import {
  formatDiagnostic,
  MAX_POLICY_BYTES,
  type Diagnostic,
  type LoadResult,
} from "../policy/index.js";
import { cell } from "../render/index.js";
import { repoPath } from "./env.js";

export interface PolicyFile {
  file: string;
  /** metadata.name, or for a file that does not validate, its best guess. */
  name: string;
  load: LoadResult;
}

const NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** The name an invalid file would have, so its check run and comment are the ones it will keep. */
function guessName(file: string): string {
  try {
    const doc = parse(readPolicyFileText(file), { maxAliasCount: 0 }) as {
      metadata?: { name?: unknown };
    };
    const name = doc?.metadata?.name;
    if (typeof name === "string" && NAME.test(name)) return name;
  } catch {
    // not YAML at all: fall back to the file name
  }
  return basename(file).replace(/\.ya?ml$/i, "");
}

/** The text, unless the file is over the size limit (then nothing is parsed). */
function readPolicyFileText(file: string): string {
  if (statSync(file).size > MAX_POLICY_BYTES) return "";
  return readFileSync(file, "utf8");
}

export function loadPolicyFile(file: string): PolicyFile {
  const load = readPolicyFile(file);
  return { file, name: load.ok ? load.policy.metadata.name : guessName(file), load };
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

export function invalidMarkdown(p: PolicyFile, title: string): string {
  const errors = p.load.ok ? [] : p.load.errors;
  const shown = errors.slice(0, 100);
  return [
    `### ${title} · \`${p.name}\` · ❌ invalid policy`,
    "",
    `\`${p.file}\` has ${errors.length} error${errors.length === 1 ? "" : "s"}; nothing was read or changed.`,
    "",
    "| line | key | problem |",
    "| --: | --- | --- |",
    ...shown.map((d) => `| ${d.line}:${d.col} | \`${cell(d.path || "-")}\` | ${cell(d.message)} |`),
    ...(errors.length > shown.length ? [`| … | | ${errors.length - shown.length} more |`] : []),
    "",
  ].join("\n");
}
