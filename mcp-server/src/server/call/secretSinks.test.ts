/**
 * Issue #25.4 on the server's side: a `--secrets` value the browser sends back, in any of its
 * encodings, reaches no sink the server fills: the result, the console log files, a saved body
 * or snapshot, the session log.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { secretForms, type ToolName, type ToolResult } from '@browser-agent/protocol';
import { createMcpServer } from './mcpServer.js';

const VALUE = 'Zq9&x "y" z!w<v>';
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** What a hostile page makes the browser send: the value in every form, everywhere. */
function leaky(action: ToolName): ToolResult {
  const all = secretForms(VALUE).join(' | ');
  return {
    content: [{ type: 'text', text: `${action}: ${all}` }],
    serverData: {
      consoleEvents: [{ tabId: 1, entries: [{ nav: 1, level: 'log', text: all }], omitted: 0 }],
      ...(action === 'browser_network_request'
        ? {
            files: [
              {
                data: Buffer.from(all).toString('base64'),
                ext: 'txt',
                prefix: 'response',
                label: 'Response body saved to',
              },
            ],
          }
        : {}),
    },
  };
}

describe('secrets in every sink', () => {
  it('no form of a secret value is in the results or in any file the server writes', async () => {
    const outputDir = await mkdtemp(path.join(os.tmpdir(), 'secret-sinks-'));
    dirs.push(outputDir);
    const server = createMcpServer(
      { call: (action) => Promise.resolve(leaky(action)) },
      {
        caps: ['network'],
        settings: { outputDir, saveSession: true, secrets: new Map([['HOSTILE', VALUE]]) },
      },
    );
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'unit', version: '1' });
    await client.connect(b);
    const results = [
      await client.callTool({ name: 'browser_click', arguments: { ref: 'e1' } }),
      await client.callTool({ name: 'browser_snapshot', arguments: { filename: 'snap.md' } }),
      await client.callTool({
        name: 'browser_network_request',
        arguments: { index: 1, filename: 'body.txt' },
      }),
    ];
    // The session log is appended after each answer; one more call makes sure all are written.
    await client.callTool({ name: 'browser_tabs', arguments: { action: 'list' } });
    await vi.waitFor(
      async () => {
        const log = (await readdir(outputDir)).find((f) => f.startsWith('session-')) ?? '';
        expect(await readFile(path.join(outputDir, log), 'utf8')).toContain('browser_tabs');
      },
      { timeout: 20_000 },
    );
    const files = await readdir(outputDir);
    expect(files.some((f) => f.startsWith('console-'))).toBe(true);
    expect(files).toContain('snap.md');
    expect(files).toContain('body.txt');
    expect(files.some((f) => f.startsWith('session-'))).toBe(true);
    const sinks: Array<[string, string]> = [['results', JSON.stringify(results)]];
    for (const f of files) sinks.push([f, await readFile(path.join(outputDir, f), 'utf8')]);
    for (const [sink, text] of sinks) {
      expect(text, sink).toContain('<secret>HOSTILE</secret>');
      for (const form of secretForms(VALUE))
        expect(text, `${sink} holds ${form}`).not.toContain(form);
    }
  });
});
