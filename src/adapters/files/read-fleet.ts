// A fleet file and the policies its stages name, read from disk for the command line and the
// action (issue 49): each stage's globs expanded from the repository's root (where the command
// runs), every policy validated, and each policy's disagreement with the fleet's release an
// error located in the policy file. Everything wrong is said at once; nothing is read from a
// cluster until all of it holds.
import { globSync } from "node:fs";
import { join } from "node:path";
import { releaseDisagreements } from "../../fleet/agree.js";
import { loadFleet } from "../../fleet/load.js";
import type { Fleet } from "../../fleet/schema.js";
import type { FleetMember } from "../../app/fleet.js";
import { byPosition, diagnostic, type Diagnostic, type Policy } from "../../policy/index.js";
import type { PolicySource } from "../../policy/index.js";
import { locate } from "../../policy/source.js";
import { readPolicyFile, readYamlText } from "./read-policy.js";

export type FleetFiles =
  | { ok: true; fleet: Fleet; file: string; members: FleetMember[] }
  | { ok: false; errors: Diagnostic[] };

const isGlob = (p: string) => /[*?[{]/.test(p);
const norm = (p: string) => p.replace(/^\.\//, "");

/** The fleet at `file` (relative to `cwd`) and its members, or every problem with them. */
export function readFleetFiles(file: string, cwd: string): FleetFiles {
  const text = readYamlText(join(cwd, file), file, "a fleet file");
  if (typeof text !== "string") return { ok: false, errors: text.errors };
  const loaded = loadFleet(text, file);
  if (!loaded.ok) return loaded;
  const { fleet, source } = loaded;
  const errors: Diagnostic[] = [];
  const stageOf = new Map<string, string>();
  const members: (FleetMember & { source: PolicySource })[] = [];
  fleet.stages.forEach((stage, i) => {
    stage.policies.forEach((pattern, j) => {
      const at = (message: string) =>
        diagnostic({
          file,
          ...locate(source, ["stages", i, "policies", j]),
          path: `stages[${i}].policies[${j}]`,
          message,
          severity: "error",
        });
      const files = isGlob(pattern)
        ? (globSync(pattern, { cwd }) as string[]).map(norm).sort()
        : [norm(pattern)];
      if (files.length === 0) errors.push(at(`"${pattern}" matches no policy file`));
      for (const f of files) {
        const other = stageOf.get(f);
        if (other && other !== stage.name)
          errors.push(at(`${f} is also in stage "${other}"; a cluster belongs to one stage`));
        if (other) continue;
        stageOf.set(f, stage.name);
        const read = readPolicyFile(join(cwd, f), f);
        if (!read.ok) errors.push(...read.errors);
        else members.push({ stage: stage.name, file: f, policy: read.policy, source: read.source });
      }
    });
  });
  errors.push(...releaseDisagreements(fleet, file, members), ...sameCluster(members));
  if (errors.length > 0) return { ok: false, errors: errors.sort(byFile) };
  return { ok: true, fleet, file, members: members.map(({ source: _s, ...m }) => m) };
}

/** Two policies of one fleet naming one cluster would roll it twice, in two stages perhaps. */
function sameCluster(
  members: readonly { file: string; policy: Policy; source: PolicySource }[],
): Diagnostic[] {
  const seen = new Map<string, string>();
  return members.flatMap(({ file, policy, source }) => {
    const key = `${policy.cluster.region}/${policy.cluster.name}`;
    const other = seen.get(key);
    seen.set(key, other ?? file);
    return other
      ? [
          {
            file,
            ...locate(source, ["cluster", "name"]),
            path: "cluster.name",
            message: `cluster ${policy.cluster.name} (${policy.cluster.region}) is also ${other}'s: a fleet rolls each cluster once, from one policy`,
            severity: "error" as const,
          },
        ]
      : [];
  });
}

const byFile = (a: Diagnostic, b: Diagnostic) => a.file.localeCompare(b.file) || byPosition(a, b);
