/**
 * Reads the hop trace the MCP server writes with BROWSER_AGENT_TRACE_FILE: one JSON line per
 * tool call, `{tool, totalMs, hops: [{hop, at}], handlerMs?, cdpMs?}`.
 */
import { readFile } from 'node:fs/promises';

export interface Hop {
  hop: string;
  at: number;
}

export interface TraceLine {
  tool: string;
  totalMs: number;
  hops: Hop[];
  handlerMs: number | undefined;
  cdpMs: number | undefined;
}

export async function readTrace(file: string): Promise<TraceLine[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const lines: TraceLine[] = [];
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    const line = toTraceLine(JSON.parse(raw) as unknown);
    if (line) lines.push(line);
  }
  return lines;
}

function toTraceLine(value: unknown): TraceLine | undefined {
  if (!isRecord(value) || typeof value['tool'] !== 'string' || !isNumber(value['totalMs']))
    return undefined;
  const hops = Array.isArray(value['hops']) ? value['hops'].filter(isHop) : [];
  return {
    tool: value['tool'],
    totalMs: value['totalMs'],
    hops,
    handlerMs: isNumber(value['handlerMs']) ? value['handlerMs'] : undefined,
    cdpMs: isNumber(value['cdpMs']) ? value['cdpMs'] : undefined,
  };
}

function isHop(value: unknown): value is Hop {
  return isRecord(value) && typeof value['hop'] === 'string' && isNumber(value['at']);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
