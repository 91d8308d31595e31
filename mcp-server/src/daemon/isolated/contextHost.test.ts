import { createServer, connect, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXTENSION_ID } from '@browser-agent/protocol';
import { createLogger } from '../../shared/logger.js';
import { ContextHost, type ContextBrowser } from './contextHost.js';
import type { OpenFrame } from './hostFrames.js';

const RELAY = `chrome-extension://${EXTENSION_ID}/sidepanel/index.html?port=1&launch=1`;

/** A browser that records what the host asks of it; `hold` keeps openContext waiting. */
function fakeBrowser(hold?: Promise<void>) {
  const opened: OpenFrame[] = [];
  const disposed: string[] = [];
  let next = 0;
  const browser: ContextBrowser = {
    profile: '/tmp/profile',
    async openContext(open) {
      opened.push(open);
      await hold;
      return `ctx-${++next}`;
    },
    disposeContext(id) {
      disposed.push(id);
      return Promise.resolve();
    },
  };
  return { browser, opened, disposed };
}

const dirs: string[] = [];
const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function serve(host: ContextHost): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'ctxhost-'));
  dirs.push(dir);
  const path = join(dir, 's.sock');
  const server = createServer((s) => host.accept(s));
  servers.push(server);
  await new Promise<void>((r) => server.listen(path, r));
  return path;
}

/** Sends raw text and collects every answer line until the host closes the connection. */
function exchange(path: string, text: string, keepOpen = false) {
  const socket: Socket = connect(path);
  const lines: unknown[] = [];
  let buffer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
    }
  });
  const closed = new Promise<void>((r) => socket.on('close', () => r()));
  socket.write(text);
  if (!keepOpen) socket.on('data', () => undefined);
  return { socket, lines, closed };
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe('ContextHost', () => {
  const log = createLogger('test');

  it('opens one context per connection and disposes it when the connection goes', async () => {
    const { browser, opened, disposed } = fakeBrowser();
    const host = new ContextHost(browser, 60_000, log, () => undefined);
    const path = await serve(host);
    const a = exchange(path, `${JSON.stringify({ type: 'open', relayUrl: RELAY })}\n`);
    await until(() => a.lines.length === 1);
    expect(a.lines[0]).toMatchObject({
      type: 'opened',
      contextId: 'ctx-1',
      profile: '/tmp/profile',
    });
    expect(opened).toHaveLength(1);
    a.socket.end();
    await a.closed;
    await until(() => disposed.length === 1);
    expect(disposed).toEqual(['ctx-1']);
    host.stop();
  });

  it.each([
    ['not JSON', 'hello\n', 'not JSON'],
    [
      'another page than the relay page',
      `${JSON.stringify({ type: 'open', relayUrl: 'https://evil.example/' })}\n`,
      "this extension's page",
    ],
    [
      'another extension',
      `${JSON.stringify({ type: 'open', relayUrl: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/x.html' })}\n`,
      "this extension's page",
    ],
    [
      'an unknown field',
      `${JSON.stringify({ type: 'open', relayUrl: RELAY, args: ['--no-sandbox'] })}\n`,
      'bad open frame',
    ],
    ['a frame too big', `${'x'.repeat(70 * 1024)}\n`, 'too big'],
  ])('refuses %s, ends that connection and opens nothing', async (_what, text, said) => {
    const { browser, opened } = fakeBrowser();
    const host = new ContextHost(browser, 60_000, log, () => undefined);
    const path = await serve(host);
    const bad = exchange(path, text);
    await bad.closed;
    expect(bad.lines).toHaveLength(1);
    expect(bad.lines[0]).toMatchObject({ type: 'failed' });
    expect(JSON.stringify(bad.lines[0])).toContain(said);
    expect(opened).toHaveLength(0);
    // The host goes on serving others.
    const good = exchange(path, `${JSON.stringify({ type: 'open', relayUrl: RELAY })}\n`);
    await until(() => good.lines.length === 1);
    expect(good.lines[0]).toMatchObject({ type: 'opened' });
    good.socket.destroy();
    host.stop();
  });

  it('a second open on one connection ends it, and its context goes', async () => {
    const { browser, opened, disposed } = fakeBrowser();
    const host = new ContextHost(browser, 60_000, log, () => undefined);
    const path = await serve(host);
    const open = `${JSON.stringify({ type: 'open', relayUrl: RELAY })}\n`;
    const c = exchange(path, open + open);
    await c.closed;
    expect(opened).toHaveLength(1);
    await until(() => disposed.length === 1);
    host.stop();
  });

  it('a connection that goes while its context is being made still has it disposed', async () => {
    let release: () => void = () => undefined;
    const hold = new Promise<void>((r) => {
      release = r;
    });
    const { browser, disposed } = fakeBrowser(hold);
    const host = new ContextHost(browser, 60_000, log, () => undefined);
    const path = await serve(host);
    const c = exchange(path, `${JSON.stringify({ type: 'open', relayUrl: RELAY })}\n`);
    await until(() => host.contexts === 1);
    c.socket.destroy();
    await c.closed;
    release();
    await until(() => disposed.length === 1);
    host.stop();
  });

  it('is idle once no connection has been left for the linger time, and not before', async () => {
    const { browser } = fakeBrowser();
    let idle = 0;
    const host = new ContextHost(browser, 100, log, () => (idle += 1));
    const path = await serve(host);
    const c = exchange(path, `${JSON.stringify({ type: 'open', relayUrl: RELAY })}\n`);
    await until(() => c.lines.length === 1);
    await new Promise((r) => setTimeout(r, 250));
    expect(idle, 'not while a context is in use').toBe(0);
    c.socket.destroy();
    await until(() => idle === 1);
    host.stop();
  });
});
