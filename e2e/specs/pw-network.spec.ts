/**
 * Issue #18 item 6 (Playwright MCP's network habits): browser_network_requests with a regexp
 * `filter` and static resources left out unless asked, a request by its number (`index`), one
 * part of it, its body saved to a new file; browser_route / browser_route_list / browser_unroute
 * (also on a tab under an origin policy, whose guard shares the Fetch interception); and
 * browser_network_state_set offline/online.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { callOk, callTool, expect, test } from '../harness.js';
import { agentOn, clickAndWaitFor } from '../steps.js';

const NETWORK = ['--caps', 'network'];

test('requests: static left out unless asked, regexp filter, by index, one part, body to a file', async ({
  bridge,
  sandbox,
  site,
}) => {
  const outputDir = path.join(sandbox.root, 'output');
  const client = await agentOn(bridge, site.url('/pw-network.html'), {
    flags: [...NETWORK, '--output-dir', outputDir],
  });
  await clickAndWaitFor(client, 'Load', 'Got 200');

  const list = (await callOk(client, 'browser_network_requests', {})).text;
  expect(list).toMatch(
    /\d+\. \[[^\]]+\] GET http:\/\/127\.0\.0\.1:\d+\/api\/items → 200 \(Fetch\)/,
  );
  // Failed static resources stay; the successful document is left out.
  expect(list).toContain('/pw-missing.png → 404');
  expect(list).not.toContain('/pw-network.html');
  expect(list).toContain('static resources left out');

  const withStatic = (await callOk(client, 'browser_network_requests', { static: true })).text;
  expect(withStatic).toContain('/pw-network.html → 200 (Document)');
  const legacy = await callOk(client, 'browser_network_requests', { includeStatic: true });
  expect(legacy.text).toContain('/pw-network.html → 200 (Document)');

  const filtered = (await callOk(client, 'browser_network_requests', { filter: 'api/.*s$' })).text;
  expect(filtered).toContain('/api/items');
  expect(filtered).not.toContain('pw-missing');
  const bad = await callTool(client, 'browser_network_requests', { filter: '(' });
  expect(bad.isError).toBe(true);
  expect(bad.text).toContain('not a valid regular expression');

  const index = Number(/(\d+)\. \[[^\]]+\] GET \S+\/api\/items/.exec(list)?.[1]);
  expect(index).toBeGreaterThan(0);
  const detail = (await callOk(client, 'browser_network_request', { index })).text;
  expect(detail).toContain(`Request ${index} [`);
  expect(detail).toContain('{"items":["alpha","beta"]}');
  const body = (await callOk(client, 'browser_network_request', { index, part: 'response-body' }))
    .text;
  expect(body).toContain('{"items":["alpha","beta"]}');
  expect(body).not.toContain('Request headers');
  const missing = await callTool(client, 'browser_network_request', { index: 999 });
  expect(missing.isError).toBe(true);
  expect(missing.text).toContain('No request with number 999');

  const saved = await callOk(client, 'browser_network_request', { index, filename: 'items.json' });
  expect(saved.text).toContain('Response body saved to');
  expect(saved.text).not.toContain('"alpha"');
  expect(await readFile(path.join(outputDir, 'items.json'), 'utf8')).toBe(
    '{"items":["alpha","beta"]}',
  );
  const again = await callTool(client, 'browser_network_request', {
    index,
    filename: 'items.json',
  });
  expect(again.isError).toBe(true);
  expect(again.text).toContain('a file of that name exists');

  const listed = await callOk(client, 'browser_network_requests', { filename: 'requests.log' });
  expect(listed.text).toContain('Saved to');
  expect(await readFile(path.join(outputDir, 'requests.log'), 'utf8')).toContain('/api/items');
  expect(await readdir(outputDir)).toEqual(expect.arrayContaining(['items.json', 'requests.log']));
});

test('routes mock matching requests until removed', async ({ bridge, site }) => {
  const client = await agentOn(bridge, site.url('/pw-network.html'), { flags: NETWORK });
  expect((await callOk(client, 'browser_route_list', {})).text).toContain('No active routes');

  const added = await callOk(client, 'browser_route', {
    pattern: '**/api/items',
    status: 418,
    body: '{"mocked":true}',
    contentType: 'application/json',
  });
  expect(added.text).toContain('Route added for pattern: **/api/items');
  await callOk(client, 'browser_route', { pattern: '**/*.css', headers: ['X-Test: 1'] });
  const routes = (await callOk(client, 'browser_route_list', {})).text;
  expect(routes).toContain('1. **/api/items (status=418, body="{\\"mocked\\":true}"');
  expect(routes).toContain('2. **/*.css (addHeaders={"X-Test":"1"})');

  await clickAndWaitFor(client, 'Load', 'Got 418 {"mocked":true}');
  const before = site.requests.filter((r) => r.startsWith('GET /api/items')).length;

  const removed = await callOk(client, 'browser_unroute', { pattern: '**/api/items' });
  expect(removed.text).toContain('Removed 1 route(s)');
  await clickAndWaitFor(client, 'Load', 'Got 200');
  expect(site.requests.filter((r) => r.startsWith('GET /api/items')).length).toBe(before + 1);
  await callOk(client, 'browser_unroute', {});
  expect((await callOk(client, 'browser_route_list', {})).text).toContain('No active routes');
  await expect(
    callTool(client, 'browser_route', { pattern: '**/x', headers: ['no colon'] }),
  ).resolves.toMatchObject({ isError: true });
});

test('routes compose with the origin guard: mocked requests answered, blocked documents still blocked', async ({
  bridge,
  site,
}) => {
  const client = await agentOn(bridge, site.url('/pw-network.html'), {
    flags: [...NETWORK, '--allowed-origins', site.origin],
  });
  await callOk(client, 'browser_route', { pattern: '**/api/items', body: 'from route' });
  await callOk(client, 'browser_route', { pattern: '**/titled*', body: '<h1>Mocked page</h1>' });
  await clickAndWaitFor(client, 'Load', 'Got 200 from route');
  // A routed document of an allowed origin is answered by the route…
  await callOk(client, 'browser_navigate', { url: site.url('/titled?title=Real') });
  expect((await callOk(client, 'browser_snapshot', {})).text).toContain('Mocked page');
  expect(site.requests.some((r) => r.includes('title=Real'))).toBe(false);
  // …and one of another origin is still refused by the guard, routed or not.
  const blocked = await callTool(client, 'browser_navigate', {
    url: site.url('/titled?title=Other', 'localhost'),
  });
  expect(blocked.isError).toBe(true);
  expect(site.requests.some((r) => r.includes('title=Other'))).toBe(false);
});

test('browser_network_state_set takes the tabs offline and back', async ({ bridge, site }) => {
  const client = await agentOn(bridge, site.url('/pw-network.html'), { flags: NETWORK });
  const off = await callOk(client, 'browser_network_state_set', { state: 'offline' });
  expect(off.text).toContain('Network is now offline');
  const failed = await callTool(client, 'browser_navigate', { url: site.url('/titled?title=Off') });
  expect(failed.isError).toBe(true);
  expect(failed.text).toContain('ERR_INTERNET_DISCONNECTED');
  const on = await callOk(client, 'browser_network_state_set', { state: 'online' });
  expect(on.text).toContain('Network is now online');
  const back = await callOk(client, 'browser_navigate', { url: site.url('/titled?title=Back') });
  expect(back.text).toContain('Back');
});
