/** The real-pages section of docs/benchmarks.md: per server, then where ours was slow. */
import type { RealPage } from '../../fixtures/realPages.js';
import { fmtChars, fmtMs, table } from '../report/markdown.js';
import type { MachineInfo } from '../report/machine.js';
import { median, percentile } from '../stats.js';
import { PEER_LABELS, type PeerId } from './peers.js';
import type { PageVisit } from './runRealPages.js';

export interface RealPagesResults {
  machine: MachineInfo;
  /** os.loadavg() at the start and at the end of the phase. */
  loadBefore: readonly number[];
  loadAfter: readonly number[];
  pages: readonly RealPage[];
  peers: readonly PeerId[];
  visits: readonly PageVisit[];
}

const pct = (v: number) => `${(v * 100).toFixed(0)} %`;
const mean = (v: readonly number[]) => v.reduce((s, x) => s + x, 0) / Math.max(1, v.length);
const load = (l: readonly number[]) => l.map((x) => x.toFixed(2)).join(' / ');

export function renderRealPages(r: RealPagesResults): string {
  const m = r.machine;
  const kinds = ['news', 'blog', 'shop'].map(
    (k) => `${r.pages.filter((p) => p.kind === k).length} ${k}`,
  );
  const lines = [
    `- Date: ${m.date}; commit ${m.commit}; ${m.cpus} CPUs (${m.cpuModel}); Node ${m.node}; ${m.chromium}`,
    `- Load average (1 / 5 / 15 min): ${load(r.loadBefore)} before, ${load(r.loadAfter)} after`,
    `- Pages: ${r.pages.length} (${kinds.join(', ')}); ${r.pages.filter((p) => p.hangs).length} hold one subresource forever; slowest answered subresource per page ${fmtMs(Math.min(...r.pages.map((p) => p.slowestMs)))}–${fmtMs(Math.max(...r.pages.map((p) => p.slowestMs)))}`,
    '',
  ];
  const rows = r.peers.map((peer) => {
    const v = r.visits.filter((x) => x.peer === peer);
    const nav = v.map((x) => x.navigateMs);
    const chars = v.map((x) => x.snapshotChars);
    return [
      PEER_LABELS[peer],
      fmtMs(median(nav)),
      fmtMs(percentile(nav, 90)),
      fmtMs(Math.max(...nav)),
      String(v.filter((x) => x.navigateMs >= 10_000).length),
      String(v.filter((x) => x.navigateFailed).length),
      fmtChars(median(chars)),
      fmtChars(Math.max(...chars)),
      pct(mean(v.map((x) => x.controlRecall))),
      pct(Math.min(...v.map((x) => x.controlRecall))),
      pct(mean(v.map((x) => x.textRecall))),
      pct(Math.min(...v.map((x) => x.textRecall))),
    ];
  });
  lines.push(
    table(
      [
        'server',
        'navigate median',
        'p90',
        'max',
        'pages ≥ 10 s',
        'navigate failed',
        'snapshot chars, median',
        'max',
        'control recall, mean',
        'min',
        'text recall, mean',
        'min',
      ],
      rows,
    ),
    '',
  );
  const hanging = r.pages.filter((p) => p.hangs).map((p) => p.path);
  const split = r.peers.map((peer) => {
    const v = r.visits.filter((x) => x.peer === peer);
    const on = (hang: boolean) =>
      v.filter((x) => hanging.includes(x.page) === hang).map((x) => x.navigateMs);
    return [PEER_LABELS[peer], fmtMs(median(on(false))), fmtMs(median(on(true)))];
  });
  lines.push(table(['navigate median by page', 'every load answers', 'one load hangs'], split), '');
  if (r.peers.includes('ours')) {
    const slowOurs = r.pages.filter((p) => {
      const ours = r.visits.find((x) => x.page === p.path && x.peer === 'ours');
      const fastPeer = r.visits.some(
        (x) => x.page === p.path && x.peer !== 'ours' && x.navigateMs < 1_000,
      );
      return ours !== undefined && ours.navigateMs >= 10_000 && fastPeer;
    });
    lines.push(
      `- Pages where ours took 10 s or more while a peer took under 1 s: ${slowOurs.length}`,
    );
    const notes = new Map<string, number>();
    for (const v of r.visits.filter((x) => x.navigateFailed)) {
      // The page's own URL would make every note unique; what failed is the same.
      const note = (v.navigateNote ?? '').replace(/https?:\/\/\S+/g, 'the page').slice(0, 120);
      const key = `${PEER_LABELS[v.peer]}: ${note}`;
      notes.set(key, (notes.get(key) ?? 0) + 1);
    }
    for (const [note, n] of notes) lines.push(`- Navigate failed ${n}× — ${note}`);
  }
  return lines.join('\n');
}
