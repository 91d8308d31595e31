/**
 * `pnpm bench:sizes`: how big the bridge's snapshots of the bench's two big pages are, full and
 * default, in a few seconds rather than a whole bench run; for checking a format change. The
 * texts are written to bench-results/sizes/ to see where the characters go.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bigPageInteractive } from '../../fixtures/bigPage.js';
import { startFixtureSite } from '../../fixtures/server.js';
import { result } from '../log.js';
import { RESULTS_DIR } from '../paths.js';
import { createSandbox } from '../sandbox.js';
import { atExit, runMain } from './main.js';

/** The contract's ceiling: a full read is never cut. */
const FULL_MAX_CHARS = 500_000;
const PAGES = ['big', 'table'];

runMain(async () => {
  const site = await startFixtureSite();
  atExit(() => site.close());
  const sandbox = await createSandbox('sizes');
  atExit(() => sandbox.teardown());
  const client = await sandbox.spawnClient('bench-sizes');
  const out = path.join(RESULTS_DIR, 'sizes');
  await mkdir(out, { recursive: true });
  for (const page of PAGES) {
    await client.callOk('browser_navigate', { url: site.url(`/${page}.html`) });
    const full = await client.callOk('browser_snapshot', { maxChars: FULL_MAX_CHARS });
    const capped = await client.callOk('browser_snapshot', {});
    await writeFile(path.join(out, `${page}-full.txt`), full.text);
    await writeFile(path.join(out, `${page}-default.txt`), capped.text);
    const marked = /truncated/i.test(capped.text) ? 'with' : 'WITHOUT';
    result(
      `${page}: full ${full.text.length} characters (${full.ms.toFixed(0)} ms); ` +
        `default ${capped.text.length}, ${marked} a truncation marker`,
    );
    if (page === 'big') {
      const controls = bigPageInteractive();
      const kept = controls.filter((c) =>
        full.text.includes(`${c.role} ${JSON.stringify(c.name)}`),
      );
      result(`big: ${kept.length} of ${controls.length} controls shown with role and name`);
    }
  }
  return true;
});
