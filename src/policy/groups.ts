// Naming groups of a policy from outside it (`--groups`, the action's `groups` input): a name the
// policy does not have is an error that lists the groups it has, never a roll of nothing that
// comes out green.
import type { Policy } from "./schema.js";
import { closest } from "./suggest.js";

/** Why `names` cannot narrow this policy, or undefined when every name is one of its groups. */
export function unknownGroupsProblem(
  policy: Policy,
  names: readonly string[] | undefined,
  label: string,
): string | undefined {
  if (!names) return undefined;
  const have = policy.groups.map((g) => g.name);
  const unknown = names.filter((n) => !have.includes(n));
  if (unknown.length === 0) return undefined;
  const hints = unknown
    .map((n) => [n, closest(n, have)] as const)
    .filter(([, guess]) => guess)
    .map(([n, guess]) => `"${n}" → "${guess}"?`);
  const quoted = unknown.map((n) => `"${n}"`).join(", ");
  return `${label} names ${quoted}, which policy ${policy.metadata.name} does not have; its groups are: ${have.join(", ")}${hints.length > 0 ? ` (did you mean ${hints.join(", ")})` : ""}`;
}
