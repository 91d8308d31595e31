/**
 * One session of the load test: its own MCP server, its own tab, a fixed cycle of mixed calls.
 * Each cycle types a value no other session uses and reads it back, so an answer meant for
 * another session (cross-talk) shows up as a foreign value, a foreign URL or a foreign tab.
 */
import { performance } from 'node:perf_hooks';
import type { ToolArgs, ToolName } from '@browser-agent/protocol';
import type { FixtureSite } from '../../fixtures/server.js';
import type { BenchClient, CallOutcome } from '../mcp/benchClient.js';
import { parseRefs, refKey } from '../mcp/snapshotRefs.js';
import { classify, type CallRecord } from './callRecord.js';

const CYCLE_LENGTH = 10;

export interface SessionReport {
  session: number;
  calls: CallRecord[];
  /** Cross-talk: reads that showed another session's value, URL or tab. */
  crossTalk: string[];
  /** Successful reads that showed none of this session's own value either (not cross-talk). */
  mismatches: string[];
}

export async function runLoadSession(
  client: BenchClient,
  session: number,
  site: FixtureSite,
  totalCalls: number,
  /** Leave screenshots out of the mix (each then becomes a second read-back). */
  screenshots: boolean,
  /** performance.now() after which no new call starts, so a slow bridge cannot stretch the run. */
  deadline: number,
): Promise<SessionReport> {
  const report: SessionReport = { session, calls: [], crossTalk: [], mismatches: [] };
  const call = async <N extends ToolName>(name: N, args: ToolArgs<N>) => {
    const started = performance.now();
    try {
      const outcome = await client.call(name, args);
      const kind = classify(outcome);
      const record: CallRecord = { session, tool: name, ms: outcome.ms, kind };
      if (kind !== 'ok') record.detail = outcome.text.slice(0, 300);
      report.calls.push(record);
      return kind === 'ok' ? outcome : undefined;
    } catch (err) {
      report.calls.push({
        session,
        tool: name,
        ms: performance.now() - started,
        kind: 'no-response',
        detail: err instanceof Error ? err.message : String(err),
      });
      return undefined;
    }
  };
  const check = (what: string, outcome: CallOutcome | undefined, own: string) => {
    if (outcome === undefined) return;
    const foreign = [...outcome.text.matchAll(/\bs(\d+)-r\d+-[a-z0-9]+\b|session=(\d+)/g)]
      .map((m) => Number(m[1] ?? m[2]))
      .filter((other) => other !== session);
    if (foreign.length > 0)
      report.crossTalk.push(
        `${what} showed session ${foreign.join(', ')}: ${outcome.text.slice(0, 200)}`,
      );
    else if (!outcome.text.includes(own))
      report.mismatches.push(`${what} lacks "${own}": ${outcome.text.slice(0, 200)}`);
  };

  let refs = new Map<string, string>();
  const ref = (role: string, name: string) => refs.get(refKey(role, name)) ?? 'e0';
  for (
    let round = 0;
    report.calls.length < totalCalls && performance.now() < deadline;
    round += 1
  ) {
    const token = `s${session}-r${round}-${Math.random().toString(36).slice(2, 8)}`;
    const mark = `session=${session}&round=${round}`;
    const steps: Array<() => Promise<unknown>> = [
      () => call('browser_navigate', { url: site.url(`/form.html?${mark}`) }),
      async () => {
        const snap = await call('browser_snapshot', {});
        if (snap) refs = new Map(parseRefs(snap.text));
      },
      () => call('browser_type', { ref: ref('textbox', 'Name'), text: token }),
      async () => {
        const fn = "() => document.querySelector('#name').value + ' ' + location.search";
        check('name read-back', await call('browser_evaluate', { function: fn }), token);
      },
      () => call('browser_click', { ref: ref('button', 'Send') }),
      () => call('browser_wait_for', { text: `Thanks, ${token}` }),
      async () => {
        const tabs = await call('browser_tabs', { action: 'list' });
        check('tab list', tabs, mark);
        const count = tabs?.text.split('\n').filter((l) => /^- \d+: /.test(l)).length;
        if (count !== undefined && count !== 1)
          report.crossTalk.push(`tab list shows ${count} tabs: ${tabs?.text.slice(0, 200)}`);
      },
      () =>
        screenshots
          ? call('browser_take_screenshot', {})
          : call('browser_evaluate', { function: '() => document.title' }),
      () => call('browser_console_messages', {}),
      async () => {
        const fn = "() => document.getElementById('result').textContent + ' ' + location.search";
        check('result read-back', await call('browser_evaluate', { function: fn }), token);
      },
    ];
    for (const step of steps.slice(0, Math.min(CYCLE_LENGTH, totalCalls - report.calls.length))) {
      if (performance.now() >= deadline) break;
      await step();
    }
  }
  return report;
}
