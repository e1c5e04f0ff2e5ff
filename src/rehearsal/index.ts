// The rehearsal's parts (docs/rehearsal.md): reading the whole cluster, the twin built from it,
// the timings it runs with, what it watches and the report it makes. The rehearsal itself — a
// twin rolled by apply in virtual time — is the application layer's (src/app/rehearse.ts).
import { parseDuration } from "../policy/index.js";
import { REHEARSAL_TIMINGS } from "./timings.js";

export { physicsOf, readLiveCluster, type LiveCluster } from "./live.js";
export { givenTimings, REHEARSAL_TIMINGS } from "./timings.js";
export { rehearsalReport, stoppedWhereApplyStops } from "./report.js";
export { RehearsalWatch } from "./watch.js";
export { twinScenario } from "./twin.js";
export { NEVER_READY_TWIN_S } from "./workloads.js";

/** The action rehearses a pull request's plan on its own only up to this many nodes. */
export const REHEARSE_AUTO_MAX_NODES = 300;

/** `boot=90s,podStart=20s` → `{ boot: "90s", podStart: "20s" }`, or why not. */
export function parseTimingFlag(text: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z]+)=(\S+)$/.exec(part);
    if (!m) return `"${part}" is not name=duration (such as boot=90s)`;
    const [, name, value] = m as unknown as [string, string, string];
    if (!(name in REHEARSAL_TIMINGS))
      return `"${name}" is not a rehearsal timing; they are ${Object.keys(REHEARSAL_TIMINGS).join(", ")}`;
    if (parseDuration(value) === undefined) return `"${value}" is not a duration (such as 90s)`;
    out[name] = value;
  }
  return out;
}
