// Turning a fleet file into a typed Fleet, or into every problem it has, each located to line and
// column — read with the same hostile-input guards and the same words as a policy.
import { byPosition, type Diagnostic } from "../policy/diagnostic.js";
import {
  dedupe,
  locator,
  repeatedNames,
  shapeDiagnostics,
  type At,
  type FileLanguage,
} from "../policy/issues.js";
import { parsePolicySource, type PolicySource } from "../policy/source.js";
import { FLEET_KIND, FleetSchema, type Fleet } from "./schema.js";

export type FleetLoad =
  { ok: true; fleet: Fleet; source: PolicySource } | { ok: false; errors: Diagnostic[] };

const FLEET_LANGUAGE: FileLanguage = {
  schema: FleetSchema,
  missingHints: {
    apiVersion: 'add "apiVersion: noderoll.io/v1"',
    kind: `add "kind: ${FLEET_KIND}"`,
    metadata: 'add "metadata:" with a "name:" under it',
    release:
      'add "release:" with the kubernetesVersion, releaseVersion or launchTemplateVersion every cluster is rolled to',
    stages: 'add "stages:" with at least one "- name: …" and its "policies:"',
    name: 'add "name:"',
    policies: 'add "policies:", such as [policies/dev-*.yaml]',
  },
};

/** Whether a parsed document says it is a fleet file (right or wrong otherwise). */
export function isFleetShaped(value: unknown): boolean {
  return (
    value !== null && typeof value === "object" && (value as { kind?: unknown }).kind === FLEET_KIND
  );
}

/** Parse and validate a fleet file's text. Pure: the caller reads the file. */
export function loadFleet(text: string, file: string): FleetLoad {
  const parsed = parsePolicySource(text, file);
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  const { source, value } = parsed;
  const at = locator(file, source);
  if (!isFleetShaped(value))
    return {
      ok: false,
      errors: [at([], `not a noderoll fleet: expected "kind: ${FLEET_KIND}"`)],
    };
  const result = FleetSchema.safeParse(value, { reportInput: true });
  if (!result.success) {
    const errors = shapeDiagnostics(FLEET_LANGUAGE, result.error.issues, value, at);
    return { ok: false, errors: dedupe(errors).sort(byPosition) };
  }
  const errors = fleetRules(result.data, at);
  if (errors.length > 0) return { ok: false, errors: errors.sort(byPosition) };
  return { ok: true, fleet: result.data, source };
}

/** Rules across keys: a release that names something, stages and globs named once. */
function fleetRules(fleet: Fleet, at: At): Diagnostic[] {
  const errors: Diagnostic[] = [];
  if (Object.keys(fleet.release).length === 0)
    errors.push(
      at(
        ["release"],
        "expected at least one of kubernetesVersion, releaseVersion, launchTemplateVersion: a fleet promotes a release",
      ),
    );
  // Pinned once for every stage: "latest" of which Kubernetes version must be known.
  if (fleet.release.releaseVersion === "latest" && !fleet.release.kubernetesVersion)
    errors.push(
      at(
        ["release", "releaseVersion"],
        'releaseVersion "latest" is resolved once and pinned for every stage: add kubernetesVersion (such as "1.33") to say latest of which',
      ),
    );
  errors.push(
    ...repeatedNames(
      fleet.stages.map((st) => st.name),
      ["stages"],
      "stage",
      at,
    ),
  );
  const globAt = new Map<string, [number, number]>();
  fleet.stages.forEach((stage, i) => {
    stage.policies.forEach((glob, j) => {
      const seen = globAt.get(glob);
      if (seen)
        errors.push(
          at(
            ["stages", i, "policies", j],
            `"${glob}" is already in stage "${fleet.stages[seen[0]]?.name}" (line ${at(["stages", seen[0], "policies", seen[1]], "").line}); a cluster belongs to one stage`,
          ),
        );
      else globAt.set(glob, [i, j]);
    });
  });
  return errors;
}
