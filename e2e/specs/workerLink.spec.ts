import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EXTENSION_ID } from '@browser-agent/protocol';
import { callOk, expect, findRef, test } from '../harness.js';
import { freePort } from '@browser-agent/testkit/scratch';
import { CHROME_PATH } from '@browser-agent/testkit/workspace';

interface DevToolsTarget {
  id: string;
  type: string;
  url: string;
}

/**
 * The launched browser is only reachable over the daemon's pipe; a wrapper adds a DevTools port
 * so a test can see and close the browser's targets.
 */
async function withDevtoolsPort(root: string): Promise<{
  wrapper: string;
  extensionTargets: () => Promise<DevToolsTarget[]>;
  close: (id: string) => Promise<void>;
}> {
  const devtoolsPort = await freePort();
  const wrapper = path.join(root, 'chromium-with-devtools-port');
  await writeFile(
    wrapper,
    `#!/bin/sh\nexec "${CHROME_PATH}" --remote-debugging-port=${devtoolsPort} "$@"\n`,
  );
  await chmod(wrapper, 0o755);
  const base = `http://127.0.0.1:${devtoolsPort}`;
  return {
    wrapper,
    extensionTargets: async () =>
      ((await (await fetch(`${base}/json/list`)).json()) as DevToolsTarget[]).filter((t) =>
        t.url.startsWith(`chrome-extension://${EXTENSION_ID}/`),
      ),
    close: async (id) => void (await fetch(`${base}/json/close/${id}`)),
  };
}

/**
 * In launch mode the service worker holds the WebSocket to the daemon itself: the relay page an
 * isolated session's browser opens only hands the link over. Closing every extension page must
 * then leave the link, and the agent's session, untouched; with the page holding it, the daemon
 * would see the link drop and the next call would fail NOT_CONNECTED.
 */
test('in launch mode the service worker holds the link: calls go on with every extension page closed', async ({
  sandbox,
  site,
}) => {
  const { wrapper, extensionTargets, close } = await withDevtoolsPort(sandbox.root);
  const client = await sandbox.startServer({
    name: 'worker-link',
    flags: ['--launch', '--headless', '--isolated', '--executable-path', wrapper],
  });
  const url = site.url('/button.html');
  await callOk(client, 'browser_navigate', { url });

  const pages = (await extensionTargets()).filter((t) => t.type === 'page');
  expect(pages.length, 'the launched browser opened its relay page').toBeGreaterThan(0);
  for (const page of pages) await close(page.id);
  let closed = false;
  for (let i = 0; i < 50 && !closed; i += 1) {
    closed = (await extensionTargets()).every((t) => t.type !== 'page');
    if (!closed) await new Promise((r) => setTimeout(r, 100));
  }
  expect(closed, 'every extension page is gone').toBe(true);
  expect((await extensionTargets()).map((t) => t.type)).toContain('service_worker');

  // No page of the extension is open, and the session works: the worker holds the link.
  const snapshot = (await callOk(client, 'browser_snapshot', {})).text;
  await callOk(client, 'browser_click', { ref: findRef(snapshot, 'button', 'Click me') });
  expect((await callOk(client, 'browser_snapshot', {})).text).toContain('Clicked 1 time');
  const title = await callOk(client, 'browser_evaluate', { function: '() => document.title' });
  expect(title.text.length).toBeGreaterThan(0);

  // The link never dropped: one connection for the whole test.
  const log = await readFile(path.join(sandbox.home, 'daemon.log'), 'utf8');
  expect(log.match(/extension connected/g)?.length).toBe(1);
  expect(log).not.toContain('extension disconnected');
});

test('a headless launched browser opens no relay page: the worker holds the link and nobody could see the page', async ({
  sandbox,
  site,
}) => {
  const { wrapper, extensionTargets } = await withDevtoolsPort(sandbox.root);
  const client = await sandbox.startServer({
    name: 'headless-no-relay',
    flags: [
      ...['--launch', '--headless', '--executable-path', wrapper],
      ...['--user-data-dir', path.join(sandbox.root, 'profile')],
    ],
  });
  await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
  // A held relay page opens 150 ms after the first answer (heldRelayPage.ts): past that, and a
  // few calls later, none is there.
  await new Promise((resolve) => setTimeout(resolve, 600));
  const snapshot = (await callOk(client, 'browser_snapshot', {})).text;
  await callOk(client, 'browser_click', { ref: findRef(snapshot, 'button', 'Click me') });
  expect((await callOk(client, 'browser_snapshot', {})).text).toContain('Clicked 1 time');
  const targets = await extensionTargets();
  expect(targets.map((t) => t.type)).toContain('service_worker');
  expect(targets.filter((t) => t.type === 'page').map((t) => t.url)).toEqual([]);
  const log = await readFile(path.join(sandbox.home, 'daemon.log'), 'utf8');
  expect(log).toContain('headless: no relay page');
  expect(log).not.toContain('relay page opened');
});
