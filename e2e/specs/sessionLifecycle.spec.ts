/**
 * How sessions and the shared daemon live and die: a client killed mid-call, the daemon's idle
 * exit, a keyed session taken back by a restarted server, and the in-process fallback.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  callOk,
  callTool,
  expect,
  findRef,
  panelSession,
  snapshot,
  tabWithUrl,
  test,
  urlsInGroup,
} from '../harness.js';
import { agentOn } from '../steps.js';
import { isRunning, processesWithEnv, waitUntil } from '@browser-agent/testkit/procfs';

test.describe('session lifecycle', () => {
  test('a client killed with SIGKILL mid-call ends its session; the others keep working', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const doomed = await bridge.connectClient('doomed-agent');
    const survivor = await bridge.connectClient('survivor-agent');
    const doomedUrl = site.url('/titled?title=Doomed');
    const survivorUrl = site.url('/button.html');
    await callOk(doomed, 'browser_navigate', { url: doomedUrl });
    await callOk(survivor, 'browser_navigate', { url: survivorUrl });
    await expect(bridge.relay.locator('#sessions li.session')).toHaveCount(2);
    const daemonPid = await sandbox.daemonPid();
    if (daemonPid === undefined) throw new Error(`No daemon.pid in ${sandbox.home}`);

    const inFlight = callTool(doomed, 'browser_wait_for', { time: 8 }).catch((err: unknown) => err);
    await sleep(500);
    process.kill(sandbox.serverPid(doomed), 'SIGKILL');

    const started = Date.now();
    const page = await snapshot(survivor);
    await callOk(survivor, 'browser_click', { ref: findRef(page, 'button', 'Click me') });
    expect(await snapshot(survivor)).toContain('Clicked 1 time');
    expect(Date.now() - started, 'the survivor does not wait out the dead call').toBeLessThan(
      3_000,
    );

    await expect(bridge.relay.locator('#sessions li.session')).toHaveCount(1);
    await expect(panelSession(bridge.relay, 'survivor-agent')).toHaveCount(1);
    await expect
      .poll(() => bridge.context.pages().some((p) => p.url() === doomedUrl), {
        message: 'the dead session’s tab is closed (the default "when an agent leaves" setting)',
      })
      .toBe(false);
    expect(isRunning(daemonPid), 'the daemon survived').toBe(true);
    await inFlight;
    expect((await callOk(survivor, 'browser_tabs', { action: 'list' })).text).toContain(
      survivorUrl,
    );
  });

  test('the daemon exits once the last session has been gone for BROWSER_AGENT_IDLE_EXIT_MS, and removes its socket', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const idleExitMs = 1_500;
    const client = await agentOn(bridge, site.url('/button.html'), {
      name: 'idle-agent',
      env: { BROWSER_AGENT_IDLE_EXIT_MS: String(idleExitMs) },
    });
    const daemonPid = await sandbox.daemonPid();
    if (daemonPid === undefined) throw new Error(`No daemon.pid in ${sandbox.home}`);
    expect(existsSync(sandbox.socketPath)).toBe(true);

    await sleep(idleExitMs + 1_000);
    expect(isRunning(daemonPid), 'a live session keeps the daemon').toBe(true);
    findRef(await snapshot(client), 'button', 'Click me');

    await client.close();
    const closedAt = Date.now();
    expect(await waitUntil(() => !isRunning(daemonPid), idleExitMs + 5_000)).toBe(true);
    expect(Date.now() - closedAt, 'not before the idle time ran out').toBeGreaterThanOrEqual(
      idleExitMs - 200,
    );
    expect(existsSync(sandbox.socketPath), 'the socket file is removed').toBe(false);
    expect(existsSync(path.join(sandbox.home, 'daemon.pid')), 'and the pid file').toBe(false);
    await bridge.expectRelayState('disconnected');
  });

  test('a server restarted with the same session key within the grace period gets its session and tab back', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const env = {
      BROWSER_AGENT_SESSION_KEY: 'e2e-resume-key',
      BROWSER_AGENT_SESSION_GRACE_MS: '10000',
    };
    const url = site.url('/titled?title=Kept%20across%20restarts');
    const first = await agentOn(bridge, url, { name: 'resuming-agent', env });
    const tabId = tabWithUrl(await bridge.tabLayout(), url).id;

    process.kill(sandbox.serverPid(first), 'SIGKILL');
    await sleep(1_500);
    expect(
      bridge.context.pages().some((p) => p.url() === url),
      'the tab waits for its session during the grace period',
    ).toBe(true);

    const second = await bridge.connectClient('resuming-agent', { env });
    const tabs = (await callOk(second, 'browser_tabs', { action: 'list' })).text;
    expect(tabs).toContain(url);
    expect(await snapshot(second)).toContain('Kept across restarts');
    const layout = await bridge.tabLayout();
    expect(tabWithUrl(layout, url).id, 'the very same tab').toBe(tabId);
    expect(urlsInGroup(layout, 'resuming-agent')).toEqual([url]);
    await expect(bridge.relay.locator('#sessions li.session')).toHaveCount(1);
  });

  test('with BROWSER_AGENT_NO_DAEMON=1 the server hosts the bridge itself, says so, and works end to end', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const url = site.url('/button.html');
    const client = await agentOn(bridge, url, {
      name: 'fallback-agent',
      env: { BROWSER_AGENT_NO_DAEMON: '1' },
    });
    const page = await snapshot(client);
    await callOk(client, 'browser_click', { ref: findRef(page, 'button', 'Click me') });
    await expect((await bridge.pageWithUrl(url)).locator('#out')).toHaveText('Clicked 1 time');

    expect(sandbox.serverStderr(client)).toContain('hosting the bridge in this process');
    expect(await sandbox.daemonPid(), 'no daemon.pid').toBeUndefined();
    expect(existsSync(sandbox.socketPath), 'no daemon socket').toBe(false);
    const serverPid = sandbox.serverPid(client);
    // Playwright's Chromium does not carry BROWSER_AGENT_HOME; a daemon the server spawned would.
    expect(
      processesWithEnv('BROWSER_AGENT_HOME', sandbox.home)
        .filter((p) => p.pid !== serverPid)
        .map((p) => `${p.pid} ${p.cmdline}`),
      'no daemon process',
    ).toEqual([]);
  });
});
