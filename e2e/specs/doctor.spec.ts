/**
 * `browser-agent-mcp doctor` against real processes: each way the chain breaks is set up for real
 * (a browser path that leads nowhere, a program on the bridge port, a daemon of another release,
 * no extension, an unpaired extension, a socket open to others, an extension of another
 * protocol), and doctor must name that cause and the one thing to do.
 */
import { execFile } from 'node:child_process';
import { chmod } from 'node:fs/promises';
import net from 'node:net';
import { promisify } from 'node:util';
import { WebSocket } from 'ws';
import { EXTENSION_ORIGIN, PROTOCOL_VERSION, serializeFrame } from '@browser-agent/protocol';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callOk,
  callTool,
  expect,
  panelOfUnpairedBrowser,
  test,
  type Sandbox,
} from '../harness.js';
import { SERVER_BIN } from '@browser-agent/testkit/workspace';

const run = promisify(execFile);

interface Check {
  id: string;
  status: 'ok' | 'info' | 'warn' | 'fail';
  summary: string;
  fix?: string;
  details?: {
    sessions?: {
      id: string;
      client: string;
      tabs?: { tabId: number; url: string; title: string }[];
    }[];
  };
}

interface Report {
  ok: boolean;
  version: string;
  checks: Check[];
}

async function doctor(sandbox: Sandbox, env: Record<string, string> = {}): Promise<Report> {
  const result = await run(process.execPath, [SERVER_BIN, 'doctor', '--json'], {
    env: {
      ...process.env,
      BROWSER_AGENT_HOME: sandbox.home,
      BROWSER_AGENT_PORT: String(sandbox.port),
      ...env,
    },
  }).catch((err: { stdout?: string; code?: number }) => {
    // Exit code 1 means a check failed; the report is still on stdout.
    if (err.code !== 1 || !err.stdout) throw err;
    return { stdout: err.stdout };
  });
  return JSON.parse(result.stdout) as Report;
}

function check(report: Report, id: string): Check {
  const found = report.checks.find((c) => c.id === id);
  if (!found)
    throw new Error(`doctor has no "${id}" check: ${report.checks.map((c) => c.id).join(', ')}`);
  return found;
}

/** Starts a server (no browser) and waits for the daemon it spawns. */
async function startDaemon(
  sandbox: Sandbox,
  env: Record<string, string> = {},
): Promise<{ pid: number; client: Client }> {
  const client = await sandbox.startServer({ name: 'doctor-client', env });
  await expect.poll(() => sandbox.daemonPid(), { timeout: 15_000 }).toBeDefined();
  const pid = await sandbox.daemonPid();
  if (pid === undefined) throw new Error('no daemon pid');
  return { pid, client };
}

test('a healthy chain: daemon, port, extension link and session are all reported', async ({
  bridge,
  sandbox,
}) => {
  await bridge.connectClient('doctor-healthy');
  const report = await doctor(sandbox);
  expect(report.ok, JSON.stringify(report, null, 2)).toBe(true);
  expect(check(report, 'daemon').status).toBe('ok');
  expect(check(report, 'port').summary).toContain('held by our daemon');
  expect(check(report, 'extension-link').summary).toContain(
    `extension ${report.version} connected`,
  );
  expect(check(report, 'sessions').summary).toContain('doctor-healthy');
});

test('live sessions are listed with their tabs (origin and path only)', async ({
  bridge,
  sandbox,
  site,
}) => {
  const client = await bridge.connectClient('doctor-tabs');
  await callOk(client, 'browser_navigate', { url: `${site.url('/button.html')}?token=secret#x` });
  const shown = site.url('/button.html');
  // The extension reports a session's tabs a moment after they change.
  await expect
    .poll(async () => check(await doctor(sandbox), 'sessions').summary, { timeout: 10_000 })
    .toContain(shown);
  const sessions = check(await doctor(sandbox), 'sessions');
  expect(sessions.summary).not.toContain('secret');
  const mine = sessions.details?.sessions?.find((s) => s.client === 'doctor-tabs');
  expect(mine?.tabs?.map((t) => t.url)).toEqual([shown]);
  expect(mine?.tabs?.[0]?.tabId).toEqual(expect.any(Number));
});

test('no browser: CHROME_PATH pointing nowhere is named, with the fix', async ({ sandbox }) => {
  const report = await doctor(sandbox, { CHROME_PATH: '/nowhere/chromium' });
  const browser = check(report, 'browser');
  expect(browser.status).toBe('fail');
  expect(browser.summary).toContain('CHROME_PATH=/nowhere/chromium');
  expect(browser.fix).toContain('CHROME_PATH');
  expect(report.ok).toBe(false);
});

