import type { Footprint } from '../memory/footprint.js';
import type { MachineInfo } from '../report/machine.js';
import { fmtMiB, fmtMs, table } from '../report/markdown.js';
import { summarize } from '../stats.js';
import type { CallKind, CallRecord } from './callRecord.js';
import type { SessionReport } from './loadSession.js';

export interface LoadResults {
  machine: MachineInfo;
  sessions: number;
  callsPerSession: number;
  screenshots: boolean;
  wallMs: number;
  reports: SessionReport[];
  /** Wire-level response accounting, summed over every client. */
  ledger: { requests: number; missing: number; duplicated: number; unknown: number };
  memory: Footprint;
  failures: string[];
}

export function renderLoad(r: LoadResults): string {
  const calls = r.reports.flatMap((s) => s.calls);
  const count = (kind: CallKind) => calls.filter((c) => c.kind === kind).length;
  const all = summarize(calls.map((c) => c.ms));
  const byTool = new Map<string, CallRecord[]>();
  for (const c of calls) byTool.set(c.tool, [...(byTool.get(c.tool) ?? []), c]);
  const m = r.machine;
  const lines = [
    `- Date: ${m.date}; commit ${m.commit}; ${m.cpus} CPUs (${m.cpuModel}); Node ${m.node}; ${m.chromium}`,
    `- Mix per cycle of 10: navigate, snapshot, type, evaluate (read back), click, wait_for, tabs list, ${r.screenshots ? 'screenshot' : 'evaluate (screenshots left out)'}, console messages, evaluate (read back)`,
    `- Planned ${r.sessions} sessions × ${r.callsPerSession} calls; made ${calls.length} calls in ${fmtMs(r.wallMs)}: **${(calls.length / (r.wallMs / 1000)).toFixed(1)} calls/s**`,
    `- Latency over all calls: p50 ${fmtMs(all.median)}, p90 ${fmtMs(all.p90)}, p99 ${fmtMs(all.p99)}, max ${fmtMs(all.max)}`,
    `- Outcomes: ${count('ok')} ok, ${count('coded-error')} coded errors, ${count('uncoded-error')} uncoded errors, ${count('no-response')} without a response`,
    `- Responses on the wire: ${r.ledger.requests} requests, ${r.ledger.missing} unanswered, ${r.ledger.duplicated} answered twice, ${r.ledger.unknown} answers to unknown ids`,
    `- Cross-talk: ${r.reports.reduce((n, s) => n + s.crossTalk.length, 0)} reads showed another session's value, URL or tab`,
    `- Memory at the end: daemon ${fmtMiB(r.memory.daemonRssMiB)} RSS; servers ${fmtMiB(r.memory.serversRssMiB)} RSS in all; Chromium ${fmtMiB(r.memory.browserPssMiB)} PSS in ${r.memory.browserProcesses} processes`,
    `- Result: ${r.failures.length === 0 ? '**passed**' : `**failed**: ${r.failures.join('; ')}`}`,
  ].join('\n');
  const tools = table(
    ['tool', 'calls', 'p50', 'p90', 'p99', 'coded errors'],
    [...byTool.entries()].map(([tool, records]) => {
      const s = summarize(records.map((c) => c.ms));
      const coded = records.filter((c) => c.kind === 'coded-error').length;
      return [
        tool,
        String(records.length),
        fmtMs(s.median),
        fmtMs(s.p90),
        fmtMs(s.p99),
        String(coded),
      ];
    }),
  );
  const errors = new Map<string, { count: number; example: string }>();
  for (const c of calls) {
    if (c.kind === 'ok') continue;
    const detail = oneLine(c.detail);
    const key = `${c.tool}: ${/^[A-Z_]+(?=:)/.exec(detail)?.[0] ?? c.kind}`;
    const entry = errors.get(key) ?? { count: 0, example: detail };
    entry.count += 1;
    errors.set(key, entry);
  }
  const errorList =
    errors.size === 0
      ? ''
      : `\n\nErrors by tool and code:\n\n${[...errors.entries()]
          .map(([key, e]) => `- ${key} × ${e.count}, e.g. "${e.example.slice(0, 160)}"`)
          .join('\n')}`;
  return `${lines}\n\n${tools}${errorList}`;
}

function oneLine(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}
