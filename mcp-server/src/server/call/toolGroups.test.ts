import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import {
  TOOL_GROUPS,
  toolContracts,
  type ToolGroup,
  type ToolResult,
} from '@browser-agent/protocol';
import { parseCli } from '../settings/cliOptions.js';
import { createMcpServer } from './mcpServer.js';
import type { ToolCaller } from '../response/toolResponse.js';

/**
 * Every listed tool costs the agent these characters on every turn. Raised from 15,000 for #16:
 * all four annotation hints spelled out (~1,000), strict input schemas (`additionalProperties`,
 * ~900, since left out of the listing) and the outputSchemas of the data tools (~1,250).
 */
const DEFAULT_LIST_BUDGET_CHARS = 17_000;

/**
 * What the model itself reads of the default list, in tokens (#18: "at or under today's 2.7k").
 * Clients hand the model each tool's name, description and input schema; title, annotations and
 * outputSchema mostly stay with the client. Counted with the o200k_base BPE (gpt-tokenizer, an
 * offline devDependency); Claude's tokenizer is not published, and o200k counts within a few
 * per cent of cl100k on this JSON. 2,404 after #18's trim and the webp format (2,620 before);
 * the rest of the headroom is for the core parameters other #18 work adds.
 */
const DEFAULT_LIST_BUDGET_TOKENS = 2_700;

/** The model-visible part of a tools/list, as a client sends it to the model. */
function modelVisible(tools: Awaited<ReturnType<Client['listTools']>>['tools']): string {
  return JSON.stringify(
    tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })),
  );
}

