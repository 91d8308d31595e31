/**
 * `pnpm bench:guard`: a short, interleaved run of the 9-page suite on the bridge (launch mode,
 * headless) and the in-process playwright-core floor, one pass each in turn (the order flips
 * every pass), then the verdict of guard/speedGuard.ts: it fails when the suite passes 1.6× the
 * floor or a step kind 2.5×. It prints each step kind with both medians and their ratio. A
 * benchmark with ratio bounds, not a timed test: both sides share every noisy moment.
 *
 * Options: --passes=N (BENCH_GUARD_PASSES, 3) timed passes after one warm-up each.
 */
import { startFixtureSite } from '../../fixtures/server.js';
import { BridgeAgent } from '../agents/bridgeAgent.js';
import { FloorAgent } from '../agents/floorAgent.js';
import { launchFloorBrowser } from '../agents/floorBrowser.js';
import { judge } from '../guard/speedGuard.js';
import { progress, result } from '../log.js';
import { fmtMs, fmtRatio, table } from '../report/markdown.js';
import { runSuite } from '../runner/runSuite.js';
import { createSandbox } from '../sandbox.js';
import { suite } from '../scenarios/suite.js';
import { atExit, runMain } from './main.js';
import { countOption } from './options.js';

runMain(async () => {
  const passes = Math.max(1, countOption('passes', 'BENCH_GUARD_PASSES', 3));
  const site = await startFixtureSite();
  atExit(() => site.close());
  const sandbox = await createSandbox('guard');
  atExit(() => sandbox.teardown());
  const floorBrowser = await launchFloorBrowser();
  atExit(() => floorBrowser.close());
  const floor = await FloorAgent.create(floorBrowser);
  progress('starting the bridge (daemon, Chromium, extension)');
  const client = await sandbox.spawnClient('bench-guard');
  await client.callOk('browser_navigate', { url: site.url('/button.html') });
  progress(`suite: 1 warm-up + ${passes} passes each, interleaved`);
  const run = await runSuite(suite, [new BridgeAgent(client), floor], site, { warmup: 1, passes });
  const leftovers = await sandbox.teardown();

  const verdict = judge(run);
  const rows = verdict.rows.map((r) => [
    r.step,
    fmtMs(r.bridgeMs),
    fmtMs(r.floorMs),
    fmtRatio(r.ratio),
    r.judged ? (r.ok ? 'ok' : 'TOO SLOW') : 'not judged',
  ]);
  rows.push([
    'whole suite (median pass)',
    fmtMs(verdict.suite.bridgeMs),
    fmtMs(verdict.suite.floorMs),
    fmtRatio(verdict.suite.ratio),
    verdict.suite.ok ? 'ok' : 'TOO SLOW',
  ]);
  result(table(['step kind', 'bridge median', 'floor median', 'bridge ÷ floor', 'verdict'], rows));
  const failures = [
    ...verdict.failures,
    ...leftovers.map((p) => `leftover process ${p.pid} ${p.cmdline}`),
  ];
  for (const f of failures) progress(`FAILED: ${f}`);
  result(
    failures.length === 0
      ? `bench guard: passed (bounds: suite ≤ 1.6×, each step kind ≤ 2.5× the floor)`
      : `bench guard: FAILED (${failures.length})`,
  );
  return failures.length === 0;
});
