/**
 * Issue #18 item 3 (Playwright MCP's console habits): the level defaults to info, the last
 * navigation's messages unless `all`, new messages reported in every action's result (at or
 * above --console-level), kept in console-<level>-<time>.log files of the output directory,
 * and browser_console_messages saved to a file with `filename`.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { callOk, expect, test } from '../harness.js';
import { agentOn } from '../steps.js';

test('level defaults to info; only the last navigation unless all', async ({ bridge, site }) => {
  const client = await agentOn(bridge, site.url('/console.html'));
  await callOk(client, 'browser_navigate', { url: site.url('/pw-console.html') });

  const byDefault = (await callOk(client, 'browser_console_messages', {})).text;
  for (const level of ['log', 'info', 'warning', 'error'])
    expect(byDefault).toContain(`level ${level}`);
  expect(byDefault).not.toContain('level debug');
  expect(byDefault).not.toContain('console page loaded');

  const debug = (await callOk(client, 'browser_console_messages', { level: 'debug' })).text;
  expect(debug).toContain('level debug');
  const errors = (await callOk(client, 'browser_console_messages', { level: 'error' })).text;
  expect(errors).toContain('level error');
  expect(errors).not.toContain('level warning');

  const all = (await callOk(client, 'browser_console_messages', { all: true })).text;
  expect(all).toContain('console page loaded');
  expect(all).toContain('level log');
});

test('new console messages are reported in the action result, fenced', async ({ bridge, site }) => {
  const client = await agentOn(bridge, site.url('/pw-console.html'));
  const click = await callOk(client, 'browser_click', { role: 'button', name: 'Log' });
  expect(click.text).toContain('### New console messages (untrusted page content)');
  expect(click.text).toContain('[log] clicked log');
  expect(click.text).toContain('[error] clicked error');
  // Reported once: the next result has nothing new.
  const next = await callOk(client, 'browser_snapshot', {});
  expect(next.text).not.toContain('clicked log');
});

test('--console-level error reports only errors in results', async ({ bridge, site }) => {
  const client = await bridge.connectClient('pw-console-level', {
    flags: ['--console-level', 'error'],
  });
  const nav = await callOk(client, 'browser_navigate', { url: site.url('/pw-console.html') });
  expect(nav.text).toContain('level error');
  expect(nav.text).not.toContain('level log');
  expect(nav.text).not.toContain('level warning');
});

test('with an output directory, console entries go to per-page, per-level log files', async ({
  bridge,
  sandbox,
  site,
}) => {
  const outputDir = path.join(sandbox.root, 'output');
  const client = await bridge.connectClient('pw-console-files', {
    flags: ['--output-dir', outputDir],
  });
  const logs = async () => (await readdir(outputDir)).filter((f) => /^console-.*\.log$/.test(f));
  const read = async (level: string) => {
    const file = (await logs()).find((f) => f.startsWith(`console-${level}-`));
    return file === undefined ? '' : readFile(path.join(outputDir, file), 'utf8');
  };

  const nav = await callOk(client, 'browser_navigate', { url: site.url('/pw-console.html') });
  expect(nav.text).toMatch(/2 new console entries in "[^"]*console-info-[^"]+\.log#L1-L2"/);
  expect(nav.text).toMatch(/1 new console entry in "[^"]*console-error-[^"]+\.log#L1"/);
  expect(nav.text).not.toContain('console-debug-');
  expect(nav.text).not.toContain('level log');
  expect(await logs()).toHaveLength(4);
  expect(await read('info')).toContain('[LOG] level log @ http://127.0.0.1:');
  expect(await read('info')).toContain('[INFO] level info');
  expect(await read('warning')).toContain('[WARNING] level warning');
  expect(await read('debug')).toContain('[DEBUG] level debug');

  const click = await callOk(client, 'browser_click', { role: 'button', name: 'Log' });
  expect(click.text).toMatch(/1 new console entry in "[^"]*console-info-[^"]+\.log#L3"/);
  expect(await logs()).toHaveLength(4);
  expect(await read('error')).toContain('[ERROR] clicked error');

  // A new page gets new files.
  await callOk(client, 'browser_navigate', { url: site.url('/console.html') });
  expect((await logs()).filter((f) => f.startsWith('console-info-'))).toHaveLength(2);
});

test('browser_console_messages saves to a new file with filename', async ({
  bridge,
  sandbox,
  site,
}) => {
  const outputDir = path.join(sandbox.root, 'out');
  const client = await agentOn(bridge, site.url('/pw-console.html'), {
    flags: ['--output-dir', outputDir],
  });
  const saved = await callOk(client, 'browser_console_messages', { filename: 'console.txt' });
  expect(saved.text).toContain('Saved to');
  expect(saved.text).not.toContain('level log');
  expect(await readFile(path.join(outputDir, 'console.txt'), 'utf8')).toContain('level log');

  const again = await client.callTool({
    name: 'browser_console_messages',
    arguments: { filename: 'console.txt' },
  });
  expect(again.isError).toBe(true);
  expect(JSON.stringify(again.content)).toContain('a file of that name exists');
  const outside = await client.callTool({
    name: 'browser_console_messages',
    arguments: { filename: '../escape.txt' },
  });
  expect(outside.isError).toBe(true);
  expect(JSON.stringify(outside.content)).toContain('outside the output directory');
});
