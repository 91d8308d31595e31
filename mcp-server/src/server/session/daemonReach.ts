/**
 * Reaching a daemon for a new connection: its socket if one answers, else a daemon spawned
 * (detached, shared by every client) and waited for, else (no Unix sockets, an unusable state
 * directory, or BROWSER_AGENT_NO_DAEMON=1) the same daemon hosted in this process for this
 * server's one client.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Duplex } from 'node:stream';
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { Daemon } from '../../daemon/daemon.js';
import { memoryProbeNodeFlags } from '../../daemon/memoryProbe.js';
import { PRELAUNCH_ENV, prelaunchOptions } from '../../shared/prelaunchEnv.js';
import { startBrowserForDaemon } from '../../daemon/launch/browserHandover.js';
import { startLockHeld } from '../../daemon/startLock.js';
import type { Logger } from '../../shared/logger.js';
import { packageDir } from '../../shared/packageDir.js';
import { ensureStateDir } from '../../shared/paths.js';
import { tryConnect } from '../../shared/socketAnswers.js';
import type { DaemonRoute } from './projectSession.js';

const DAEMON_START_TIMEOUT_MS = 5_000;
/**
 * A refused connect to a socket not there yet costs microseconds; the daemon binds ~150 ms after
 * its spawn, and every ms the server polls past that is a ms of the first call (#26 item 3).
 */
const CONNECT_RETRY_MS = 10;

/**
 * The daemon relays and validates frames; it never runs hot enough to need V8's optimizing
 * compilers. Lite mode leaves them out and keeps less code and feedback around: 54 MB RSS idle
 * instead of 66 MB (Node 20), most of the rest being the node binary's own pages.
 */
const DAEMON_NODE_FLAGS = ['--lite-mode'];

export class DaemonReach {
  readonly #log: Logger;
  /** Host the bridge in this process instead of the shared daemon. */
  readonly #inProcessAsked: boolean;
  #inProcess: Promise<Daemon> | undefined;
  /** A daemon spawned here starts the route's headless browser in its first lines. */
  readonly #launchAhead: boolean;

  constructor(log: Logger, inProcess: boolean, launchAhead = false) {
    this.#log = log;
    this.#inProcessAsked = inProcess;
    this.#launchAhead = launchAhead;
  }

  async reach(route: DaemonRoute): Promise<Duplex> {
    const { paths } = route;
    if (this.#inProcessAsked) {
      return this.#fallback(
        'asked for with BROWSER_AGENT_NO_DAEMON=1',
        usableDir(paths.dir),
        route,
      );
    }
    const reached = await this.#connectOrSpawn(route);
    if (reached.socket) return reached.socket;
    return this.#fallback(reached.unusableDir, undefined, route);
  }

  /**
   * Makes sure the daemon of `route` runs, spawning it if none answers, without opening a
   * session: nothing is launched. A server in launch mode calls it at initialize, so the first
   * tool call does not also wait for the daemon's own start (~0.5 s, #26); an unused daemon
   * exits after its idle minute. Never hosts one in this process, and never throws: the first
   * call reaches the daemon again and reports what is wrong.
   */
  async startAhead(route: DaemonRoute): Promise<void> {
    if (this.#inProcessAsked) return;
    try {
      const { socket } = await this.#connectOrSpawn(route);
      socket?.destroy();
    } catch (err) {
      this.#log.warn(`could not start the bridge daemon ahead of the first call: ${String(err)}`);
    }
  }

  /** The daemon's socket, spawning the daemon first if none answers; or why its directory is unusable. */
  async #connectOrSpawn(
    route: DaemonRoute,
  ): Promise<{ socket: Duplex; unusableDir?: never } | { socket?: never; unusableDir: string }> {
    const { paths } = route;
    const first = await tryConnect(paths.socket);
    if (first) return { socket: first };
    try {
      ensureStateDir(paths.dir);
      if (process.platform !== 'win32') ensureStateDir(dirname(paths.socket));
    } catch (err) {
      return { unusableDir: err instanceof Error ? err.message : String(err) };
    }
    spawnDaemon(this.#log, route, this.#launchAhead ? route.launch : undefined);
    const deadline = Date.now() + DAEMON_START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, CONNECT_RETRY_MS));
      const socket = await tryConnect(paths.socket);
      if (socket) return { socket };
    }
    const why = lastDaemonError(paths.logFile);
    throw new BridgeError(
      ErrorCode.NOT_CONNECTED,
      `The bridge daemon did not start: ${why}`,
      `See ${paths.logFile}. Another program may hold the bridge port; set BROWSER_AGENT_PORT or stop it. \`browser-agent-mcp doctor\` names the program on the port.`,
    );
  }

  /** Stops the daemon this process hosts, if it hosts one. */
  stopInProcess(): void {
    void this.#inProcess?.then((d) => d.stop()).catch(() => undefined);
  }

  /** No shared daemon possible: this server hosts the bridge itself, for its one client. */
  async #fallback(why: string, stateDir: string | undefined, route: DaemonRoute): Promise<Duplex> {
    this.#log.warn(
      `cannot use the shared daemon (${why}); hosting the bridge in this process for this client only`,
    );
    // Loaded only here: the whole daemon (ws included) would otherwise load with every server.
    const { startInProcessDaemon, duplexPair } = await import('./inProcessDaemon.js');
    this.#inProcess ??= startInProcessDaemon(this.#log, stateDir, route.port);
    const daemon = await this.#inProcess;
    const [ours, theirs] = duplexPair();
    daemon.accept(theirs);
    return ours;
  }
}

function usableDir(dir: string): string | undefined {
  try {
    ensureStateDir(dir);
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * Spawns the daemon of a route. In launch mode its headless browser starts here too, in the same
 * moment, and goes to the daemon with its debugging pipe (daemon/launch/browserHandover.ts): the
 * browser need not wait for the daemon's Node to boot.
 */
function spawnDaemon(log: Logger, route: DaemonRoute, launch: DaemonRoute['launch']): void {
  const { daemonArgs: args, paths } = route;
  const entry = join(packageDir(), 'dist', 'daemon', 'main.js');
  const ahead = prelaunchOptions(launch);
  // A daemon holding the start lock has its browser: the one spawned now exits at once, and a
  // second browser on the same profile would only meet the first one's.
  const browser =
    ahead === undefined || startLockHeld(`${paths.pidFile}.lock`)
      ? undefined
      : startBrowserForDaemon(ahead, paths.dir, log);
  log.info(`starting the bridge daemon${args.length > 0 ? ` (${args.join(' ')})` : ''}`);
  const flags = [...DAEMON_NODE_FLAGS, ...memoryProbeNodeFlags()];
  try {
    const child = spawn(process.execPath, [...flags, entry, ...args], {
      detached: true,
      stdio: browser === undefined ? 'ignore' : ['ignore', 'ignore', 'ignore', ...browser.pipe],
      env: daemonEnv(browser?.env ?? {}),
    });
    child.unref();
  } finally {
    // The daemon holds its own copies now; without a daemon the browser ends with its pipe.
    browser?.release();
  }
}

/** This server's environment, with the browser handed over named by this server alone. */
function daemonEnv(handed: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env[PRELAUNCH_ENV];
  return { ...env, ...handed };
}

function lastDaemonError(logFile: string): string {
  if (!existsSync(logFile)) return 'no log written';
  const lines = readFileSync(logFile, 'utf8').trim().split('\n');
  return [...lines].reverse().find((l) => l.includes(' error ')) ?? 'unknown reason';
}
