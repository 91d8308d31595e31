/**
 * `pnpm bench:soak`: mixed calls for a long time (30 minutes by default; not for CI), sampling
 * the memory of the daemon, the server and the browser. Fails on a growth trend, on a tab or a
 * debugger attachment left behind, or on a call without exactly one (success or coded) answer.
 *
 * Options (flag or environment): --minutes=N (BENCH_SOAK_MINUTES, 30), --sample-seconds=N
 * (BENCH_SOAK_SAMPLE_SECONDS, 10), --no-write (leave docs/benchmarks.md alone), --no-heap-probe
 * (leave the daemon's memory probe off: no forced GC in the daemon, RSS only),
 * --heap-probe-seconds=N (BENCH_SOAK_HEAP_PROBE_SECONDS, 60: how often the probe runs).
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFixtureSite } from '../../fixtures/server.js';
import { progress, result } from '../log.js';
import { writeDocSection } from '../report/docSection.js';
import { machineInfo } from '../report/machine.js';
import { createSandbox } from '../sandbox.js';
import { renderSoak, type SoakResults } from '../soak/renderSoak.js';
import { sampleUntil, type SoakSample } from '../soak/sampler.js';
import { daemonProbeEnv } from '../soak/daemonHeap.js';
import { SoakBrowser, type PageTarget } from '../soak/soakBrowser.js';
import { soakWorkload } from '../soak/soakSession.js';
import { judgeTrend } from '../soak/trend.js';
import { atExit, runMain } from './main.js';
import { countOption, hasFlag } from './options.js';

/** Time for session_end to close a session's tabs after its server goes away. */
const SESSION_END_WAIT_MS = 10_000;

runMain(async () => {
  const minutes = countOption('minutes', 'BENCH_SOAK_MINUTES', 30);
  const sampleSeconds = countOption('sample-seconds', 'BENCH_SOAK_SAMPLE_SECONDS', 10);
  const probeSeconds = countOption('heap-probe-seconds', 'BENCH_SOAK_HEAP_PROBE_SECONDS', 60);
  const machine = await machineInfo();
  const site = await startFixtureSite();
  atExit(() => site.close());
  const sandbox = await createSandbox('soak');
  atExit(() => sandbox.teardown());

  progress('starting Chromium with the extension');
  const browser = await SoakBrowser.launch(sandbox);
  // No --launch: the servers use the browser the bench started.
  // The first client spawns the daemon, so its environment turns the daemon's memory probe on.
  const heapProbe = !hasFlag('no-heap-probe');
  const main = await sandbox.spawnClient('bench-soak', {
    flags: [],
    ...(heapProbe ? { env: daemonProbeEnv() } : {}),
  });
  await main.callOk('browser_navigate', { url: site.url('/form.html') });
  const daemonPid = await sandbox.daemonPid();

  progress(`soaking for ${minutes} min`);
  const deadline = performance.now() + minutes * 60_000;
  const [work, samples] = await Promise.all([
    soakWorkload(sandbox, main, site, deadline),
    sampleUntil(deadline, sampleSeconds * 1000, {
      daemonPid,
      serverPid: main.pid,
      browser,
      probeDir: heapProbe ? sandbox.home : undefined,
      probeIntervalMs: probeSeconds * 1000,
    }),
  ]);

  const isWeb = (p: PageTarget) => p.url.startsWith('http');
  const listed = await main.call('browser_tabs', { action: 'list' });
  // The last short-lived session's tab may still be closing.
  const pagesAtEnd = await pagesOnceSettled(browser, (pages) => pages.filter(isWeb).length <= 1);
  const end = {
    sessionTabs: listed.text.split('\n').filter((l) => /^- \d+: /.test(l)).length,
    httpTabs: pagesAtEnd.filter(isWeb).length,
    attachedTabs: pagesAtEnd.filter((p) => p.attached).length,
  };
  await main.close();
  const pagesAfter = await pagesOnceSettled(browser, (pages) =>
    pages.every((p) => !isWeb(p) && !p.attached),
  );
  const after = {
    httpTabs: pagesAfter.filter(isWeb).length,
    attachedTabs: pagesAfter.filter((p) => p.attached).length,
  };
  const leftovers = await sandbox.teardown();

  const series = (name: string, pick: (s: SoakSample) => number | undefined, mib: number) => ({
    name,
    tolerance: { fraction: 0.15, mib },
    points: samples.flatMap((s) => {
      const value = pick(s);
      return value === undefined ? [] : [{ minute: s.minute, mib: value }];
    }),
  });
  const verdicts = [
    judgeTrend(series('daemon (RSS)', (s) => s.daemonRssMiB, 5)),
    // What the daemon keeps alive: a leak shows here even when RSS hides it in allocator slack.
    ...(heapProbe
      ? [judgeTrend(series('daemon (heap used after GC)', (s) => s.daemonHeap?.heapUsedMiB, 1))]
      : []),
    judgeTrend(series('MCP server (RSS)', (s) => s.serverRssMiB, 5)),
    judgeTrend(series('Chromium (PSS, all processes)', (s) => s.browserPssMiB, 40)),
  ];
  const failures = [
    ...verdicts.filter((v) => v.grew).map((v) => `${v.name} grew`),
    ...(end.sessionTabs !== 1 ? [`the session listed ${end.sessionTabs} tabs, not 1`] : []),
    ...(end.httpTabs !== 1 ? [`${end.httpTabs} web tabs open, not 1`] : []),
    ...(end.attachedTabs > 1 ? [`${end.attachedTabs} tabs with a debugger attached`] : []),
    ...(after.httpTabs > 0 ? [`${after.httpTabs} tabs left after the sessions closed`] : []),
    ...(after.attachedTabs > 0 ? [`${after.attachedTabs} debugger attachments left`] : []),
    ...(work.calls.some((c) => c.kind === 'no-response') ? ['calls without a response'] : []),
    ...(work.calls.some((c) => c.kind === 'uncoded-error') ? ['errors without a code'] : []),
    ...(samples.length < 8 ? [`only ${samples.length} samples: run longer`] : []),
    ...leftovers.map((p) => `leftover process ${p.pid} ${p.cmdline}`),
  ];
  const results: SoakResults = { machine, minutes, work, samples, verdicts, end, after, failures };
  const markdown = renderSoak(results);
  result(markdown);
  if (!hasFlag('no-write')) progress(`wrote ${await writeDocSection('soak', markdown)}`);
  return failures.length === 0;
});

/** The browser's tabs once `done` holds, or as they are when SESSION_END_WAIT_MS ran out. */
async function pagesOnceSettled(
  browser: SoakBrowser,
  done: (pages: PageTarget[]) => boolean,
): Promise<PageTarget[]> {
  const deadline = performance.now() + SESSION_END_WAIT_MS;
  let pages = await browser.pages();
  while (!done(pages) && performance.now() < deadline) {
    await sleep(250);
    pages = await browser.pages();
  }
  return pages;
}
