/**
 * Reads the daemon's heap through its opt-in memory probe (mcp-server/src/daemon/memoryProbe.ts):
 * SIGUSR2 makes the daemon force a full GC and append its process.memoryUsage() to a file in
 * its state dir. Heap used after a forced GC grows only with what the daemon keeps alive, so it
 * tells a leak from RSS that moves with the collector's pace or the allocator's slack.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Names shared with memoryProbe.ts (the bench does not import the daemon's internals). A value
 * already set (`snapshot`: a heap snapshot per probe) is kept.
 */
export function daemonProbeEnv(): Record<string, string> {
  return {
    BROWSER_AGENT_DAEMON_MEMORY_PROBE: process.env['BROWSER_AGENT_DAEMON_MEMORY_PROBE'] || '1',
  };
}
const PROBE_FILE = 'daemon-memory.jsonl';
const ANSWER_WAIT_MS = 3_000;
const MIB = 1024 * 1024;

export interface DaemonHeap {
  heapUsedMiB: number;
  externalMiB: number;
  arrayBuffersMiB: number;
  rssMiB: number;
  /** Before the forced GC: the V8 heap as the collector left it, and the process's RSS. */
  heapTotalBeforeGcMiB: number;
  rssBeforeGcMiB: number;
}

/** One probe of the daemon, or undefined when it did not answer (no probe, or gone). */
export async function probeDaemonHeap(
  pid: number,
  stateDir: string,
): Promise<DaemonHeap | undefined> {
  const file = path.join(stateDir, PROBE_FILE);
  const before = await lineCount(file);
  try {
    process.kill(pid, 'SIGUSR2');
  } catch {
    return undefined;
  }
  const deadline = performance.now() + ANSWER_WAIT_MS;
  while (performance.now() < deadline) {
    const lines = await readLines(file);
    const last = lines.length > before ? lines.at(-1) : undefined;
    if (last !== undefined) return parse(last);
    await sleep(50);
  }
  return undefined;
}

async function readLines(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((l) => l !== '');
}

async function lineCount(file: string): Promise<number> {
  return (await readLines(file)).length;
}

function parse(line: string): DaemonHeap | undefined {
  try {
    const u = JSON.parse(line) as Record<string, unknown>;
    const before = (u['before'] ?? {}) as Record<string, unknown>;
    const mib = (key: string, from = u) => (typeof from[key] === 'number' ? from[key] / MIB : NaN);
    const heap = {
      heapUsedMiB: mib('heapUsed'),
      externalMiB: mib('external'),
      arrayBuffersMiB: mib('arrayBuffers'),
      rssMiB: mib('rss'),
      heapTotalBeforeGcMiB: mib('heapTotal', before),
      rssBeforeGcMiB: mib('rss', before),
    };
    return Object.values(heap).every(Number.isFinite) ? heap : undefined;
  } catch {
    return undefined;
  }
}
