// No module-level mutable state in src/ outside the adapters (issue 45), as eslint.config.js
// says it: a `let` at module scope, or a Map, Set, WeakMap, WeakSet or Array made there, is
// refused; a constant table typed ReadonlySet or ReadonlyMap, state inside a function or a
// class, and an adapter's own pools are not.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const eslint = new ESLint({ cwd: ROOT });

async function refused(text: string, filePath = "src/plan/probe.ts"): Promise<number[]> {
  const [result] = await eslint.lintText(text, { filePath });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-syntax").map((m) => m.line);
}

describe("module-level state", () => {
  it("is refused in src/: a let, and a Map, Set, WeakMap, WeakSet or Array made at module scope", async () => {
    const text = [
      "export let a = 0;",
      "let b: string | undefined;",
      "const c = new Map<string, number>();",
      "export const d = new Set<string>();",
      "const e = new WeakMap<object, number>();",
      "const f = new WeakSet<object>();",
      "const g = new Array<number>(3);",
      "export const use = [a, b, c, d, e, f, g];",
    ].join("\n");
    expect(await refused(text)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("is not: a constant table typed ReadonlySet or ReadonlyMap, state a function or class owns", async () => {
    const text = [
      'const A: ReadonlySet<string> = new Set(["x"]);',
      'export const B: ReadonlyMap<string, number> = new Map([["x", 1]]);',
      "export function f() {",
      "  let n = 0;",
      "  const seen = new Set<string>();",
      "  return { n, seen, A, B };",
      "}",
      "export class C {",
      "  readonly byName = new Map<string, number>();",
      "}",
    ].join("\n");
    expect(await refused(text)).toEqual([]);
  });

  it("is the adapters' own to keep (their connection pools)", async () => {
    expect(
      await refused("export const pool = new Map<string, object>();", "src/adapters/x.ts"),
    ).toEqual([]);
  });
});
