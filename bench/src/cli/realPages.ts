/**
 * `pnpm bench:real`: only the real-pages phase of `pnpm bench` — browser_navigate time, snapshot
 * size and what the snapshot kept, for Browser Agent, Playwright MCP and Chrome DevTools MCP on
 * the same generated pages in the same run. Writes the real-pages section of docs/benchmarks.md
 * (unless --no-write). A page is skipped by none of the servers; failures are counted, not fatal.
 */
import { realPages } from '../../fixtures/realPages.js';
import { startFixtureSite } from '../../fixtures/server.js';
import { progress, result } from '../log.js';
import { realPagesPhase } from '../realPages/phase.js';
import { renderRealPages } from '../realPages/renderRealPages.js';
import { writeDocSection } from '../report/docSection.js';
import { machineInfo } from '../report/machine.js';
import { createSandbox } from '../sandbox.js';
import { atExit, runMain } from './main.js';
import { countOption, hasFlag } from './options.js';

runMain(async () => {
  const all = realPages();
  const count = Math.min(all.length, countOption('pages', 'BENCH_REAL_PAGES', all.length));
  const pages = all.slice(0, count);
  const machine = await machineInfo();
  const site = await startFixtureSite();
  atExit(() => site.close());
  const sandbox = await createSandbox('real-pages');
  atExit(() => sandbox.teardown());
  const run = await realPagesPhase(sandbox, site, pages);
  const leftovers = await sandbox.teardown();
  const markdown = renderRealPages({ machine, pages, ...run });
  result(markdown);
  if (!hasFlag('no-write')) progress(`wrote ${await writeDocSection('real-pages', markdown)}`);
  for (const p of leftovers) progress(`FAILED: leftover process ${p.pid} ${p.cmdline}`);
  return leftovers.length === 0;
});
