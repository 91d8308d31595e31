import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  BridgeError,
  contractsFor,
  ErrorCode,
  type ToolName,
  type ToolResult,
} from '@browser-agent/protocol';
import { createMcpServer } from './mcpServer.js';
import type { ToolCaller } from '../response/toolResponse.js';

async function connected(
  caller: ToolCaller,
  options: Parameters<typeof createMcpServer>[1] = {},
): Promise<Client> {
  const server = createMcpServer(caller, options);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(b);
  return client;
}

describe('tool registration', () => {
  it('lists every contract with its title, description and described parameters', async () => {
    const client = await connected({ call: () => Promise.reject(new Error('unused')) });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(contractsFor([]).map((c) => c.name));
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(20);
      const props = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      for (const [name, schema] of Object.entries(props)) {
        expect(schema.description, `${tool.name}.${name} needs a description`).toBeTruthy();
      }
    }
  });

  it('forwards validated arguments with the contract timeout and maps content', async () => {
    const calls: Array<{ action: ToolName; params: unknown; timeoutMs: number }> = [];
    const client = await connected({
      call: (action, params, timeoutMs): Promise<ToolResult> => {
        calls.push({ action, params, timeoutMs });
        return Promise.resolve({ content: [{ type: 'text', text: 'waited' }] });
      },
    });
    const result = await client.callTool({ name: 'browser_wait_for', arguments: { time: 2 } });
    expect(result.content).toEqual([{ type: 'text', text: 'waited' }]);
    expect(calls).toEqual([{ action: 'browser_wait_for', params: { time: 2 }, timeoutMs: 12_000 }]);
  });

  it('turns a bridge error into an isError result with code and hint', async () => {
    const client = await connected({
      call: () =>
        Promise.reject(
          new BridgeError(
            ErrorCode.STALE_REF,
            'Ref e3 is stale.',
            'Call browser_snapshot to get fresh refs.',
          ),
        ),
    });
    const result = await client.callTool({ name: 'browser_click', arguments: { ref: 'e3' } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'STALE_REF: Ref e3 is stale.\nHint: Call browser_snapshot to get fresh refs.',
      },
    ]);
  });

  it('refuses invalid arguments before they reach the browser', async () => {
    let called = false;
    const client = await connected({
      call: () => {
        called = true;
        return Promise.resolve({ content: [] });
      },
    });
    const result = await client.callTool({
      name: 'browser_tabs',
      arguments: { action: 'explode' },
    });
    expect(result.isError).toBe(true);
    expect(called).toBe(false);
  });

  it('adds the executeautomation names on request, mapped onto our tools', async () => {
    const calls: Array<{ action: ToolName; params: unknown }> = [];
    const client = await connected(
      {
        call: (action, params): Promise<ToolResult> => {
          calls.push({ action, params });
          return Promise.resolve({ content: [{ type: 'text', text: 'ok' }] });
        },
      },
      { settings: { toolNames: 'executeautomation' } },
    );
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('playwright_fill');
    await client.callTool({ name: 'playwright_fill', arguments: { selector: '#q', value: 'x' } });
    await client.callTool({ name: 'playwright_evaluate', arguments: { script: '1 + 1' } });
    expect(calls).toEqual([
      { action: 'browser_type', params: { selector: '#q', text: 'x', clear: true } },
      { action: 'browser_evaluate', params: { function: '() => (0, eval)("1 + 1")' } },
    ]);
  });

  it('raises the bridge deadline to cover a longer configured navigation timeout', async () => {
    const timeouts: number[] = [];
    const client = await connected(
      {
        call: (_action, _params, timeoutMs): Promise<ToolResult> => {
          timeouts.push(timeoutMs);
          return Promise.resolve({ content: [] });
        },
      },
      { settings: { navigationTimeoutMs: 90_000 } },
    );
    await client.callTool({ name: 'browser_navigate', arguments: { url: 'https://a.test' } });
    expect(timeouts[0]).toBeGreaterThan(90_000);
  });
});
