/**
 * A renderer that crashes (#16): the session's tab renderer is crashed (`Page.crash` over the
 * harness's own CDP session on that page) while a call runs and between calls. The call in flight
 * gets exactly one answer, an error whose hint names a step that works; the MCP server stays up;
 * and the next browser_navigate and browser_snapshot work.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callOk, callTool, expect, snapshot, test, type Bridge } from '../harness.js';
import { startFaultSite, type FaultSite } from '../fixtures/faultSite.js';

const crashTest = test.extend<{ faults: FaultSite }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from it
  faults: async ({}, use) => {
    const site = await startFaultSite();
    await use(site);
    await site.close();
  },
});

/** Crashes the renderer of the page at url, as the harness sees it. */
async function crashRenderer(bridge: Bridge, url: string): Promise<void> {
  const page = await bridge.pageWithUrl(url);
  const cdp = await bridge.context.newCDPSession(page);
  // Page.crash never answers (its renderer is gone): it is sent, not waited for.
  void cdp.send('Page.crash').catch(() => undefined);
  await page.waitForEvent('crash', { timeout: 5_000 });
}

/** Counts the responses per request id that reach the client. */
function answersPerId(client: Client): Map<string | number, number> {
  const seen = new Map<string | number, number>();
  const transport = client.transport;
  if (transport === undefined) return seen;
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const id = 'id' in message ? message.id : undefined;
    if (id !== undefined && ('result' in message || 'error' in message))
      seen.set(id, (seen.get(id) ?? 0) + 1);
    deliver?.call(transport, message, extra);
  };
  return seen;
}

/** The agent carries on in the same session: a fresh page opens, and its snapshot shows it. */
async function carriesOn(client: Client, faults: FaultSite, title: string): Promise<void> {
  const back = await callOk(client, 'browser_navigate', {
    url: faults.url(`/titled?title=${title}`),
  });
  expect(back.text).toContain(`- Page Title: "${title}"`);
  expect(await snapshot(client)).toContain(`heading "${title}"`);
  expect((await callOk(client, 'browser_evaluate', { function: '() => 6 * 7' })).text).toContain(
    '42',
  );
}

crashTest.describe('a renderer that crashes', () => {
  crashTest(
    'under a call: one answer with a hint that works, the server stays up, the session carries on',
    async ({ bridge, sandbox, faults }) => {
      const client = await bridge.connectClient('crash-under-call');
      let closed = false;
      client.onclose = () => {
        closed = true;
      };
      const answers = answersPerId(client);
      const home = faults.url('/titled?title=Home');
      await callOk(client, 'browser_navigate', { url: home });

      const running = callTool(client, 'browser_wait_for', { time: 3 });
      await sleep(700);
      await crashRenderer(bridge, home);
      const crashed = await running;

      // Exactly one answer: an error that says the tab crashed and names the step to take.
      expect([...answers.values()].every((n) => n === 1)).toBe(true);
      expect(crashed.isError).toBe(true);
      expect(crashed.text).toContain('crashed');
      expect(crashed.text).toMatch(/Hint: .*browser_navigate/);
      expect(closed).toBe(false);
      expect(sandbox.serverStderr(client)).not.toMatch(/Unhandled|uncaught/i);

      await carriesOn(client, faults, 'AfterCrash');
      expect(closed).toBe(false);
      expect([...answers.values()].every((n) => n === 1)).toBe(true);
    },
  );

  crashTest(
    'between calls: the next call says the tab crashed and what to do, and that step works',
    async ({ bridge, faults }) => {
      const client = await bridge.connectClient('crash-between');
      let closed = false;
      client.onclose = () => {
        closed = true;
      };
      const home = faults.url('/titled?title=Home');
      await callOk(client, 'browser_navigate', { url: home });
      await crashRenderer(bridge, home);
      await sleep(500);

      const next = await callTool(client, 'browser_snapshot', {});
      expect(closed).toBe(false);
      expect(next.isError).toBe(true);
      expect(next.text).toContain('crashed');
      expect(next.text).toMatch(/Hint: .*browser_navigate/);
      await carriesOn(client, faults, 'Fresh');
      expect(closed).toBe(false);
    },
  );
});
