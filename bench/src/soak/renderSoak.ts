import type { CallKind } from '../load/callRecord.js';
import type { MachineInfo } from '../report/machine.js';
import { fmtMiB, fmtMs, table } from '../report/markdown.js';
import { summarize } from '../stats.js';
import type { SoakSample } from './sampler.js';
import type { SoakWork } from './soakSession.js';
import type { TrendVerdict } from './trend.js';

export interface SoakResults {
  machine: MachineInfo;
  minutes: number;
  work: SoakWork;
  samples: SoakSample[];
  verdicts: TrendVerdict[];
  /** Before the long-lived session closed: its own tab list and the browser's targets. */
  end: { sessionTabs: number; httpTabs: number; attachedTabs: number };
  /** After every session closed. */
  after: { httpTabs: number; attachedTabs: number };
  failures: string[];
}

export function renderSoak(r: SoakResults): string {
  const m = r.machine;
  const count = (kind: CallKind) => r.work.calls.filter((c) => c.kind === kind).length;
  const latency = summarize(r.work.calls.map((c) => c.ms));
  const summary = [
    `- Date: ${m.date}; commit ${m.commit}; ${m.cpus} CPUs (${m.cpuModel}); Node ${m.node}; ${m.chromium}`,
    `- ${r.minutes} min: ${r.work.cycles} cycles, ${r.work.calls.length} calls, ${r.work.churnedSessions} short-lived sessions; ${r.samples.length} samples`,
    `- Outcomes: ${count('ok')} ok, ${count('coded-error')} coded errors, ${count('uncoded-error')} uncoded errors, ${count('no-response')} without a response; latency p50 ${fmtMs(latency.median)}, p90 ${fmtMs(latency.p90)}, p99 ${fmtMs(latency.p99)}`,
    `- At the end, the long-lived session listed ${r.end.sessionTabs} tab(s); the browser had ${r.end.httpTabs} web tab(s), ${r.end.attachedTabs} with a debugger attached`,
    `- After every session closed: ${r.after.httpTabs} web tab(s) left, ${r.after.attachedTabs} debugger attachment(s) left`,
    `- Result: ${r.failures.length === 0 ? '**passed**' : `**failed**: ${r.failures.join('; ')}`}`,
  ].join('\n');
  const trends = table(
    ['process', 'first quarter', 'last quarter', 'growth', 'allowed', 'slope', 'verdict'],
    r.verdicts.map((v) => [
      v.name,
      fmtMiB(v.firstQuarterMiB),
      fmtMiB(v.lastQuarterMiB),
      fmtMiB(v.growthMiB),
      fmtMiB(v.allowedMiB),
      `${v.slopeMiBPerMinute.toFixed(2)} MiB/min`,
      v.grew ? 'grew' : 'flat',
    ]),
  );
  const step = Math.max(1, Math.ceil(r.samples.length / 10));
  const timeline = table(
    [
      'minute',
      'daemon RSS',
      'server RSS',
      'Chromium PSS',
      'Chromium processes',
      'tabs',
      'attached',
    ],
    r.samples
      .filter((_, i) => i % step === 0 || i === r.samples.length - 1)
      .map((s) => [
        s.minute.toFixed(1),
        fmtMiB(s.daemonRssMiB),
        fmtMiB(s.serverRssMiB),
        fmtMiB(s.browserPssMiB),
        String(s.browserProcesses),
        String(s.tabs),
        String(s.attachedTabs),
      ]),
  );
  return [summary, trends, timeline, daemonHeapTable(r.samples)].filter(Boolean).join('\n\n');
}

/** The daemon's probes (each forces a GC): what it keeps alive, beside what it holds. */
function daemonHeapTable(samples: SoakSample[]): string {
  const probed = samples.filter((s) => s.daemonHeap !== undefined);
  if (probed.length === 0) return '';
  const step = Math.max(1, Math.ceil(probed.length / 10));
  return table(
    [
      'minute',
      'daemon heap used after GC',
      'external',
      'array buffers',
      'V8 heap before GC',
      'RSS before GC',
      'RSS after GC',
    ],
    probed
      .filter((_, i) => i % step === 0 || i === probed.length - 1)
      .flatMap((s) => {
        const h = s.daemonHeap;
        if (h === undefined) return [];
        return [
          [
            s.minute.toFixed(1),
            fmtMiB(h.heapUsedMiB),
            fmtMiB(h.externalMiB),
            fmtMiB(h.arrayBuffersMiB),
            fmtMiB(h.heapTotalBeforeGcMiB),
            fmtMiB(h.rssBeforeGcMiB),
            fmtMiB(h.rssMiB),
          ],
        ];
      }),
  );
}
