/**
 * The browser a launch-mode daemon starts with (#26 item 3). The server that spawns the daemon
 * starts it in the same moment and hands it over on the daemon's fds 3 and 4
 * (browserHandover.ts), naming the launch options it will ask for and the browser's pid
 * (`BROWSER_AGENT_PRELAUNCH`, JSON). The session's launch adopts that browser when it asks for
 * the same command line (launchCommand). A launch that asks for another one finds it gone;
 * unused, it goes with the daemon's idle minute.
 *
 * The variable and the fds have the authority of the hello frame they stand in for: only the
 * server that spawns the daemon sets them (the daemon's environment and fds are that server's),
 * and the browser serves no one until a session's launch adopts it, which hands it the pairing
 * (pipeHandoff.ts).
 */
import type { Logger } from '../../shared/logger.js';
import type { Readable, Writable } from 'node:stream';
import {
  killGroup,
  launchCommand,
  stopBrowser,
  type LaunchCommand,
  type LaunchOptions,
  type SpawnedBrowser,
} from './browserSpawn.js';
import { handedBrowser, handedPipe } from './browserHandover.js';
import { PRELAUNCH_ENV } from '../../shared/prelaunchEnv.js';

/** Unadopted this long, the browser goes: the daemon itself idles out after a minute. */
const UNUSED_MS = 60_000;
const CLOSE_GRACE_MS = 2_000;

/** The options and the pid in the variable, or why they are not usable (then nothing is adopted). */
export function parsePrelaunch(raw: string): (LaunchOptions & { pid: number }) | string {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return 'not JSON';
  }
  if (typeof value !== 'object' || value === null) return 'not an object';
  const v = value as Record<string, unknown>;
  const optionalString = (x: unknown): boolean => x === undefined || typeof x === 'string';
  if (typeof v['headless'] !== 'boolean' || typeof v['isolated'] !== 'boolean')
    return 'headless and isolated must be booleans';
  if (!optionalString(v['executablePath']) || !optionalString(v['userDataDir']))
    return 'executablePath and userDataDir must be strings';
  const args = v['args'];
  if (args !== undefined && !(Array.isArray(args) && args.every((a) => typeof a === 'string')))
    return 'args must be strings';
  if (v['isolated'] === true && v['userDataDir'] === undefined)
    return 'an isolated context is not a browser of its own';
  if (v['headless'] !== true) return 'only a headless browser is started ahead';
  const pid = v['pid'];
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 1)
    return 'pid must name a process';
  return {
    pid,
    headless: v['headless'],
    isolated: v['isolated'],
    executablePath: v['executablePath'] as string | undefined,
    userDataDir: v['userDataDir'] as string | undefined,
    args: args,
  };
}

export class Prelaunch {
  readonly #command: LaunchCommand;
  readonly #browser: SpawnedBrowser;
  readonly #log: Logger;
  readonly #timer: NodeJS.Timeout;
  /** Waiting for a launch; handed to one; being closed (unused); killed. */
  #state: 'ready' | 'taken' | 'closing' | 'killed' = 'ready';

  private constructor(command: LaunchCommand, browser: SpawnedBrowser, log: Logger) {
    this.#command = command;
    this.#browser = browser;
    this.#log = log;
    this.#timer = setTimeout(() => void this.close('no session asked for it'), UNUSED_MS);
    this.#timer.unref();
  }

  /**
   * The browser the spawning server handed over, if the environment names one; never throws.
   * `pipe` gives the pipe's two ends (the daemon's fds 3 and 4; a test's own streams).
   */
  static fromEnv(
    env: NodeJS.ProcessEnv,
    log: Logger,
    pipe: () => { toBrowser: Writable; fromBrowser: Readable } | string = handedPipe,
  ): Prelaunch | undefined {
    const raw = env[PRELAUNCH_ENV];
    // Not inherited by what the daemon spawns (the browser, the isolated host).
    delete env[PRELAUNCH_ENV];
    if (raw === undefined || raw === '') return undefined;
    const parsed = parsePrelaunch(raw);
    const handed = pipe();
    const problem =
      typeof parsed === 'string' ? parsed : typeof handed === 'string' ? handed : undefined;
    if (typeof parsed === 'string' || typeof handed === 'string') {
      // Nothing adopted: a pipe that came closes now, and the browser at its other end with it.
      if (typeof handed !== 'string') {
        handed.toBrowser.destroy();
        handed.fromBrowser.destroy();
      }
      log.warn(`${PRELAUNCH_ENV} ignored: ${problem ?? ''}`);
      return undefined;
    }
    const { pid, ...options } = parsed;
    const browser = handedBrowser(pid, handed.toBrowser, handed.fromBrowser);
    try {
      const command = launchCommand(options);
      log.info(
        `took over ${command.executable}, started ahead of the first session by the server (pid ${pid}, profile ${command.profile})`,
      );
      return new Prelaunch(command, browser, log);
    } catch (err) {
      // Its binary or the extension went since the server started it: the session's own launch
      // meets the same and reports it. Closing the pipe ends the browser.
      handed.toBrowser.destroy();
      handed.fromBrowser.destroy();
      log.warn(`not started ahead: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }

  /**
   * The browser, when a launch of exactly `command` is asked for and it still runs. Otherwise it
   * is killed at once, so a launch on the same profile does not meet it holding the profile.
   */
  take(command: LaunchCommand): SpawnedBrowser | undefined {
    if (this.#state === 'closing') {
      // Its minute passed and it is still closing: the launch must not meet it on the profile.
      this.#kill('a launch came while it closed');
      return undefined;
    }
    if (this.#state !== 'ready') return undefined;
    clearTimeout(this.#timer);
    const running = this.#browser.running();
    const same =
      command.executable === this.#command.executable &&
      JSON.stringify(command.args) === JSON.stringify(this.#command.args);
    if (running && same) {
      this.#state = 'taken';
      this.#log.info('the session took the browser started ahead');
      return this.#browser;
    }
    if (running) this.#kill('the session asked for another launch');
    else {
      this.#state = 'killed';
      this.#log.info('the browser started ahead has exited; launching again');
    }
    return undefined;
  }

  /** Killed, not closed: it served no one, and the launch that follows needs its profile free. */
  #kill(why: string): void {
    this.#state = 'killed';
    this.#log.info(`${why}: the browser started ahead is killed`);
    const { pid } = this.#browser;
    if (pid !== undefined && this.#browser.running()) killGroup(pid, 'SIGKILL');
  }

  /** Stops it unless a session took it (the daemon stops, or its minute passed unused). */
  async close(why: string): Promise<void> {
    if (this.#state !== 'ready') return;
    this.#state = 'closing';
    clearTimeout(this.#timer);
    this.#log.info(`closing the browser started ahead: ${why}`);
    await stopBrowser(this.#browser, CLOSE_GRACE_MS);
  }
}
