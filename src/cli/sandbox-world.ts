// The sandbox worlds the command line can run on: "demo" (built in) or a scenario file.
import { readFileSync } from "node:fs";
import { World } from "../sandbox/world/world.js";

export function loadWorld(scenario: string | undefined): World {
  if (!scenario || scenario === "demo") return World.demo();
  return World.fromYaml(readFileSync(scenario, "utf8"), scenario);
}
