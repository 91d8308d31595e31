/**
 * The browser a launch-mode daemon starts with is spawned by the server that spawns the daemon,
 * in the same moment, and handed to the daemon as its fds 3 and 4: the two ends of the debugging
 * pipe (#26 item 3). A fresh Node takes 70-90 ms to boot on a 2-core machine before its first
 * line runs; when the daemon spawned the browser in its first lines, Chromium waited for that.
 * The server's Node has booted already.
 *
 * Ownership passes with the pipe. The server drops its copies of both ends once the daemon is
 * spawned (release()), so the pipe is the daemon's alone, as cdpPipe.ts requires. Chromium exits
 * when its pipe closes (checked: exit code 0 within ~0.1 s), so a daemon that exits before it
 * adopts the browser (another daemon answers, the start lock is taken) or dies takes it along.
 * The browser process is the server's child: when the server exits first it is reparented, as
 * the daemon itself is, and the daemon tells its end by the pipe closing and the pid going.
 */
import { fstatSync, readFileSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from '../../shared/logger.js';
import { pidAlive } from '../../shared/pidAlive.js';
import { prelaunchEnv, type PrelaunchOptions } from '../../shared/prelaunchEnv.js';
import { launchCommand, startBrowserProcess, type SpawnedBrowser } from './browserSpawn.js';
import { CdpPipe } from './cdpPipe.js';
import { dropStaleWorkers } from './workerCache.js';

/** The daemon's fds that carry the pipe: as Chromium's own, 3 to the browser and 4 from it. */
const TO_BROWSER_FD = 3;
const FROM_BROWSER_FD = 4;
/** After the pipe closes, how long the pid may take to go (a zombie nobody reaps never does). */
const PID_GONE_WAIT_MS = 3_000;
const PID_POLL_MS = 20;

/** A browser started for a daemon about to be spawned. */
export interface HandedBrowser {
  /** The daemon's stdio entries 3 and 4. */
  pipe: [Writable, Readable];
  /** The daemon's environment entry: the launch it is, and the browser's pid. */
  env: Record<string, string>;
  /** Call once the daemon is spawned (it holds its own copies): drops this process's. */
  release(): void;
}

/**
 * Server side: starts the browser a daemon about to be spawned will own. Never throws: the
 * session's own launch meets the same problem and reports it to the agent.
 */
export function startBrowserForDaemon(
  options: PrelaunchOptions,
  stateDir: string,
  log: Logger,
): HandedBrowser | undefined {
  try {
    const command = launchCommand(options);
    // A kept profile may hold the worker of another build of the extension (workerCache.ts).
    if (dropStaleWorkers(command.profile, command.extensionDir))
      log.info('the profile held an extension worker of another build: removed before launch');
    log.info(`starting ${command.executable} for the daemon (profile ${command.profile})`);
    const { child, toBrowser, fromBrowser } = startBrowserProcess(
      command.executable,
      command.args,
      stateDir,
      log,
    );
    const pid = child.pid;
    if (pid === undefined) {
      toBrowser.destroy();
      fromBrowser.destroy();
      return undefined;
    }
    return {
      pipe: [toBrowser, fromBrowser],
      env: prelaunchEnv(options, pid),
      release() {
        toBrowser.destroy();
        fromBrowser.destroy();
        child.unref();
      },
    };
  } catch (err) {
    log.warn(`not started ahead: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/** Daemon side: the pipe the server handed over as fds 3 and 4, or why there is none. */
export function handedPipe(): { toBrowser: Writable; fromBrowser: Readable } | string {
  for (const fd of [TO_BROWSER_FD, FROM_BROWSER_FD]) {
    try {
      if (!fstatSync(fd).isSocket()) return `fd ${fd} is not the browser's pipe`;
    } catch {
      return `fd ${fd} is not open`;
    }
  }
  return {
    toBrowser: new Socket({ fd: TO_BROWSER_FD, readable: false, writable: true }),
    fromBrowser: new Socket({ fd: FROM_BROWSER_FD, readable: true, writable: false }),
  };
}

/**
 * A browser another process started, owned through its pipe: it has ended once the pipe closed
 * and its pid is gone (or a zombie). Until then it counts as running, so stopBrowser may still
 * kill its group; after, nothing is sent to a pid that may belong to another process by then.
 */
export function handedBrowser(
  pid: number,
  toBrowser: Writable,
  fromBrowser: Readable,
): SpawnedBrowser {
  let running = true;
  const exited = new Promise<void>((resolve) => {
    fromBrowser.once('close', () => {
      void pidGone(pid, PID_GONE_WAIT_MS).then(() => {
        running = false;
        resolve();
      });
    });
  });
  return { pid, running: () => running, cdp: new CdpPipe(toBrowser, fromBrowser), exited };
}

async function pidGone(pid: number, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  while (pidAlive(pid) && !isZombie(pid) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, PID_POLL_MS));
}

/** Exited, waiting for a parent that may be gone to reap it (Linux; elsewhere false). */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}
