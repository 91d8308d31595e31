/**
 * Issue #18 item 10: in launch mode a download lands in the output directory, and the result of
 * the click that started it says "Downloaded <file> to <path>"; the file is the user's alone (0600).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { CHROME_PATH } from '@browser-agent/testkit/workspace';
import { callOk, expect, test } from '../harness.js';

test('a download started by a click is reported with its saved path in the output directory', async ({
  sandbox,
  site,
}) => {
  const outputDir = path.join(sandbox.root, 'output');
  const client = await sandbox.startServer({
    name: 'download-client',
    flags: [
      '--launch',
      '--headless',
      '--isolated',
      '--executable-path',
      CHROME_PATH,
      '--output-dir',
      outputDir,
    ],
  });
  await callOk(client, 'browser_navigate', { url: site.url('/pw-download.html') });
  const click = await callOk(client, 'browser_click', { role: 'link', name: 'Get report' });
  const saved = path.join(outputDir, 'items-report.json');
  expect(click.text).toContain(`Downloaded "items-report.json" to ${JSON.stringify(saved)}`);
  expect(await readFile(saved, 'utf8')).toBe('{"items":["alpha","beta"]}');
  // Chrome writes it with 0666 less its umask: the browser's own umask is 077 (#25.1).
  expect((await stat(saved)).mode & 0o777).toBe(0o600);
  await client.close();
});
