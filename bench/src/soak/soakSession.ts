/**
 * The soak's workload: one long-lived session cycling through mixed calls (including opening
 * and closing a second tab), and between cycles a short-lived session that connects, works a
 * little and disconnects, so session start and end are soaked too. Runs until the deadline.
 */
import { performance } from 'node:perf_hooks';
import type { ToolArgs, ToolName } from '@browser-agent/protocol';
import type { FixtureSite } from '../../fixtures/server.js';
import { classify, type CallRecord } from '../load/callRecord.js';
import type { BenchClient } from '../mcp/benchClient.js';
import { parseRefs, refKey } from '../mcp/snapshotRefs.js';
import type { Sandbox } from '../sandbox.js';

const PAGES = ['/form.html', '/button.html', '/table.html', '/spa.html?delay=100', '/search.html'];

export interface SoakWork {
  calls: CallRecord[];
  cycles: number;
  churnedSessions: number;
}

export async function soakWorkload(
  sandbox: Sandbox,
  main: BenchClient,
  site: FixtureSite,
  deadline: number,
): Promise<SoakWork> {
  const work: SoakWork = { calls: [], cycles: 0, churnedSessions: 0 };
  const call = recorder(work);
  while (performance.now() < deadline) {
    const page = PAGES[work.cycles % PAGES.length] ?? '/form.html';
    await call(main, 'browser_navigate', { url: site.url(page) });
    await call(main, 'browser_navigate', { url: site.url('/form.html') });
    const snap = await call(main, 'browser_snapshot', {});
    const refs = parseRefs(snap?.text ?? '');
    const name = refs.get(refKey('textbox', 'Name')) ?? 'e0';
    await call(main, 'browser_type', { ref: name, text: `cycle ${work.cycles}` });
    await call(main, 'browser_click', { ref: refs.get(refKey('button', 'Send')) ?? 'e0' });
    await call(main, 'browser_wait_for', { text: `Thanks, cycle ${work.cycles}` });
    await call(main, 'browser_evaluate', { function: '() => document.title' });
    await call(main, 'browser_take_screenshot', {});
    await call(main, 'browser_console_messages', {});
    await call(main, 'browser_tabs', { action: 'new', url: site.url('/articles.html') });
    await call(main, 'browser_snapshot', {});
    await call(main, 'browser_tabs', { action: 'close' });
    await call(main, 'browser_tabs', { action: 'list' });

    const churn = await sandbox.spawnClient(`bench-soak-churn-${work.churnedSessions}`);
    await call(churn, 'browser_navigate', { url: site.url('/big.html') });
    await call(churn, 'browser_snapshot', {});
    await call(churn, 'browser_evaluate', { function: '() => location.href' });
    await churn.close();
    work.churnedSessions += 1;
    work.cycles += 1;
  }
  return work;
}

function recorder(work: SoakWork) {
  return async <N extends ToolName>(client: BenchClient, name: N, args: ToolArgs<N>) => {
    const started = performance.now();
    try {
      const outcome = await client.call(name, args);
      const kind = classify(outcome);
      const record: CallRecord = { session: 0, tool: name, ms: outcome.ms, kind };
      if (kind !== 'ok') record.detail = outcome.text.slice(0, 300);
      work.calls.push(record);
      return kind === 'ok' ? outcome : undefined;
    } catch (err) {
      work.calls.push({
        session: 0,
        tool: name,
        ms: performance.now() - started,
        kind: 'no-response',
        detail: err instanceof Error ? err.message : String(err),
      });
      return undefined;
    }
  };
}
