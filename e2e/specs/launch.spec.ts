import { spawn } from 'node:child_process';
import net from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { callOk, callTool, expect, findRef, test } from '../harness.js';
import { CHROME_PATH, SERVER_ENTRY } from '@browser-agent/testkit/workspace';
import { launchedBrowserFlags } from '@browser-agent/mcp-server/chromiumFlags';
import { waitUntil } from '@browser-agent/testkit/procfs';

test('launch mode starts its own Chromium with the extension, drives it, and the daemon takes it down on SIGTERM', async ({
  sandbox,
  site,
}) => {
  const client = await sandbox.startServer({
    name: 'launch-client',
    flags: ['--launch', '--headless', '--isolated', '--executable-path', CHROME_PATH],
  });
  const url = site.url('/button.html');
  await callOk(client, 'browser_navigate', { url });
  const ref = findRef((await callOk(client, 'browser_snapshot', {})).text, 'button', 'Click me');
  await callOk(client, 'browser_click', { ref });
  expect((await callOk(client, 'browser_snapshot', {})).text).toContain('Clicked 1 time');

  const daemonPid = await sandbox.daemonPid();
  if (daemonPid === undefined) throw new Error(`No daemon.pid in ${sandbox.home}`);
  // Without this the check below could pass vacuously: the launched browser must be findable.
  const browsers = sandbox
    .ownProcesses()
    .filter((p) => p.pid !== daemonPid && /chrom/i.test(p.cmdline));
  expect(
    browsers.length,
    'the launched Chromium carries BROWSER_AGENT_HOME or runs from our TMPDIR',
  ).toBeGreaterThan(0);

  await client.close();
  process.kill(daemonPid, 'SIGTERM');
  const allGone = await waitUntil(() => sandbox.ownProcesses().length === 0, 10_000);
  expect(
    allGone,
    `left after SIGTERM to the daemon:\n${sandbox
      .ownProcesses()
      .map((p) => `  ${p.pid} ${p.cmdline}`)
      .join('\n')}`,
  ).toBe(true);
});

test('launch mode works while another program holds the bridge port: its browser is told a free one (#27.3)', async ({
  sandbox,
  site,
}) => {
  const squatter = net.createServer(() => undefined);
  await new Promise<void>((resolve) => squatter.listen(sandbox.port, '127.0.0.1', resolve));
  try {
    const client = await sandbox.startServer({
      name: 'launch-client',
      flags: ['--launch', '--headless', '--executable-path', CHROME_PATH],
    });
    const nav = await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
    expect(nav.text).toContain('Navigated to');
    const log = await readFile(path.join(sandbox.home, 'daemon.log'), 'utf8');
    expect(log).toContain(`bridge port ${sandbox.port} is taken by another program`);
    await client.close();
  } finally {
    await new Promise((resolve) => squatter.close(resolve));
  }
});

test("a server for the user's own Chrome never drives a browser that launch mode started (#27.4)", async ({
  sandbox,
  site,
}) => {
  const launched = await sandbox.startServer({
    name: 'launch-client',
    flags: ['--launch', '--headless', '--executable-path', CHROME_PATH],
  });
  await callOk(launched, 'browser_navigate', { url: site.url('/button.html') });
  const env = { BROWSER_AGENT_EXTENSION_WAIT_MS: '500' };
  // While the launch-mode server is there, the daemon says whose browser it runs.
  const beside = await sandbox.startServer({ name: 'own-chrome', env });
  const refused = await callTool(beside, 'browser_tabs', { action: 'list' });
  expect(refused.isError).toBe(true);
  expect(refused.text).toContain('BROWSER_IN_USE');
  expect(refused.text).toContain('not your own Chrome');
  await beside.close();
  // Once it has gone, the launched browser goes too: the next own-Chrome call waits for the
  // user's Chrome (none here) instead of driving the headless one.
  await launched.close();
  const after = await sandbox.startServer({ name: 'own-chrome-later', env });
  const call = await callTool(after, 'browser_navigate', { url: site.url('/button.html') });
  expect(call.isError, call.text).toBe(true);
  expect(call.text).toContain('NOT_CONNECTED');
  const log = await readFile(path.join(sandbox.home, 'daemon.log'), 'utf8');
  expect(log).toContain("a server for the user's own Chrome came: closing the launched browser");
  await after.close();
});

test('a browser the daemon started ahead with other flags is killed before the session launches on its profile', async ({
  sandbox,
  site,
}) => {
  // A daemon handed a browser the session will not ask for (another server's launch, or a
  // stale variable): the session's launch on the same profile must not meet it holding the
  // profile, and it must not be left behind. Handed over as a server does (browserHandover.ts):
  // the debugging pipe on the daemon's fds 3 and 4, the launch and the pid in its environment.
  const profile = path.join(sandbox.root, 'profile');
  const browser = spawn(
    CHROME_PATH,
    [
      ...launchedBrowserFlags({ profile, headless: true, args: ['--lang=de'] }),
      '--remote-debugging-pipe',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], detached: true },
  );
  const [, , , toBrowser, fromBrowser] = browser.stdio;
  const daemon = spawn(
    process.execPath,
    [path.join(path.dirname(SERVER_ENTRY), 'daemon', 'main.js')],
    {
      env: {
        ...sandbox.env,
        BROWSER_AGENT_PRELAUNCH: JSON.stringify({
          headless: true,
          isolated: false,
          executablePath: CHROME_PATH,
          userDataDir: profile,
          args: ['--lang=de'],
          pid: browser.pid,
        }),
      },
      stdio: ['ignore', 'ignore', 'ignore', toBrowser, fromBrowser],
      detached: true,
    },
  );
  daemon.unref();
  toBrowser?.destroy();
  fromBrowser?.destroy();
  browser.unref();
  const logFile = path.join(sandbox.home, 'daemon.log');
  const log = async (): Promise<string> => readFile(logFile, 'utf8').catch(() => '');
  await expect.poll(log, { timeout: 10_000 }).toContain('took over');
  await expect.poll(log, { timeout: 10_000 }).toContain('listening');
  const client = await sandbox.startServer({
    name: 'prelaunch-other',
    flags: ['--launch', '--headless', '--user-data-dir', profile, '--executable-path', CHROME_PATH],
  });
  const nav = await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
  expect(nav.text).toContain('Navigated to');
  expect(await log()).toContain('the session asked for another launch');
  const browsers = sandbox.ownProcesses().filter((p) => /chrom/i.test(p.cmdline));
  expect(browsers.length).toBeGreaterThan(0);
  expect(browsers.filter((p) => p.cmdline.includes('--lang=de'))).toEqual([]);
});
