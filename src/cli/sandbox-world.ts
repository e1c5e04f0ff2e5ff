// The sandbox worlds the command line can run on: "demo" (built in) or a scenario file; and an
// account of several (`sandbox serve --scenario A --scenario B`).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { demoScenario } from "../sandbox/scenarios/demo.js";
import { scenarioScale, uncheckedScale, type ScenarioScale } from "../sandbox/scenarios/scale.js";
import { scenarioJson, type Scenario } from "../sandbox/scenarios/schema.js";
import { Account } from "../sandbox/world/account.js";
import { World } from "../sandbox/world/world.js";
import { closest } from "../policy/suggest.js";
import { GroupsError } from "./args.js";
import { builtWithRoom, checkHeapFor } from "./heap.js";

/**
 * The world of `scenario`; `worlds`: how many worlds of its size the command builds (a rehearsal
 * builds a twin). Throws HeapTooSmall (src/cli/heap.ts) before building one too large for the
 * heap, so the command runs again with a higher limit; builds one small for it with the heap free
 * to grow.
 */
export function loadWorld(scenario: string | undefined, worlds = 1): World {
  if (!scenario || scenario === "demo") return World.demo();
  const text = readScenario(scenario);
  const json = scenarioJson(text);
  // A JSON scenario (as `sandbox generate` writes) is sized before it is checked: where it needs
  // a larger heap, the child checks it, once. Sized again once checked, with its defaults.
  const unchecked = json === undefined ? undefined : uncheckedScale(json);
  if (unchecked) checkHeapFor(unchecked, worlds);
  const parsed = World.scenarioOf(text, scenario, json);
  const scale = scenarioScale(parsed);
  checkHeapFor(scale, worlds);
  return builtWithRoom(scale, worlds, () => new World(parsed));
}

const sum = (scales: readonly ScenarioScale[]): ScenarioScale => ({
  nodes: scales.reduce((n, s) => n + s.nodes, 0),
  pods: scales.reduce((n, s) => n + s.pods, 0),
});

/** A scenario file's text; a name that is no file is said as such ("demo" is the built-in one). */
function readScenario(file: string): string {
  if (!existsSync(file)) {
    const near = closest(file, ["demo"]);
    throw new GroupsError(
      `--sandbox ${file}: no such scenario file${near ? `; did you mean "${near}" (the built-in demo cluster)?` : '; "demo" is the built-in demo cluster'}`,
    );
  }
  return readFileSync(file, "utf8");
}

/**
 * The scenarios these files name: each a scenario ("demo" or a file), or a SandboxFleet — a
 * fleet's sandbox clusters in one file, `scenarios:` listing their files relative to it — so a
 * fleet's clusters are given once (`--sandbox policies/sandbox/fleet.yaml`).
 */
export function expandScenarios(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    if (file === "demo") return [file];
    const doc = parse(readScenario(file)) as { kind?: unknown; scenarios?: unknown };
    if (doc?.kind !== "SandboxFleet") return [file];
    const list = doc.scenarios;
    if (!Array.isArray(list) || list.length === 0 || !list.every((x) => typeof x === "string"))
      throw new Error(
        `${file}: a SandboxFleet lists its clusters' scenario files under "scenarios:", relative to it`,
      );
    return list.map((f: string) => join(dirname(file), f));
  });
}

/**
 * An account of one cluster per scenario ("demo" or a file), in one AWS account and region
 * (src/sandbox/world/account.ts): throws, saying what to change, where they clash. The heap is
 * checked for them all together, as loadWorld checks one.
 */
export function loadAccount(given: readonly string[]): Account {
  const files = expandScenarios(given);
  const read = files.map((file) => {
    if (file === "demo") return { file };
    const text = readScenario(file);
    return { file, text, json: scenarioJson(text) };
  });
  const unchecked = read.map((r) => (r.json === undefined ? undefined : uncheckedScale(r.json)));
  if (unchecked.some((u) => u)) checkHeapFor(sum(unchecked.filter((u) => u !== undefined)));
  const scenarios = read.map((r): { scenario: Scenario; file: string } => ({
    scenario: r.text === undefined ? demoScenario() : World.scenarioOf(r.text, r.file, r.json),
    file: r.file,
  }));
  const scale = sum(scenarios.map((s) => scenarioScale(s.scenario)));
  checkHeapFor(scale);
  return new Account(scenarios, { build: (_s, make) => builtWithRoom(scale, 1, make) });
}
