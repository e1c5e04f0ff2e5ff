// The JSON Schema for editors (yaml-language-server), generated from the zod schema so the
// two can never disagree. Committed as policies/upgrade-policy.schema.json; a test keeps it fresh.
import * as z from "zod";
import { leafJsonSchema, PolicySchema } from "./schema.js";

/**
 * Where editors fetch the schema: the committed file at the `v1` tag, the tag workflows use
 * (`uses: octo-org/noderoll@v1`), so the schema a policy is checked against moves with the
 * action's major version and never with a branch. `noderoll schema` prints the same for use
 * without a network.
 */
export const SCHEMA_URL =
  "https://raw.githubusercontent.com/octo-org/noderoll/v1/policies/upgrade-policy.schema.json";

export function policyJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(PolicySchema, {
    target: "draft-7",
    unrepresentable: "any",
    override: (ctx) => {
      const fragment = leafJsonSchema(ctx.zodSchema);
      if (fragment) Object.assign(ctx.jsonSchema, fragment);
    },
  });
  return { ...schema, $id: SCHEMA_URL };
}

export function policyJsonSchemaText(): string {
  return `${JSON.stringify(policyJsonSchema(), null, 2)}\n`;
}
