import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ROLES, type Target } from '../agents/agent.js';
import type { FloorAgent } from '../agents/floorAgent.js';
import { MCP_FLOOR_TOOLS as T } from './toolNames.js';

/**
 * Each tool is one FloorAgent step and nothing more: no refs, no settle, no diff, no size cap.
 * Whatever it costs beyond the in-process floor is what any MCP server pays (stdio, JSON-RPC,
 * the SDK's zod validation on both ends).
 */
export function registerFloorTools(server: McpServer, floor: FloorAgent): void {
  const target = { role: z.enum(ROLES), name: z.string() };
  const text = async (step: Promise<{ text: string }>): Promise<CallToolResult> => ({
    content: [{ type: 'text', text: (await step).text }],
  });
  const tool = server.registerTool.bind(server);

  tool(T.goto, { inputSchema: { url: z.string() } }, ({ url }) => text(floor.goto(url)));
  tool(T.back, { inputSchema: {} }, () => text(floor.back()));
  tool(T.read, { inputSchema: {} }, () => text(floor.read()));
  tool(T.find, { inputSchema: { text: z.string() } }, (a) => text(floor.find(a.text)));
  tool(T.click, { inputSchema: target }, (a: Target) => text(floor.click(a)));
  tool(
    T.type,
    { inputSchema: { ...target, text: z.string(), submit: z.boolean().optional() } },
    (a) => text(floor.type(a, a.text, { submit: a.submit })),
  );
  tool(T.select, { inputSchema: { ...target, label: z.string() } }, (a) =>
    text(floor.select(a, a.label)),
  );
  tool(T.evaluate, { inputSchema: { function: z.string() } }, (a) =>
    text(floor.evaluate(a.function)),
  );
  tool(T.waitForText, { inputSchema: { text: z.string() } }, (a) =>
    text(floor.waitForText(a.text)),
  );
  tool(T.screenshot, { inputSchema: {} }, async () => ({
    content: [{ type: 'image', data: await floor.screenshotBase64(), mimeType: 'image/png' }],
  }));
  tool(T.openTab, { inputSchema: { url: z.string() } }, ({ url }) => text(floor.openTab(url)));
  tool(T.listTabs, { inputSchema: {} }, () => text(floor.listTabs()));
  tool(T.closeTab, { inputSchema: {} }, () => text(floor.closeTab()));
  tool(T.consoleMessages, { inputSchema: {} }, () => text(floor.consoleMessages()));
}
