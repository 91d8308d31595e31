/**
 * `pnpm bench:load`: N sessions in parallel (N MCP clients, each its own server process, one
 * shared daemon and browser), each making its mixed calls on its own tab. Fails unless every
 * call got exactly one response, each a success or a coded error, with no cross-talk.
 *
 * Options (flag or environment): --sessions=N (BENCH_SESSIONS, 8), --calls=N
 * (BENCH_LOAD_CALLS, 200), --max-minutes=N (BENCH_LOAD_MAX_MINUTES, 10: no call starts after
 * that), --no-screenshots (an evaluate in their place), --no-write (leave docs/benchmarks.md
 * alone).
 */
import { performance } from 'node:perf_hooks';
import { startFixtureSite } from '../../fixtures/server.js';
import { progress, result } from '../log.js';
import type { BenchClient } from '../mcp/benchClient.js';
import { footprint, launchedBrowserPids } from '../memory/footprint.js';
import { renderLoad, type LoadResults } from '../load/renderLoad.js';
import { runLoadSession } from '../load/loadSession.js';
import { writeDocSection } from '../report/docSection.js';
import { machineInfo } from '../report/machine.js';
import { createSandbox } from '../sandbox.js';
import { atExit, runMain } from './main.js';
import { countOption, hasFlag } from './options.js';

runMain(async () => {
  const sessions = countOption('sessions', 'BENCH_SESSIONS', 8);
  const callsPerSession = countOption('calls', 'BENCH_LOAD_CALLS', 200);
  const maxMinutes = countOption('max-minutes', 'BENCH_LOAD_MAX_MINUTES', 10);
  const machine = await machineInfo();
  const site = await startFixtureSite();
  atExit(() => site.close());
  const sandbox = await createSandbox('load');
  atExit(() => sandbox.teardown());

  progress(`starting ${sessions} sessions`);
  const clients: BenchClient[] = [];
  for (let i = 0; i < sessions; i += 1) clients.push(await sandbox.spawnClient(`bench-load-${i}`));
  // The first call of each session opens its tab; the browser is started by the first of them.
  await Promise.all(
    clients.map((c, i) =>
      c.callOk('browser_navigate', { url: site.url(`/form.html?session=${i}`) }),
    ),
  );

  progress(`${sessions} × ${callsPerSession} mixed calls`);
  const started = performance.now();
  const deadline = started + maxMinutes * 60_000;
  const reports = await Promise.all(
    clients.map((c, i) =>
      runLoadSession(c, i, site, callsPerSession, !hasFlag('no-screenshots'), deadline),
    ),
  );
  const wallMs = performance.now() - started;
  const daemon = await sandbox.daemonPid();
  const memory = footprint(
    daemon,
    clients.map((c) => c.pid),
    launchedBrowserPids(daemon),
  );
  const ledger = { requests: 0, missing: 0, duplicated: 0, unknown: 0 };
  for (const c of clients) {
    const l = c.ledger.check();
    ledger.requests += l.requests;
    ledger.missing += l.missing;
    ledger.duplicated += l.duplicated;
    ledger.unknown += l.unknown;
  }
  const leftovers = await sandbox.teardown();

  const calls = reports.flatMap((r) => r.calls);
  const failures = [
    ...(ledger.missing + ledger.duplicated + ledger.unknown > 0
      ? ['responses not one per request']
      : []),
    ...(calls.some((c) => c.kind === 'no-response') ? ['calls without a response'] : []),
    ...(calls.some((c) => c.kind === 'uncoded-error') ? ['errors without a code'] : []),
    ...(reports.some((r) => r.crossTalk.length > 0) ? ['cross-talk'] : []),
    ...(reports.some((r) => r.mismatches.length > 0)
      ? ["read-backs without the session's own value"]
      : []),
    ...(calls.length < sessions * callsPerSession
      ? [
          `only ${calls.length} of ${sessions * callsPerSession} calls made within ${maxMinutes} min`,
        ]
      : []),
    ...leftovers.map((p) => `leftover process ${p.pid} ${p.cmdline}`),
  ];
  for (const r of reports)
    for (const line of [...r.crossTalk, ...r.mismatches]) progress(`session ${r.session}: ${line}`);
  const results: LoadResults = {
    machine,
    sessions,
    callsPerSession,
    screenshots: !hasFlag('no-screenshots'),
    wallMs,
    reports,
    ledger,
    memory,
    failures,
  };
  const markdown = renderLoad(results);
  result(markdown);
  if (!hasFlag('no-write')) progress(`wrote ${await writeDocSection('load', markdown)}`);
  return failures.length === 0;
});
