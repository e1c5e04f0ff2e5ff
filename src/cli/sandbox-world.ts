// The sandbox worlds the command line can run on: "demo" (built in) or a scenario file.
import { readFileSync } from "node:fs";
import { scenarioScale } from "../sandbox/scenarios/scale.js";
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
  const parsed = World.scenarioOf(readFileSync(scenario, "utf8"), scenario);
  const scale = scenarioScale(parsed);
  checkHeapFor(scale, worlds);
  return builtWithRoom(scale, worlds, () => new World(parsed));
}
