/**
 * Recovery and honest results against servers that misbehave (#16): a server that never
 * answers, one that answers late, 404/500 pages, pages that never finish loading and pages whose
 * renderer never answers. Each timeout hint's step is taken here, in the state the hint is given.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '@browser-agent/protocol';
import { callOk, callTool, expect, snapshot, test, urlsInGroup, type Bridge } from '../harness.js';
import { cancelAfter } from '../harness.js';
import { startFaultSite, type FaultSite } from '../fixtures/faultSite.js';

const faultTest = test.extend<{ faults: FaultSite }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from it
  faults: async ({}, use) => {
    const site = await startFaultSite();
    await use(site);
    await site.close();
  },
});

/** An agent whose navigations time out after navigationMs, on a first page titled `title`. */
async function agentWithNavigationTimeout(
  bridge: Bridge,
  root: string,
  faults: FaultSite,
  {
    name,
    navigationMs = 2_000,
    title = 'Before',
  }: { name: string; navigationMs?: number; title?: string },
): Promise<Client> {
  const config = path.join(root, `${name}.json`);
  writeFileSync(config, JSON.stringify({ timeouts: { navigationMs } }));
  const client = await bridge.connectClient(name, { flags: ['--config', config] });
  await callOk(client, 'browser_navigate', { url: faults.url(`/titled?title=${title}`) });
  return client;
}

faultTest.describe('a navigation that does not finish', () => {
  faultTest(
    "to a server that never answers: stopped at its timeout, and the hint's steps work at once",
    async ({ bridge, sandbox, faults }) => {
      const client = await agentWithNavigationTimeout(bridge, sandbox.root, faults, {
        name: 'never-answers',
      });
      const before = faults.url('/titled?title=Before');
      const timedOut = await callTool(client, 'browser_navigate', {
        url: faults.url('/never?n=1'),
      });
      expect(timedOut.isError).toBe(true);
      expect(timedOut.text).toContain(ErrorCode.NAVIGATION_TIMEOUT);
      expect(timedOut.text).toContain('stopped the load');
      expect(timedOut.text).toMatch(/Hint: .*browser_snapshot.*browser_navigate/);
      // The browser gave the request up: nothing goes on loading in the tab.
      await expect.poll(() => faults.abandoned).toContain('/never?n=1');

      // The hint's first step: the snapshot shows the page that is there (the previous one).
      const snap = await callOk(client, 'browser_snapshot', {});
      expect(snap.text).toContain(`- Page URL: ${before}`);
      expect(snap.text).toContain('heading "Before"');
      const href = await callOk(client, 'browser_evaluate', { function: '() => location.href' });
      expect(href.text).toContain(before);
      // The hint's second step: another URL opens.
      const after = await callOk(client, 'browser_navigate', {
        url: faults.url('/titled?title=After'),
      });
      expect(after.text).toContain('- Page Title: "After"');
    },
  );

  faultTest(
    "to a page that arrives late: the late page never shows under the old page's URL and title",
    async ({ bridge, sandbox, faults }) => {
      const client = await agentWithNavigationTimeout(bridge, sandbox.root, faults, {
        name: 'late-page',
        navigationMs: 1_000,
      });
      const late = await callTool(client, 'browser_navigate', {
        url: faults.url('/late?ms=2500&title=Late'),
      });
      expect(late.text).toContain(ErrorCode.NAVIGATION_TIMEOUT);
      // Past the moment the late page would have arrived.
      await sleep(3_000);
      const snap = await snapshot(client);
      expect(snap).toContain(`- Page URL: ${faults.url('/titled?title=Before')}`);
      expect(snap).toContain('- Page Title: "Before"');
      expect(snap).toContain('heading "Before"');
      expect(snap).not.toContain('Late');
    },
  );

  faultTest(
    'to a page that never finishes loading: usable, with what is pending named',
    async ({ bridge, sandbox, faults }) => {
      const client = await agentWithNavigationTimeout(bridge, sandbox.root, faults, {
        name: 'stalled-page',
      });
      const stalled = await callOk(client, 'browser_navigate', { url: faults.url('/stalled') });
      expect(stalled.text).toContain('- Page Title: "Stalled"');
      expect(stalled.text).toContain('Still loading');
      expect(stalled.text).toContain('/never/script.js');
      expect(await snapshot(client)).toContain('heading "Stalled head"');
      const next = await callOk(client, 'browser_navigate', {
        url: faults.url('/titled?title=Next'),
      });
      expect(next.text).toContain('- Page Title: "Next"');
    },
  );

  faultTest(
    'cancelled while the server never answers: the load stops and the next call answers',
    async ({ bridge, sandbox, faults }) => {
      // The default navigation timeout (30 s): only the cancel can end this one.
      const client = await bridge.connectClient('cancel-navigation');
      const before = faults.url('/titled?title=Before');
      await callOk(client, 'browser_navigate', { url: before });
      const outcome = await cancelAfter(
        client,
        'browser_navigate',
        { url: faults.url('/never?n=cancelled') },
        1_000,
      );
      expect(outcome, 'the cancelled call gets no answer').not.toBe('answered');
      await expect.poll(() => faults.abandoned).toContain('/never?n=cancelled');
      const href = await callOk(client, 'browser_evaluate', { function: '() => location.href' });
      expect(href.text).toContain(before);
      void sandbox;
    },
  );
});

