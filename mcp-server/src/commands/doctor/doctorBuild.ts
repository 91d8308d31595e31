/**
 * doctor's view of build identities (#26.5): a daemon of the same release but another build (or
 * from before build identities) is not this build's daemon. Servers of this build stop it when
 * nobody uses it; while it serves clients, launch-mode servers run a daemon of their own and
 * servers on the user's Chrome refuse it (server/session/otherBuild.ts).
 */
import type { DaemonStatus } from '../../daemon/statusFile.js';
import { buildId } from '../../shared/buildId.js';

/** A doctor check (doctorFacts.ts's Check), declared here so neither file imports the other. */
interface BuildCheck {
  id: 'daemon';
  status: 'warn';
  summary: string;
  fix: string;
  details: Record<string, unknown>;
}

export function daemonBuildCheck(
  status: DaemonStatus,
  details: Record<string, unknown>,
): BuildCheck | undefined {
  const ours = buildId();
  if (status.build === ours) return undefined;
  const which = status.build === undefined ? 'an older build' : `build ${status.build}`;
  const live = status.sessions.filter((s) => s.connected).length;
  return {
    id: 'daemon',
    status: 'warn',
    summary:
      `the running daemon (pid ${status.pid}) is ${which} of ${status.version}; this browser-agent-mcp is build ${ours}.` +
      (live === 0
        ? ' The next MCP call of this build stops it and starts its own.'
        : ` It serves ${live} MCP client${live === 1 ? '' : 's'}: servers of this build in launch mode run a daemon of their own meanwhile; with your own Chrome they cannot connect until it stops.`),
    fix: `Close the MCP clients of the old build, or stop it: kill ${status.pid}.`,
    details: { ...details, build: status.build, ourBuild: ours },
  };
}

/**
 * The port is held by a bridge daemon that wrote no status this doctor reads (an older one): the
 * daemon check reports it and its fix; "another program" here would send the user to change the
 * port for what stopping that daemon fixes (#27.4).
 */
export function daemonOnPort(
  port: number,
  owner: { pid: number; command: string } | undefined,
): { id: 'port'; status: 'info'; summary: string } | undefined {
  if (owner === undefined || !/daemon[/\\]main\.js/.test(owner.command)) return undefined;
  return {
    id: 'port',
    status: 'info',
    summary: `bridge port ${port} is held by a bridge daemon (pid ${owner.pid}), the one the daemon check names: stopping it frees the port.`,
  };
}
