import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BridgeError, toWireError, type ToolResult } from '@browser-agent/protocol';

export function toCallToolResult(result: ToolResult): CallToolResult {
  return result.structured === undefined
    ? { content: result.content }
    : { content: result.content, structuredContent: result.structured };
}

/** The one place where anything a tool call throws becomes an MCP error result. */
export function errorToCallToolResult(err: unknown): CallToolResult {
  const wire = err instanceof BridgeError ? err.toWire() : toWireError(err);
  const text = wire.hint
    ? `${wire.code}: ${wire.message}\nHint: ${wire.hint}`
    : `${wire.code}: ${wire.message}`;
  return { isError: true, content: [{ type: 'text', text }] };
}
