// No import cycles in src/ (issue 45): the graph of every relative import and re-export —
// type-only ones too, since a cycle of types is still two files that cannot be read apart —
// has no strongly connected component of more than one file, and no file imports itself.
// A failure names every component, so a reader sees the whole knot at once.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** The file a relative specifier names: "./x.js" is ./x.ts, "./dir" is ./dir/index.ts. */
function target(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, ".ts"), base, `${base}.ts`, join(base, "index.ts")];
  return candidates.find((c) => c.endsWith(".ts") && existsSync(c));
}

/** Every module a file imports or re-exports, `import type` and `export type … from` included. */
function importsOf(path: string, text: string): string[] {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  const add = (spec: ts.Expression | undefined) => {
    if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith(".")) return;
    const to = target(path, spec.text);
    if (to) out.push(to);
  };
  const visit = (n: ts.Node) => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) add(n.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference))
      add(n.moduleReference.expression);
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument))
      add(n.argument.literal as ts.Expression);
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(n.arguments[0]);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** Tarjan's strongly connected components with more than one file, or a file importing itself. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe("the imports of src/", () => {
  it("form no cycle, type-only imports included", () => {
    const graph = new Map<string, string[]>();
    for (const path of sources(join(ROOT, "src"))) {
      const from = relative(ROOT, path);
      const to = importsOf(path, readFileSync(path, "utf8")).map((p) => relative(ROOT, p));
      graph.set(from, [...new Set(to)]);
    }
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph).map((c) => c.join(" ↔ "))).toEqual([]);
  });

  it("are read as cycles when they are: a type-only pair, a ring of three, a re-export", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["a"]],
      ["c", ["d"]],
      ["d", ["e"]],
      ["e", ["c"]],
      ["f", ["g"]],
      ["g", []],
    ]);
    expect(cycles(graph)).toEqual([
      ["a", "b"],
      ["c", "d", "e"],
    ]);
    const here = join(ROOT, "src", "x.ts");
    const text = [
      'import type { A } from "./plan/types.js";',
      'export { B } from "./plan/types.js";',
      'export type { C } from "./policy/schema.js";',
      'type D = import("./ports/clock.js").Clock;',
      'import { e } from "node:fs";',
    ].join("\n");
    expect(importsOf(here, text).map((p) => relative(ROOT, p))).toEqual([
      "src/plan/types.ts",
      "src/plan/types.ts",
      "src/policy/schema.ts",
      "src/ports/clock.ts",
    ]);
  });
});
