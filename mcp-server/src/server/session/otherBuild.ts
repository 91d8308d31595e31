/**
 * One build, one daemon (#26.5). The daemon's welcome names its build (a daemon from before build
 * identities names none). A server that meets a daemon of another build never drives it: the
 * daemon would run the other build's code and talk to the other build's extension without a word.
 *   - Nobody else is connected to it: the server stops it, and the next connect starts this build's.
 *   - Other servers use it: in launch mode this server starts a daemon (and browser) of its own;
 *     with the user's Chrome (one extension, one port) it answers an error that says why and
 *     what to do, never "open the side panel".
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { BridgeError, ErrorCode, type FrameOf } from '@browser-agent/protocol';
import type { Logger } from '../../shared/logger.js';
import type { StatePaths } from '../../shared/paths.js';
import { pidAlive } from '../../shared/pidAlive.js';
import { buildId } from '../../shared/buildId.js';
import { statusFilePath } from '../../daemon/statusFile.js';

/** A daemon that takes longer than this to let go of its socket is left to the error path. */
const STOP_WAIT_MS = 5_000;
const STOP_POLL_MS = 50;

export class OtherBuildDaemon extends BridgeError {
  constructor(
    readonly daemonBuild: string | undefined,
    /** Other servers connected to it; undefined when it could not be told. */
    readonly liveSessions: number | undefined,
    readonly pid: number | undefined,
    readonly paths: StatePaths,
  ) {
    const which = daemonBuild === undefined ? 'an older build' : `build ${daemonBuild}`;
    super(
      ErrorCode.VERSION_MISMATCH,
      `The running bridge daemon${pid === undefined ? '' : ` (pid ${pid})`} is ${which} of browser-agent-mcp; this server is build ${buildId()}, so it did not use it.` +
        (liveSessions === undefined || liveSessions === 0
          ? ''
          : ` It serves ${liveSessions} other MCP client${liveSessions === 1 ? '' : 's'}, so it was left running.`),
      `Close the MCP clients that use the old build (or stop that daemon${pid === undefined ? '' : `: kill ${pid}`}), then retry; the next call starts this build's daemon. \`browser-agent-mcp doctor\` shows both builds.`,
    );
  }
}

/** The daemon's welcome, read against this build: an error when it is another build. */
export function otherBuildOf(
  welcome: FrameOf<'welcome'>,
  paths: StatePaths,
): OtherBuildDaemon | undefined {
  if (welcome.build === buildId()) return undefined;
  const status = readStatus(paths);
  // A daemon from before build identities does not count its servers; its status file does.
  const live = welcome.liveSessions ?? status?.live;
  return new OtherBuildDaemon(welcome.build, live, status?.pid ?? readPid(paths.pidFile), paths);
}

export interface OtherBuildRoutes {
  log: Logger;
  /** Launch mode: switches the route to a daemon of this server's own; false when it cannot. */
  ownDaemon: (why: string) => boolean;
}

/**
 * What to do about a daemon of another build: stop it when nobody uses it, else go to a daemon of
 * this server's own when the route allows. True: connect again. Anything else is rethrown.
 */
export async function meetOtherBuild(err: unknown, routes: OtherBuildRoutes): Promise<true> {
  if (!(err instanceof OtherBuildDaemon)) throw err;
  const { log } = routes;
  if (err.liveSessions === 0 && err.pid !== undefined) {
    log.warn(`${err.message} Nobody uses it: stopping it for this build's daemon.`);
    if (await stopDaemon(err.pid, err.paths)) return true;
    throw err;
  }
  if (routes.ownDaemon(err.message)) return true;
  throw err;
}

/** SIGTERM, then waits until the daemon is gone and its socket answers no more. */
export async function stopDaemon(pid: number, paths: StatePaths): Promise<boolean> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // Gone already.
  }
  const deadline = Date.now() + STOP_WAIT_MS;
  while (Date.now() < deadline) {
    if (!pidAlive(pid) && !(await answers(paths.socket))) return true;
    await new Promise((resolve) => setTimeout(resolve, STOP_POLL_MS));
  }
  return false;
}

function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function readStatus(paths: StatePaths): { pid: number; live: number } | undefined {
  try {
    const status = JSON.parse(readFileSync(statusFilePath(paths.dir), 'utf8')) as {
      pid?: unknown;
      sessions?: { connected?: unknown }[];
    };
    if (typeof status.pid !== 'number' || !pidAlive(status.pid)) return undefined;
    const live = (status.sessions ?? []).filter((s) => s.connected === true).length;
    return { pid: status.pid, live };
  } catch {
    return undefined;
  }
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pidAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}
