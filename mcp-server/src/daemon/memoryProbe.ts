/**
 * An opt-in memory probe for soaks: with BROWSER_AGENT_DAEMON_MEMORY_PROBE set, the daemon is
 * started with --expose-gc, and each SIGUSR2 forces a full GC and appends the daemon's
 * process.memoryUsage() to `<state dir>/daemon-memory.jsonl`. The heap used after a forced GC
 * is what the program keeps alive; RSS alone cannot tell a leak from a lazy collector or
 * allocator slack. The value `snapshot` also writes a heap snapshot beside it on each signal.
 * Never set by default: a forced GC stalls every call in flight.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';

export const MEMORY_PROBE_ENV = 'BROWSER_AGENT_DAEMON_MEMORY_PROBE';
export const MEMORY_PROBE_FILE = 'daemon-memory.jsonl';

/** Node flags the daemon is spawned with when the probe is asked for. */
export function memoryProbeNodeFlags(env: NodeJS.ProcessEnv = process.env): string[] {
  return env[MEMORY_PROBE_ENV] ? ['--expose-gc'] : [];
}

export interface MemoryProbeLine {
  t: string;
  /** Bytes, as process.memoryUsage() reports them, measured right after a forced GC. */
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Before the forced GC: what the process holds when left to the collector's own pace. */
  before: { rss: number; heapTotal: number; heapUsed: number };
  /** Committed bytes per V8 heap space before the GC (new_space grows with allocation rate). */
  spaces: Record<string, number>;
  snapshot?: string;
}

/**
 * Installs the SIGUSR2 handler when the probe is asked for (and --expose-gc gave a gc); a no-op
 * otherwise. Returns the uninstaller.
 */
export function installMemoryProbe(
  stateDir: string,
  env: NodeJS.ProcessEnv = process.env,
): () => void {
  const mode = env[MEMORY_PROBE_ENV];
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!mode || gc === undefined) return () => undefined;
  let seq = 0;
  const onSignal = (): void => {
    const { rss, heapTotal, heapUsed } = process.memoryUsage();
    const spaces = Object.fromEntries(
      getHeapSpaceStatistics().map((s) => [s.space_name, s.physical_space_size]),
    );
    gc();
    const line: MemoryProbeLine = {
      t: new Date().toISOString(),
      ...process.memoryUsage(),
      before: { rss, heapTotal, heapUsed },
      spaces,
    };
    if (mode === 'snapshot')
      line.snapshot = writeHeapSnapshot(join(stateDir, `daemon-${++seq}.heapsnapshot`));
    try {
      appendFileSync(join(stateDir, MEMORY_PROBE_FILE), `${JSON.stringify(line)}\n`, {
        mode: 0o600,
      });
    } catch {
      // A probe must never take the daemon down.
    }
  };
  process.on('SIGUSR2', onSignal);
  return () => process.off('SIGUSR2', onSignal);
}
