/**
 * Playwright MCP's storage tools (issue #18, item 2), behind `--caps storage`: the Web Storage
 * verbs of the current page and cookies of the session's sites, through a real MCP client.
 */
import { test, expect, callOk, callToolUntyped } from '../harness.js';
import { agentOn } from '../steps.js';

const CAPS = { flags: ['--caps', 'storage'] };

async function ok(
  client: Parameters<typeof callToolUntyped>[0],
  name: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const outcome = await callToolUntyped(client, name, args);
  if (outcome.isError) throw new Error(`${name} ${JSON.stringify(args)} failed:\n${outcome.text}`);
  return outcome.text;
}

test('the storage tools are listed only with --caps storage', async ({ bridge }) => {
  const plain = await bridge.connectClient('plain');
  const names = (await plain.listTools()).tools.map((t) => t.name);
  expect(names).not.toContain('browser_localstorage_list');
  expect(names).not.toContain('browser_cookie_list');
  const unknown = await callToolUntyped(plain, 'browser_cookie_list', {});
  expect(unknown.isError).toBe(true);
  const withCaps = await bridge.connectClient('caps', CAPS);
  const listed = (await withCaps.listTools()).tools.map((t) => t.name);
  for (const verb of ['list', 'get', 'set', 'delete', 'clear']) {
    expect(listed).toContain(`browser_localstorage_${verb}`);
    expect(listed).toContain(`browser_sessionstorage_${verb}`);
    expect(listed).toContain(`browser_cookie_${verb}`);
  }
  expect(listed).toContain('browser_storage');
});

test('localStorage and sessionStorage: list, get, set, delete, clear, kept apart', async ({
  bridge,
  site,
}) => {
  const client = await agentOn(bridge, site.url('/button.html'), { name: 'webstorage', ...CAPS });
  expect(await ok(client, 'browser_localstorage_list')).toBe('No localStorage items found');
  expect(await ok(client, 'browser_sessionstorage_list')).toBe('No sessionStorage items found');

  await ok(client, 'browser_localstorage_set', { key: 'k1', value: 'v1' });
  await ok(client, 'browser_localstorage_set', { key: 'shared', value: 'local' });
  await ok(client, 'browser_sessionstorage_set', { key: 'shared', value: 'session' });

  const list = await ok(client, 'browser_localstorage_list');
  expect(list).toContain('k1=v1');
  expect(list).toContain('shared=local');
  expect(list).toContain('untrusted page content');
  expect(await ok(client, 'browser_sessionstorage_get', { key: 'shared' })).toContain(
    'shared=session',
  );
  // The page sees what the tools set, in its own storage.
  const seen = await callOk(client, 'browser_evaluate', {
    function: '() => localStorage.getItem("k1") + "|" + sessionStorage.getItem("shared")',
  });
  expect(seen.text).toContain('v1|session');

  await ok(client, 'browser_localstorage_delete', { key: 'k1' });
  expect(await ok(client, 'browser_localstorage_get', { key: 'k1' })).toContain('not found');
  await ok(client, 'browser_localstorage_clear');
  expect(await ok(client, 'browser_localstorage_list')).toBe('No localStorage items found');
  // Clearing localStorage leaves sessionStorage alone.
  expect(await ok(client, 'browser_sessionstorage_get', { key: 'shared' })).toContain(
    'shared=session',
  );
  await ok(client, 'browser_sessionstorage_clear');
  expect(await ok(client, 'browser_sessionstorage_list')).toBe('No sessionStorage items found');

  // The older all-in-one tool still works.
  await ok(client, 'browser_localstorage_set', { key: 'old', value: 'tool' });
  expect(await ok(client, 'browser_storage', { area: 'local' })).toContain('"old": "tool"');
});

test('cookies: set with attributes, get, list with filters, delete, clear', async ({
  bridge,
  site,
}) => {
  const client = await agentOn(bridge, site.url('/button.html'), { name: 'cookies', ...CAPS });
  expect(await ok(client, 'browser_cookie_list')).toBe('No cookies found');

  await ok(client, 'browser_cookie_set', { name: 'cookie1', value: 'value1' });
  await ok(client, 'browser_cookie_set', { name: 'cookie2', value: 'value2' });
  const future = Math.floor(Date.now() / 1000) + 3600;
  await ok(client, 'browser_cookie_set', {
    name: 'full',
    value: 'fullValue',
    path: '/test',
    expires: future,
    httpOnly: true,
    secure: false,
    sameSite: 'Lax',
  });

  const list = await ok(client, 'browser_cookie_list');
  expect(list).toContain('cookie1=value1 (domain: 127.0.0.1, path: /)');
  expect(list).toContain('cookie2=value2');
  expect(list).toContain('full=fullValue (domain: 127.0.0.1, path: /test)');
  expect(await ok(client, 'browser_cookie_list', { domain: '127.0.0' })).toContain('cookie1');
  expect(await ok(client, 'browser_cookie_list', { domain: 'nonexistent.com' })).toBe(
    'No cookies found',
  );
  const byPath = await ok(client, 'browser_cookie_list', { path: '/test' });
  expect(byPath).toContain('full=fullValue');
  expect(byPath).not.toContain('cookie1');

  const full = await ok(client, 'browser_cookie_get', { name: 'full' });
  expect(full).toContain('full=fullValue');
  expect(full).toContain('httpOnly: true');
  expect(full).toContain('sameSite: Lax');
  expect(await ok(client, 'browser_cookie_get', { name: 'nope' })).toContain('not found');

  // The page's own requests carry them (httpOnly ones are not visible to its script).
  const seen = await callOk(client, 'browser_evaluate', { function: '() => document.cookie' });
  expect(seen.text).toContain('cookie1=value1');
  expect(seen.text).not.toContain('full=');

  await ok(client, 'browser_cookie_delete', { name: 'nonexistent' });
  await ok(client, 'browser_cookie_delete', { name: 'cookie1' });
  expect(await ok(client, 'browser_cookie_get', { name: 'cookie1' })).toContain('not found');
  expect(await ok(client, 'browser_cookie_get', { name: 'cookie2' })).toContain('cookie2=value2');

  await ok(client, 'browser_cookie_clear');
  expect(await ok(client, 'browser_cookie_list')).toBe('No cookies found');
});

test('cookies of sites the session has no tab on are neither shown, set nor cleared', async ({
  bridge,
  site,
}) => {
  // Another agent's site (a different host: localhost) holds a cookie.
  const other = await agentOn(bridge, site.url('/button.html', 'localhost'), {
    name: 'other',
    ...CAPS,
  });
  await ok(other, 'browser_cookie_set', { name: 'theirs', value: 'private' });

  const client = await agentOn(bridge, site.url('/button.html'), { name: 'scoped', ...CAPS });
  await ok(client, 'browser_cookie_set', { name: 'mine', value: 'v' });
  const list = await ok(client, 'browser_cookie_list');
  expect(list).toContain('mine=v');
  expect(list).not.toContain('private');
  expect(await ok(client, 'browser_cookie_get', { name: 'theirs' })).toContain('not found');

  const refused = await callToolUntyped(client, 'browser_cookie_set', {
    name: 'planted',
    value: 'x',
    domain: 'localhost',
  });
  expect(refused.isError).toBe(true);
  expect(refused.text).toContain('Navigate to the site first');

  await ok(client, 'browser_cookie_clear');
  expect(await ok(other, 'browser_cookie_get', { name: 'theirs' })).toContain('theirs=private');
});
