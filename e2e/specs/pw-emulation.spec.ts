/**
 * `--device` and `--init-script` (#18 item 11): the session's tabs look like the device to the
 * page (viewport, pixel ratio, touch, user agent), and the init script runs in every document
 * before the page's own scripts.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { callOk, expect, test } from '../harness.js';

test('--device emulates a phone and --init-script runs before the page, in every document', async ({
  bridge,
  sandbox,
  site,
}) => {
  const script = path.join(sandbox.root, 'init.js');
  await writeFile(
    script,
    'window.__initSeen = (window.__initSeen || 0) + 1; window.__initState = document.readyState;',
  );
  const client = await bridge.connectClient('device-client', {
    flags: ['--device', 'Pixel 7', '--init-script', script],
  });
  await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
  const probe = async () =>
    (
      await callOk(client, 'browser_evaluate', {
        function: `() => ({
          // innerWidth is the layout viewport (980 on a page without a meta viewport, as on a phone).
          width: screen.width,
          dpr: window.devicePixelRatio,
          touch: navigator.maxTouchPoints,
          ua: navigator.userAgent,
          initSeen: window.__initSeen,
          initState: window.__initState,
        })`,
      })
    ).text;
  const first = await probe();
  expect(first).toContain('"width": 412');
  expect(first).toContain('"dpr": 2.625');
  expect(first).toMatch(/"touch": [1-9]/);
  expect(first).toContain('Pixel 7');
  // Once per document, and before the page had finished parsing.
  expect(first).toContain('"initSeen": 1');
  expect(first).toContain('"initState": "loading"');
  // A new document of the same tab gets it again.
  await callOk(client, 'browser_navigate', { url: site.url('/titled?title=Second') });
  const second = await probe();
  expect(second).toContain('"initSeen": 1');
  expect(second).toContain('"width": 412');
});

test('an unknown --device is refused at start with the known names', async ({ sandbox }) => {
  const { spawnSync } = await import('node:child_process');
  const { SERVER_BIN } = await import('@browser-agent/testkit/workspace');
  const run = spawnSync(process.execPath, [SERVER_BIN, '--device', 'Nokia 3310'], {
    env: { ...process.env, BROWSER_AGENT_HOME: sandbox.home },
    encoding: 'utf8',
    timeout: 15_000,
  });
  expect(run.status).toBe(2);
  expect(run.stderr).toContain('unknown device "Nokia 3310"; known: iPhone 15');
});
