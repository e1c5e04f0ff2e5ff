// `noderoll validate POLICY...`: exit 0 when every file is valid, 1 when any is not.
import { formatDiagnostic, type Diagnostic } from "../policy/index.js";
import { readFleetFiles } from "../adapters/files/read-fleet.js";
import { readPolicyFile, readYamlText } from "../adapters/files/read-policy.js";
import { painter } from "../render/colour.js";
import { parseFlags, UsageError } from "./args.js";
import { VALIDATE_OPTIONS } from "./flags.js";
import { useColour } from "./terminal.js";

export interface FileReport {
  file: string;
  valid: boolean;
  name?: string;
  groups?: number;
  /** A fleet file's: its clusters (each policy it names is checked with it). */
  clusters?: number;
  errors: Diagnostic[];
  warnings: Diagnostic[];
}

/** A file that says it is a fleet: checked with the policies it names, from where we run. */
const FLEET_KIND = /^kind[ \t]*:[ \t]*["']?Fleet["']?[ \t]*(#.*)?$/m;

function validateFleet(file: string): FileReport {
  const r = readFleetFiles(file, process.cwd());
  if (!r.ok) return { file, valid: false, errors: r.errors, warnings: [] };
  return {
    file,
    valid: true,
    name: r.fleet.metadata.name,
    clusters: r.members.length,
    errors: [],
    warnings: [],
  };
}

export function validateFiles(files: readonly string[]): FileReport[] {
  return files.map((file) => {
    const text = readYamlText(file, file, "a policy file");
    if (typeof text === "string" && FLEET_KIND.test(text)) return validateFleet(file);
    const r = readPolicyFile(file);
    if (!r.ok) return { file, valid: false, errors: r.errors, warnings: r.warnings };
    return {
      file,
      valid: true,
      name: r.policy.metadata.name,
      groups: r.policy.groups.length,
      errors: [],
      warnings: r.warnings,
    };
  });
}

/** Errors red, warnings yellow, a valid file green, as apply's lines (render/colour.ts). */
export function renderValidationText(reports: readonly FileReport[], colour = false): string {
  const paint = painter(colour);
  const lines: string[] = [];
  for (const r of reports) {
    for (const d of r.errors) lines.push(paint(formatDiagnostic(d), "red"));
    for (const d of r.warnings) lines.push(paint(formatDiagnostic(d), "yellow"));
    const what =
      r.clusters !== undefined
        ? `fleet "${r.name}", ${r.clusters} cluster${r.clusters === 1 ? "" : "s"}`
        : `policy "${r.name}", ${r.groups} group${r.groups === 1 ? "" : "s"}`;
    if (r.valid) lines.push(paint(`${r.file}: valid (${what})`, "green"));
  }
  const bad = reports.filter((r) => !r.valid);
  const errorCount = bad.reduce((n, r) => n + r.errors.length, 0);
  if (bad.length > 0)
    lines.push(
      paint(
        `${errorCount} error${errorCount === 1 ? "" : "s"} in ${bad.length} of ${reports.length} file${reports.length === 1 ? "" : "s"}`,
        "bold",
        "red",
      ),
    );
  return `${lines.join("\n")}\n`;
}

/** `noderoll validate POLICY... [--format text|json]`. */
export function runValidate(args: string[]): number {
  const { values, positionals } = parseFlags(args, VALIDATE_OPTIONS, true);
  if (positionals.length === 0) throw new UsageError("validate needs at least one policy file");
  if (values.format !== "text" && values.format !== "json")
    throw new UsageError(`--format must be text or json, not ${values.format}`);
  const reports = validateFiles(positionals);
  process.stdout.write(
    values.format === "json"
      ? `${JSON.stringify({ files: reports }, null, 2)}\n`
      : renderValidationText(reports, useColour(process.stdout, process.env)),
  );
  return reports.every((r) => r.valid) ? 0 : 1;
}
