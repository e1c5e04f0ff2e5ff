// A JSON scenario's problems are placed in its text by a scan of its own (json-positions.ts), not
// by the YAML parser's tree. The YAML parser is the oracle: every value and every key of a
// scenario, in several layouts, at the line and column it gives; then text made to mislead a scan
// (brackets and quotes inside strings, escaped keys, repeated keys), and the whole check.
import { LineCounter, parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/policy/diagnostic.js";
import { locate, type PolicySource } from "../../src/policy/source.js";
import { generateScenario, generateScenarioYaml } from "../../src/sandbox/scenarios/generate.js";
import { locateInJson } from "../../src/sandbox/scenarios/json-positions.js";
import { parseScenario, scenarioJson } from "../../src/sandbox/scenarios/schema.js";

/** Every path of `value`, with the keys of each object (for the key positions). */
function* pathsOf(
  value: unknown,
  path: PropertyKey[] = [],
): Generator<{ path: PropertyKey[]; keys: string[] }> {
  const keys =
    value && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
  yield { path, keys };
  if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* pathsOf(v, [...path, i]);
  else for (const k of keys) yield* pathsOf((value as Record<string, unknown>)[k], [...path, k]);
}

/** Where the YAML parser puts each path and key of `text`. */
function yamlOracle(text: string) {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const source: PolicySource = { file: "s.json", text, doc, lines };
  return (path: PropertyKey[], key?: string) => locate(source, path, key);
}

describe("placing a problem in a JSON scenario", () => {
  const value = JSON.parse(
    JSON.stringify(generateScenario({ nodes: 12, groups: 3, podsPerNode: 4 })),
  );
  const layouts = {
    compact: JSON.stringify(value),
    indented: JSON.stringify(value, null, 2),
    tabs: JSON.stringify(value, null, "\t"),
    "CRLF lines": JSON.stringify(value, null, 1).replace(/\n/g, "\r\n"),
    "as generate writes it": generateScenarioYaml({ nodes: 12, groups: 3, podsPerNode: 4 }),
  };

  for (const [layout, text] of Object.entries(layouts))
    it(`puts every value and key where the YAML parser does: ${layout}`, () => {
      const oracle = yamlOracle(text);
      const from = text.length - text.replace(/^(?:[ \t]*(?:#[^\n]*)?\r?\n)*/, "").length;
      let checked = 0;
      for (const { path, keys } of pathsOf(scenarioJson(text))) {
        expect(locateInJson(text, path, undefined, from), path.join(".")).toEqual(oracle(path));
        for (const key of keys)
          expect(locateInJson(text, path, key, from), `${path.join(".")} key ${key}`).toEqual(
            oracle(path, key),
          );
        checked++;
      }
      expect(checked).toBeGreaterThan(100);
    });

  it("is not misled by brackets, braces, commas and quotes inside strings, or escaped keys", () => {
    const text = [
      "{",
      '  "a": "}],{[\\"x\\":",',
      '  "\\u0062": [ "]", { "c": "\\\\" }, [1, [2, {"d": 3}]], 4 ],',
      '  "e\\"f": { },',
      '  "g": []',
      "}",
    ].join("\n");
    expect(JSON.parse(text)).toBeTruthy();
    const at = (path: PropertyKey[], key?: string) => locateInJson(text, path, key);
    expect(at(["b"])).toEqual({ line: 3, col: 13 }); // "\u0062" is "b"
    expect(at(["b", 1, "c"])).toEqual({ line: 3, col: 27 });
    expect(at(["b", 2, 1, 1, "d"])).toEqual({ line: 3, col: 49 });
    expect(at(["b", 3])).toEqual({ line: 3, col: 55 });
    expect(at([], 'e"f')).toEqual({ line: 4, col: 3 });
    expect(at(["g"])).toEqual({ line: 5, col: 8 });
    // What is not there: the deepest part that is.
    expect(at(["b", 9])).toEqual({ line: 3, col: 13 });
    expect(at(['e"f', "h", 0])).toEqual({ line: 4, col: 11 });
    expect(at(["g"], "nope")).toEqual({ line: 5, col: 8 });
    expect(at(["a", "x"])).toEqual({ line: 2, col: 8 });
    // Each as the YAML parser puts it.
    const oracle = yamlOracle(text);
    for (const path of [["b"], ["b", 1, "c"], ["b", 2, 1, 1, "d"], ["b", 3], ["g"], ["b", 9]])
      expect(at(path), path.join(".")).toEqual(oracle(path));
  });

  it("of a key given twice, takes the last, as JSON.parse does", () => {
    const text = '{"replicas": 1,\n "replicas": -1}';
    expect(JSON.parse(text)).toEqual({ replicas: -1 });
    expect(locateInJson(text, ["replicas"])).toEqual({ line: 2, col: 14 });
    expect(locateInJson(text, [], "replicas")).toEqual({ line: 2, col: 2 });
  });

  it("reports a JSON scenario's problems at file:line:col, as the YAML path did", () => {
    const text = generateScenarioYaml({ nodes: 12, groups: 3, podsPerNode: 4 });
    const value = scenarioJson(text) as {
      workloads: Record<string, unknown>[];
      nodeGroups: Record<string, unknown>[];
    };
    value.workloads[2]!.replicas = -1;
    value.workloads[3]!.colour = "blue";
    value.nodeGroups[1]!.size = { min: 5, max: 9, desired: 4 };
    const broken = JSON.stringify(value, null, 2);
    const r = parseScenario(broken, "s.json");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const oracle = yamlOracle(broken);
    const where = (path: PropertyKey[], key?: string) => {
      const at = oracle(path, key);
      return `s.json:${at.line}:${at.col}`;
    };
    expect(r.errors.map(formatDiagnostic)).toEqual([
      expect.stringContaining(
        `${where(["nodeGroups", 1, "size"])}: nodeGroups[1].size: min ≤ desired ≤ max does not hold`,
      ),
      expect.stringContaining(`${where(["workloads", 2, "replicas"])}: workloads[2].replicas:`),
      expect.stringContaining(
        `${where(["workloads", 3], "colour")}: workloads[3]: unknown key "colour"`,
      ),
    ]);
  });

  it("places the first fifty problems and counts the rest", () => {
    const value = scenarioJson(generateScenarioYaml({ nodes: 60, groups: 3, podsPerNode: 10 })) as {
      workloads: Record<string, unknown>[];
    };
    for (const w of value.workloads) w.replicas = -1;
    expect(value.workloads.length).toBeGreaterThan(50);
    const r = parseScenario(JSON.stringify(value, null, 1), "s.json");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(51);
    expect(r.errors.at(-1)?.message).toBe(
      `and ${value.workloads.length - 50} more problems: mend these first`,
    );
    const lines = r.errors.slice(0, 50).map((e) => e.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
  });
});
