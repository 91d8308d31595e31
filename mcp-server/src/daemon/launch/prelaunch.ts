/**
 * The browser a launch-mode daemon starts in its first lines (#26 item 3). The server that spawns
 * the daemon names the launch options it will ask for (`BROWSER_AGENT_PRELAUNCH`, JSON); the
 * daemon starts Chromium with them before the rest of its modules load (~90 ms of a fresh
 * Node's time, in which the browser already starts), and the session's launch adopts that
 * browser when it asks for the same command line (launchCommand). A launch that asks for
 * another one finds it gone; unused, it goes with the daemon's idle minute.
 *
 * The variable has the authority of the hello frame it stands in for: only the server that
 * spawns the daemon sets it (the daemon's environment is that server's), and the browser serves
 * no one until a session's launch adopts it, which hands it the pairing (pipeHandoff.ts).
 */
import type { Logger } from '../../shared/logger.js';
import {
  killGroup,
  launchCommand,
  spawnChromium,
  stopBrowser,
  type LaunchCommand,
  type LaunchOptions,
  type SpawnedBrowser,
} from './browserSpawn.js';
import { dropStaleWorkers } from './workerCache.js';
import { PRELAUNCH_ENV } from '../../shared/prelaunchEnv.js';

/** Unadopted this long, the browser goes: the daemon itself idles out after a minute. */
const UNUSED_MS = 60_000;
const CLOSE_GRACE_MS = 2_000;

/** The options in the variable, or why they are not usable (then nothing starts). */
export function parsePrelaunch(raw: string): LaunchOptions | string {
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
  return {
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

  /** Starts the browser the environment names, if it names one; never throws. */
  static fromEnv(
    env: NodeJS.ProcessEnv,
    stateDir: string,
    log: Logger,
    spawn: typeof spawnChromium = spawnChromium,
  ): Prelaunch | undefined {
    const raw = env[PRELAUNCH_ENV];
    // Not inherited by what the daemon spawns (the browser, the isolated host).
    delete env[PRELAUNCH_ENV];
    if (raw === undefined || raw === '') return undefined;
    const options = parsePrelaunch(raw);
    if (typeof options === 'string') {
      log.warn(`${PRELAUNCH_ENV} ignored: ${options}`);
      return undefined;
    }
    try {
      const command = launchCommand(options);
      // A kept profile may hold the worker of another build of the extension (workerCache.ts).
      if (dropStaleWorkers(command.profile, command.extensionDir))
        log.info('the profile held an extension worker of another build: removed before launch');
      log.info(
        `starting ${command.executable} ahead of the first session (${options.headless ? 'headless' : 'headed'}, profile ${command.profile})`,
      );
      const browser = spawn(command.executable, command.args, stateDir, log);
      return new Prelaunch(command, browser, log);
    } catch (err) {
      // The session's own launch meets the same problem and reports it to the agent.
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
    const { child } = this.#browser;
    const running = child.exitCode === null && child.signalCode === null;
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
    const { pid } = this.#browser.child;
    if (pid !== undefined) killGroup(pid, 'SIGKILL');
  }

  /** Stops it unless a session took it (the daemon stops, or its minute passed unused). */
  async close(why: string): Promise<void> {
    if (this.#state !== 'ready') return;
    this.#state = 'closing';
    clearTimeout(this.#timer);
    this.#log.info(`closing the browser started ahead: ${why}`);
    const { child, cdp, exited } = this.#browser;
    await stopBrowser(child, cdp, exited, CLOSE_GRACE_MS);
  }
}
