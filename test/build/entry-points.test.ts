// The CLI and the action are thin shells over one application layer (issue 45): plan, apply and
// rehearse are written once in src/app/ and both entry points call the same functions, neither
// drives the engine itself, and each `main.ts` only reads its inputs, calls them and reports.
// Read from the imports, the way a reviewer would check it, so a shell that grows its own
// orchestration fails here naming the file and the import.
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const SRC = join(ROOT, "src");

interface ValueImport {
  /** The module, relative to src/ without extension ("app/plan"), or the package name. */
  from: string;
  names: string[];
}

/** A file's imports that bring values (not `import type`, not `type X` inside braces). */
function valueImports(file: string): ValueImport[] {
  const path = join(SRC, file);
  const sf = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest);
  const out: ValueImport[] = [];
  for (const s of sf.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier)) continue;
    const clause = s.importClause;
    if (clause?.isTypeOnly) continue;
    const spec = s.moduleSpecifier.text;
    const from = spec.startsWith(".")
      ? relative(SRC, resolve(dirname(path), spec)).replace(/\.js$/, "")
      : spec;
    const names: string[] = [];
    if (clause?.name) names.push("default");
    const bound = clause?.namedBindings;
    if (bound && ts.isNamespaceImport(bound)) names.push("*");
    if (bound && ts.isNamedImports(bound))
      for (const e of bound.elements) if (!e.isTypeOnly) names.push(e.name.text);
    if (names.length > 0 || !clause) out.push({ from, names });
  }
  return out;
}

const imports = (file: string, name: string, from: string) =>
  valueImports(file).some((i) => i.from === from && i.names.includes(name));

const SHELLS = [
  "cli/main.ts",
  "cli/plan.ts",
  "cli/apply.ts",
  "cli/session.ts",
  "cli/validate.ts",
  "cli/sandbox.ts",
  "action/main.ts",
  "action/run.ts",
  "action/plan-flow.ts",
  "action/apply-flow.ts",
  "action/pending.ts",
  "action/follow.ts",
  "action/post.ts",
];

describe("the CLI and the action over one application layer", () => {
  it("plan with the same function", () => {
    expect(imports("cli/plan.ts", "planPolicy", "app/plan")).toBe(true);
    expect(imports("action/plan-flow.ts", "planPolicy", "app/plan")).toBe(true);
  });

  it("apply with the same function, and report progress by the same rule", () => {
    expect(imports("cli/apply.ts", "applyPolicy", "app/apply")).toBe(true);
    expect(imports("action/apply-flow.ts", "applyPolicy", "app/apply")).toBe(true);
    expect(imports("cli/apply.ts", "ProgressFeed", "app/progress")).toBe(true);
    expect(imports("action/follow.ts", "ProgressFeed", "app/progress")).toBe(true);
  });

  it("compose the apply comment with the same renderer", () => {
    expect(imports("cli/apply.ts", "applyComment", "render/index")).toBe(true);
    expect(imports("action/follow.ts", "applyComment", "render/index")).toBe(true);
  });

  it("never drive the engine, a kind or a rehearsal themselves", () => {
    // Reading a rehearsal's flags and a sandbox's physics is input, not orchestration.
    const inputs = new Set(["parseTimingFlag", "physicsOf"]);
    const driving = SHELLS.flatMap((file) =>
      valueImports(file)
        .filter(
          (i) =>
            /^(engine|kinds)\//.test(i.from) ||
            i.from === "app/rehearse" ||
            (/^rehearsal\//.test(i.from) && i.names.some((n) => !inputs.has(n))),
        )
        .map((i) => `${file}: ${i.names.join(", ")} from ${i.from}`),
    );
    expect(driving).toEqual([]);
  });

  it("keep main.ts to reading inputs, calling and reporting", () => {
    for (const file of ["cli/main.ts", "action/main.ts"]) {
      const lines = readFileSync(join(SRC, file), "utf8").split("\n").length;
      expect(lines, `${file} has ${lines} lines`).toBeLessThanOrEqual(110);
      // Its own folder, the package's inputs and outputs, and only the policy's schema and the
      // ports' error wording from the core: nothing that plans, rolls or renders.
      const core = valueImports(file).filter(
        (i) => i.from.includes("/") && !i.from.startsWith(dirname(file) + "/"),
      );
      expect(
        core.filter((i) => !/^(policy|ports)\/index$/.test(i.from) && !i.from.startsWith("@")),
        file,
      ).toEqual([]);
    }
  });
});
