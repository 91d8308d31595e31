import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  contractsFor,
  DEFAULT_TOOL_TIMEOUT_MS,
  projectPathSchema,
  takesProjectPath,
  type ToolContract,
  type ToolGroup,
  type ToolName,
  type ToolResult,
} from '@browser-agent/protocol';
import { serverStepFor } from './serverSteps.js';
import { errorToCallToolResult, toCallToolResult } from './toolResult.js';

export const SERVER_NAME = 'browser-agent';
export const SERVER_VERSION = '0.1.0';

/** Whatever carries a call to the browser; the daemon client in production, a fake in tests. */
export interface ToolCaller {
  call(action: ToolName, params: unknown, timeoutMs: number): Promise<ToolResult>;
}

export interface McpServerOptions {
  /** Opt-in tool groups to list besides core (`--caps`). */
  caps?: readonly ToolGroup[];
  /** Launch mode with no project yet: the tools that open the browser take `projectPath`. */
  projectPath?: boolean;
}

/** Registers every shared contract in a loop: adding a tool never touches the server. */
export function createMcpServer(caller: ToolCaller, options: McpServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      instructions:
        'Drive a real Chromium: browser_navigate, then browser_snapshot to get [ref=eN] handles for the element tools.',
    },
  );
  for (const contract of contractsFor(options.caps ?? [])) {
    const c: ToolContract = contract;
    server.registerTool(
      c.name,
      {
        title: c.title,
        description: c.description,
        inputSchema:
          options.projectPath && takesProjectPath(c.name)
            ? c.input.extend({ projectPath: projectPathSchema })
            : c.input,
        annotations: c.annotations,
      },
      async (args: Record<string, unknown>) => {
        try {
          const name = contract.name;
          const step = serverStepFor(name);
          await step?.before?.(args);
          const timeoutMs = c.timeoutMs?.(args) ?? DEFAULT_TOOL_TIMEOUT_MS;
          const result = await caller.call(name, args, timeoutMs);
          return toCallToolResult(step?.after ? await step.after(result, args) : result);
        } catch (err) {
          return errorToCallToolResult(err);
        }
      },
    );
  }
  return server;
}
