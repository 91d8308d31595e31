import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from './mcpServer.js';

async function client(): Promise<{ client: Client; calls: unknown[] }> {
  const calls: unknown[] = [];
  const server = createMcpServer({
    call: (_action, params) => {
      calls.push(params);
      return Promise.resolve({ content: [{ type: 'text', text: 'ok' }] });
    },
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const c = new Client({ name: 'unit', version: '1' });
  await c.connect(b);
  return { client: c, calls };
}

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  return content.map((p) => p.text ?? '').join('\n');
}

describe('argument slips', () => {
  it('refuses a misspelt argument, listing the ones the tool takes', async () => {
    const { client: c, calls } = await client();
    const result = await c.callTool({ name: 'browser_wait_for', arguments: { tiem: 2 } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Unknown argument "tiem"; this tool takes: text, textGone');
    expect(text(result)).toContain('time');
    expect(calls).toEqual([]);
  });

  it('says to send a number, not a string, and a boolean likewise', async () => {
    const { client: c } = await client();
    const n = await c.callTool({ name: 'browser_wait_for', arguments: { time: '2' } });
    expect(n.isError).toBe(true);
    expect(text(n)).toContain('Expected a number, got the string "2": send the bare value (2)');
    const b = await c.callTool({ name: 'browser_wait_for', arguments: { networkIdle: 'true' } });
    expect(text(b)).toContain('Expected a boolean, got the string "true"');
  });

  it('lists schemas without the JSON Schema dialect or additionalProperties', async () => {
    const { client: c } = await client();
    const { tools } = await c.listTools();
    const wait = tools.find((t) => t.name === 'browser_wait_for');
    expect(wait?.inputSchema).not.toHaveProperty('$schema');
    // Left out of the listing to save tokens; unknown keys are still refused (first test).
    for (const tool of tools) expect(tool.inputSchema).not.toHaveProperty('additionalProperties');
  });
});
