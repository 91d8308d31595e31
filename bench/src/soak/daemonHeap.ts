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
import {
  MEMORY_PROBE_ENV,
  MEMORY_PROBE_FILE,
  type MemoryProbeLine,
} from '@browser-agent/mcp-server/memoryProbe';

/** Turns the probe on; a value already set (`snapshot`: a heap snapshot per probe) is kept. */
export function daemonProbeEnv(): Record<string, string> {
  return { [MEMORY_PROBE_ENV]: process.env[MEMORY_PROBE_ENV] || '1' };
}
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
  const file = path.join(stateDir, MEMORY_PROBE_FILE);
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
    // Written by another process: typed as the probe writes it, each number still checked.
    const u = JSON.parse(line) as Partial<MemoryProbeLine>;
    const mib = (bytes: unknown) => (typeof bytes === 'number' ? bytes / MIB : NaN);
    const heap = {
      heapUsedMiB: mib(u.heapUsed),
      externalMiB: mib(u.external),
      arrayBuffersMiB: mib(u.arrayBuffers),
      rssMiB: mib(u.rss),
      heapTotalBeforeGcMiB: mib(u.before?.heapTotal),
      rssBeforeGcMiB: mib(u.before?.rss),
    };
    return Object.values(heap).every(Number.isFinite) ? heap : undefined;
  } catch {
    return undefined;
  }
}
