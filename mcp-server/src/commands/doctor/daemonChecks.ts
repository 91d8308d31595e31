/** Doctor checks of the running daemon (its version against ours) and of the bridge port. */
import { daemonBuildCheck, daemonOnPort } from './doctorBuild.js';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { PROTOCOL_VERSION } from '@browser-agent/protocol';
import type { DaemonStatus } from '../../daemon/statusFile.js';
import type { StatePaths } from '../../shared/paths.js';
import { pidAlive } from '../../shared/pidAlive.js';
import { socketAnswers } from '../../shared/socketAnswers.js';
import { packageVersion } from '../../shared/version.js';
import type { Check } from './check.js';
import { portOwner } from './portOwner.js';

export async function daemonCheck(
  paths: StatePaths,
  status: DaemonStatus | undefined,
): Promise<Check> {
  const answers = process.platform !== 'win32' && (await socketAnswers(paths.socket));
  const pid = readPid(paths.pidFile);
  if (!answers && status === undefined) {
    return {
      id: 'daemon',
      status: 'info',
      summary: `no daemon running (the first MCP call starts one on ${paths.socket})`,
    };
  }
  const ours = packageVersion();
  if (status === undefined) {
    return {
      id: 'daemon',
      status: 'fail',
      summary: `a daemon answers on ${paths.socket}${pid ? ` (pid ${pid})` : ''} but does not say its version: it is older than ${ours}.`,
      fix: pid
        ? `Stop it: kill ${pid} (the next MCP call starts version ${ours}).`
        : `Stop the process that serves ${paths.socket}.`,
    };
  }
  const details = {
    pid: status.pid,
    version: status.version,
    socket: status.socket,
    port: status.port,
    startedAt: status.startedAt,
  };
  if (status.version !== ours || status.protocolVersion !== PROTOCOL_VERSION) {
    return {
      id: 'daemon',
      status: 'fail',
      summary: `the running daemon (pid ${status.pid}) is version ${status.version} (protocol v${status.protocolVersion}); this browser-agent-mcp is ${ours} (protocol v${PROTOCOL_VERSION}).`,
      fix: `Stop it: kill ${status.pid} (the next MCP call starts version ${ours}). Servers of the other version must be restarted too.`,
      details,
    };
  }
  const otherBuild = daemonBuildCheck(status, details);
  if (otherBuild) return otherBuild;
  return {
    id: 'daemon',
    status: 'ok',
    summary: `daemon ${status.version} running (pid ${status.pid}, since ${status.startedAt}) on ${status.socket ?? paths.socket}`,
    details,
  };
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pidAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

export async function portCheck(port: number, status: DaemonStatus | undefined): Promise<Check> {
  const listening = await portAnswers(port);
  if (!listening) {
    return status === undefined
      ? { id: 'port', status: 'ok', summary: `bridge port ${port} is free (nobody listens)` }
      : {
          id: 'port',
          status: 'fail',
          summary: `the daemon says it listens on port ${port}, but nothing answers there.`,
          fix: `Stop the daemon (kill ${status.pid}); the next MCP call starts a fresh one.`,
        };
  }
  if (status !== undefined && status.port === port) {
    return {
      id: 'port',
      status: 'ok',
      summary: `bridge port ${port} is held by our daemon (pid ${status.pid})`,
    };
  }
  const owner = portOwner(port);
  const daemon = daemonOnPort(port, owner);
  if (daemon) return daemon;
  return {
    id: 'port',
    status: 'fail',
    summary: `bridge port ${port} is taken by another program${owner ? ` (pid ${owner.pid}: ${owner.command})` : ''}; ${
      status === undefined
        ? 'the daemon cannot listen there'
        : `the daemon listens on port ${status.port} instead: launch mode works, your own Chrome's side panel cannot reach it`
    }.`,
    fix: `Stop ${owner ? `pid ${owner.pid}` : 'that program'}, or use another port: set BROWSER_AGENT_PORT=<free port> in the MCP server's environment (and the same port in the side panel for your own Chrome).`,
    details: { port, owner },
  };
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(2_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
