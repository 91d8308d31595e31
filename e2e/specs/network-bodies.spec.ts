/**
 * Issue #3: response bodies of requests whose body the page never reads (a fire-and-forget
 * fetch, an XHR, a form POST) come back; large and binary bodies are cut or summarised.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callOk, expect, test } from '../harness.js';

async function requestId(client: Client, urlPart: string, method: string): Promise<string> {
  const list = await callOk(client, 'browser_network_requests', { url: urlPart, method });
  const id = new RegExp(`\\[([^\\]]+)\\] ${method} `).exec(list.text)?.[1];
  expect(id, `no ${method} ${urlPart} in:\n${list.text}`).toBeDefined();
  return id ?? '';
}

async function detailOf(client: Client, urlPart: string, method: string): Promise<string> {
  const id = await requestId(client, urlPart, method);
  return (await callOk(client, 'browser_network_request', { id })).text;
}

test('bodies of unread fetch, XHR and form POST responses are returned', async ({
  bridge,
  site,
  sandbox,
}) => {
  const client = await sandbox.startServer({ flags: ['--caps', 'network'] });
  await bridge.expectRelayState('connected');
  await callOk(client, 'browser_navigate', { url: site.url('/bodies.html') });
  await callOk(client, 'browser_click', { role: 'button', name: 'Send' });
  await callOk(client, 'browser_wait_for', { text: 'Sent' });

  const viaFetch = await detailOf(client, 'via=fetch', 'POST');
  expect(viaFetch).toContain('{"hello":"fetch"}');
  expect(viaFetch).toContain('Response body (application/json):\n{"ok":true}');
  const viaXhr = await detailOf(client, 'via=xhr', 'POST');
  expect(viaXhr).toContain('{"hello":"xhr"}');
  expect(viaXhr).toContain('Response body (application/json):\n{"ok":true}');

  await callOk(client, 'browser_click', { role: 'button', name: 'Post form' });
  await callOk(client, 'browser_wait_for', { text: '"ok":true' });
  const form = await detailOf(client, '/api/submit', 'POST');
  expect(form).toContain('greeting=hi+form&password=[hidden]');
  expect(form).not.toContain('form-S3cret');
  expect(form).toContain('Response body (application/json):\n{"ok":true}');
});

test('a large body is truncated with a note; a binary body is summarised', async ({
  bridge,
  site,
  sandbox,
}) => {
  const client = await sandbox.startServer({ flags: ['--caps', 'network'] });
  await bridge.expectRelayState('connected');
  await callOk(client, 'browser_navigate', { url: site.url('/bodies.html') });
  await callOk(client, 'browser_click', { role: 'button', name: 'Heavy' });
  await callOk(client, 'browser_wait_for', { text: 'Heavy done' });

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
