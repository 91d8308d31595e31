/**
 * Issue #18, item 13 (elements and snapshots): browser_evaluate of a plain expression, `/re/i`
 * literals in browser_find, <input type=range> in browser_fill_form, the `[active]` focus marker,
 * snapshot `boxes` and `filename`, and refs for text found in the outline.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode } from '@browser-agent/protocol';
import { callOk, callTool, callToolUntyped, expect, findRef, snapshot, test } from '../harness.js';
import { agentOn } from '../steps.js';

test('evaluate takes a plain expression or statements as well as a function', async ({
  bridge,
  site,
}) => {
  const client = await agentOn(bridge, site.url('/pw-snapshot.html'));
  expect((await callOk(client, 'browser_evaluate', { function: 'document.title' })).text).toContain(
    '"Snapshot page"',
  );
  expect(
    (await callOk(client, 'browser_evaluate', { function: '() => document.title.length' })).text,
  ).toContain('13');
  expect(
    (await callOk(client, 'browser_evaluate', { function: 'const a = 20; a + 22' })).text,
  ).toContain('42');
  const threw = await callTool(client, 'browser_evaluate', { function: 'nonExistentVariable' });
  expect(threw.isError).toBe(true);
  expect(threw.text).toContain('nonExistentVariable is not defined');
});

test('find: a /re/flags literal keeps its flags; a text line gets the ref that clicks it', async ({
  bridge,
  site,
}) => {
  const url = site.url('/pw-snapshot.html');
  const client = await agentOn(bridge, url);
  const page = await bridge.pageWithUrl(url);
  expect(
    (await callOk(client, 'browser_find', { regex: '/^- listitem: apples$/i' })).text,
  ).toContain('1 hit(s)');
  expect((await callOk(client, 'browser_find', { regex: '/listitem: apples/' })).text).toContain(
    'No line of the page outline matches.',
  );
  // The bare form stays as it was: any case.
  expect((await callOk(client, 'browser_find', { regex: 'BANANAS' })).text).toContain('1 hit(s)');

  const found = await callOk(client, 'browser_find', { text: 'Plain text item' });
  const ref = /ref: (e\d+) \(the element showing this text\)/.exec(found.text)?.[1];
  expect(ref, found.text).toBeDefined();
  await callOk(client, 'browser_click', { ref: ref ?? '' });
  await expect(page.locator('#picked')).toHaveText('picked Plain text item');
});

test('fill_form sets a range input; the focused element is marked [active]', async ({
  bridge,
  site,
}) => {
  const url = site.url('/pw-snapshot.html');
  const client = await agentOn(bridge, url);
  const page = await bridge.pageWithUrl(url);
  const before = await snapshot(client);
  expect(before).not.toContain('[active]');
  const volume = findRef(before, 'slider', 'Volume');
  const filled = await callOk(client, 'browser_fill_form', {
    fields: [{ ref: volume, value: '75' }],
  });
  expect(filled.text).toContain(`- Set slider "Volume" [${volume}] to "75".`);
  await expect(page.locator('#volume')).toHaveText('volume 75');
  const bad = await callTool(client, 'browser_fill_form', {
    fields: [{ ref: volume, value: 'loud' }],
  });
  expect(bad.text).toContain(ErrorCode.INVALID_ARGS);

  const search = findRef(before, 'textbox', 'Search');
  await callOk(client, 'browser_click', { ref: search });
  const after = await snapshot(client);
  expect(after).toContain(`- textbox "Search" [${search}] [active]`);
  expect(after.match(/\[active\]/g)).toHaveLength(1);
});

test('snapshot boxes give viewport CSS px; filename saves a new file in the output dir', async ({
  bridge,
  site,
  sandbox,
}) => {
  const outputDir = path.join(sandbox.root, 'out');
  const client = await agentOn(bridge, site.url('/pw-snapshot.html'), {
    flags: ['--output-dir', outputDir],
  });
  const boxed = (await callOk(client, 'browser_snapshot', { boxes: true })).text;
  expect(boxed).toMatch(/- button "Boxed" \[e\d+\] \[box=300,400,100,40\]/);

  const first = await callOk(client, 'browser_snapshot', { filename: 'page.md' });
  const saved = path.join(outputDir, 'page.md');
  expect(first.text).toContain(`Saved the snapshot (`);
  expect(first.text).toContain(`to ${saved}`);
  expect(first.text).not.toContain('button "Boxed"');
  expect(await readFile(saved, 'utf8')).toContain('- button "Boxed"');
  // Never overwritten: the same name again gets a numbered sibling.
  const second = await callOk(client, 'browser_snapshot', { filename: 'page.md' });
  expect(second.text).toContain(path.join(outputDir, 'page-1.md'));
  expect((await readdir(outputDir)).sort()).toEqual(['page-1.md', 'page.md']);
  // An absolute path outside the output directory, or a file that exists, is refused.
  const outside = await callToolUntyped(client, 'browser_snapshot', {
    filename: path.join(sandbox.root, 'elsewhere.md'),
  });
  expect(outside.isError).toBe(true);
  expect(outside.text).toContain('outside the output directory');
  const existing = await callToolUntyped(client, 'browser_snapshot', { filename: saved });
  expect(existing.text).toContain('a file of that name exists');
});
