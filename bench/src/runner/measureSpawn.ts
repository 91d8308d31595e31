import { performance } from 'node:perf_hooks';
import { progress } from '../log.js';
import type { Sandbox } from '../sandbox.js';

export interface SpawnResult {
  /** Spawn → initialize → tools/list answered, per spawn after the warm-up. */
  samples: number[];
  tools: number;
  error?: string;
}

/**
 * Times what an MCP host does on start: spawn `browser-agent-mcp`, initialize, list the tools.
 * The daemon and its browser are already up (another session holds them), as on a real machine
 * after the first client.
 */
export async function measureSpawn(
  sandbox: Sandbox,
  plan: { warmup: number; iterations: number },
): Promise<SpawnResult> {
  const result: SpawnResult = { samples: [], tools: 0 };
  try {
    for (let i = 0; i < plan.warmup + plan.iterations; i += 1) {
      const started = performance.now();
      const client = await sandbox.spawnClient(`bench-spawn-${i}`);
      const tools = await client.listTools();
      const ms = performance.now() - started;
      await client.close();
      if (i >= plan.warmup) result.samples.push(ms);
      result.tools = tools.length;
    }
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
    progress(`spawn probe failed: ${result.error}`);
  }
  return result;
}
