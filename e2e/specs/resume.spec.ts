/**
 * Sessions survive the daemon: a daemon killed with SIGKILL is restarted by the next call, and the
 * new one restores the keyed session from disk and binds it to its still-open tab.
 */
import { readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test, expect, callOk, callTool, snapshot, tabWithUrl } from '../harness.js';
import { agentOn } from '../steps.js';

test('a daemon killed with SIGKILL is replaced, and the session comes back with its tab', async ({
  bridge,
  sandbox,
  site,
}) => {
  const env = {
    BROWSER_AGENT_SESSION_KEY: 'daemon-crash-key',
    BROWSER_AGENT_SESSION_GRACE_MS: '20000',
  };
  const url = site.url('/titled?title=Survives%20the%20daemon');
  const client = await agentOn(bridge, url, {
    name: 'crash-survivor',
    env,
    flags: ['--caps', 'transactions'],
  });
  await callOk(client, 'browser_transaction_begin', { label: 'across the crash' });
  const tabId = tabWithUrl(await bridge.tabLayout(), url).id;
  await callOk(client, 'browser_type', { ref: 'e1', text: 'never logged' }).catch(() => undefined);

  const firstDaemon = await sandbox.daemonPid();
  expect(firstDaemon).toBeDefined();
  process.kill(firstDaemon ?? 0, 'SIGKILL');

  // The next calls start a new daemon (the first may fail while the old one is gone).
  const answers: string[] = [];
  await expect
    .poll(
      async () => {
        const { text } = await callTool(client, 'browser_tabs', { action: 'list' });
        answers.push(text);
        return text;
      },
      { timeout: 30_000 },
    )
    .toContain(url);
  // The new daemon read the calls back from the log the old one wrote.
  expect(answers.join('\n')).toContain('This session was resumed after a restart');
  expect(answers.join('\n')).toMatch(/browser_navigate \{"url":".*Survives.*"\} → ok/);
  expect(await sandbox.daemonPid()).not.toBe(firstDaemon);
  expect(await snapshot(client)).toContain('Survives the daemon');
  expect(tabWithUrl(await bridge.tabLayout(), url).id, 'the very same tab').toBe(tabId);
  const info = (await callOk(client, 'browser_session_info', {})).text;
  expect(info, 'the open transaction too').toContain('(across the crash)');
  expect(info).toMatch(/Resumes: 1, last resume took \d+ ms/);

  // Every call that ran is in the write-ahead log, typed text redacted.
  const wal = readFileSync(path.join(sandbox.home, 'wal', 'calls.jsonl'), 'utf8');
  expect(wal).toContain('"tool":"browser_navigate"');
  expect(wal).not.toContain('never logged');
});

test('a write-ahead log line is never missing for a call that ran, even one cut off by a daemon SIGKILL', async ({
  bridge,
  sandbox,
}) => {
  // A site of the test's own records every page request: a request it saw is a call that ran.
  const seen: string[] = [];
  let slowSeen: () => void = () => undefined;
  const slowArrived = new Promise<void>((resolve) => (slowSeen = resolve));
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (!url.startsWith('/call/')) {
      res.writeHead(404).end();
      return;
    }
    seen.push(url);
    if (url.includes('slow')) {
      slowSeen();
      setTimeout(() => res.end('<title>slow</title>'), 8_000).unref();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${url}</title>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const at = (p: string) => `http://127.0.0.1:${port}${p}`;
  try {
    const client = await bridge.connectClient('wal-checker', {
      env: { BROWSER_AGENT_SESSION_KEY: 'wal-key', BROWSER_AGENT_SESSION_GRACE_MS: '20000' },
    });
    for (let i = 1; i <= 6; i++)
      await callOk(client, 'browser_navigate', { url: at(`/call/${i}`) });
    const cutOff = callTool(client, 'browser_navigate', { url: at('/call/slow') });
    await slowArrived;
    process.kill((await sandbox.daemonPid()) ?? 0, 'SIGKILL');
    expect((await cutOff).isError, 'the call in flight fails with the daemon').toBe(true);
    await expect
      .poll(async () => (await callTool(client, 'browser_tabs', { action: 'list' })).isError, {
        timeout: 30_000,
      })
      .toBe(false);

    const walDir = path.join(sandbox.home, 'wal');
    const lines = readdirSync(walDir)
      .flatMap((f) => readFileSync(path.join(walDir, f), 'utf8').split('\n'))
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { phase: string; tool: string; args?: { url?: string } });
    const logged = new Set(
      lines.filter((l) => l.phase === 'call').map((l) => l.args?.url ?? '(no url)'),
    );
    expect(seen).toContain('/call/slow');
    expect(seen.length).toBe(7);
    for (const p of seen) expect(logged, `a call line for ${p}`).toContain(at(p));
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
