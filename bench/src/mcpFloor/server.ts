/**
 * The floor over MCP: a minimal MCP server on stdio whose tools are the in-process floor's
 * playwright-core steps, on its own Chromium with the floor's binary and flags. The bench spawns
 * it the way it spawns the bridge. Nothing but MCP goes to stdout.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { FloorAgent } from '../agents/floorAgent.js';
import { launchFloorBrowser } from '../agents/floorBrowser.js';
import { registerFloorTools } from './tools.js';

const browser = await launchFloorBrowser();
const floor = await FloorAgent.create(browser);
const server = new McpServer({ name: 'bench-mcp-floor', version: '0.0.0' });
registerFloorTools(server, floor);

let closing: Promise<void> | undefined;
const shutdown = () => {
  // The client ends stdin to close; the browser goes with this process, never outlives it.
  closing ??= browser.close().finally(() => process.exit(0));
};
process.stdin.once('end', shutdown);
process.stdin.once('close', shutdown);
await server.connect(new StdioServerTransport());