test('the bridge port taken by another program names that program', async ({ sandbox }) => {
  const squatter = net.createServer();
  await new Promise<void>((resolve) => squatter.listen(sandbox.port, '127.0.0.1', resolve));
  try {
    const port = check(await doctor(sandbox), 'port');
    expect(port.status).toBe('fail');
    expect(port.summary).toContain(`port ${sandbox.port} is taken by another program`);
    // The squatter is this test runner's process.
    expect(port.summary).toContain(`pid ${process.pid}`);
    expect(port.fix).toContain('BROWSER_AGENT_PORT');
  } finally {
    await new Promise((resolve) => squatter.close(resolve));
  }
});

test('a daemon of another release is named, with its pid to stop', async ({ sandbox }) => {
  const { pid } = await startDaemon(sandbox, { BROWSER_AGENT_RELEASE_OVERRIDE: '0.0.9' });
  const report = await doctor(sandbox);
  const daemon = check(report, 'daemon');
  expect(daemon.status).toBe('fail');
  expect(daemon.summary).toContain('version 0.0.9');
  expect(daemon.summary).toContain(`this browser-agent-mcp is ${report.version}`);
  expect(daemon.fix).toContain(`kill ${pid}`);
});

test('no extension connected: the daemon runs, the link is missing, and what to do', async ({
  sandbox,
}) => {
  const { client } = await startDaemon(sandbox);
  const report = await doctor(sandbox);
  expect(check(report, 'daemon').status).toBe('ok');
  // The agent's error carries the same facts, and points at doctor.
  const outcome = await callTool(client, 'browser_snapshot', {});
  expect(outcome.text).toContain('NOT_CONNECTED');
  expect(outcome.text).toContain(
    `No Browser Agent extension has contacted this bridge (port ${sandbox.port})`,
  );
  expect(outcome.text).toContain('browser-agent-mcp doctor');
  const link = check(report, 'extension-link');
  expect(link.status).toBe('fail');
  expect(link.summary).toContain('no extension connected');
  expect(link.fix).toContain('browser-agent-mcp extension');
});

test('not paired: doctor shows the one-time code the agent is told, to type in the side panel', async ({
  bridge,
  sandbox,
  site,
}) => {
  const client = await bridge.connectClient('doctor-pairing');
  const panel = await panelOfUnpairedBrowser(bridge, sandbox);
  await expect(panel.locator('#pairing-code-input')).toBeVisible();
  const refused = await callTool(client, 'browser_navigate', { url: site.url('/button.html') });
  expect(refused.text).toContain('NOT_PAIRED');
  const code = /code is ([0-9A-Z]{5}-[0-9A-Z]{5})/.exec(refused.text)?.[1] ?? '';
  expect(code).not.toBe('');
  const link = check(await doctor(sandbox), 'extension-link');
  expect(link.status).toBe('fail');
  expect(link.summary).toContain('not paired');
  expect(link.summary).toContain(code);
  expect(link.fix).toContain(`type the code ${code}`);
});

test('a socket or state directory open to other users is a failure with the chmod to run', async ({
  sandbox,
}) => {
  await startDaemon(sandbox);
  await chmod(sandbox.socketPath, 0o666);
  const socket = check(await doctor(sandbox), 'socket');
  expect(socket.status).toBe('fail');
  expect(socket.summary).toContain('writable by other users (mode 666)');
  expect(socket.fix).toContain(`chmod 600 ${sandbox.socketPath}`);

  await chmod(sandbox.home, 0o777);
  const dir = check(await doctor(sandbox), 'state-dir');
  expect(dir.status).toBe('fail');
  expect(dir.fix).toBe(`chmod 700 ${sandbox.home}`);
});

test('an extension of another protocol is refused; the agent and doctor say to update the bridge', async ({
  sandbox,
}) => {
  const client = await sandbox.startServer({ name: 'skew-agent' });
  await expect.poll(() => sandbox.daemonPid(), { timeout: 15_000 }).toBeDefined();
  // A newer extension than this bridge: it speaks the next protocol version.
  const ws = new WebSocket(`ws://127.0.0.1:${sandbox.port}`, { origin: EXTENSION_ORIGIN });
  const frames: string[] = [];
  ws.on('message', (data) => frames.push(Buffer.from(data as Buffer).toString('utf8')));
  const closed = new Promise<number>((resolve) => ws.once('close', resolve));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(
    serializeFrame({
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION + 1,
      role: 'extension',
      client: { name: 'Browser Agent extension', version: '9.0.0' },
      nonce: 'n'.repeat(32),
      pairings: [],
    }),
  );
  expect(await closed).toBe(4004);
  // What the extension is told (its panel shows it): the bridge is the older side.
  expect(frames.join('\n')).toContain('Update the bridge');

  const outcome = await callTool(client, 'browser_snapshot', {});
  expect(outcome.isError).toBe(true);
  expect(outcome.text).toContain('VERSION_MISMATCH');
  expect(outcome.text).toContain('extension is 9.0.0');
  expect(outcome.text).toContain('Update the bridge');

  const link = check(await doctor(sandbox), 'extension-link');
  expect(link.status).toBe('fail');
  expect(link.summary).toContain('extension is 9.0.0');
  expect(link.fix).toContain('npm install -g @browser-agent/mcp-server@latest');
});
