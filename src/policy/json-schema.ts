// The JSON Schema for editors (yaml-language-server), generated from the zod schema so the
// two can never disagree. Committed as policies/upgrade-policy.schema.json; a test keeps it fresh.
import * as z from "zod";
import { leafJsonSchema, PolicySchema } from "./schema.js";

export function policyJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(PolicySchema, {
    target: "draft-7",
    unrepresentable: "any",
    override: (ctx) => {
      const fragment = leafJsonSchema.get(ctx.zodSchema as unknown as z.ZodType);
      if (fragment) Object.assign(ctx.jsonSchema, fragment);
    },
  });
  return { ...schema, $id: "https://noderoll.io/schemas/upgrade-policy.v1.json" };
}

export function policyJsonSchemaText(): string {
  return `${JSON.stringify(policyJsonSchema(), null, 2)}\n`;
}
