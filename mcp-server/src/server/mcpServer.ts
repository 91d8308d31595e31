import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  DEFAULT_TOOL_TIMEOUT_MS,
  toolContracts,
  type ToolContract,
  type ToolName,
  type ToolResult,
} from '@browser-agent/protocol';
import { errorToCallToolResult, toCallToolResult } from './toolResult.js';

export const SERVER_NAME = 'browser-agent';
export const SERVER_VERSION = '0.1.0';

/** Whatever carries a call to the browser; the daemon client in production, a fake in tests. */
export interface ToolCaller {
  call(action: ToolName, params: unknown, timeoutMs: number): Promise<ToolResult>;
}

/** Registers every shared contract in a loop: adding a tool never touches the server. */
export function createMcpServer(caller: ToolCaller): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      instructions:
        'Drive a real Chromium: browser_navigate, then browser_snapshot to get [ref=eN] handles for the element tools.',
    },
  );
  for (const contract of toolContracts) {
    const c: ToolContract = contract;
    server.registerTool(
      c.name,
      {
        title: c.title,
        description: c.description,
        inputSchema: c.input,
        annotations: { title: c.title, ...c.annotations },
      },
      async (args: unknown) => {
        try {
          const timeoutMs = c.timeoutMs?.(args as never) ?? DEFAULT_TOOL_TIMEOUT_MS;
          return toCallToolResult(await caller.call(contract.name, args, timeoutMs));
        } catch (err) {
          return errorToCallToolResult(err);
        }
      },
    );
  }
  return server;
}
