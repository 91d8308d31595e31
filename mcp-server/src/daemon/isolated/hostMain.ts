/**
 * Entry of the isolated host process (spawned by the first isolated session's daemon,
 * isolatedContext.ts): it runs the browser every `--isolated` session with the same launch
 * options shares, and gives each session's daemon a browser context of its own. One host per
 * state directory (the start lock and the socket, as for the daemon); it exits when its browser
 * does, or when no session has used it for the linger time.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger, logToFile } from '../../shared/logger.js';
import { ensureStateDir } from '../../shared/paths.js';
import { socketAnswers } from '../../shared/socketAnswers.js';
import { listenUnix } from '../serverConnection.js';
import { removeOwnPidFile, takeStartLock } from '../startLock.js';
import { ContextHost } from './contextHost.js';
import { HostBrowser } from './hostBrowser.js';
import type { HostLaunch } from './hostFrames.js';
import { hostPaths } from './hostPaths.js';

const DEFAULT_LINGER_MS = 10_000;

function args(): { launch: HostLaunch; lingerMs: number } {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: { launch: { type: 'string' }, 'linger-ms': { type: 'string' } },
  });
  const launch = JSON.parse(values.launch ?? '') as HostLaunch;
  const linger = Number(values['linger-ms']);
  return { launch, lingerMs: Number.isFinite(linger) && linger >= 0 ? linger : DEFAULT_LINGER_MS };
}

async function main(): Promise<void> {
  const { launch, lingerMs } = args();
  const paths = hostPaths(launch);
  ensureStateDir(paths.dir);
  // A deep state dir puts the socket in a short per-user directory (projectDaemonPaths.ts).
  if (process.platform !== 'win32') ensureStateDir(dirname(paths.socket));
  logToFile(paths.logFile);
  const log = createLogger('isolated-host');
  if (await socketAnswers(paths.socket)) {
    log.info('another isolated host is already running; exiting');
    return;
  }
  const releaseLock = takeStartLock(`${paths.pidFile}.lock`, true);
  if (releaseLock === undefined) {
    log.info('another isolated host is starting; exiting');
    return;
  }
  rmSync(paths.socket, { force: true });
  const cleanup = (): void => {
    releaseLock();
    removeOwnPidFile(paths.pidFile);
    rmSync(paths.socket, { force: true });
  };
  process.on('exit', cleanup);
  process.on('uncaughtException', (err) => log.error(`uncaught: ${err.stack ?? err.message}`));
  process.on('unhandledRejection', (err) => log.error(`unhandled rejection: ${String(err)}`));

  const browser = HostBrowser.launch(launch, paths.dir, log.child('chrome'));
  let stopping: Promise<void> | undefined;
  const stop = (why: string): Promise<void> =>
    (stopping ??= (async () => {
      log.info(`${why}: closing the browser`);
      // The socket goes first, so no daemon is given a context of a browser that is closing.
      server.close();
      rmSync(paths.socket, { force: true });
      host.stop();
      await browser.close();
      process.exit(0);
    })());
  const host = new ContextHost(browser, lingerMs, log, () => void stop('no isolated session left'));
  const server = await listenUnix(paths.socket, (socket) => host.accept(socket));
  writeFileSync(paths.pidFile, String(process.pid), { mode: 0o600 });
  log.info(`listening on ${paths.socket} (linger ${lingerMs} ms)`);
  browser.ready.catch((err: unknown) => void stop(`the extension did not load: ${String(err)}`));
  void browser.exited.then(() => stop('the browser exited'));
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => void stop(sig));
}

void main();
