/**
 * Launch mode with Playwright MCP's browser options (#18 items 11 and 13): `--proxy-server`,
 * `browser.launchOptions.args` from the config file, `--grant-permissions`, and
 * `navigator.webdriver` hidden from pages.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CHROME_PATH } from '@browser-agent/testkit/workspace';
import { callOk, expect, test } from '../harness.js';

/** An HTTP proxy on 127.0.0.1 that answers every request itself and remembers what it saw. */
async function startAnsweringProxy(): Promise<{ url: string; seen: string[]; close(): void }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Via proxy</title><p>answered by the proxy</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => server.close() };
}

test('launch mode takes a proxy, config launch args and granted permissions; pages see no webdriver', async ({
  sandbox,
  site,
}) => {
  const proxy = await startAnsweringProxy();
  try {
    const config = path.join(sandbox.root, 'pw-launch.json');
    await writeFile(
      config,
      JSON.stringify({ browser: { launchOptions: { args: ['--user-agent=BA-Launch-Args/1.0'] } } }),
    );
    const client = await sandbox.startServer({
      name: 'pw-launch',
      flags: [
        '--launch',
        '--headless',
        '--isolated',
        '--executable-path',
        CHROME_PATH,
        '--config',
        config,
        '--proxy-server',
        proxy.url,
        '--grant-permissions',
        'geolocation,clipboard-read',
      ],
    });
    // A host that exists nowhere: only the proxy can answer it (loopback still goes direct).
    await callOk(client, 'browser_navigate', { url: 'http://proxied.invalid/page' });
    const title = await callOk(client, 'browser_evaluate', { function: '() => document.title' });
    expect(title.text).toContain('Via proxy');
    expect(proxy.seen).toContain('http://proxied.invalid/page');

    await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
    const probe = await callOk(client, 'browser_evaluate', {
      function: `async () => ({
        webdriver: navigator.webdriver,
        ua: navigator.userAgent,
        geolocation: (await navigator.permissions.query({ name: 'geolocation' })).state,
      })`,
    });
    expect(probe.text).toContain('"webdriver": false');
    expect(probe.text).toContain('BA-Launch-Args/1.0');
    expect(probe.text).toContain('"geolocation": "granted"');
    await client.close();
  } finally {
    proxy.close();
  }
});

test('a launched session starts with a blank tab: listed, read and screenshotted before any navigation', async ({
  sandbox,
}) => {
  const client = await sandbox.startServer({
    name: 'blank-start',
    flags: ['--launch', '--headless', '--isolated', '--executable-path', CHROME_PATH],
  });
  // The outline of the blank tab, like its screenshot, rather than NO_TAB (#27).
  const outline = await client.callTool({ name: 'browser_snapshot', arguments: {} });
  expect(outline.isError).not.toBe(true);
  expect(outline.structuredContent).toMatchObject({ url: 'about:blank', truncated: false });
  const shot = await callOk(client, 'browser_take_screenshot', {});
  expect(shot.images.length).toBe(1);
  expect(shot.images[0]?.mimeType).toBe('image/png');
  const tabs = await callOk(client, 'browser_tabs', { action: 'list' });
  expect(tabs.text).toContain('about:blank');
  // One tab, the same one the screenshot opened: listing does not open another.
  const structured = await client.callTool({ name: 'browser_tabs', arguments: { action: 'list' } });
  expect((structured.structuredContent as { tabs: unknown[] }).tabs).toHaveLength(1);
  await client.close();
});
