/** Starting the server in HTTP mode (`--port`) and talking to it as clients and intruders do. */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { expect } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SERVER_BIN } from '@browser-agent/testkit/workspace';

/** Starts the server on a free port and returns it with the URL it printed on stderr. */
export async function startHttpServer(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{
  child: ChildProcess;
  url: URL;
  /** The bearer token from the config snippet the server printed (undefined with --no-token). */
  token: string | undefined;
}> {
  const child = spawn(process.execPath, [SERVER_BIN, '--port', '0', ...args], {
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
  await expect.poll(() => stderr).toContain('"mcpServers"');
  expect(stdout).toBe('');
  const token = /"Authorization": "Bearer ([\w-]+)"/.exec(stderr)?.[1];
  return { child, url, token };
}

export async function connectByUrl(
  url: URL,
  name: string,
  token: string | undefined,
): Promise<Client> {
  const client = new Client({ name, version: '0.0.0-e2e' });
  const headers: Record<string, string> =
    token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

/** A raw POST with chosen Host and Origin headers; resolves to the status code. */
export function rawPost(url: URL, headers: Record<string, string>): Promise<number> {
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
