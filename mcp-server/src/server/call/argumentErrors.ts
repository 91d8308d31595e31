/**
 * Messages for the two argument slips models make most, used by the SDK's validation of every
 * tool call (it joins the issues' messages into the error result the agent reads):
 * - a misspelt or invented argument: tool schemas are strict (mcpServer.ts), and the message
 *   lists the arguments the tool takes, instead of zod dropping the key and the call silently
 *   doing something else;
 * - a number or boolean sent as a string ("2", "true"): the message says to send the bare value.
 * Every other issue keeps zod's own message.
 */
import { z } from 'zod';
import type { $ZodRawIssue } from 'zod/v4/core';

type Issue = $ZodRawIssue;

function keysOf(schema: unknown): string[] {
  const def = (schema as { _zod?: { def?: { shape?: Record<string, unknown> } } })._zod?.def;
  return def?.shape ? Object.keys(def.shape) : [];
}

export function argumentMessage(issue: Issue): string | undefined {
  if (issue.code === 'unrecognized_keys') {
    const valid = keysOf(issue.inst);
    const unknown = issue.keys.map((k: string) => `"${k}"`).join(', ');
    const list = valid.length > 0 ? valid.join(', ') : 'none';
    return `Unknown argument${issue.keys.length > 1 ? 's' : ''} ${unknown}; this tool takes: ${list}. Check the spelling.`;
  }
  if (
    issue.code === 'invalid_type' &&
    (issue.expected === 'number' || issue.expected === 'boolean') &&
    typeof issue.input === 'string'
  ) {
    const example = issue.expected === 'number' ? issue.input.trim() || '2' : 'true or false';
    return `Expected a ${issue.expected}, got the string ${JSON.stringify(issue.input)}: send the bare value (${example}), without quotes.`;
  }
  return undefined;
}

let installed = false;

/** Installs the messages for this process's zod (idempotent). */
export function installArgumentMessages(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: argumentMessage });
}

/**
 * The contract's schema with unknown keys refused. Its metadata is carried over, since zod keeps
 * it per schema instance (defineTool leaves `$schema` out that way).
 *
 * The listed schema leaves `additionalProperties: false` out (the same way: zod merges metadata
 * into the JSON Schema, and an undefined key is not sent). It told the model nothing it acts on,
 * cost ~6 tokens a tool on every turn, and the refusal, with the list of valid arguments, still
 * comes from validating against this strict schema.
 */
export function strictInput(schema: z.ZodObject): z.ZodObject {
  const meta = z.globalRegistry.get(schema);
  return schema.strict().meta({ ...meta, additionalProperties: undefined });
}
