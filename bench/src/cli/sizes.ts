/**
 * `pnpm bench:sizes`: the character counts of the bridge's snapshots of the bench's big pages
 * (full and default), quickly, without the rest of the bench; writes each text to the state dir.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startFixtureSite } from '../../fixtures/server.js';
import { result } from '../log.js';
import { createSandbox } from '../sandbox.js';
import { atExit, runMain } from './main.js';

const FULL_MAX_CHARS = 500_000;
const PAGES = ['/big.html', '/table.html'];

runMain(async () => {
  const site = await startFixtureSite();
  atExit(() => site.close());
  const sandbox = await createSandbox('sizes');
  atExit(() => sandbox.teardown());
  const client = await sandbox.spawnClient('bench-sizes');
  const out = process.env.SIZES_OUT ?? '/tmp';
  for (const page of PAGES) {
    await client.callOk('browser_navigate', { url: site.url(page) });
    const full = await client.callOk('browser_snapshot', { maxChars: FULL_MAX_CHARS });
    const again = await client.callOk('browser_snapshot', { maxChars: FULL_MAX_CHARS });
    const capped = await client.callOk('browser_snapshot', {});
    const name = path.basename(page, '.html');
    await writeFile(path.join(out, `${name}-full.txt`), full.text);
    await writeFile(path.join(out, `${name}-default.txt`), capped.text);
    result(
      `${page}: full ${full.text.length} chars (${full.ms.toFixed(0)} ms, again ${again.ms.toFixed(0)} ms), default ${capped.text.length} chars`,
    );
  }
  return true;
});
