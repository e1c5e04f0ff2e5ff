// The sandbox worlds the command line can run on: "demo" (built in) or a scenario file.
import { readFileSync } from "node:fs";
import { scenarioScale, uncheckedScale } from "../sandbox/scenarios/scale.js";
import { scenarioJson } from "../sandbox/scenarios/schema.js";
import { World } from "../sandbox/world/world.js";
import { builtWithRoom, checkHeapFor } from "./heap.js";

/**
 * The world of `scenario`; `worlds`: how many worlds of its size the command builds (a rehearsal
 * builds a twin). Throws HeapTooSmall (src/cli/heap.ts) before building one too large for the
 * heap, so the command runs again with a higher limit; builds one small for it with the heap free
 * to grow.
 */
export function loadWorld(scenario: string | undefined, worlds = 1): World {
  if (!scenario || scenario === "demo") return World.demo();
  const text = readFileSync(scenario, "utf8");
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
