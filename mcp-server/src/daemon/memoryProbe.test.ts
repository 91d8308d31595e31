import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MEMORY_PROBE_ENV,
  MEMORY_PROBE_FILE,
  installMemoryProbe,
  memoryProbeNodeFlags,
  type MemoryProbeLine,
} from './memoryProbe.js';

const g = globalThis as { gc?: () => void };

describe('daemon memory probe', () => {
  const dir = mkdtempSync(join(tmpdir(), 'memprobe-'));
  const hadGc = g.gc;
  afterEach(() => {
    g.gc = hadGc;
    rmSync(join(dir, MEMORY_PROBE_FILE), { force: true });
  });

  it('is off unless asked for: no node flags, no signal handler', () => {
    expect(memoryProbeNodeFlags({})).toEqual([]);
    expect(memoryProbeNodeFlags({ [MEMORY_PROBE_ENV]: '1' })).toEqual(['--expose-gc']);
    const listeners = process.listenerCount('SIGUSR2');
    g.gc = () => undefined;
    installMemoryProbe(dir, {})();
    expect(process.listenerCount('SIGUSR2')).toBe(listeners);
  });

  it('forces a GC and appends the memory before and after it on each SIGUSR2', () => {
    let collections = 0;
    g.gc = () => (collections += 1);
    const uninstall = installMemoryProbe(dir, { [MEMORY_PROBE_ENV]: '1' });
    try {
      process.emit('SIGUSR2', 'SIGUSR2');
      process.emit('SIGUSR2', 'SIGUSR2');
    } finally {
      uninstall();
    }
    const lines = readFileSync(join(dir, MEMORY_PROBE_FILE), 'utf8').trim().split('\n');
    expect(collections).toBe(2);
    expect(lines).toHaveLength(2);
    const line = JSON.parse(lines[0] ?? '') as MemoryProbeLine;
    expect(line.heapUsed).toBeGreaterThan(0);
    expect(line.before.heapTotal).toBeGreaterThan(0);
    expect(line.spaces['old_space']).toBeGreaterThan(0);
    expect(line.snapshot).toBeUndefined();
  });
});
