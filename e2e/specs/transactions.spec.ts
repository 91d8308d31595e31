/**
 * Atomic multi-step work: a failing batch rolls the browser back exactly (URL, cookies,
 * localStorage, sessionStorage, tabs), irreversible side effects are named, and commit keeps.
 */
import { test, expect, callOk, callTool, type ToolOutcome } from '../harness.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** The transaction tools are an opt-in group, like network and devtools. */
const TX = { flags: ['--caps', 'transactions'] };

const READ_STATE = `() => JSON.stringify({
  url: location.href,
  cookie: document.cookie,
  local: Object.fromEntries(Object.entries(localStorage)),
  session: Object.fromEntries(Object.entries(sessionStorage)),
})`;

async function pageState(client: Client): Promise<string> {
  const out: ToolOutcome = await callOk(client, 'browser_evaluate', { function: READ_STATE });
  const match = /\{.*\}/s.exec(out.text.replace(/\\"/g, '"'));
  return match ? match[0] : out.text;
}

test.describe('transactions', () => {
  test('a batch that fails at step 3 of 5 restores URL, cookies and storage, and closes the tab it opened', async ({
    bridge,
    site,
  }) => {
    const client = await bridge.connectClient('tx-agent', TX);
    const start = site.url('/titled?title=Start');
    await callOk(client, 'browser_navigate', { url: start });
    await callOk(client, 'browser_evaluate', {
      function: `() => { document.cookie = 'a=1; path=/'; localStorage.setItem('k', 'v1'); sessionStorage.setItem('s', 'v1'); return true; }`,
    });
    const before = await pageState(client);
    expect(before).toContain('a=1');

    const result = await callTool(client, 'browser_batch', {
      steps: [
        {
          tool: 'browser_evaluate',
          args: {
            function: `() => { document.cookie = 'a=2; path=/'; document.cookie = 'added=yes; path=/'; localStorage.setItem('k', 'v2'); localStorage.setItem('new', 'x'); sessionStorage.setItem('s', 'v2'); return true; }`,
          },
        },
        {
          tool: 'browser_tabs',
          args: { action: 'new', url: site.url('/titled?title=Opened%20in%20step%202') },
        },
        { tool: 'browser_click', args: { ref: 'e424242' } },
        { tool: 'browser_navigate', args: { url: site.url('/titled?title=Never') } },
        { tool: 'browser_snapshot', args: {} },
      ],
    });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('Step 3 of 5 (browser_click) failed');
    expect(result.text).toContain('Rolled back');
    expect(result.text).toContain('closed tab opened since');

    const tabs = (await callOk(client, 'browser_tabs', { action: 'list' })).text;
    expect(tabs).not.toContain('Opened%20in%20step%202');
    expect(tabs).not.toContain('Opened in step 2');
    expect(await pageState(client)).toBe(before);
  });

  test('a POST inside a transaction is reported as irreversible on rollback', async ({
    bridge,
    site,
  }) => {
    const client = await bridge.connectClient('tx-post', TX);
    await callOk(client, 'browser_navigate', { url: site.url('/titled?title=Form') });
    await callOk(client, 'browser_transaction_begin', { label: 'post test' });
    await callOk(client, 'browser_evaluate', {
      function: `async () => (await fetch('/submit-order', { method: 'POST', body: 'x' })).status`,
    });
    const rolled = await callOk(client, 'browser_transaction_rollback', {});
    expect(rolled.text).toContain('Could not be undone');
    expect(rolled.text).toContain(`POST ${site.url('/submit-order')}`);
    const info = await callOk(client, 'browser_session_info', {});
    expect(info.text).toContain('rollbacks: 1');
    expect(info.text).toContain('No transaction open');
  });

  test('commit keeps the changes', async ({ bridge, site }) => {
    const client = await bridge.connectClient('tx-commit', TX);
    await callOk(client, 'browser_navigate', { url: site.url('/titled?title=Keep') });
    await callOk(client, 'browser_transaction_begin', {});
    await callOk(client, 'browser_evaluate', {
      function: `() => { localStorage.setItem('kept', 'yes'); return true; }`,
    });
    const committed = await callOk(client, 'browser_transaction_commit', {});
    expect(committed.text).toContain('Committed');
    expect(await pageState(client)).toContain('"kept":"yes"');
    expect((await callOk(client, 'browser_session_info', {})).text).toContain('Commits: 1');
  });
});
