// The fleet file (issue 49): one release promoted across many clusters, stage by stage. Its
// shape is a zod schema built from the policy's leaves, so its errors read like a policy's.
// The stages follow the fleet tools platform teams know: GKE's rollout sequencing (a soak after
// each upstream fleet) and Azure Kubernetes Fleet Manager's update runs (stages, maxConcurrency,
// a failure threshold, approval gates — here a GitHub Environment's reviewers).
import * as z from "zod";
import { duration, leaf, text } from "../policy/leaves.js";
import { API_VERSION, TargetSchema } from "../policy/schema.js";

export const FLEET_KIND = "Fleet";

/** "2" or "25%": clusters of a stage rolling at once, a percentage of the stage's clusters. */
export type Concurrency = number | `${number}%`;

const CONCURRENCY_PATTERN = "^(100|[1-9][0-9]?)%$";

function concurrencyProblem(v: unknown): string | undefined {
  if (typeof v === "number" && Number.isInteger(v) && v >= 1) return undefined;
  if (typeof v === "string" && new RegExp(CONCURRENCY_PATTERN).test(v)) return undefined;
  return 'a whole number of clusters >= 1, or a percentage of the stage\'s clusters from "1%" to "100%"';
}

const nonNegativeInt = (description: string, defaultValue: number) =>
  leaf<number>(
    (v) =>
      typeof v === "number" && Number.isInteger(v) && v >= 0 ? undefined : "a whole number >= 0",
    { type: "integer", minimum: 0, description, default: defaultValue },
  );

export const StageSchema = z
  .strictObject({
    name: text(
      "The stage's name: dev, staging, prod.",
      /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/,
      "a lower-case name of letters, digits and '-' (at most 63 characters)",
      63,
    ),
    policies: z
      .array(
        text(
          "A policy file, or a glob of them, from the repository's root.",
          /^[^\0]+$/,
          "a path or glob such as policies/dev-*.yaml",
          1024,
        ),
        { error: "expected a list of policy files or globs, such as [policies/dev-*.yaml]" },
      )
      .min(1, { error: "expected at least one policy file or glob" }),
    maxConcurrency: leaf<Concurrency>(concurrencyProblem, {
      description: "Clusters of this stage rolling at once: a count or a percentage (default 1).",
      anyOf: [
        { type: "integer", minimum: 1 },
        { type: "string", pattern: CONCURRENCY_PATTERN },
      ],
      default: 1,
    }).optional(),
    soak: duration(
      "After the stage's last cluster succeeded, how long its gates stay green before the next stage starts (default: none).",
    ).optional(),
    environment: text(
      "The GitHub Environment whose reviewers and wait timer approve this stage's jobs.",
      /^[^\0\n]+$/,
      "a GitHub Environment's name",
      255,
    ).optional(),
    failureThreshold: nonNegativeInt(
      "Clusters of this stage that may fail before the stage, and the fleet, halts (default 0).",
      0,
    ).optional(),
  })
  .meta({
    description: "One stage of the fleet: its clusters roll only after the stage before soaked.",
  });

export const FleetSchema = z
  .strictObject({
    apiVersion: leaf<typeof API_VERSION>(
      (v) => (v === API_VERSION ? undefined : `"${API_VERSION}"`),
      { const: API_VERSION },
    ),
    kind: leaf<typeof FLEET_KIND>((v) => (v === FLEET_KIND ? undefined : `"${FLEET_KIND}"`), {
      const: FLEET_KIND,
    }),
    metadata: z.strictObject({
      name: text(
        "Names the fleet: its record on each cluster and its plan comment.",
        /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/,
        "a lower-case name of letters, digits and '-' (at most 63 characters)",
        63,
      ),
    }),
    release: TargetSchema.meta({
      description:
        "The release every group of every policy is rolled to: resolved once, when the first stage starts, then pinned for every stage.",
    }),
    stages: z
      .array(StageSchema, { error: 'expected a list of stages, each starting with "- name: "' })
      .min(1, { error: "expected at least one stage" }),
  })
  .meta({
    title: "noderoll Fleet v1",
    description: "One release rolled across many clusters, stage by stage, with soak and approval.",
  });

export type Fleet = z.infer<typeof FleetSchema>;
export type Stage = z.infer<typeof StageSchema>;
