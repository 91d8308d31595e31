/**
 * What an agent gets back after a restart: the same session (tabs and open transaction) under
 * the same key, the recent calls from the write-ahead log, and the resume counters; and a key
 * held by a live session is never taken over.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { test, expect, callOk, panelSession, tabWithUrl } from '../harness.js';
import { agentOn } from '../steps.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

const TX = ['--caps', 'transactions'];

async function sessionId(client: Client): Promise<string> {
  const info = (await callOk(client, 'browser_session_info', {})).text;
  const id = /^Session (\S+)/.exec(info)?.[1];
  if (id === undefined) throw new Error(`no session id in:\n${info}`);
  return id;
}

test('a server killed with SIGKILL is restarted with the same key and gets its tab, its open transaction and its recent calls back', async ({
  bridge,
  sandbox,
  site,
}) => {
  const env = { BROWSER_AGENT_SESSION_KEY: 'tx-resume', BROWSER_AGENT_SESSION_GRACE_MS: '20000' };
  const url = site.url('/titled?title=Before%20the%20crash');
  const first = await agentOn(bridge, url, { name: 'tx-resumer', flags: TX, env });
  await callOk(first, 'browser_transaction_begin', { label: 'checkout' });
  await callOk(first, 'browser_type', { ref: 'e1', text: 'typed secret' }).catch(() => undefined);
  await callOk(first, 'browser_evaluate', {
    function: `() => { localStorage.setItem('cart', 'full'); return true; }`,
  });
  const tabId = tabWithUrl(await bridge.tabLayout(), url).id;
  const id = await sessionId(first);

  process.kill(sandbox.serverPid(first), 'SIGKILL');
  const second = await bridge.connectClient('tx-resumer', { flags: TX, env });

  const firstResult = (await callOk(second, 'browser_tabs', { action: 'list' })).text;
  expect(firstResult).toContain(url);
  expect(firstResult).toContain('This session was resumed after a restart');
  expect(firstResult).toMatch(/browser_transaction_begin \{"label":"checkout"\} → ok/);
  expect(firstResult).toMatch(/browser_evaluate .*→ ok/);
  expect(firstResult, 'typed text stays out of the log').not.toContain('typed secret');
  expect(tabWithUrl(await bridge.tabLayout(), url).id, 'the very same tab').toBe(tabId);

  const info = (await callOk(second, 'browser_session_info', {})).text;
  expect(info).toContain(`Session ${id} `);
  expect(info).toContain('Transaction open since');
  expect(info).toContain('(checkout)');
  expect(info).toMatch(/Resumes: 1, last resume took \d+ ms after \d+ ms without a server/);
  expect(info, 'the log stays available in session info').toContain('browser_navigate');
  await expect(panelSession(bridge.relay, 'tx-resumer')).toContainText(
    /resumed 1× \(last in \d+ ms\)/,
  );

  const rolled = await callOk(second, 'browser_transaction_rollback', {});
  expect(rolled.text).toContain('Rolled back to cp1 (begin)');
  const cart = await callOk(second, 'browser_evaluate', {
    function: `() => String(localStorage.getItem('cart'))`,
  });
  expect(cart.text).toContain('null');
});

test('a second live client on the same project gets its own session; the project resumes once its holder is gone', async ({
  bridge,
  sandbox,
  site,
}) => {
  const project = path.join(sandbox.root, 'shop-project');
  await mkdir(project);
  const options = { flags: TX, roots: [project], env: { BROWSER_AGENT_SESSION_GRACE_MS: '20000' } };
  const holder = await bridge.connectClient('project-agent', options);
  const url = site.url('/titled?title=Holder');
  await callOk(holder, 'browser_navigate', { url });
  const holderId = await sessionId(holder);

  const second = await bridge.connectClient('project-agent-2', options);
  const secondId = await sessionId(second);
  expect(secondId, 'a live holder keeps its key').not.toBe(holderId);
  expect((await callOk(second, 'browser_tabs', { action: 'list' })).text).not.toContain(url);
  expect((await callOk(holder, 'browser_tabs', { action: 'list' })).text).toContain(url);

  await holder.close();
  const third = await bridge.connectClient('project-agent-3', options);
  expect(await sessionId(third)).toBe(holderId);
  expect((await callOk(third, 'browser_tabs', { action: 'list' })).text).toContain(url);
});

test('an open transaction survives the service worker being stopped', async ({ bridge, site }) => {
  const client = await agentOn(bridge, site.url('/titled?title=Worker'), {
    name: 'worker-stop',
    flags: TX,
  });
  await callOk(client, 'browser_transaction_begin', {});
  await callOk(client, 'browser_evaluate', {
    function: `() => { localStorage.setItem('k', 'changed'); return true; }`,
  });

  // As in sessionControls.spec: the worker holds the link itself, so the panel can close and
  // nothing keeps the worker alive when Chrome stops it.
  const panel = bridge.relay;
  await panel.locator('#settings summary').click();
  await panel.getByLabel('Keep working when the panel is closed').check();
  await expect(panel.locator('#keep-working')).toBeChecked();
  await panel.close();

  const probe = await bridge.context.newPage();
  const cdp = await bridge.context.newCDPSession(probe);
  const status = new Map<string, string>();
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const v of versions)
      if (v.scriptURL.startsWith('chrome-extension://')) status.set(v.versionId, v.runningStatus);
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await expect
    .poll(() => [...status.values()], { message: 'the worker stops' })
    .toContain('stopped');

  await expect
    .poll(
      async () => (await callOk(client, 'browser_session_info', {}).catch(() => undefined))?.text,
      {
        timeout: 30_000,
        message: 'the worker comes back with the transaction',
      },
    )
    .toContain('Transaction open since');
  await callOk(client, 'browser_transaction_rollback', {});
  const value = await callOk(client, 'browser_evaluate', {
    function: `() => String(localStorage.getItem('k'))`,
  });
  expect(value.text).toContain('null');
});
