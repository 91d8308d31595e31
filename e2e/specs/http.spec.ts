/**
 * The Streamable HTTP transport (`--port`): real MCP clients connect by URL, each MCP session is
 * its own bridge session (its own tab group), and requests with a foreign Host or a cross-site
 * Origin are refused before they reach the MCP layer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { test, expect, callOk, urlsInGroup } from '../harness.js';
import { SERVER_BIN } from '@browser-agent/testkit/workspace';
import { stopProcess } from '@browser-agent/testkit/procfs';

/** Starts the server on a free port and returns it with the URL it printed on stderr. */
async function startHttpServer(env: Record<string, string>): Promise<{
  child: ChildProcess;
  url: URL;
}> {
  const child = spawn(process.execPath, [SERVER_BIN, '--port', '0'], {
    env: { ...process.env, ...env, BROWSER_AGENT_QUIET: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL on stderr:\n${stderr}`)), 15_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const m = /Streamable HTTP at (http:\/\/\S+)/.exec(stderr);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(new URL(m[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${stderr}`)));
  });
  expect(stdout).toBe('');
  return { child, url };
}

async function connectByUrl(url: URL, name: string): Promise<Client> {
  const client = new Client({ name, version: '0.0.0-e2e' });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

/** A raw POST with chosen Host and Origin headers; resolves to the status code. */
function rawPost(url: URL, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'forger', version: '1' },
    },
  });
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test('MCP clients connect by URL, each with its own session; a forged Host or Origin is refused', async ({
  bridge,
  sandbox,
  site,
}) => {
  const env: Record<string, string> = {
    BROWSER_AGENT_HOME: sandbox.home,
    BROWSER_AGENT_PORT: String(sandbox.port),
  };
  const { child, url } = await startHttpServer(env);
  try {
    expect(url.hostname).toBe('127.0.0.1');
    const a = await connectByUrl(url, 'http-a');
    const b = await connectByUrl(url, 'http-b');
    const names = (await a.listTools()).tools.map((t) => t.name);
    expect(names).toContain('browser_navigate');
    // The first session spawned the daemon; the relay finds it on its next retry.
    await bridge.expectRelayState('connected');

    await callOk(a, 'browser_navigate', { url: site.url('/button.html') });
    await callOk(a, 'browser_click', { selector: '#button' });
    const clicked = await callOk(a, 'browser_evaluate', {
      function: "() => document.getElementById('out').textContent",
    });
    expect(clicked.text).toContain('Clicked 1 time');
    await callOk(b, 'browser_navigate', { url: site.url('/titled?title=Second') });

    // Two MCP sessions, two bridge sessions: each client's tab sits in its own group.
    const layout = await bridge.tabLayout();
    expect(urlsInGroup(layout, 'http-a')).toEqual([site.url('/button.html')]);
    expect(urlsInGroup(layout, 'http-b')).toEqual([site.url('/titled?title=Second')]);

    // DNS rebinding: the right address under a foreign name.
    expect(await rawPost(url, { host: `evil.example:${url.port}` })).toBe(403);
    // A page on another site posting to us from the user's browser.
    expect(await rawPost(url, { origin: 'https://evil.example' })).toBe(403);
    // The same request with honest headers is served.
    expect(await rawPost(url, { origin: `http://127.0.0.1:${url.port}` })).toBe(200);

    await a.close();
    await b.close();
  } finally {
    if (child.pid !== undefined) await stopProcess(child.pid);
  }
});
