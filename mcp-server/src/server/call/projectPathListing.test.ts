import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from './mcpServer.js';
import type { ToolCaller } from '../response/toolResponse.js';

/** The tools that may be the first to open the browser (their contracts say takesProjectPath). */
const PROJECT_PATH_TOOLS = [
  'browser_navigate',
  'browser_snapshot',
  'browser_tabs',
  'browser_wait_for',
  'browser_resize',
  'browser_close',
];

async function listed(projectPath: boolean) {
  const caller: ToolCaller = { call: () => Promise.reject(new Error('unused')) };
  // devtools holds browser_resize, one of the tools that take projectPath.
  const server = createMcpServer(caller, { projectPath, caps: ['devtools'] });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(b);
  return client;
}

describe('projectPath in tools/list', () => {
  it('is offered on the tools that open the browser only when the server asks for it', async () => {
    const withIt = (await (await listed(true)).listTools()).tools;
    const takes = withIt.filter((t) => 'projectPath' in (t.inputSchema.properties ?? {}));
    expect(takes.map((t) => t.name).sort()).toEqual([...PROJECT_PATH_TOOLS].sort());
    const without = (await (await listed(false)).listTools()).tools;
    expect(without.some((t) => 'projectPath' in (t.inputSchema.properties ?? {}))).toBe(false);
  });
});
