/**
 * The facts `browser-agent-mcp doctor` reports, one check per part of the chain: Node, the
 * browser that launch mode would start, the packaged extension, the state directory and socket
 * (hostChecks.ts), the daemon and the bridge port (daemonChecks.ts), the extension link,
 * pairing, sessions and the daemon's last errors (linkChecks.ts). A failed check carries the one
 * thing to do next.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_BRIDGE_PORT } from '@browser-agent/protocol';
import { statusFilePath, type DaemonStatus } from '../../daemon/statusFile.js';
import { statePaths, type StatePaths } from '../../shared/paths.js';
import { pidAlive } from '../../shared/pidAlive.js';
import type { Check, DoctorOptions } from './check.js';
import { daemonCheck, portCheck } from './daemonChecks.js';
import { browserCheck, extensionCheck, nodeCheck, stateDirChecks } from './hostChecks.js';
import { linkCheck, logCheck, pairingCheck, sessionsCheck } from './linkChecks.js';

export type { Check, CheckStatus, DoctorOptions } from './check.js';

export async function diagnose(options: DoctorOptions): Promise<Check[]> {
  const { env } = options;
  const paths = statePaths(env);
  const status = readStatus(paths);
  const checks: Check[] = [nodeCheck(), await browserCheck(options), extensionCheck()];
  checks.push(...stateDirChecks(paths));
  const daemon = await daemonCheck(paths, status);
  checks.push(daemon);
  const port = status?.port ?? envPort(env);
  checks.push(await portCheck(port, status));
  if (status !== undefined) checks.push(linkCheck(status), sessionsCheck(status));
  checks.push(pairingCheck(paths, status));
  checks.push(logCheck(paths));
  return checks;
}

function envPort(env: NodeJS.ProcessEnv): number {
  const n = Number(env['BROWSER_AGENT_PORT']);
  return Number.isInteger(n) && n > 0 && n < 65536 ? n : DEFAULT_BRIDGE_PORT;
}

/** status.json of a daemon whose pid is alive; a dead daemon's file is stale. */
export function readStatus(paths: StatePaths): DaemonStatus | undefined {
  try {
    const status = JSON.parse(readFileSync(statusFilePath(paths.dir), 'utf8')) as DaemonStatus;
    return typeof status.pid === 'number' && pidAlive(status.pid) ? status : undefined;
  } catch {
    return undefined;
  }
}
