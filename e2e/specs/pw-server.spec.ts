/**
 * The HTTP server as Playwright MCP users know it (#18 item 7): the legacy SSE endpoint beside
 * Streamable HTTP, MCP at the root URL too, `--allowed-hosts`, a heartbeat that ends the session
 * of a client that stopped answering, and `--shared-browser-context`. The bearer token guards
 * the SSE endpoint exactly as it guards /mcp.
 */
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { stopProcess } from '@browser-agent/testkit/procfs';
import { test, expect, callOk } from '../harness.js';
import { connectByUrl, rawPost, startHttpServer } from '../httpClient.js';

function envOf(sandbox: { home: string; port: number }): Record<string, string> {
  return { BROWSER_AGENT_HOME: sandbox.home, BROWSER_AGENT_PORT: String(sandbox.port) };
}

function authHeaders(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

async function connectSse(url: URL, name: string, token: string | undefined): Promise<Client> {
  const client = new Client({ name, version: '0.0.0-e2e' });
  const headers = authHeaders(token);
  await client.connect(
    new SSEClientTransport(url, {
      requestInit: { headers },
      // The SDK opens the stream with fetch through eventSourceInit; headers go there too.
      eventSourceInit: {
        fetch: (input, init) =>
          fetch(input, { ...init, headers: { ...(init?.headers ?? {}), ...headers } }),
      },
    }),
  );
  return client;
}

/** GET /sse as a raw stream: resolves with the status and, when 200, the open response. */
function openRawSse(
  url: URL,
  headers: Record<string, string>,
): Promise<{ status: number; res: http.IncomingMessage; events: () => string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      resolve({ status: res.statusCode ?? 0, res, events: () => text });
    });
    req.on('error', reject);
  });
}

function postJson(url: URL, headers: Record<string, string>, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

test('an SSE client works beside Streamable HTTP; MCP answers at the root URL; SSE wants the token', async ({
  bridge,
  sandbox,
  site,
}) => {
  const { child, url, token } = await startHttpServer(envOf(sandbox));
  try {
    expect(token).toBeDefined();
    const sseUrl = new URL('/sse', url);
    // No token, a wrong token: refused before any session exists; 403, since a 401 sends MCP
    // clients into OAuth discovery (#27).
    expect((await openRawSse(sseUrl, {})).status).toBe(403);
    expect((await openRawSse(sseUrl, { authorization: 'Bearer wrong' })).status).toBe(403);
    expect(
      await postJson(new URL('/messages?sessionId=x', url), {}, { jsonrpc: '2.0', method: 'ping' }),
    ).toBe(403);

    const sse = await connectSse(sseUrl, 'sse-client', token);
    expect((await sse.listTools()).tools.map((t) => t.name)).toContain('browser_navigate');
    await bridge.expectRelayState('connected');
    await callOk(sse, 'browser_navigate', { url: site.url('/titled?title=Over%20SSE') });
    const title = await callOk(sse, 'browser_evaluate', { function: '() => document.title' });
    expect(title.text).toContain('Over SSE');

    // The root URL serves Streamable HTTP as /mcp does.
    const root = new Client({ name: 'root-client', version: '0.0.0-e2e' });
    await root.connect(
      new StreamableHTTPClientTransport(new URL('/', url), {
        requestInit: { headers: authHeaders(token) },
      }),
    );
    expect((await root.listTools()).tools.length).toBeGreaterThan(10);
    await root.close();
    await sse.close();
  } finally {
    if (child.pid !== undefined) await stopProcess(child.pid);
  }
});

test('--allowed-hosts serves the listed Host names and still refuses others', async ({
  sandbox,
}) => {
  const { child, url, token } = await startHttpServer(envOf(sandbox), [
    '--allowed-hosts',
    'mcp.box.test',
  ]);
  try {
    const auth = authHeaders(token);
    expect(await rawPost(url, { ...auth, host: `mcp.box.test:${url.port}` })).toBe(200);
    expect(await rawPost(url, { ...auth, host: `evil.example:${url.port}` })).toBe(403);
    // The SSE endpoint checks the same list.
    expect((await openRawSse(new URL('/sse', url), { ...auth, host: 'evil.example' })).status).toBe(
      403,
    );
  } finally {
    if (child.pid !== undefined) await stopProcess(child.pid);
  }
});

test('the heartbeat ends the session of an SSE client that stops answering pings', async ({
  sandbox,
}) => {
  const { child, url, token } = await startHttpServer({
    ...envOf(sandbox),
    BROWSER_AGENT_HTTP_HEARTBEAT_SECONDS: '1',
  });
  try {
    const auth = authHeaders(token);
    const stream = await openRawSse(new URL('/sse', url), auth);
    expect(stream.status).toBe(200);
    await expect.poll(() => stream.events()).toContain('event: endpoint');
    const endpoint = /event: endpoint\ndata: (\S+)/.exec(stream.events())?.[1] ?? '';
    expect(endpoint).toMatch(/^\/messages\?sessionId=/);
    const messages = new URL(endpoint, url);
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'mute-client', version: '1' },
      },
    };
    expect(await postJson(messages, auth, initialize)).toBe(202);
    expect(
      await postJson(messages, auth, { jsonrpc: '2.0', method: 'notifications/initialized' }),
    ).toBe(202);
    // The server pings; this client never answers, so the server ends the stream.
    await expect.poll(() => stream.events(), { timeout: 15_000 }).toContain('"method":"ping"');
    const ended = new Promise<void>((resolve) => {
      if (stream.res.complete) resolve();
      stream.res.once('end', () => resolve());
      stream.res.once('close', () => resolve());
    });
    await ended;
    // Its session is gone: posting to it now is refused.
    expect(await postJson(messages, auth, { jsonrpc: '2.0', method: 'ping', id: 2 })).toBe(404);
  } finally {
    if (child.pid !== undefined) await stopProcess(child.pid);
  }
});

test('--shared-browser-context: two HTTP clients drive the same tabs', async ({
  bridge,
  sandbox,
  site,
}) => {
  const { child, url, token } = await startHttpServer(envOf(sandbox), ['--shared-browser-context']);
  try {
    const a = await connectByUrl(url, 'shared-a', token);
    const b = await connectByUrl(url, 'shared-b', token);
    await bridge.expectRelayState('connected');
    await callOk(a, 'browser_navigate', { url: site.url('/titled?title=Shared%20Tab') });
    // b never navigated: it sees a's tab, as one session.
    const seen = await callOk(b, 'browser_evaluate', { function: '() => document.title' });
    expect(seen.text).toContain('Shared Tab');
    const tabs = await callOk(b, 'browser_tabs', { action: 'list' });
    expect(tabs.text).toContain(site.url('/titled?title=Shared%20Tab'));
    // One client leaving does not end the other's session.
    await a.close();
    const still = await callOk(b, 'browser_evaluate', { function: '() => document.title' });
    expect(still.text).toContain('Shared Tab');
    await b.close();
  } finally {
    if (child.pid !== undefined) await stopProcess(child.pid);
  }
});

test('the HTTP-only flags are refused without --port', async ({ sandbox }) => {
  const { spawnSync } = await import('node:child_process');
  const { SERVER_BIN } = await import('@browser-agent/testkit/workspace');
  const run = spawnSync(process.execPath, [SERVER_BIN, '--shared-browser-context'], {
    env: { ...process.env, ...envOf(sandbox) },
    encoding: 'utf8',
    timeout: 15_000,
  });
  expect(run.status).not.toBe(0);
  expect(run.stderr).toContain('--shared-browser-context only applies with --port');
});
