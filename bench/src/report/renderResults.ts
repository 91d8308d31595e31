import type { SessionsMemory } from '../memory/sessionsMemory.js';
import type { SnapshotShape } from '../scenarios/snapshotShape.js';
import type { ProbeResult, RunPlan } from '../runner/measureProbe.js';
import type { SpawnResult } from '../runner/measureSpawn.js';
import type { FirstCallSamples, FirstCalls } from '../runner/measureFirstCall.js';
import { PEER_LABELS } from '../realPages/peers.js';
import { ALL_PEERS } from '../realPages/phase.js';
import type { SuitePass, SuiteResult } from '../runner/runSuite.js';
import type { Sample } from '../runner/samples.js';
import { median, summarize } from '../stats.js';
import type { HopBreakdown } from '../trace/hopBreakdown.js';
import { ANCHORS, OTHER_TARGETS, anchorFor } from './anchors.js';
import type { MachineInfo } from './machine.js';
import { fmtChars, fmtMiB, fmtMs, fmtRatio, table } from './markdown.js';
import { compareProbe } from './probeComparison.js';

export interface BenchResults {
  machine: MachineInfo;
  plan: RunPlan & { suitePasses: number; spawns: number };
  /** First call of the run: daemon start, Chromium launch, extension up, first navigate. */
  firstCallMs: number;
  /** A new server's first call (launch, browser, navigate), each server in a home of its own. */
  firstCalls: FirstCalls;
  probes: ProbeResult[];
  shape: SnapshotShape | undefined;
  suite: SuiteResult;
  spawn: SpawnResult;
  hops: HopBreakdown | undefined;
  memory: SessionsMemory | undefined;
}

export function renderResults(r: BenchResults): string {
  return [
    renderRun(r),
    '### Per call',
    renderProbes(r.probes),
    '### Beside the anchors',
    renderAnchors(r),
    '### 9-page scenario suite',
    renderSuite(r.suite),
    '### Hop breakdown (trace of the bench session)',
    r.hops === undefined ? 'No trace lines were written.' : renderHops(r.hops),
    '### Memory',
    r.memory === undefined ? 'Not measured.' : renderMemory(r.memory),
  ].join('\n\n');
}

function renderRun(r: BenchResults): string {
  const m = r.machine;
  const packages = m.packages.map((p) => `${p.name} ${p.version}`).join(', ');
  return [
    `- Date: ${m.date}; commit ${m.commit}`,
    `- Machine: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB memory, ${m.os}`,
    `- Versions: Node ${m.node}, ${m.chromium}; ${packages}`,
    `- Plan: per scenario ${r.plan.warmup} warm-up + ${r.plan.iterations} timed iterations, bridge, floor and floor over MCP interleaved (each takes each place in turn); suite 1 warm-up + ${r.plan.suitePasses} passes; spawn 1 warm-up + ${r.plan.spawns}`,
    `- First call of the run (daemon start, Chromium launch, extension up, first navigate): ${fmtMs(r.firstCallMs)}`,
    `- First call of a new server in its own home, same run, median (range) of ${r.firstCalls.rounds} rounds (launch mode: daemon, browser, extension, navigate): ${firstCallLine(r.firstCalls.afterHandshake)}`,
    `- The same from the server's spawn to that answer (handshake included): ${firstCallLine(r.firstCalls.fromSpawn)}`,
    `- The same with the first call sent 2 s after the handshake (servers that start something at initialize): ${firstCallLine(r.firstCalls.afterPause)}`,
  ].join('\n');
}

export function firstCallLine(samples: FirstCallSamples): string {
  return ALL_PEERS.map((id) => {
    const ms = samples[id] ?? [];
    if (ms.length === 0) return `${PEER_LABELS[id]} —`;
    const { median: mid, min, max } = summarize(ms);
    const range = ms.length > 1 ? ` (${fmtMs(min)}–${fmtMs(max)})` : '';
    return `${PEER_LABELS[id]} ${fmtMs(mid)}${range}`;
  }).join(', ');
}

function chars(samples: Sample[] | undefined): string {
  if (samples === undefined || samples.length === 0) return '—';
  const text = median(samples.map((s) => s.textChars));
  const images = median(samples.map((s) => s.imageChars));
  return images > 0 ? `${fmtChars(images)} (image, base64)` : fmtChars(text);
}

const MCP_FLOOR_NOTE =
  "Floor over MCP: the floor's playwright-core steps behind a minimal MCP server (the same SDK, `registerTool`, stdio, spawned by the same kind of client), on its own Chromium with the same binary and flags. MCP stdio round trip = floor over MCP − floor (medians): what any MCP server pays on top of in-process CDP (stdio, JSON-RPC, the SDK's validation on both ends); negative or outsized values mean this run's noise outweighs it for that scenario. bridge ÷ floor is the ratio the issue's targets are judged on; bridge ÷ floor over MCP shows how much of it is the bridge's own.";

