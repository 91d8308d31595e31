/**
 * Storage state (issue #18, item 5): browser_storage_state saves cookies and localStorage to a
 * file, browser_set_storage_state loads one, and --storage-state loads one before the first call.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, callOk, callToolUntyped } from '../harness.js';
import { agentOn } from '../steps.js';

async function ok(
  client: Parameters<typeof callToolUntyped>[0],
  name: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const outcome = await callToolUntyped(client, name, args);
  if (outcome.isError) throw new Error(`${name} ${JSON.stringify(args)} failed:\n${outcome.text}`);
  return outcome.text;
}

test('browser_storage_state saves cookies and localStorage to a new file, showing only its path', async ({
  bridge,
  sandbox,
  site,
}) => {
  const outputDir = path.join(sandbox.root, 'output');
  const client = await agentOn(bridge, site.url('/button.html'), {
    name: 'save-state',
    flags: ['--caps', 'storage', '--output-dir', outputDir],
  });
  await callOk(client, 'browser_evaluate', {
    function:
      '() => { document.cookie = "testCookie=testValue"; localStorage.setItem("testKey", "testValue"); }',
  });
  const saved = await ok(client, 'browser_storage_state');
  expect(saved).toMatch(/- \[Storage state\]\(.*storage-state-.*\.json\)/);
  // The agent gets the path, not the cookie values.
  expect(saved).not.toContain('testValue');
  const files = readdirSync(outputDir).filter((f) => f.startsWith('storage-state-'));
  expect(files).toHaveLength(1);
  const file = path.join(outputDir, files[0] ?? '');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const state = JSON.parse(readFileSync(file, 'utf8')) as {
    cookies: { name: string; value: string; domain: string }[];
    origins: { origin: string; localStorage: { name: string; value: string }[] }[];
  };
  expect(state.cookies).toContainEqual(
    expect.objectContaining({ name: 'testCookie', value: 'testValue', domain: '127.0.0.1' }),
  );
  expect(state.origins).toContainEqual({
    origin: new URL(site.url('/')).origin,
    localStorage: [{ name: 'testKey', value: 'testValue' }],
  });

  // A custom name goes under the output directory; an existing file is never replaced, and a
  // name that leaves the directory is refused before the browser is asked.
  expect(await ok(client, 'browser_storage_state', { filename: 'my-state.json' })).toContain(
    'my-state.json',
  );
  expect(statSync(path.join(outputDir, 'my-state.json')).isFile()).toBe(true);
  const again = await callToolUntyped(client, 'browser_storage_state', {
    filename: 'my-state.json',
  });
  expect(again.isError).toBe(true);
  expect(again.text).toContain('exists');
  const escape = await callToolUntyped(client, 'browser_storage_state', {
    filename: '../escape.json',
  });
  expect(escape.isError).toBe(true);
  expect(readdirSync(sandbox.root)).not.toContain('escape.json');
});

test('browser_set_storage_state restores cookies and localStorage, here and on another origin', async ({
  bridge,
  sandbox,
  site,
}) => {
  const outputDir = path.join(sandbox.root, 'output');
  mkdirSync(outputDir, { recursive: true });
  const here = new URL(site.url('/')).origin;
  const there = new URL(site.url('/', 'localhost')).origin;
  const stateFile = path.join(outputDir, 'state.json');
  writeFileSync(
    stateFile,
    JSON.stringify({
      cookies: [
        { name: 'restoredCookie', value: 'restoredValue', domain: '127.0.0.1', path: '/' },
        { name: 'blockedCookie', value: 'x', domain: 'blocked.test', path: '/' },
      ],
      origins: [
        { origin: here, localStorage: [{ name: 'restoredKey', value: 'restoredValue' }] },
        { origin: there, localStorage: [{ name: 'otherKey', value: 'otherValue' }] },
      ],
    }),
  );
  const client = await agentOn(bridge, site.url('/button.html'), {
    name: 'restore-state',
    flags: ['--caps', 'storage', '--output-dir', outputDir, '--blocked-origins', 'blocked.test'],
  });
  await callOk(client, 'browser_evaluate', {
    function: '() => { document.cookie = "stale=1"; localStorage.setItem("stale", "1"); }',
  });
  const before = site.requests.length;
  const restored = await ok(client, 'browser_set_storage_state', { filename: stateFile });
  // The site is never asked for anything; the browser's own late fetch of the icon of the page
  // loaded above is not the restore's doing.
  expect(site.requests.slice(before).filter((r) => r !== 'GET /favicon.ico')).toEqual([]);
  expect(restored).toContain('Storage state restored');
  expect(restored).toContain('cookie blockedCookie of blocked.test');

  const page = await callOk(client, 'browser_evaluate', {
    function:
      '() => document.cookie + "|" + Object.keys(localStorage).join(",") + "|" + localStorage.getItem("restoredKey")',
  });
  expect(page.text).toContain('restoredCookie=restoredValue|restoredKey|restoredValue');
  expect(page.text).not.toContain('stale');

  // The other origin's storage was written without the site being asked for a page.
  await callOk(client, 'browser_navigate', { url: site.url('/button.html', 'localhost') });
  const other = await callOk(client, 'browser_evaluate', {
    function: '() => localStorage.getItem("otherKey")',
  });
  expect(other.text).toContain('otherValue');

  // Files outside the roots and output directory are refused.
  const outside = path.join(sandbox.home, 'state.json');
  writeFileSync(outside, '{"cookies":[],"origins":[]}');
  const refused = await callToolUntyped(client, 'browser_set_storage_state', { filename: outside });
  expect(refused.isError).toBe(true);
  expect(refused.text).toContain('outside the allowed directories');
});

test('save and restore round trip', async ({ bridge, sandbox, site }) => {
  const outputDir = path.join(sandbox.root, 'output');
  const client = await agentOn(bridge, site.url('/button.html'), {
    name: 'roundtrip',
    flags: ['--caps', 'storage', '--output-dir', outputDir],
  });
  await callOk(client, 'browser_evaluate', {
    function:
      '() => { document.cookie = "rt=cookieValue"; localStorage.setItem("rtKey", "rtValue"); }',
  });
  await ok(client, 'browser_storage_state', { filename: 'roundtrip.json' });
  await ok(client, 'browser_cookie_clear');
  await ok(client, 'browser_localstorage_clear');
  await ok(client, 'browser_set_storage_state', { filename: 'roundtrip.json' });
  await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
  const page = await callOk(client, 'browser_evaluate', {
    function: '() => document.cookie + "|" + localStorage.getItem("rtKey")',
  });
  expect(page.text).toContain('rt=cookieValue|rtValue');
});

test('--storage-state loads the file before the first call', async ({ bridge, sandbox, site }) => {
  const stateFile = path.join(sandbox.root, 'start-state.json');
  writeFileSync(
    stateFile,
    JSON.stringify({
      cookies: [{ name: 'startCookie', value: 'startValue', domain: '127.0.0.1', path: '/' }],
      origins: [
        {
          origin: new URL(site.url('/')).origin,
          localStorage: [{ name: 'startKey', value: 'startValue' }],
        },
      ],
    }),
  );
  // No --caps storage: the state is loaded for the user, not by an agent's tool.
  const client = await bridge.connectClient('start-state', {
    flags: ['--storage-state', stateFile],
  });
  const nav = await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
  expect(nav.text).toContain('--storage-state');
  const page = await callOk(client, 'browser_evaluate', {
    function: '() => document.cookie + "|" + localStorage.getItem("startKey")',
  });
  expect(page.text).toContain('startCookie=startValue|startValue');

  const broken = path.join(sandbox.root, 'broken.json');
  writeFileSync(broken, '{"cookies": 5}');
  const bad = await bridge.connectClient('bad-state', { flags: ['--storage-state', broken] });
  const refused = await callToolUntyped(bad, 'browser_navigate', { url: site.url('/button.html') });
  expect(refused.isError).toBe(true);
  expect(refused.text).toContain('--storage-state');
});
