import type { ZodTypeAny } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';

/**
 * A caller's zod schema as the JSON Schema the worker validates against, inlined (no $refs),
 * draft-07: what the ai SDK's zodSchema gives, without loading the ai SDK into Node.
 */
export function jsonSchemaOf(schema: ZodTypeAny): Record<string, unknown> {
  return zodToJsonSchema(schema, { $refStrategy: 'none', target: 'jsonSchema7' }) as Record<string, unknown>;
}
