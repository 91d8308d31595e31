/**
 * Transaction limits from the environment: automatic checkpoints every N calls, at most M kept
 * (oldest dropped), rollback to one by id, a rollback that gives up after its limit, and a
 * server that refuses an unusable value before it starts.
 */
import { test, expect, callOk, callTool, panelSession } from '../harness.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

const TX = ['--caps', 'transactions'];

async function pageState(client: Client): Promise<string> {
  const out = await callOk(client, 'browser_evaluate', {
    function: `() => location.pathname + location.search + ' step=' + localStorage.getItem('step')`,
  });
  return out.text;
}

test('automatic checkpoints every 2 calls, 3 kept, and a rollback to one of them by id', async ({
  bridge,
  site,
}) => {
  const client = await bridge.connectClient('auto-checkpoints', {
    flags: TX,
    env: { BROWSER_AGENT_AUTO_CHECKPOINT_CALLS: '2', BROWSER_AGENT_MAX_CHECKPOINTS: '3' },
  });
  // Each step is a navigation and a localStorage write: two calls, so one checkpoint before each
  // navigation after the first, holding the previous step's page and storage.
  for (const step of [1, 2, 3, 4]) {
    await callOk(client, 'browser_navigate', { url: site.url(`/titled?title=Step${step}`) });
    await callOk(client, 'browser_evaluate', {
      function: `() => { localStorage.setItem('step', '${step}'); return true; }`,
    });
  }
  await callOk(client, 'browser_snapshot', {});

  const info = (await callOk(client, 'browser_session_info', {})).text;
  expect(info).toContain('Checkpoints kept: 3');
  expect(info).toMatch(/- cp2 auto at .*: 1 tab\(s\)/);
  expect(info).toMatch(/- cp4 auto at /);
  expect(info, 'the oldest was dropped').not.toMatch(/- cp1 /);
  expect(info).toContain(
    'Limits: rollback gives up after 5000 ms; 3 checkpoints kept; automatic checkpoints every 2 calls.',
  );
  await expect(panelSession(bridge.relay, 'auto-checkpoints')).toContainText('3 checkpoints kept');

  const rolled = await callOk(client, 'browser_transaction_rollback', { checkpoint: 'cp2' });
  expect(rolled.text).toContain('Rolled back to cp2 (auto)');
  expect(await pageState(client)).toContain('/titled?title=Step2 step=2');

  const dropped = await callTool(client, 'browser_transaction_rollback', { checkpoint: 'cp1' });
  expect(dropped.isError).toBe(true);
  expect(dropped.text).toContain('INVALID_ARGS: No checkpoint cp1 is kept');
  expect(dropped.text).toContain('browser_session_info');
});

test('a rollback slower than BROWSER_AGENT_ROLLBACK_TIMEOUT_MS gives up and leaves a fresh tab', async ({
  bridge,
  site,
}) => {
  const client = await bridge.connectClient('slow-rollback', {
    flags: TX,
    env: { BROWSER_AGENT_ROLLBACK_TIMEOUT_MS: '500' },
  });
  // The checkpoint's page takes 3 s to load, so restoring it cannot finish within 500 ms.
  const slow = site.url('/api/items?delay=3000');
  await callOk(client, 'browser_navigate', { url: slow });
  await callOk(client, 'browser_transaction_begin', {});
  await callOk(client, 'browser_navigate', { url: site.url('/titled?title=Elsewhere') });

  const rolled = await callOk(client, 'browser_transaction_rollback', {});
  expect(rolled.text).toContain(
    'took over its 500 ms limit and was abandoned; a fresh tab is open',
  );
  const tabs = (await callOk(client, 'browser_tabs', { action: 'list' })).text;
  expect(tabs).toContain('about:blank');
  expect((await callOk(client, 'browser_session_info', {})).text).toContain('rollbacks: 1');
});

test('an unusable limit stops the server before it starts, naming the variable', async ({
  sandbox,
}) => {
  const start = sandbox.startServer({ env: { BROWSER_AGENT_MAX_CHECKPOINTS: '0' } });
  await expect(start).rejects.toThrow(/BROWSER_AGENT_MAX_CHECKPOINTS\b.*\b0\b/);
});
