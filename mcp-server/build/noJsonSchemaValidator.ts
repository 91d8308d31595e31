/**
 * Stands in, in the built server only, for the MCP SDK's ajv-based JSON Schema validator (see
 * withoutAjv.ts). The SDK's Server uses it for one thing: checking a client's answer to a form
 * elicitation. This server never elicits, so the validator is never asked for; if that changes,
 * this error says where to look instead of silently accepting unchecked input.
 */
import type {
  jsonSchemaValidator,
  JsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation';

export class AjvJsonSchemaValidator implements jsonSchemaValidator {
  getValidator<T>(): JsonSchemaValidator<T> {
    throw new Error(
      'JSON Schema validation (form elicitation) is left out of this build; see mcp-server/build/withoutAjv.ts.',
    );
  }
}
