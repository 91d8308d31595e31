/**
 * A daemon runs one browser. A server whose launch options that browser cannot honour gets a
 * daemon and a browser of its own instead of silently joining it: a server naming another
 * --user-data-dir or --executable-path. (A second --isolated server gets a daemon of its own and
 * a context in the shared isolated browser: isolatedShared.spec.ts.)
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { callOk, expect, test } from '../harness.js';
import { CHROME_PATH } from '@browser-agent/testkit/workspace';

const ISOLATED = ['--launch', '--headless', '--isolated', '--executable-path', CHROME_PATH];

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
