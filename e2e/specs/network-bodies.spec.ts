/**
 * Issue #3: response bodies of requests whose body the page never reads (a fire-and-forget
 * fetch, an XHR, a form POST) come back; large and binary bodies are cut or summarised.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FixtureSite } from '../fixtures/server.js';
import { callOk, expect, test, type Bridge } from '../harness.js';
import { agentOn, clickAndWaitFor } from '../steps.js';

async function requestId(client: Client, urlPart: string, method: string): Promise<string> {
  const list = await callOk(client, 'browser_network_requests', { url: urlPart, method });
  const id = new RegExp(`\\[([^\\]]+)\\] ${method} `).exec(list.text)?.[1];
  expect(id, `no ${method} ${urlPart} in:\n${list.text}`).toBeDefined();
  return id ?? '';
}

/** An agent with the network tools, on the bodies page after it pressed `button`. */
async function bodiesAfter(
  bridge: Bridge,
  site: FixtureSite,
  button: string,
  done: string,
): Promise<Client> {
  const client = await agentOn(bridge, site.url('/bodies.html'), { flags: ['--caps', 'network'] });
  await clickAndWaitFor(client, button, done);
  return client;
}

async function detailOf(client: Client, urlPart: string, method: string): Promise<string> {
  const id = await requestId(client, urlPart, method);
  return (await callOk(client, 'browser_network_request', { id })).text;
}

test('bodies of unread fetch, XHR and form POST responses are returned', async ({
  bridge,
  site,
}) => {
  const client = await bodiesAfter(bridge, site, 'Send', 'Sent');

  const viaFetch = await detailOf(client, 'via=fetch', 'POST');
  expect(viaFetch).toContain('{"hello":"fetch"}');
  expect(viaFetch).toContain('Response body (application/json):\n{"ok":true}');
  const viaXhr = await detailOf(client, 'via=xhr', 'POST');
  expect(viaXhr).toContain('{"hello":"xhr"}');
  expect(viaXhr).toContain('Response body (application/json):\n{"ok":true}');

  await clickAndWaitFor(client, 'Post form', '"ok":true');
  const form = await detailOf(client, '/api/submit', 'POST');
  expect(form).toContain('greeting=hi+form&password=[hidden]');
  expect(form).not.toContain('form-S3cret');
  expect(form).toContain('Response body (application/json):\n{"ok":true}');
});

test('a large body is truncated with a note; a binary body is summarised', async ({
  bridge,
  site,
}) => {
  const client = await bodiesAfter(bridge, site, 'Heavy', 'Heavy done');

  const large = await detailOf(client, '/api/large', 'GET');
  expect(large).toContain('{"rows":["row-00000000000000000000"');
  expect(large).toMatch(/\[… truncated \d+ more characters\]/);
  expect(large).not.toContain('row-00000000000000009999');

  const id = await requestId(client, '/api/large', 'GET');
  const wide = await callOk(client, 'browser_network_request', { id, maxBodyChars: 1_000_000 });
  expect(wide.text).toMatch(/\[… body truncated: \d+ characters in all, 200000 kept\]/);

  const binary = await detailOf(client, '/api/binary', 'GET');
  expect(binary).toMatch(/\(binary body, \d+ bytes, image\/png; not shown\)/);
  expect(binary).not.toContain('IHDR');
});
