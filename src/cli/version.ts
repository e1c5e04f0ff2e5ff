// Which noderoll this is: the version in the package.json of the package it runs from, for
// `noderoll --version` and the stamp of a saved plan. The bundle's modules sit in dist/ and in
// dist/cli-chunks/ (src/cli/ in the source tree), so the package.json is one or two levels up.
import { readFileSync } from "node:fs";

export function noderollVersion(): string {
  for (const up of ["../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "noderoll" && pkg.version) return pkg.version;
    } catch {
      // not here: look one level up
    }
  }
  return "unknown";
}
