/**
 * `data:` URLs are allowed by the URL policy, so navigating to one must show it. (Every one
 * failed with net::ERR_ABORTED: Chromium does not let an extension's debugger open them.)
 */
import { callOk, expect, findRef, snapshot, test } from '../harness.js';
import { CHROME_PATH } from '@browser-agent/testkit/workspace';

test('browser_navigate opens data: URLs, HTML (scripts run) and base64 text, and says where they are', async ({
  sandbox,
}) => {
  const client = await sandbox.startServer({
    name: 'data-url',
    flags: ['--launch', '--headless', '--isolated', '--executable-path', CHROME_PATH],
  });
  const html =
    '<title>Inline</title><h1>Made inline</h1><button onclick="this.textContent=\'Pressed\'">Press here</button>' +
    '<script>document.body.append("script ran")</script>';
  const nav = await callOk(client, 'browser_navigate', {
    url: `data:text/html,${encodeURIComponent(html)}`,
  });
  expect(nav.text).toContain('- Page Title: "Inline"');
  expect(nav.text).toContain('about:blank');
  const snap = await snapshot(client);
  expect(snap).toContain('Made inline');
  expect(snap).toContain('script ran');
  await callOk(client, 'browser_click', { ref: findRef(snap, 'button', 'Press here') });
  expect(await snapshot(client)).toContain('Pressed');

  const text = Buffer.from('plain text, ünïcode', 'utf8').toString('base64');
  await callOk(client, 'browser_navigate', { url: `data:text/plain;charset=utf-8;base64,${text}` });
  expect(await snapshot(client)).toContain('plain text, ünïcode');
});
