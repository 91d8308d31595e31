/**
 * Turns trace lines into per-hop costs. Timestamps come from four clocks (server, daemon, relay
 * page, service worker), so a delta between two processes mixes clock offsets into the cost.
 * Spans that start and end in the same process are exact; the cost of each link is then the
 * outer span minus the inner one, e.g. daemon⇄relay = (daemon.back − daemon.in) − (relay.back −
 * relay.in). Both views are reported: the naive consecutive deltas and the nested spans.
 */
import { median } from '../stats.js';
import type { TraceLine } from './traceFile.js';

/** Same-process spans, outermost first; each link's cost is a span minus the next one inside. */
const SPANS = [
  { name: 'server', from: 'server.out', to: 'server.back' },
  { name: 'daemon', from: 'daemon.in', to: 'daemon.back' },
  { name: 'relay page', from: 'relay.in', to: 'relay.back' },
  { name: 'service worker', from: 'worker.in', to: 'worker.out' },
] as const;

export interface HopBreakdown {
  calls: number;
  /** Median of each consecutive delta, in the order the hops were stamped (mixes clocks). */
  deltas: Array<{ from: string; to: string; medianMs: number }>;
  /** Median cost of each link, from same-clock spans (see the header). */
  links: Array<{ name: string; medianMs: number }>;
  /**
   * Per tool, medians over all its calls: total (server.out → server.back), handler, hops
   * (total − handler), CDP (time with a command in flight) and total − CDP.
   */
  tools: Array<{
    tool: string;
    calls: number;
    totalMs: number;
    handlerMs: number;
    hopsMs: number;
    cdpMs: number;
    overheadMs: number;
  }>;
  /** Median over every call of total − CDP: the bridge's own cost plus handler work off CDP. */
  overheadMs: number;
  /** Calls that reported their CDP time. */
  cdpCalls: number;
  /** Median over every call of total − handler: the hops alone, with no handler work. */
  transportMs: number;
}

export function hopBreakdown(lines: readonly TraceLine[]): HopBreakdown {
  return {
    calls: lines.length,
    deltas: consecutiveDeltas(lines),
    links: linkCosts(lines),
    tools: perTool(lines),
    overheadMs: median(withCdp(lines).map((l) => l.totalMs - l.cdpMs)),
    cdpCalls: withCdp(lines).length,
    transportMs: median(
      lines.flatMap((l) => (l.handlerMs === undefined ? [] : [l.totalMs - l.handlerMs])),
    ),
  };
}

/**
 * Calls that report their CDP time: the time during which at least one of their commands was in
 * flight (the union of the intervals, so parallel commands count once).
 */
function withCdp(lines: readonly TraceLine[]): Array<TraceLine & { cdpMs: number }> {
  return lines.flatMap((l) => (l.cdpMs === undefined ? [] : [{ ...l, cdpMs: l.cdpMs }]));
}

function consecutiveDeltas(lines: readonly TraceLine[]): HopBreakdown['deltas'] {
  const byPair = new Map<string, { from: string; to: string; values: number[] }>();
  for (const line of lines) {
    for (let i = 1; i < line.hops.length; i += 1) {
      const a = line.hops[i - 1];
      const b = line.hops[i];
      if (a === undefined || b === undefined) continue;
      const key = `${a.hop}→${b.hop}`;
      const entry = byPair.get(key) ?? { from: a.hop, to: b.hop, values: [] };
      entry.values.push(b.at - a.at);
      byPair.set(key, entry);
    }
  }
  return [...byPair.values()].map(({ from, to, values }) => ({
    from,
    to,
    medianMs: median(values),
  }));
}

function spanMs(line: TraceLine, from: string, to: string): number | undefined {
  const start = line.hops.find((h) => h.hop === from)?.at;
  const end = line.hops.find((h) => h.hop === to)?.at;
  return start === undefined || end === undefined ? undefined : end - start;
}

function linkCosts(lines: readonly TraceLine[]): HopBreakdown['links'] {
  const links: HopBreakdown['links'] = [];
  for (let i = 0; i < SPANS.length; i += 1) {
    const outer = SPANS[i];
    if (outer === undefined) continue;
    const inner = SPANS[i + 1];
    const values: number[] = [];
    for (const line of lines) {
      const outerMs = spanMs(line, outer.from, outer.to);
      if (outerMs === undefined) continue;
      if (inner === undefined) {
        // Innermost: the worker's own time around the handler (dispatch, validation, reply).
        if (line.handlerMs !== undefined) values.push(outerMs - line.handlerMs);
        continue;
      }
      const innerMs = spanMs(line, inner.from, inner.to);
      if (innerMs !== undefined) values.push(outerMs - innerMs);
    }
    const name =
      inner === undefined
        ? `${outer.name}: its own work around the handler`
        : `${outer.name} ⇄ ${inner.name} (both ways, incl. ${outer.name} work)`;
    if (values.length > 0) links.push({ name, medianMs: median(values) });
  }
  return links;
}

function perTool(lines: readonly TraceLine[]): HopBreakdown['tools'] {
  const byTool = new Map<string, TraceLine[]>();
  for (const line of lines) byTool.set(line.tool, [...(byTool.get(line.tool) ?? []), line]);
  return [...byTool.entries()].map(([tool, calls]) => {
    const handled = calls.flatMap((c) => (c.handlerMs === undefined ? [] : [c]));
    return {
      tool,
      calls: calls.length,
      totalMs: median(calls.map((c) => c.totalMs)),
      handlerMs: median(handled.map((c) => c.handlerMs ?? 0)),
      hopsMs: median(handled.map((c) => c.totalMs - (c.handlerMs ?? 0))),
      cdpMs: median(calls.flatMap((c) => (c.cdpMs === undefined ? [] : [c.cdpMs]))),
      overheadMs: median(withCdp(calls).map((c) => c.totalMs - c.cdpMs)),
    };
  });
}