function renderProbes(probes: readonly ProbeResult[]): string {
  const rows = probes.map((p) => {
    const c = compareProbe(p.samples);
    return [
      p.error === undefined ? p.label : `${p.label} (FAILED: ${p.error.slice(0, 120)})`,
      fmtMs(c.bridge.median),
      fmtMs(c.bridge.p90),
      fmtMs(c.floor.median),
      fmtMs(c.floor.p90),
      fmtMs(c.mcpFloor.median),
      fmtMs(c.mcpFloor.p90),
      fmtMs(c.mcpRoundTripMs),
      fmtRatio(c.bridgeOverFloor),
      fmtRatio(c.bridgeOverMcpFloor),
      chars(p.samples.bridge),
      chars(p.samples.floor),
    ];
  });
  const header = [
    'scenario',
    'bridge median',
    'bridge p90',
    'floor median',
    'floor p90',
    'floor over MCP median',
    'floor over MCP p90',
    'MCP stdio round trip',
    'bridge ÷ floor',
    'bridge ÷ floor over MCP',
    'chars, bridge',
    'chars, floor',
  ];
  return `${table(header, rows)}\n\n${MCP_FLOOR_NOTE}`;
}

function renderAnchors(r: BenchResults): string {
  const rows: string[][] = [];
  for (const p of r.probes) {
    const anchor = anchorFor(p.id);
    if (anchor === undefined) continue;
    const c = compareProbe(p.samples);
    const bridgeChars = median((p.samples.bridge ?? []).map((s) => s.textChars));
    const withChars = p.id.startsWith('snapshot') ? `, ${fmtChars(bridgeChars)} chars` : '';
    rows.push([
      anchor.label,
      `${fmtMs(c.bridge.median)}${withChars}`,
      fmtMs(c.floor.median),
      fmtMs(c.mcpFloor.median),
      `${fmtRatio(c.bridgeOverFloor)} / ${fmtRatio(c.bridgeOverMcpFloor)}`,
      anchor.playwrightMcp,
      anchor.chromeDevtoolsMcp,
      anchor.rawCdpFloor,
      anchor.target,
    ]);
  }
  rows.push([
    ANCHORS.spawn.label,
    fmtMs(median(r.spawn.samples)),
    '—',
    '—',
    '—',
    ANCHORS.spawn.playwrightMcp,
    ANCHORS.spawn.chromeDevtoolsMcp,
    ANCHORS.spawn.rawCdpFloor,
    ANCHORS.spawn.target,
  ]);
  const suite = (kind: 'bridge' | 'floor') => {
    const passes = r.suite.passes[kind] ?? [];
    const wall = median(passes.map((p) => p.wallMs));
    const text = median(passes.map((p) => sumOf(p, 'textChars')));
    return `${fmtMs(wall)}, ${fmtChars(text)} chars`;
  };
  rows.push([
    ANCHORS.suite.label,
    suite('bridge'),
    suite('floor'),
    '—',
    '—',
    ANCHORS.suite.playwrightMcp,
    ANCHORS.suite.chromeDevtoolsMcp,
    ANCHORS.suite.rawCdpFloor,
    ANCHORS.suite.target,
  ]);
  const shape =
    r.shape === undefined
      ? ''
      : `\n\nOn the ~5,000-element page, the full snapshot shows ${r.shape.kept} of its ${r.shape.total} controls by role and name; the default snapshot is ${fmtChars(r.shape.defaultChars)} chars, ${r.shape.defaultMarked ? 'with' : '**without**'} a truncation marker (target ≤ ${fmtChars(OTHER_TARGETS.defaultSnapshotMaxChars)}, marked).`;
  return (
    table(
      [
        'per call (median)',
        'Browser Agent (this run)',
        'playwright-core floor (this run)',
        'floor over MCP (this run)',
        'bridge ÷ floor / ÷ floor over MCP',
        'Playwright MCP',
        'Chrome DevTools MCP',
        'raw CDP floor (issue)',
        'target',
      ],
      rows,
    ) +
    `\n\n"≤ 2× raw floor" is judged on bridge ÷ floor, the in-process floor; bridge ÷ floor over MCP is beside it, not instead of it.` +
    shape
  );
}

function sumOf(pass: SuitePass, key: 'textChars' | 'imageChars' | 'ms'): number {
  return pass.steps.reduce((sum, s) => sum + s[key], 0);
}

