/**
 * Screenshots as Playwright MCP users take them (#18 item 13): `--image-responses omit` leaves
 * the image out of the result (the file is still written), and a bare filename goes to the
 * private output directory under the state directory (never the client's root, #25) when no
 * output directory is set.
 */
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { callOk, callTool, expect, test } from '../harness.js';

test('--image-responses omit: no image in the result, the screenshot still saved', async ({
  bridge,
  sandbox,
  site,
}) => {
  const out = path.join(sandbox.root, 'shots');
  const client = await bridge.connectClient('omit-images', {
    flags: ['--image-responses', 'omit', '--output-dir', out],
  });
  await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
  const shot = await callOk(client, 'browser_take_screenshot', {});
  expect(shot.images).toEqual([]);
  expect(shot.text).toContain('left out of this response (--image-responses omit)');
  const saved = /Saved to (\S+\.png)/.exec(shot.text)?.[1];
  expect(saved, shot.text).toBeDefined();
  expect((await stat(saved ?? '')).size).toBeGreaterThan(100);
  expect(path.dirname(saved ?? '')).toBe(out);
});

test('a bare screenshot filename is written in the private output directory, never the client root', async ({
  bridge,
  sandbox,
  site,
}) => {
  const root = path.join(sandbox.root, 'workspace');
  await mkdir(root, { recursive: true });
  const client = await bridge.connectClient('bare-name', { roots: [root] });
  await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
  const shot = await callOk(client, 'browser_take_screenshot', { filename: 'bare.png' });
  expect(shot.images.length).toBe(1);
  expect(shot.text).toContain(`Saved to ${path.join(sandbox.home, 'output', 'bare.png')}`);
  expect(await readdir(root)).toEqual([]);
  // No directory is made for a nested name.
  const nested = await callTool(client, 'browser_take_screenshot', { filename: 'sub/x.png' });
  expect(nested.isError).toBe(true);
  expect(nested.text).toContain('does not exist');
});

test('a webp screenshot comes back as image/webp and is saved with its extension', async ({
  bridge,
  sandbox,
  site,
}) => {
  const out = path.join(sandbox.root, 'webp-shots');
  const client = await bridge.connectClient('webp', { flags: ['--output-dir', out] });
  await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
  const shot = await callOk(client, 'browser_take_screenshot', { type: 'webp', filename: 'page' });
  expect(shot.images[0]?.mimeType).toBe('image/webp');
  // RIFF....WEBP: the bytes are webp, not a png under another name.
  const bytes = Buffer.from(shot.images[0]?.data ?? '', 'base64');
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
  expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
  const saved = /Saved to (\S+)/.exec(shot.text)?.[1] ?? '';
  expect(saved.endsWith('.webp'), shot.text).toBe(true);
  expect(await readdir(out)).toEqual([path.basename(saved)]);
});