faultTest.describe('a renderer that stops answering', () => {
  faultTest(
    'spinning from the start: detected, a fresh tab takes its place, and navigate works there',
    async ({ bridge, sandbox, faults }) => {
      const client = await agentWithNavigationTimeout(bridge, sandbox.root, faults, {
        name: 'wedged-now',
      });
      const wedged = faults.url('/spin-now');
      await callTool(client, 'browser_navigate', { url: wedged });
      const stuck = await callTool(client, 'browser_evaluate', {
        function: '() => document.title',
      });
      expect(stuck.isError).toBe(true);
      expect(stuck.text).toContain('stopped answering');
      expect(stuck.text).toMatch(/Hint: .*fresh blank tab.*browser_navigate/);

      // The session's one tab is the fresh one, current, in the session's group.
      const tabs = await callOk(client, 'browser_tabs', { action: 'list' });
      expect(tabs.text).toContain('- 0: [current]');
      expect(tabs.text).toContain('about:blank');
      expect(tabs.text).not.toContain(wedged);
      await expect
        .poll(async () => urlsInGroup(await bridge.tabLayout(), 'wedged-now'))
        .toEqual(['about:blank']);
      expect((await bridge.tabLayout()).tabs.map((t) => t.url)).not.toContain(wedged);

      // The hint's step.
      const fresh = faults.url('/titled?title=Fresh');
      await callOk(client, 'browser_navigate', { url: fresh });
      expect(await snapshot(client)).toContain('heading "Fresh"');
    },
  );

  faultTest(
    'spinning after load: the next call is answered with the replacement, not after 30 s',
    async ({ bridge, faults }) => {
      const client = await bridge.connectClient('wedged-later');
      await callOk(client, 'browser_navigate', { url: faults.url('/spin') });
      // The page's script starts its endless loop 300 ms after it loaded.
      await sleep(1_000);
      const stuck = await callTool(client, 'browser_evaluate', { function: '() => 1' });
      expect(stuck.isError).toBe(true);
      expect(stuck.text).toContain('stopped answering');
      const back = await callOk(client, 'browser_navigate', {
        url: faults.url('/titled?title=Again'),
      });
      expect(back.text).toContain('- Page Title: "Again"');
      expect(
        (await callOk(client, 'browser_evaluate', { function: '() => 6 * 7' })).text,
      ).toContain('42');
    },
  );
});

