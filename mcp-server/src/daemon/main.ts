/**
 * Entry of the detached daemon process (spawned by the first MCP server). Refuses to run twice:
 * if a live daemon answers on the socket it exits at once; a stale socket file is removed.
 * `--state-dir`, `--socket` and `--port` start a project's own daemon (launch mode on a project
 * profile); without them it is the per-user daemon.
 *
 * Only light modules load before the start lock is taken: a launch-mode daemon takes over the
 * browser its server started with it then (prelaunch.ts, browserHandover.ts), and the daemon
 * proper (the protocol's schemas, ws, ~90 ms in a fresh Node) loads while the browser starts
 * (#26 item 3). A daemon that exits before that closes the browser's pipe, which ends it. The
 * build keeps these modules out of the daemon's chunks (rolldown.config.ts, `daemonBoot`).
 */
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { rmSync, writeFileSync } from 'node:fs';
import { DEFAULT_BRIDGE_PORT } from '@browser-agent/protocol/constants';
import { createLogger, logToFile } from '../shared/logger.js';
import { ensureStateDir, statePaths, type StatePaths } from '../shared/paths.js';
import { socketAnswers } from '../shared/socketAnswers.js';
import { installMemoryProbe } from './memoryProbe.js';
import { Prelaunch } from './launch/prelaunch.js';
import { removeOwnPidFile, takeStartLock } from './startLock.js';
import { statusFilePath } from './statusFile.js';

const DEFAULT_IDLE_EXIT_MS = 60_000;

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

function daemonPaths(): {
  paths: StatePaths;
  port: number | undefined;
  idleExitMs: number | undefined;
} {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      'state-dir': { type: 'string' },
      socket: { type: 'string' },
      port: { type: 'string' },
      'idle-exit-ms': { type: 'string' },
    },
  });
  const user = statePaths();
  const dir = values['state-dir'] ?? user.dir;
  const paths: StatePaths = {
    dir,
    socket: values.socket ?? (values['state-dir'] ? join(dir, 'daemon.sock') : user.socket),
    pidFile: join(dir, 'daemon.pid'),
    logFile: join(dir, 'daemon.log'),
  };
  const port = Number(values.port);
  const idle = Number(values['idle-exit-ms']);
  return {
    paths,
    port: Number.isInteger(port) && port >= 0 && port < 65536 ? port : undefined,
    idleExitMs: Number.isInteger(idle) && idle >= 0 ? idle : undefined,
  };
}

async function main(): Promise<void> {
  const { paths, port, idleExitMs } = daemonPaths();
  ensureStateDir(paths.dir);
  if (process.platform !== 'win32') ensureStateDir(dirname(paths.socket));
  logToFile(paths.logFile);
  const log = createLogger('daemon');

  const unix = process.platform !== 'win32';
  if (unix && (await socketAnswers(paths.socket))) {
    log.info('another daemon is already running; exiting');
    return;
  }
  // Without a socket to ask (Windows pipes), a live pid is all there is to go by.
  const releaseLock = takeStartLock(`${paths.pidFile}.lock`, !unix);
  if (releaseLock === undefined) {
    log.info('another daemon is starting; exiting');
    return;
  }
  if (unix) rmSync(paths.socket, { force: true });

  // Until the daemon proper runs, a signal stops the browser started ahead before exiting.
  const prelaunch = Prelaunch.fromEnv(process.env, log.child('chrome'));
  const early = (sig: NodeJS.Signals): void => {
    void (prelaunch?.close(sig) ?? Promise.resolve()).finally(() => {
      releaseLock();
      process.exit(0);
    });
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, early);
  const { Daemon } = await import('./daemon.js');
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(sig, early);

  const daemon = new Daemon(
    {
      socketPath: paths.socket,
      stateDir: paths.dir,
      port: port ?? envNumber('BROWSER_AGENT_PORT', DEFAULT_BRIDGE_PORT),
      idleExitMs: idleExitMs ?? envNumber('BROWSER_AGENT_IDLE_EXIT_MS', DEFAULT_IDLE_EXIT_MS),
      extensionWaitMs: envNumber('BROWSER_AGENT_EXTENSION_WAIT_MS', 5_000),
      launchWaitMs: 30_000,
      sessionGraceMs: envNumber('BROWSER_AGENT_SESSION_GRACE_MS', 30_000),
      prelaunch,
    },
    log,
  );

  const shutdown = (why: string): void => {
    log.info(`${why}: shutting down`);
    void daemon.stop().then(() => {
      cleanup();
      process.exit(0);
    });
  };
  const cleanup = (): void => {
    releaseLock();
    removeOwnPidFile(paths.pidFile);
    if (process.platform !== 'win32' && daemon.socketBound) rmSync(paths.socket, { force: true });
    // doctor would take a status of a reused pid for a live daemon.
    rmSync(statusFilePath(paths.dir), { force: true });
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => shutdown(sig));
  process.on('exit', cleanup);
  // A bug in one connection's handling must not take every session down with it.
  process.on('uncaughtException', (err) => log.error(`uncaught: ${err.stack ?? err.message}`));
  process.on('unhandledRejection', (err) => log.error(`unhandled rejection: ${String(err)}`));

  try {
    await daemon.start();
  } catch (err) {
    log.error(`cannot start: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
    await daemon.stop();
    return;
  }
  installMemoryProbe(paths.dir);
  writeFileSync(paths.pidFile, String(process.pid), { mode: 0o600 });
}

void main();
