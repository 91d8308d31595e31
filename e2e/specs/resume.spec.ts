/**
 * Sessions survive the daemon: a daemon killed with SIGKILL is restarted by the next call, and the
 * new one restores the keyed session from disk and binds it to its still-open tab.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, callOk, callTool, snapshot, tabWithUrl } from '../harness.js';

test('a daemon killed with SIGKILL is replaced, and the session comes back with its tab', async ({
  bridge,
  sandbox,
  site,
}) => {
  const env = {
    BROWSER_AGENT_SESSION_KEY: 'daemon-crash-key',
    BROWSER_AGENT_SESSION_GRACE_MS: '20000',
  };
  const client = await bridge.connectClient('crash-survivor', { env });
  const url = site.url('/titled?title=Survives%20the%20daemon');
  await callOk(client, 'browser_navigate', { url });
  const tabId = tabWithUrl(await bridge.tabLayout(), url).id;
  await callOk(client, 'browser_type', { ref: 'e1', text: 'never logged' }).catch(() => undefined);

  const firstDaemon = await sandbox.daemonPid();
  expect(firstDaemon).toBeDefined();
  process.kill(firstDaemon ?? 0, 'SIGKILL');

  // The next calls start a new daemon (the first may fail while the old one is gone).
  await expect
    .poll(async () => (await callTool(client, 'browser_tabs', { action: 'list' })).text, {
      timeout: 30_000,
    })
    .toContain(url);
  expect(await sandbox.daemonPid()).not.toBe(firstDaemon);
  expect(await snapshot(client)).toContain('Survives the daemon');
  expect(tabWithUrl(await bridge.tabLayout(), url).id, 'the very same tab').toBe(tabId);

  // Every call that ran is in the write-ahead log, typed text redacted.
  const wal = readFileSync(path.join(sandbox.home, 'wal', 'calls.jsonl'), 'utf8');
  expect(wal).toContain('"tool":"browser_navigate"');
  expect(wal).not.toContain('never logged');
});
