/**
 * Several sessions in one launched browser: every session's tab but the newest is a background
 * tab of the same window, which Chrome does not paint. The agent must still see it as a live,
 * visible page: screenshots come back and clicks work.
 */
import path from 'node:path';
import { ErrorCode } from '@browser-agent/protocol';
import { callOk, callTool, expect, findRef, test } from '../harness.js';
import { CHROME_PATH } from '@browser-agent/testkit/workspace';

// One profile for both sessions, so they share one browser (two --isolated would each get their own).
const launch = (root: string) => [
  '--launch',
  '--headless',
  '--user-data-dir',
  path.join(root, 'profile'),
  '--executable-path',
  CHROME_PATH,
];

test('a session whose tab is in the background still gets screenshots, clicks and a visible page', async ({
  sandbox,
  site,
}) => {
  const first = await sandbox.startServer({ name: 'first-agent', flags: launch(sandbox.root) });
  const url = site.url('/button.html');
  await callOk(first, 'browser_navigate', { url });
  // The second session's tab opens after the first one and takes the window's active slot.
  const second = await sandbox.startServer({ name: 'second-agent', flags: launch(sandbox.root) });
  await callOk(second, 'browser_navigate', { url: site.url('/article.html') });
  const active = await callOk(second, 'browser_evaluate', {
    function: '() => document.visibilityState',
  });
  expect(active.text).toContain('visible');

  const state = await callOk(first, 'browser_evaluate', {
    function: '() => document.visibilityState',
  });
  expect(state.text, 'the first session’s page, a background tab').toContain('visible');

  const shot = await callTool(first, 'browser_take_screenshot', {});
  expect(shot.isError, shot.text).toBe(false);
  expect(shot.images).toHaveLength(1);
  const png = Buffer.from(shot.images[0]?.data ?? '', 'base64');
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(shot.text).not.toContain(ErrorCode.TIMEOUT);

  const ref = findRef((await callOk(first, 'browser_snapshot', {})).text, 'button', 'Click me');
  await callOk(first, 'browser_click', { ref });
  expect((await callOk(first, 'browser_snapshot', {})).text).toContain('Clicked 1 time');
});
