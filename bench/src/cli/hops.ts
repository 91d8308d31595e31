/**
 * `pnpm bench:hops`: the bridge's own cost per call, alone. One launched bridge with tracing, a
 * short warm-up, then N cheap `browser_evaluate` calls (CDP time ~1 ms), and the hop breakdown of
 * those calls. Quicker than the full bench when changing the chain; it asserts no time.
 */
import path from 'node:path';
import { startFixtureSite } from '../../fixtures/server.js';
import { progress, result } from '../log.js';
import { createSandbox } from '../sandbox.js';
import { hopBreakdown } from '../trace/hopBreakdown.js';
import { readTrace } from '../trace/traceFile.js';
import { atExit, runMain } from './main.js';
import { countOption } from './options.js';

runMain(async () => {
  const calls = countOption('calls', 'BENCH_HOP_CALLS', 200);
  const site = await startFixtureSite();
  atExit(() => site.close());
  const sandbox = await createSandbox('hops');
  atExit(() => sandbox.teardown());
  const traceFile = path.join(sandbox.root, 'trace.jsonl');
  const warmTrace = path.join(sandbox.root, 'warm.jsonl');
  progress('starting the bridge (daemon, Chromium, extension)');
  const client = await sandbox.spawnClient('bench-hops', {
    env: { BROWSER_AGENT_TRACE_FILE: traceFile },
  });
  await client.callOk('browser_navigate', { url: site.url('/button.html') });
  for (let i = 0; i < 20; i += 1) await client.callOk('browser_evaluate', { function: '() => 1' });
  const { rename } = await import('node:fs/promises');
  await rename(traceFile, warmTrace);
  progress(`${calls} evaluate calls`);
  for (let i = 0; i < calls; i += 1)
    await client.callOk('browser_evaluate', { function: '() => document.title' });
  const b = hopBreakdown(await readTrace(traceFile));
  result(`calls traced: ${b.calls}`);
  result(`total − CDP, median: ${b.overheadMs.toFixed(2)} ms`);
  result(`total − handler, median: ${b.transportMs.toFixed(2)} ms`);
  for (const l of b.links) result(`  ${l.name}: ${l.medianMs.toFixed(2)} ms`);
  for (const d of b.deltas) result(`  ${d.from} → ${d.to}: ${d.medianMs.toFixed(2)} ms`);
  for (const t of b.tools)
    result(
      `  ${t.tool}: total ${t.totalMs.toFixed(2)} handler ${t.handlerMs.toFixed(2)} cdp ${t.cdpMs.toFixed(2)}`,
    );
  return true;
});
