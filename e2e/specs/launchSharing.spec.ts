/**
 * A daemon runs one browser. A server whose launch options that browser cannot honour gets a
 * daemon and a browser of its own instead of silently joining it: a second --isolated server
 * (it asks for a fresh profile), and a server naming another --user-data-dir or
 * --executable-path.
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { callOk, expect, test } from '../harness.js';
import { CHROME_PATH } from '@browser-agent/testkit/workspace';

const ISOLATED = ['--launch', '--headless', '--isolated', '--executable-path', CHROME_PATH];

test('two --isolated servers do not share a profile: the second does not see the first one’s localStorage', async ({
  sandbox,
  site,
}) => {
  const url = site.url('/button.html');
  const first = await sandbox.startServer({ name: 'isolated-1', flags: ISOLATED });
  await callOk(first, 'browser_navigate', { url });
  await callOk(first, 'browser_evaluate', {
    function:
      "() => { localStorage.setItem('owner', 'first'); return localStorage.getItem('owner'); }",
  });

  const second = await sandbox.startServer({ name: 'isolated-2', flags: ISOLATED });
  await callOk(second, 'browser_navigate', { url });
  const seen = await callOk(second, 'browser_evaluate', {
    function: "() => String(localStorage.getItem('owner'))",
  });
  expect(seen.text).toContain('"null"');
  expect(seen.text).not.toContain('first');

  // The first session still has its own browser and storage.
  const own = await callOk(first, 'browser_evaluate', {
    function: "() => String(localStorage.getItem('owner'))",
  });
  expect(own.text).toContain('"first"');
});

test('--user-data-dir and --executable-path of a new server are honoured while the daemon runs another browser', async ({
  sandbox,
  site,
}) => {
  const first = await sandbox.startServer({ name: 'first', flags: ISOLATED });
  await callOk(first, 'browser_navigate', { url: site.url('/button.html') });

  // A binary of its own, which notes how it was started.
  const calls = path.join(sandbox.root, 'wrapper-calls.txt');
  const wrapper = path.join(sandbox.root, 'my-chromium');
  await writeFile(wrapper, `#!/bin/sh\necho "$@" >> "${calls}"\nexec "${CHROME_PATH}" "$@"\n`);
  await chmod(wrapper, 0o755);
  const profile = path.join(sandbox.root, 'my-profile');
  const second = await sandbox.startServer({
    name: 'second',
    flags: ['--launch', '--headless', '--user-data-dir', profile, '--executable-path', wrapper],
  });
  await callOk(second, 'browser_navigate', { url: site.url('/article.html') });
  const started = await readFile(calls, 'utf8').catch(() => '');
  expect(started, 'the second server’s --executable-path was started').toContain(
    `--user-data-dir=${profile}`,
  );
  await expect(readFile(path.join(profile, 'Local State'), 'utf8')).resolves.toBeTruthy();
});
