/**
 * The last gaps of #18 against Playwright MCP: screenshots in CSS pixels (its `scale`) on a
 * high-DPR page, `--save-session`, and upload paths relative to the client's first root.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, callOk, callTool, callToolUntyped } from '../harness.js';
import { agentOn } from '../steps.js';

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(base64: string): { width: number; height: number } {
  const bytes = Buffer.from(base64, 'base64');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test('screenshots are in CSS pixels by default and in device pixels with scale device', async ({
  bridge,
  site,
}) => {
  const client = await bridge.connectClient('dpr-client', {
    flags: ['--viewport', '400x300', '--mobile'],
  });
  await callOk(client, 'browser_navigate', { url: site.url('/dpr.html') });
  const probe = await callOk(client, 'browser_evaluate', {
    function: '() => ({ w: innerWidth, h: innerHeight, dpr: devicePixelRatio })',
  });
  expect(probe.text).toContain('"dpr": 2');
  const w = Number(/"w": (\d+)/.exec(probe.text)?.[1]);
  const h = Number(/"h": (\d+)/.exec(probe.text)?.[1]);
  expect(w).toBeGreaterThan(100);

  const css = await callOk(client, 'browser_take_screenshot', {});
  expect(pngSize(css.images[0]?.data ?? '')).toEqual({ width: w, height: h });
  expect(css.text).toContain(`${w}×${h} px`);
  const explicit = await callToolUntyped(client, 'browser_take_screenshot', { scale: 'css' });
  expect(pngSize(explicit.images[0]?.data ?? '')).toEqual({ width: w, height: h });

  const device = await callToolUntyped(client, 'browser_take_screenshot', { scale: 'device' });
  expect(device.isError).toBe(false);
  expect(pngSize(device.images[0]?.data ?? '')).toEqual({ width: 2 * w, height: 2 * h });
  expect(device.text).toContain(`${2 * w}×${2 * h} px`);
});

test('--save-session logs every call to a new 0600 file, with no secret or secret-field text', async ({
  bridge,
  sandbox,
  site,
}) => {
  const out = path.join(sandbox.root, 'out');
  const secrets = path.join(sandbox.root, 'secrets.env');
  writeFileSync(secrets, 'API_KEY=sk-live-4242\n');
  const flags = ['--save-session', '--output-dir', out, '--secrets', secrets];
  const client = await bridge.connectClient('session-log', { flags });
  await callOk(client, 'browser_navigate', { url: site.url('/login.html') });
  await callOk(client, 'browser_type', { role: 'textbox', name: 'User', text: 'alice-user' });
  await callOk(client, 'browser_type', { selector: 'input[name=pw]', text: 'typed-pass-9' });
  await callOk(client, 'browser_type', { role: 'textbox', name: 'Search', text: 'API_KEY' });
  const leaked = await callOk(client, 'browser_evaluate', {
    function: "() => document.querySelector('input[name=q]').value",
  });
  expect(leaked.text).toContain('<secret>API_KEY</secret>');
  const failed = await callToolUntyped(client, 'browser_click', { ref: 'e9999' });
  expect(failed.isError).toBe(true);

  const logs = (): string[] => readdirSync(out).filter((f) => /^session-.*\.md$/.test(f));
  await expect.poll(() => logs().length).toBe(1);
  const file = path.join(out, logs()[0] ?? '');
  await expect.poll(() => readFileSync(file, 'utf8')).toContain('## 6. browser_click (error, ');
  const log = readFileSync(file, 'utf8');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(log).toContain('## 1. browser_navigate (ok, ');
  expect(log).toContain(site.url('/login.html'));
  // Text the result echoed is logged; a password field's text is not; a secret stays a name.
  expect(log).toContain('"text": "alice-user"');
  expect(log).not.toContain('typed-pass-9');
  expect(log).toContain('"text": "[redacted]"');
  expect(log).toContain('<secret>API_KEY</secret>');
  expect(log).not.toContain('sk-live-4242');
  expect(log).toMatch(/Started \d{4}-\d\d-\d\dT/);

  // A second session writes its own file; the first one is left as it was.
  const second = await bridge.connectClient('session-log-2', { flags });
  await callOk(second, 'browser_tabs', { action: 'list' });
  await expect.poll(() => logs().length).toBe(2);
  expect(readFileSync(file, 'utf8')).toBe(log);
});

test('browser_file_upload resolves a relative path against the client root and still checks it', async ({
  bridge,
  site,
  sandbox,
}) => {
  const root = path.join(sandbox.root, 'client-root');
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  writeFileSync(path.join(root, 'docs', 'report.txt'), 'relative upload');
  writeFileSync(path.join(root, '.env'), 'TOKEN=1');
  writeFileSync(path.join(sandbox.root, 'beside.txt'), 'outside the root');
  const url = site.url('/pw-files.html');
  const client = await agentOn(bridge, url, { roots: [root] });
  const page = await bridge.pageWithUrl(url);

  const escaped = await callTool(client, 'browser_file_upload', {
    selector: '#file',
    paths: ['../beside.txt'],
  });
  expect(escaped.isError).toBe(true);
  expect(escaped.text).toContain('outside the allowed directories');
  const hidden = await callTool(client, 'browser_file_upload', {
    selector: '#file',
    paths: ['.env'],
  });
  expect(hidden.isError).toBe(true);
  expect(hidden.text).toContain('hidden');
  await expect(page.locator('#names')).toHaveText('none');

  await callOk(client, 'browser_file_upload', { selector: '#file', paths: ['docs/report.txt'] });
  await expect(page.locator('#names')).toHaveText('report.txt:15');
});