async function connected(
  caller: ToolCaller,
  caps: ToolGroup[] = [],
  outputDir?: string,
): Promise<Client> {
  const server = createMcpServer(caller, {
    caps,
    ...(outputDir === undefined ? {} : { settings: { outputDir } }),
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(b);
  return client;
}

const unused: ToolCaller = { call: () => Promise.reject(new Error('unused')) };

describe('tool groups (--caps)', () => {
  it(`keeps the default tools/list under ${DEFAULT_LIST_BUDGET_CHARS} characters`, async () => {
    const client = await connected(unused);
    const { tools } = await client.listTools();
    const size = JSON.stringify(tools).length;
    expect(size, `default tools/list is ${size} characters`).toBeLessThan(
      DEFAULT_LIST_BUDGET_CHARS,
    );
  });

  it(`keeps the model-visible part of the default list under ${DEFAULT_LIST_BUDGET_TOKENS} tokens`, async () => {
    const { tools } = await (await connected(unused)).listTools();
    const tokens = encode(modelVisible(tools)).length;
    expect(tokens, `name + description + inputSchema is ${tokens} tokens`).toBeLessThanOrEqual(
      DEFAULT_LIST_BUDGET_TOKENS,
    );
    // The measure itself: a token is a few characters of this JSON, not one, and not twenty.
    const chars = modelVisible(tools).length;
    expect(chars / tokens).toBeGreaterThan(2);
    expect(chars / tokens).toBeLessThan(8);
  });

  it('lists input schemas without a $schema dialect (see defineTool)', async () => {
    const { tools } = await (await connected(unused, ['network'])).listTools();
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) expect(tool.inputSchema).not.toHaveProperty('$schema');
  });

  it('lists opt-in groups only when asked', async () => {
    const plain = (await (await connected(unused)).listTools()).tools.map((t) => t.name);
    expect(plain).not.toContain('browser_network_requests');
    expect(plain).toContain('browser_click');
    const all = (
      await (
        await connected(
          unused,
          TOOL_GROUPS.filter((g) => g !== 'core'),
        )
      ).listTools()
    ).tools.map((t) => t.name);
    expect(all).toEqual(toolContracts.map((c) => c.name));
  });

  it('parses --caps and refuses unknown groups', () => {
    const run = parseCli(['--caps', 'network,devtools']);
    expect(run.kind === 'run' && run.options.caps).toEqual(['network', 'devtools']);
    const bad = parseCli(['--caps', 'netwrk']);
    expect(bad.kind).toBe('error');
    expect(bad.kind === 'error' && bad.message).toContain('netwrk');
  });
});

describe('server-side steps', () => {
  it('refuses a missing upload file by name, before calling the browser', async () => {
    let called = false;
    const client = await connected({
      call: () => {
        called = true;
        return Promise.resolve({ content: [] });
      },
    });
    const result = await client.callTool({
      name: 'browser_file_upload',
      arguments: { ref: 'e1', paths: ['/nonexistent/dir/report.pdf'] },
    });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('FILE_NOT_FOUND');
    expect(JSON.stringify(result.content)).toContain('/nonexistent/dir/report.pdf');
    expect(called).toBe(false);
  });

  it('saves a screenshot to the given name in the output directory, never outside it (#25)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ba-shot-'));
    const outside = await mkdtemp(path.join(os.tmpdir(), 'ba-elsewhere-'));
    try {
      const png = Buffer.from('not really a png').toString('base64');
      const client = await connected(
        {
          call: (): Promise<ToolResult> =>
            Promise.resolve({ content: [{ type: 'image', data: png, mimeType: 'image/png' }] }),
        },
        [],
        dir,
      );
      const result = await client.callTool({
        name: 'browser_take_screenshot',
        arguments: { filename: 'shot.png' },
      });
      // A relative name is the stem of a timestamped file in the output directory.
      expect(JSON.stringify(result.content)).toContain(`Saved to ${path.join(dir, 'shot-')}`);
      const saved = (await readdir(dir)).filter((f) => /^shot-.*\.png$/.test(f));
      expect(saved).toHaveLength(1);
      expect(await readFile(path.join(dir, saved[0] ?? ''), 'utf8')).toBe('not really a png');
      const away = await client.callTool({
        name: 'browser_take_screenshot',
        arguments: { filename: path.join(outside, 'shot.png') },
      });
      expect(away.isError).toBe(true);
      expect(JSON.stringify(away.content)).toContain('INVALID_ARGS');
      expect(await readdir(outside)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('never creates directories or overwrites a file when saving a screenshot', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ba-shot-'));
    try {
      await writeFile(path.join(dir, 'important.png'), 'keep me');
      let calls = 0;
      const png = Buffer.from('png').toString('base64');
      const client = await connected(
        {
          call: (): Promise<ToolResult> => {
            calls += 1;
            return Promise.resolve({
              content: [{ type: 'image', data: png, mimeType: 'image/png' }],
            });
          },
        },
        [],
        dir,
      );
      const overwrite = await client.callTool({
        name: 'browser_take_screenshot',
        arguments: { filename: path.join(dir, 'important.png') },
      });
      expect(overwrite.isError).toBe(true);
      expect(await readFile(path.join(dir, 'important.png'), 'utf8')).toBe('keep me');
      expect(calls).toBe(1);
      // A name with folders keeps only its stem: no directory is made.
      await client.callTool({
        name: 'browser_take_screenshot',
        arguments: { filename: 'new/deeper/shot.png' },
      });
      expect((await readdir(dir)).filter((f) => !f.startsWith('shot-'))).toEqual(['important.png']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('turns page HTML into Markdown of the main content, fenced as untrusted', async () => {
    const html = `<html><head><title>T</title></head><body><nav>Home | About</nav><article><h1>Big news</h1>
      <p>${'The first paragraph of the story, long enough to count as content. '.repeat(8)}</p>
      <p>See <a href="https://example.com/more">more</a>.</p></article></body></html>`;
    const client = await connected({
      call: (): Promise<ToolResult> =>
        Promise.resolve({
          content: [{ type: 'text', text: 'Read the HTML of http://x/.' }],
          serverData: { pageHtml: { url: 'http://x/', title: 'T', html, truncated: false } },
        }),
    });
    const result = await client.callTool({ name: 'browser_get_text', arguments: {} });
    const text = JSON.stringify(result.content);
    expect(text).toContain('untrusted page content');
    expect(text).toContain('first paragraph of the story');
    expect(text).toContain('[more](https://example.com/more)');
    expect(text).not.toContain('<article>');
    expect(text).not.toContain('Read the HTML');
  });
});
