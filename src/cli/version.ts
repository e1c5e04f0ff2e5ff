// Which noderoll this is: the version in the package.json beside dist/ (or the source tree), for
// `noderoll --version` and the stamp of a saved plan.
import { readFileSync } from "node:fs";

export function noderollVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version?: string;
    };
    if (pkg.version) return pkg.version;
  } catch {
    // run from elsewhere: fall through
  }
  return "unknown";
}
