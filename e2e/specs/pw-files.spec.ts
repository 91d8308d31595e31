/**
 * Issue #18, item 8: the file chooser as a modal state, and dropping files or data on an element.
 * Clicking a file input (or a button that clicks a hidden one) opens a chooser that every result
 * lists; browser_file_upload without a target answers it (paths still checked against the
 * client's roots) or, without paths, cancels it. browser_drop (group `testing`) drops files or
 * MIME-typed text as if dragged in from outside the page.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode } from '@browser-agent/protocol';
import { callOk, callTool, callToolUntyped, expect, test } from '../harness.js';
import { agentOn } from '../steps.js';

const CHOOSER_LINE = '- [File chooser for a file]: call browser_file_upload';

test('a clicked file input opens a chooser that browser_file_upload without a target answers', async ({
  bridge,
  site,
  sandbox,
}) => {
  const url = site.url('/pw-files.html');
  const client = await agentOn(bridge, url, { roots: [sandbox.root] });
  const page = await bridge.pageWithUrl(url);
  const file = path.join(sandbox.root, 'notes.txt');
  await writeFile(file, 'hello chooser');

  const none = await callTool(client, 'browser_file_upload', { paths: [file] });
  expect(none.isError).toBe(true);
  expect(none.text).toContain('No file chooser is open');

  const clicked = await callOk(client, 'browser_click', { selector: '#file' });
  expect(clicked.text).toContain(`### Modal state\n${CHOOSER_LINE}`);
  // Still listed with the next result, whatever it was.
  expect((await callOk(client, 'browser_snapshot', {})).text).toContain(CHOOSER_LINE);

  // A path outside the client's roots is refused before the browser is asked; the chooser stays.
  const outsideDir = await mkdtemp(path.join(os.tmpdir(), 'ba-outside-'));
  const outside = path.join(outsideDir, 'secret.txt');
  await writeFile(outside, 'not yours');
  const refused = await callTool(client, 'browser_file_upload', { paths: [outside] });
  await rm(outsideDir, { recursive: true, force: true });
  expect(refused.isError).toBe(true);
  expect(refused.text).toContain('outside the allowed directories');
  expect((await callOk(client, 'browser_snapshot', {})).text).toContain(CHOOSER_LINE);

  const uploaded = await callOk(client, 'browser_file_upload', { paths: [file] });
  expect(uploaded.text).toContain('Set "notes.txt" on the file chooser for the page at');
  expect(uploaded.text).not.toContain('File chooser for');
  await expect(page.locator('#names')).toHaveText('notes.txt:13');
});

test('a button that clicks a hidden input opens its chooser; no paths cancels it', async ({
  bridge,
  site,
  sandbox,
}) => {
  const url = site.url('/pw-files.html');
  const client = await agentOn(bridge, url, { roots: [sandbox.root] });
  const page = await bridge.pageWithUrl(url);
  const a = path.join(sandbox.root, 'a.txt');
  const b = path.join(sandbox.root, 'b.txt');
  await writeFile(a, 'aa');
  await writeFile(b, 'bbb');

  const clicked = await callOk(client, 'browser_click', { role: 'button', name: 'Add photos' });
  expect(clicked.text).toContain('- [File chooser for files]');
  const cancelled = await callOk(client, 'browser_file_upload', {});
  expect(cancelled.text).toContain('Cancelled the file chooser');
  expect(cancelled.text).not.toContain('File chooser for');
  await expect(page.locator('#names')).toHaveText('none');

  await callOk(client, 'browser_click', { role: 'button', name: 'Add photos' });
  await callOk(client, 'browser_file_upload', { paths: [a, b] });
  await expect(page.locator('#names')).toHaveText('a.txt:2, b.txt:3');
});

test('browser_drop drops files and MIME-typed data on an element', async ({
  bridge,
  site,
  sandbox,
}) => {
  const url = site.url('/pw-files.html');
  const client = await agentOn(bridge, url, {
    roots: [sandbox.root],
    flags: ['--caps', 'testing'],
  });
  const page = await bridge.pageWithUrl(url);
  const file = path.join(sandbox.root, 'drop-me.txt');
  await writeFile(file, 'hello');
  const zone = { role: 'region', name: 'Drop zone' };

  const dropped = await callOk(client, 'browser_drop', { ...zone, paths: [file] });
  expect(dropped.text).toContain('Dropped "drop-me.txt" on region "Drop zone"');
  await expect(page.locator('#dropped')).toHaveText('file drop-me.txt=hello');

  await callOk(client, 'browser_drop', {
    ...zone,
    data: { 'text/plain': 'hello world', 'text/uri-list': 'https://example.com/' },
  });
  await expect(page.locator('#dropped')).toHaveText(
    'text/plain=hello world; text/uri-list=https://example.com/',
  );

  const nothing = await callToolUntyped(client, 'browser_drop', zone);
  expect(nothing.isError).toBe(true);
  expect(nothing.text).toContain(ErrorCode.INVALID_ARGS);
  expect(nothing.text).toContain('at least one of "paths" or "data" must be provided');
});
