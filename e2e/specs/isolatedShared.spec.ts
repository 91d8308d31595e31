/**
 * #27.2: --isolated keeps its promise (a fresh profile, nothing kept after the session) without a
 * browser per server. Isolated sessions share one Chromium, each in a browser context of its own
 * with the extension's worker inside it (docs/isolated.md); a session key finds its session
 * again; the shared browser goes soon after the last session (the harness sets its linger to 1 s).
 */
import { existsSync } from 'node:fs';
import { callOk, expect, test, type Sandbox } from '../harness.js';
import { CHROME_PATH } from '@browser-agent/testkit/workspace';
import { waitUntil } from '@browser-agent/testkit/procfs';

const ISOLATED = ['--launch', '--headless', '--isolated', '--executable-path', CHROME_PATH];

/** Chromium's browser processes (its helpers carry --type=), with their profiles. */
function browsers(sandbox: Sandbox): { pid: number; profile: string }[] {
  return sandbox.ownProcesses().flatMap((p) => {
    const profile = /--user-data-dir=(\S+)/.exec(p.cmdline)?.[1];
    return profile === undefined || p.cmdline.includes('--type=') ? [] : [{ pid: p.pid, profile }];
  });
}

test('isolated sessions share one browser, each in a context of its own, and it goes after the last', async ({
  sandbox,
  site,
}) => {
  const url = site.url('/button.html');
  const first = await sandbox.startServer({ name: 'isolated-1', flags: ISOLATED });
  await callOk(first, 'browser_navigate', { url });
  await callOk(first, 'browser_evaluate', {
    function: "() => { document.cookie = 'jar=first'; localStorage.setItem('owner', 'first'); }",
  });
  const second = await sandbox.startServer({ name: 'isolated-2', flags: ISOLATED });
  await callOk(second, 'browser_navigate', { url: site.url('/form.html') });

  const running = browsers(sandbox);
  expect(running, 'one Chromium for both sessions').toHaveLength(1);
  const profile = running[0]?.profile;
  expect(profile).toContain('browser-agent-profile-');

  // Neither sees the other's cookies, storage or tabs.
  await callOk(second, 'browser_navigate', { url });
  const seen = await callOk(second, 'browser_evaluate', {
    function: "() => `${document.cookie}|${String(localStorage.getItem('owner'))}`",
  });
  expect(seen.text).toContain('|null');
  expect(seen.text).not.toContain('first');
  const tabs = (await callOk(second, 'browser_tabs', { action: 'list' })).text;
  expect(tabs.match(/button\.html/g), 'only its own tab').toHaveLength(1);

  // The first session goes: its context with it; the second goes on in the same browser.
  await first.close();
  const clicked = await callOk(second, 'browser_evaluate', { function: '() => location.pathname' });
  expect(clicked.text).toContain('/button.html');
  expect(browsers(sandbox).map((b) => b.pid)).toEqual(running.map((b) => b.pid));

  // A session started after it finds the browser warm, and none of the first one's cookies.
  const third = await sandbox.startServer({ name: 'isolated-3', flags: ISOLATED });
  await callOk(third, 'browser_navigate', { url });
  const fresh = await callOk(third, 'browser_evaluate', { function: '() => document.cookie' });
  expect(fresh.text).not.toContain('jar=first');
  expect(browsers(sandbox).map((b) => b.pid)).toEqual(running.map((b) => b.pid));

  await second.close();
  await third.close();
  // The daemons stay for their idle time; the browser does not wait for them.
  const gone = await waitUntil(() => browsers(sandbox).length === 0, 10_000);
  expect(gone, 'the shared browser closed after its last session').toBe(true);
  const removed = await waitUntil(() => profile !== undefined && !existsSync(profile), 5_000);
  expect(removed, 'its temporary profile was removed').toBe(true);
});

test('a session key finds its session again under --isolated', async ({ sandbox, site }) => {
  const env = {
    BROWSER_AGENT_SESSION_KEY: 'isolated-key',
    BROWSER_AGENT_SESSION_GRACE_MS: '20000',
  };
  const url = site.url('/button.html');
  const first = await sandbox.startServer({ name: 'keyed', flags: ISOLATED, env });
  await callOk(first, 'browser_navigate', { url });
  await first.close();
  for (let i = 0; i < 2; i++) {
    const next = await sandbox.startServer({ name: 'keyed', flags: ISOLATED, env });
    const listed = await callOk(next, 'browser_tabs', { action: 'list' });
    expect(listed.text, 'the same session, with its tab').toContain(url);
    await next.close();
  }
  expect(browsers(sandbox), 'one browser all along').toHaveLength(1);
});
