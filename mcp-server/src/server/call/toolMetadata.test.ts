import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { TOOL_GROUPS } from '@browser-agent/protocol';
import { createMcpServer } from './mcpServer.js';
import type { ToolCaller } from '../response/toolResponse.js';

async function connected(caller: ToolCaller): Promise<Client> {
  const server = createMcpServer(caller, { caps: TOOL_GROUPS.filter((g) => g !== 'core') });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(b);
  return client;
}

const unused: ToolCaller = { call: () => Promise.reject(new Error('unused')) };

describe('tool metadata', () => {
  it('spells out all four annotation hints on every tool', async () => {
    const { tools } = await (await connected(unused)).listTools();
    for (const tool of tools) {
      const a = tool.annotations ?? {};
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'])
        expect(typeof a[hint as keyof typeof a], `${tool.name}.${hint}`).toBe('boolean');
    }
    const hints = (name: string) => tools.find((t) => t.name === name)?.annotations;
    for (const name of ['browser_hover', 'browser_scroll', 'browser_resize'])
      expect(hints(name)?.destructiveHint, name).toBe(false);
    expect(hints('browser_transaction_commit')?.destructiveHint).toBe(false);
    for (const name of ['browser_close', 'browser_wait_for', 'browser_console_messages'])
      expect(hints(name)?.openWorldHint, name).toBe(false);
  });

  it('declares an outputSchema on the tools that return data, and passes their data on', async () => {
    const client = await connected({
      call: () =>
        Promise.resolve({
          content: [{ type: 'text', text: '- 0: [current] Shop' }],
          structured: {
            tabs: [{ index: 0, tabId: 7, url: 'http://127.0.0.1/', title: 'Shop', current: true }],
          },
        }),
    });
    const { tools } = await client.listTools();
    const withOutput = tools.filter((t) => t.outputSchema !== undefined).map((t) => t.name);
    expect(withOutput.sort()).toEqual(
      [
        'browser_console_messages',
        'browser_cookie_get',
        'browser_cookie_list',
        'browser_evaluate',
        'browser_find',
        'browser_generate_locator',
        'browser_localstorage_get',
        'browser_localstorage_list',
        'browser_network_request',
        'browser_network_requests',
        'browser_session_info',
        'browser_sessionstorage_get',
        'browser_sessionstorage_list',
        'browser_snapshot',
        'browser_tabs',
        'browser_verify_element_visible',
        'browser_verify_list_visible',
        'browser_verify_text_visible',
        'browser_verify_value',
      ].sort(),
    );
    expect(tools.find((t) => t.name === 'browser_tabs')?.outputSchema).not.toHaveProperty(
      '$schema',
    );
    const result = await client.callTool({ name: 'browser_tabs', arguments: { action: 'list' } });
    expect(result.structuredContent).toMatchObject({ tabs: [{ tabId: 7, current: true }] });
  });
});
