// The GitHub Action entry (dist/index.js). For now it validates the policy files named by the
// `policy` input and reports each problem as an annotation on its YAML line; plan and apply
// arrive with the plan and apply issues.
import { globSync } from "node:fs";
import * as core from "@actions/core";
import { formatDiagnostic } from "../policy/index.js";
import { validateFiles } from "../cli/validate.js";

function run(): void {
  const patterns = core.getMultilineInput("policy", { required: true }).flatMap((l) =>
    l
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
  // A glob that matches nothing is kept as written, so the user sees "no such file" for it.
  const files = patterns.flatMap((p) =>
    /[*?[{]/.test(p) ? (globSync(p).sort() as string[]) : [p],
  );
  if (files.length === 0) files.push(...patterns);
  const reports = validateFiles(files);
  for (const report of reports) {
    for (const d of [...report.errors, ...report.warnings]) {
      const props = {
        file: d.file,
        startLine: d.line,
        startColumn: d.col,
        title: "noderoll policy",
      };
      if (d.severity === "error") core.error(formatDiagnostic(d), props);
      else core.warning(formatDiagnostic(d), props);
    }
  }
  const invalid = reports.filter((r) => !r.valid).map((r) => r.file);
  core.setOutput("valid", invalid.length === 0 ? "true" : "false");
  if (invalid.length > 0) core.setFailed(`invalid policy: ${invalid.join(", ")}`);
  else core.info(`${files.length} polic${files.length === 1 ? "y" : "ies"} valid`);
}

run();