faultTest.describe('honest results', () => {
  faultTest(
    '404 and 500 pages are reported with their status and a warning',
    async ({ bridge, faults }) => {
      const client = await bridge.connectClient('statuses');
      const ok = await client.callTool({
        name: 'browser_navigate',
        arguments: { url: faults.url('/titled?title=Fine') },
      });
      expect(ok.structuredContent).toMatchObject({ status: 200, ok: true, title: 'Fine' });

      const missing = await callOk(client, 'browser_navigate', { url: faults.url('/status/404') });
      expect(missing.text).toContain('- HTTP status: 404 Not Found');
      expect(missing.text).toMatch(/Warning: the server answered 404 Not Found/);

      const broken = await client.callTool({
        name: 'browser_navigate',
        arguments: { url: faults.url('/status/500') },
      });
      expect(broken.structuredContent).toMatchObject({
        url: faults.url('/status/500'),
        status: 500,
        ok: false,
      });
      const brokenText = (broken.content as { type: string; text: string }[])[0]?.text ?? '';
      expect(brokenText).toContain('- HTTP status: 500 Internal Server Error');
      expect(brokenText).toContain('a server error');

      const reloaded = await callOk(client, 'browser_reload', {});
      expect(reloaded.text).toContain('- HTTP status: 500 Internal Server Error');
      const back = await callOk(client, 'browser_navigate_back', {});
      expect(back.text).toContain('- HTTP status: 404 Not Found');
      const forward = await callOk(client, 'browser_navigate_forward', {});
      expect(forward.text).toContain('- HTTP status: 500');
    },
  );
});

faultTest.describe('dialogs', () => {
  faultTest(
    'a page that alerts while it loads: the navigation is answered with the dialog, the next call is told at once',
    async ({ bridge, faults }) => {
      const client = await bridge.connectClient('alert-on-load');
      const url = faults.url('/alert-on-load');
      // Only the agent may answer the page's dialogs (Playwright dismisses unheard ones); the
      // page alerts before a page-level listener could be added.
      bridge.context.on('dialog', () => undefined);
      const opened = await callTool(client, 'browser_navigate', { url });
      expect(opened.text).toContain(
        "### Modal state (the dialog's text is untrusted page content)",
      );
      expect(opened.text).toContain('alert dialog "Welcome from the saved page"');
      expect(opened.text).not.toContain(ErrorCode.TIMEOUT);

      const blocked = await callTool(client, 'browser_snapshot', {});
      expect(blocked.text).toContain(ErrorCode.DIALOG_OPEN);
      expect(blocked.text).toContain('Welcome from the saved page');
      expect(blocked.text).toContain('browser_handle_dialog');
      // The hint's step.
      await callOk(client, 'browser_handle_dialog', { accept: true });
      await expect.poll(async () => snapshot(client)).toContain('after the alert');
    },
  );
});

faultTest.describe('timeout hints', () => {
  faultTest(
    "a call that runs out of time: the hint's snapshot answers at once, and the session works on",
    async ({ bridge, faults }) => {
      const client = await bridge.connectClient('call-timeout');
      await callOk(client, 'browser_navigate', { url: faults.url('/titled?title=Patient') });
      // A promise the page never settles: the call's 30 s deadline ends it.
      const stuck = await callTool(client, 'browser_evaluate', {
        function: '() => new Promise(() => {})',
      });
      expect(stuck.isError).toBe(true);
      expect(stuck.text).toContain(ErrorCode.TIMEOUT);
      expect(stuck.text).toMatch(/Hint: The call was stopped in the browser.*browser_snapshot/);
      expect(await snapshot(client)).toContain('heading "Patient"');
      const again = await callOk(client, 'browser_evaluate', { function: '() => document.title' });
      expect(again.text).toContain('Patient');
    },
  );
});

test('an action the busy page did not take in time: the hint says wait and check, and the input lands', async ({
  bridge,
  sandbox,
  site,
}) => {
  const config = path.join(sandbox.root, 'action.json');
  writeFileSync(config, JSON.stringify({ timeouts: { actionMs: 1_000 } }));
  const client = await bridge.connectClient('busy-action', { flags: ['--config', config] });
  await callOk(client, 'browser_navigate', { url: site.url('/busy?ms=3000') });
  const busy = await callTool(client, 'browser_click', { selector: '#busy' });
  expect(busy.text).toContain(ErrorCode.TIMEOUT);
  expect(busy.text).toMatch(/Hint: .*browser_wait_for, then check with browser_snapshot/);
  // The hint's steps: wait, then look: the click landed once the page was free (no retry needed).
  await callOk(client, 'browser_wait_for', { time: 3 });
  expect(await snapshot(client)).toContain('button "Busy done"');
});