function renderSuite(suite: SuiteResult): string {
  const bridge = suite.passes.bridge ?? [];
  const floor = suite.passes.floor ?? [];
  const overMcp = suite.passes['mcp-floor'] ?? [];
  const totals = table(
    ['agent', 'wall, median', 'wall, p90', 'calls', 'text chars', 'image chars'],
    (
      [
        ['bridge', bridge],
        ['floor', floor],
        ['floor over MCP', overMcp],
      ] as const
    )
      .filter(([, passes]) => passes.length > 0)
      .map(([name, passes]) => [
        name,
        fmtMs(median(passes.map((p) => p.wallMs))),
        fmtMs(summarize(passes.map((p) => p.wallMs)).p90),
        String(passes[0]?.steps.length ?? 0),
        fmtChars(median(passes.map((p) => sumOf(p, 'textChars')))),
        fmtChars(median(passes.map((p) => sumOf(p, 'imageChars')))),
      ]),
  );
  const flowIds = bridge[0]?.flows.map((f) => f.id) ?? [];
  const flowMedian = (passes: readonly SuitePass[], id: string) =>
    median(passes.flatMap((p) => p.flows.filter((f) => f.id === id).map((f) => f.wallMs)));
  const flows = table(
    ['flow', 'bridge', 'floor', 'bridge ÷ floor'],
    flowIds.map((id) => {
      const b = flowMedian(bridge, id);
      const f = flowMedian(floor, id);
      return [id, fmtMs(b), fmtMs(f), fmtRatio(b / f)];
    }),
  );
  const stepKinds = [...new Set(bridge.flatMap((p) => p.steps.map((s) => s.step)))];
  const stepMedian = (passes: readonly SuitePass[], kind: string) =>
    median(passes.flatMap((p) => p.steps.filter((s) => s.step === kind).map((s) => s.ms)));
  const steps = table(
    [
      'step kind (in the suite)',
      'bridge median',
      'floor median',
      'floor over MCP median',
      'bridge ÷ floor',
      'floor over MCP ÷ floor',
      'bridge ÷ floor over MCP',
    ],
    stepKinds.map((k) => {
      const [b, f, m] = [stepMedian(bridge, k), stepMedian(floor, k), stepMedian(overMcp, k)];
      const some = overMcp.length > 0;
      return [
        k,
        fmtMs(b),
        fmtMs(f),
        some ? fmtMs(m) : '—',
        fmtRatio(b / f),
        some ? fmtRatio(m / f) : '—',
        some ? fmtRatio(b / m) : '—',
      ];
    }),
  );
  const failure = suite.error === undefined ? '' : `\n\n**The suite failed:** ${suite.error}`;
  return `${totals}\n\n${flows}\n\n${steps}${failure}`;
}

function renderHops(h: HopBreakdown): string {
  const summary = [
    `- Calls traced: ${h.calls}`,
    `- Bridge hops per call (total − handler: server, daemon, relay page, worker and the links between them), median: **${fmtMs(h.transportMs)}** (target for total − CDP: ≤ ${OTHER_TARGETS.bridgeOverheadMs} ms)`,
    `- Total − CDP (CDP = the time at least one of the call's commands was in flight), median over ${h.cdpCalls} calls: **${fmtMs(h.overheadMs)}**. This also counts the handlers' waits for page events off CDP (load events, wait_for polling); per tool below`,
  ].join('\n');
  const links = table(
    ['link (same-clock spans)', 'median'],
    h.links.map((l) => [l.name, fmtMs(l.medianMs)]),
  );
  const deltas = table(
    ['consecutive hops (cross-process deltas mix clocks)', 'median'],
    h.deltas.map((d) => [`${d.from} → ${d.to}`, fmtMs(d.medianMs)]),
  );
  const tools = table(
    [
      'tool',
      'calls',
      'total',
      'handler',
      'hops (total − handler)',
      'CDP (commands in flight)',
      'total − CDP',
    ],
    h.tools.map((t) => [
      t.tool,
      String(t.calls),
      fmtMs(t.totalMs),
      fmtMs(t.handlerMs),
      fmtMs(t.hopsMs),
      fmtMs(t.cdpMs),
      fmtMs(t.overheadMs),
    ]),
  );
  return [summary, links, deltas, tools].join('\n\n');
}

function renderMemory(m: SessionsMemory): string {
  const rows = [
    ['1 (the bench session)', m.before],
    [`${m.sessions} at once`, m.during],
  ] as const;
  const failure = m.error === undefined ? '' : `\n\n**Failed:** ${m.error}`;
  return (
    table(
      [
        'sessions',
        'daemon RSS',
        'MCP servers RSS (sum)',
        'largest server RSS',
        'Chromium PSS (sum)',
        'Chromium processes',
      ],
      rows.map(([label, f]) => [
        label,
        fmtMiB(f.daemonRssMiB),
        fmtMiB(f.serversRssMiB),
        fmtMiB(f.maxServerRssMiB),
        fmtMiB(f.browserPssMiB),
        String(f.browserProcesses),
      ]),
    ) +
    `\n\nTarget: daemon under ${OTHER_TARGETS.daemonRssMiBWith8Sessions} MB RSS with 8 sessions.${failure}`
  );
}
