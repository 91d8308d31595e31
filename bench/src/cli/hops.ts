/**
 * `pnpm bench:hops`: the bridge's own cost per call, alone. One launched bridge with tracing, a
 * short warm-up, then N cheap `browser_evaluate` calls (CDP time ~1 ms), and the hop breakdown of
 * those calls; then a few large results (full-page screenshots, snapshots of the 5,000-element
 * page), whose hops show what each hop does with a big payload; then page calls (navigate,
 * wait_for, tabs), whose small results follow a page load. It asserts no time.
 */
import path from 'node:path';
import { startFixtureSite } from '../../fixtures/server.js';
import type { ToolArgs, ToolName } from '@browser-agent/protocol';
import type { CallOutcome } from '../mcp/benchClient.js';
import { progress, result } from '../log.js';
import { createSandbox } from '../sandbox.js';
import { SPA_DELAY_MS } from '../scenarios/toolProbes.js';
import { median } from '../stats.js';
import { hopBreakdown } from '../trace/hopBreakdown.js';
import { readTrace, type TraceLine } from '../trace/traceFile.js';
import { atExit, runMain } from './main.js';
import { countOption } from './options.js';

runMain(async () => {
  const calls = countOption('calls', 'BENCH_HOP_CALLS', 200);
  const bigCalls = countOption('big-calls', 'BENCH_HOP_BIG_CALLS', 10);
  const pageCalls = countOption('page-calls', 'BENCH_HOP_PAGE_CALLS', 10);
  const site = await startFixtureSite();
  atExit(() => site.close());
  const sandbox = await createSandbox('hops');
  atExit(() => sandbox.teardown());
  const traceFile = path.join(sandbox.root, 'trace.jsonl');
  /** The calls traced since the last phase (the server appends; the file is kept whole). */
  let seen = 0;
  const takeTrace = async (): Promise<TraceLine[]> => {
    const lines = await readTrace(traceFile);
    const fresh = lines.slice(seen);
    seen = lines.length;
    return fresh;
  };
  progress('starting the bridge (daemon, Chromium, extension)');
  const client = await sandbox.spawnClient('bench-hops', {
    env: { BROWSER_AGENT_TRACE_FILE: traceFile },
  });
  await client.callOk('browser_navigate', { url: site.url('/button.html') });
  for (let i = 0; i < 20; i += 1) await client.callOk('browser_evaluate', { function: '() => 1' });
  await takeTrace();

  if (calls > 0) {
    progress(`${calls} evaluate calls`);
    const endToEnd: number[] = [];
    for (let i = 0; i < calls; i += 1)
      endToEnd.push(
        (await client.callOk('browser_evaluate', { function: '() => document.title' })).ms,
      );
    const b = hopBreakdown(await takeTrace());
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
  }

  /** Result sizes per tool of the phase under way, for reportPerTool. */
  let sizes: Record<string, number[]> = {};
  const call = async <N extends ToolName>(tool: N, args: ToolArgs<N>): Promise<void> => {
    const outcome = await client.callOk(tool, args);
    (sizes[tool] ??= []).push(size(outcome));
  };

  if (bigCalls > 0) {
    await client.callOk('browser_navigate', { url: site.url('/big.html') });
    await takeTrace();
    progress(`${bigCalls} full-page screenshots and ${bigCalls} snapshots of the big page`);
    sizes = {};
    for (let i = 0; i < bigCalls; i += 1) {
      await call('browser_take_screenshot', { fullPage: true, maxDimension: 4000 });
      await call('browser_snapshot', {});
    }
    reportPerTool(await takeTrace(), sizes);
  }

  if (pageCalls > 0) {
    progress(`${pageCalls} rounds of navigate, tabs list, navigate to an SPA and wait_for`);
    sizes = {};
    for (let i = 0; i < pageCalls; i += 1) {
      await call('browser_navigate', {
        url: site.url(i % 2 === 0 ? '/button.html' : '/form.html'),
      });
      await call('browser_tabs', { action: 'list' });
      await call('browser_navigate', { url: site.url(`/spa.html?delay=${SPA_DELAY_MS}`) });
      await call('browser_wait_for', { text: 'Loaded 20 items' });
    }
    reportPerTool(await takeTrace(), sizes);
  }
  return true;
});

/** Per tool: the hops (total − handler), each same-clock link, and the cross-clock way back. */
function reportPerTool(lines: readonly TraceLine[], sizes: Record<string, number[]>): void {
  for (const [tool, chars] of Object.entries(sizes)) {
    const own = lines.filter((l) => l.tool === tool);
    const b = hopBreakdown(own);
    const t = b.tools[0];
    result(
      `${tool}: ${own.length} calls, result ~${(median(chars) / 1000).toFixed(1)}k chars, hops (total − handler) ${t?.hopsMs.toFixed(2) ?? '—'} ms`,
    );
    for (const l of b.links) result(`  ${l.name}: ${l.medianMs.toFixed(2)} ms`);
    const back = b.deltas.find((d) => d.from === 'relay.back' && d.to === 'daemon.back');
    if (back) result(`  relay.back → daemon.back (cross-clock): ${back.medianMs.toFixed(2)} ms`);
    const out = b.deltas.find((d) => d.from === 'daemon.out' && d.to === 'relay.in');
    if (out) result(`  daemon.out → relay.in (cross-clock): ${out.medianMs.toFixed(2)} ms`);
  }
}

function size(outcome: CallOutcome): number {
  return outcome.text.length + outcome.imageChars;
}
