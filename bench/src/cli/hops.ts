/**
 * `pnpm bench:hops`: the bridge's own cost per call, alone. One launched bridge with tracing, a
 * short warm-up, then N cheap `browser_evaluate` calls (CDP time ~1 ms), and the hop breakdown of
 * those calls; then a few large results (full-page screenshots, snapshots of the 5,000-element
 * page), whose hops show what each hop does with a big payload. It asserts no time.
 */
import path from 'node:path';
import { startFixtureSite } from '../../fixtures/server.js';
import type { CallOutcome } from '../mcp/benchClient.js';
import { progress, result } from '../log.js';
import { createSandbox } from '../sandbox.js';
import { median } from '../stats.js';
import { hopBreakdown } from '../trace/hopBreakdown.js';
import { readTrace, type TraceLine } from '../trace/traceFile.js';
import { atExit, runMain } from './main.js';
import { countOption } from './options.js';

runMain(async () => {
  const calls = countOption('calls', 'BENCH_HOP_CALLS', 200);
  const bigCalls = countOption('big-calls', 'BENCH_HOP_BIG_CALLS', 10);
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
  const endToEnd: number[] = [];
  for (let i = 0; i < calls; i += 1)
    endToEnd.push(
      (await client.callOk('browser_evaluate', { function: '() => document.title' })).ms,
    );
  const small = await readTrace(traceFile);
  const b = hopBreakdown(small);
  result(`calls traced: ${b.calls}`);
  // Seen by the MCP client: adds stdio both ways and the server's MCP work to the traced total.
  result(`end to end (MCP client), median: ${median(endToEnd).toFixed(2)} ms`);
  result(`total − CDP, median: ${b.overheadMs.toFixed(2)} ms`);
  result(`total − handler, median: ${b.transportMs.toFixed(2)} ms`);
  for (const l of b.links) result(`  ${l.name}: ${l.medianMs.toFixed(2)} ms`);
  for (const d of b.deltas) result(`  ${d.from} → ${d.to}: ${d.medianMs.toFixed(2)} ms`);
  for (const t of b.tools)
    result(
      `  ${t.tool}: total ${t.totalMs.toFixed(2)} handler ${t.handlerMs.toFixed(2)} cdp ${t.cdpMs.toFixed(2)}`,
    );

  if (bigCalls === 0) return true;
  await client.callOk('browser_navigate', { url: site.url('/big.html') });
  await rename(traceFile, warmTrace);
  progress(`${bigCalls} full-page screenshots and ${bigCalls} snapshots of the big page`);
  const sizes = { browser_take_screenshot: [] as number[], browser_snapshot: [] as number[] };
  for (let i = 0; i < bigCalls; i += 1) {
    sizes.browser_take_screenshot.push(
      size(await client.callOk('browser_take_screenshot', { fullPage: true, maxDimension: 4000 })),
    );
    sizes.browser_snapshot.push(size(await client.callOk('browser_snapshot', {})));
  }
  const big = await readTrace(traceFile);
  for (const [tool, chars] of Object.entries(sizes)) {
    const lines = big.filter((l: TraceLine) => l.tool === tool);
    result(`${tool}: ${lines.length} calls, result ~${Math.round(median(chars) / 1000)}k chars`);
    for (const l of hopBreakdown(lines).links) result(`  ${l.name}: ${l.medianMs.toFixed(2)} ms`);
  }
  return true;
});

function size(outcome: CallOutcome): number {
  return outcome.text.length + outcome.imageChars;
}
