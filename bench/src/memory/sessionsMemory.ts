import type { FixtureSite } from '../../fixtures/server.js';
import { progress } from '../log.js';
import type { BenchClient } from '../mcp/benchClient.js';
import type { Sandbox } from '../sandbox.js';
import { footprint, launchedBrowserPids, type Footprint } from './footprint.js';

/** Lets the daemon's and the browser's memory settle after the sessions' first pages. */
const SETTLE_MS = 2_000;

export interface SessionsMemory {
  sessions: number;
  /** With only the bench's own session. */
  before: Footprint;
  /** With `sessions` clients connected at once, each with a tab open on a page. */
  during: Footprint;
  error?: string;
}

/**
 * Connects clients until `sessions` are live at once (the bench's own counts as one), gives
 * each a tab, and reads the daemon's VmRSS from /proc.
 */
export async function measureSessionsMemory(
  sandbox: Sandbox,
  site: FixtureSite,
  main: BenchClient,
  sessions: number,
): Promise<SessionsMemory> {
  const daemon = await sandbox.daemonPid();
  const before = footprint(daemon, [main.pid], launchedBrowserPids(daemon));
  const extra: BenchClient[] = [];
  try {
    for (let i = 1; i < sessions; i += 1) {
      const client = await sandbox.spawnClient(`bench-memory-${i}`);
      extra.push(client);
      await client.callOk('browser_navigate', { url: site.url(`/form.html?session=${i}`) });
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const servers = [main.pid, ...extra.map((c) => c.pid)];
    const during = footprint(daemon, servers, launchedBrowserPids(daemon));
    return { sessions, before, during };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    progress(`memory with ${sessions} sessions failed: ${error}`);
    return { sessions, before, during: before, error };
  } finally {
    await Promise.all(extra.map((c) => c.close()));
  }
}
