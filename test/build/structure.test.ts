// The structure the team keeps, checked so it cannot drift: files a reader can hold in mind
// (500 lines), functions that fit a screen (80 lines; a flat table of short methods is one
// thing, however many methods it has), and the two kinds of node group decided in one place —
// no `kind === "managed"` branch outside src/kinds/. The layers (what may import what) are
// ESLint's job: see eslint.config.js.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 80;
/** A flat method table: a factory whose own code is short, returning an object of short methods. */
const TABLE_PREAMBLE_LINES = 25;
const TABLE_METHOD_LINES = 40;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

const files = sources(join(ROOT, "src")).map((path) => ({
  path: relative(ROOT, path),
  text: readFileSync(path, "utf8"),
}));

type Fn = ts.FunctionLikeDeclaration;

function isFunction(n: ts.Node): n is Fn {
  return (
    ts.isFunctionDeclaration(n) ||
    ts.isMethodDeclaration(n) ||
    ts.isArrowFunction(n) ||
    ts.isFunctionExpression(n) ||
    ts.isConstructorDeclaration(n) ||
    ts.isGetAccessorDeclaration(n) ||
    ts.isSetAccessorDeclaration(n)
  );
}

function lines(sf: ts.SourceFile, n: ts.Node): number {
  const start = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
  const end = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
  return end - start + 1;
}

/** The object literal a function returns as its last statement (or its concise body). */
function returnedObject(fn: Fn): ts.ObjectLiteralExpression | undefined {
  const body = fn.body;
  if (!body) return undefined;
  let expr: ts.Expression | undefined;
  if (ts.isBlock(body)) {
    const last = body.statements[body.statements.length - 1];
    expr = last && ts.isReturnStatement(last) ? last.expression : undefined;
  } else expr = body;
  while (expr && ts.isParenthesizedExpression(expr)) expr = expr.expression;
  return expr && ts.isObjectLiteralExpression(expr) ? expr : undefined;
}

/** A factory returning a table of short methods: long only because the table is long. */
function isFlatTable(sf: ts.SourceFile, fn: Fn): boolean {
  const table = returnedObject(fn);
  if (!table) return false;
  const tableLines = lines(sf, table);
  if (lines(sf, fn) - tableLines > TABLE_PREAMBLE_LINES) return false;
  const members = table.properties.flatMap((p) => {
    if (ts.isMethodDeclaration(p)) return [lines(sf, p)];
    if (ts.isPropertyAssignment(p)) {
      const inner = p.initializer;
      if (ts.isObjectLiteralExpression(inner)) return inner.properties.map((q) => lines(sf, q)); // a nested service (cloud.eks, …)
      return [lines(sf, p)];
    }
    return [lines(sf, p)];
  });
  return members.every((n) => n <= TABLE_METHOD_LINES);
}

function longFunctions(path: string, text: string): string[] {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node) => {
    if (isFunction(n) && lines(sf, n) > MAX_FUNCTION_LINES && !isFlatTable(sf, n)) {
      const line = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
      out.push(`${path}:${line} ${n.name?.getText(sf) ?? "(anonymous)"}: ${lines(sf, n)} lines`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe("the structure of src/", () => {
  it(`has no file over ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .map((f) => ({ path: f.path, n: f.text.split("\n").length }))
      .filter((f) => f.n > MAX_FILE_LINES)
      .map((f) => `${f.path}: ${f.n} lines`);
    expect(long).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines but flat method tables`, () => {
    expect(files.flatMap((f) => longFunctions(f.path, f.text))).toEqual([]);
  });

  it("decides the kind of a group only in src/kinds/ (the sandbox simulates AWS: its own data)", () => {
    const branch = /(===|!==)\s*"(managed|self-managed)"|"(managed|self-managed)"\s*(===|!==)/;
    const found = files
      .filter((f) => !f.path.startsWith("src/kinds/") && !f.path.startsWith("src/sandbox/"))
      .flatMap((f) =>
        f.text
          .split("\n")
          .map((line, i) => ({ line, i }))
          .filter(({ line }) => branch.test(line))
          .map(({ line, i }) => `${f.path}:${i + 1}: ${line.trim()}`),
      );
    expect(found).toEqual([]);
  });

  it("keeps the entry points apart: the action imports no cli/, the sandbox no adapter", () => {
    const imports = (f: { text: string }) =>
      [...f.text.matchAll(/from "([^"]+)"/g)].map((m) => m[1]!);
    const bad = files.flatMap((f) =>
      imports(f)
        .filter(
          (i) =>
            (f.path.startsWith("src/action/") && i.includes("/cli/")) ||
            (f.path.startsWith("src/sandbox/") && i.includes("/adapters/")),
        )
        .map((i) => `${f.path} imports ${i}`),
    );
    expect(bad).toEqual([]);
  });

  it("lets no engine part go back to the policy's resolution: the plan carries it", () => {
    const found = files
      .filter((f) => /^src\/(roll|engine)\//.test(f.path))
      .filter((f) => /policy\/resolve/.test(f.text))
      .map((f) => f.path);
    expect(found).toEqual([]);
  });
});
