import type { z } from 'zod';

/**
 * MCP tool annotations; declared once per contract and passed to the SDK as they are. All four
 * are required: clients read a missing hint as the spec's default (destructive, open-world),
 * which is wrong for most of our tools.
 */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * Capability groups: `core` is always listed; the others only when the server is started with
 * `--caps <group>`, because every listed tool costs the agent tokens on every turn.
 */
export const TOOL_GROUPS = ['core', 'network', 'storage', 'devtools', 'transactions'] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];

/**
 * One tool = one contract (here, shared) + one handler (in the extension). The MCP server
 * registers every contract in a loop, so adding a tool never touches the server.
 */
export interface ToolContract<N extends string = string, S extends z.ZodObject = z.ZodObject> {
  readonly name: N;
  readonly title: string;
  readonly description: string;
  readonly input: S;
  readonly annotations: ToolAnnotations;
  /**
   * The tool's structured result (MCP outputSchema): its handler returns it as `structured` with
   * every success, beside the text.
   */
  readonly output?: z.ZodObject;
  /** Defaults to core. */
  readonly group?: ToolGroup;
  /** How long the bridge waits for this tool when the caller gives no timeout of its own. */
  readonly timeoutMs?: (args: z.infer<S>) => number;
}

export function defineTool<N extends string, S extends z.ZodObject>(
  contract: ToolContract<N, S>,
): ToolContract<N, S> {
  // `$schema` would name the JSON Schema dialect in every listed tool: ~50 characters each, on
  // every turn, telling the agent nothing (MCP defines inputSchema as JSON Schema, and ours use
  // nothing that differs between draft-07 and 2020-12). zod merges metadata after it sets the
  // dialect, so an undefined `$schema` leaves it out; a unit test checks that it stays out.
  const output = contract.output?.meta({ $schema: undefined });
  return {
    ...contract,
    input: contract.input.meta({ $schema: undefined }),
    ...(output ? { output } : {}),
  };
}
