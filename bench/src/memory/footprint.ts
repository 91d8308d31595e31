import { processTree, pssMiB, rssMiB } from '@browser-agent/testkit/procfs';

export interface Footprint {
  /** The daemon process alone (VmRSS). */
  daemonRssMiB: number | undefined;
  /** Every MCP server process, summed and the largest (VmRSS). */
  serversRssMiB: number;
  maxServerRssMiB: number;
  /** The browser's processes: summed PSS (shared pages split, so the sum is honest) and count. */
  browserPssMiB: number;
  browserProcesses: number;
}

/** In launch mode the browser is everything the daemon started: its descendants. */
export function launchedBrowserPids(daemonPid: number | undefined): number[] {
  return daemonPid === undefined ? [] : processTree(daemonPid).filter((pid) => pid !== daemonPid);
}

/** Memory of one run's processes right now. */
export function footprint(
  daemonPid: number | undefined,
  serverPids: readonly number[],
  browser: readonly number[],
): Footprint {
  const servers = serverPids.map((pid) => rssMiB(pid) ?? 0);
  return {
    daemonRssMiB: daemonPid === undefined ? undefined : rssMiB(daemonPid),
    serversRssMiB: servers.reduce((a, b) => a + b, 0),
    maxServerRssMiB: Math.max(0, ...servers),
    browserPssMiB: browser.reduce((sum, pid) => sum + (pssMiB(pid) ?? 0), 0),
    browserProcesses: browser.length,
  };
}
