/**
 * Stands in, in the built server only, for the MCP SDK's ajv-based JSON Schema validator (see
 * withoutAjv.ts). The SDK's Server uses it for one thing: checking a client's answer to a form
 * elicitation. This server elicits one shape only (server/call/approvalElicitation.ts): an object of
 * string properties, each optionally an enum, some required. That subset is checked here; any
 * other schema throws, saying where to look, instead of silently accepting unchecked input.
 */
import type {
  JsonSchemaType,
  jsonSchemaValidator,
  JsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation';

interface FlatSchema {
  type: 'object';
  properties: Record<string, { type: 'string'; enum?: string[] }>;
  required?: string[];
}

function isFlat(schema: unknown): schema is FlatSchema {
  const s = schema as Partial<FlatSchema> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    s.type === 'object' &&
    typeof s.properties === 'object' &&
    Object.values(s.properties).every((p) => p.type === 'string')
  );
}

export class AjvJsonSchemaValidator implements jsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    if (!isFlat(schema))
      throw new Error(
        'JSON Schema validation beyond flat string forms is left out of this build; see mcp-server/build/withoutAjv.ts.',
      );
    return (input: unknown) => {
      const fail = (errorMessage: string) => ({
        valid: false as const,
        data: undefined,
        errorMessage,
      });
      if (typeof input !== 'object' || input === null) return fail('expected an object');
      const record = input as Record<string, unknown>;
      for (const key of schema.required ?? []) if (!(key in record)) return fail(`missing ${key}`);
      for (const [key, value] of Object.entries(record)) {
        const property = schema.properties[key];
        if (property === undefined) continue;
        if (typeof value !== 'string') return fail(`${key}: expected a string`);
        if (property.enum !== undefined && !property.enum.includes(value))
          return fail(`${key}: expected one of ${property.enum.join(', ')}`);
      }
      return { valid: true as const, data: input as T, errorMessage: undefined };
    };
  }
}
