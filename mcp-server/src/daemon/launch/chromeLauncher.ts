import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { EXTENSION_ID, RELAY_PAGE_PATH } from '@browser-agent/protocol';
import type { Logger } from '../../shared/logger.js';
import { CdpPipe, waitForTarget } from './cdpPipe.js';
import { handOffOverPipe } from './pipeHandoff.js';
import { HeldRelayPage } from './heldRelayPage.js';
import { dropStaleWorkers } from './workerCache.js';
import { pairingFragment, type Pairing } from '../link/pairingStore.js';
import { browserPolicyMayExist } from './policyFiles.js';
import {
  AUTOMATION_HIDDEN_FLAGS,
  QUIET_FLAGS,
  WINDOW_SIZE_FLAG,
  extensionFlags,
  machineFlags,
} from './chromiumFlags.js';
import { defaultProfileDir } from '../../shared/profiles.js';
import { ensurePrivateDir } from '../../shared/privateDir.js';
import { packageDir } from '../../shared/packageDir.js';

export interface LaunchOptions {
  headless: boolean;
  executablePath?: string | undefined;
  userDataDir?: string | undefined;
  isolated: boolean;
  owner?: string | undefined;
  /** Extra Chromium flags (proxy, config launchOptions.args), checked by the server. */
  args?: string[] | undefined;
  /** CDP permission names granted to every origin once the browser is up. */
  grantPermissions?: string[] | undefined;
  /** The browser saves downloads here (the server's output directory). */
  downloadDir?: string | undefined;
}

const KILL_GRACE_MS = 3_000;
/** A browser asked to close writes its cookies and storage to the profile first. */
const CLOSE_GRACE_MS = 5_000;
const EXTENSION_READY_TIMEOUT_MS = 20_000;
/** The worker's script runs 100-300 ms after its target appears; then the relay page's way. */
const PIPE_HANDOFF_TIMEOUT_MS = 5_000;

const CANDIDATES: Record<string, string[]> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
  ],
  darwin: [
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  ],
  win32: [
    join(process.env['LOCALAPPDATA'] ?? '', 'Chromium', 'Application', 'chrome.exe'),
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
  ],
};

/**
 * --executable-path, then CHROME_PATH, then the usual install paths (Chromium first). A path the
 * user named that does not exist is an error: launching another browser instead would hide it.
 */
export function findBrowser(explicit?: string): string {
  if (explicit !== undefined && explicit !== '') {
    if (existsSync(explicit)) return explicit;
    throw new Error(
      // The server sends the path without saying where it came from: name every place it can.
      `The browser given as the executable path does not exist: ${explicit}. Fix the setting that names it (--executable-path, the CHROME_PATH environment variable or browser.executablePath in the config file), or remove it to use an installed Chromium.`,
    );
  }
  const tried: string[] = [];
  for (const candidate of [process.env['CHROME_PATH'], ...(CANDIDATES[process.platform] ?? [])]) {
    if (!candidate) continue;
    if (existsSync(candidate)) return candidate;
    tried.push(candidate);
  }
  throw new Error(
    `No Chromium or Chrome found (tried ${tried.join(', ')}). Install Chromium or pass --executable-path.`,
  );
}

/**
 * The built extension: BROWSER_AGENT_EXTENSION_DIR, else extension/dist beside this package (the
 * workspace), else the copy an installed package carries (./extension, see
 * build/copyExtension.mjs).
 */
export function extensionDir(): string {
  const fromEnv = process.env['BROWSER_AGENT_EXTENSION_DIR'];
  if (fromEnv) return resolve(fromEnv);
  const workspace = resolve(packageDir(), '..', 'extension', 'dist');
  const packaged = join(packageDir(), 'extension');
  if (!existsSync(join(workspace, 'manifest.json')) && existsSync(join(packaged, 'manifest.json')))
    return packaged;
  return workspace;
}

/** extensionDir(), once it holds a built extension; else an error that says how to build it. */
export function builtExtensionDir(): string {
  const dir = extensionDir();
  if (!existsSync(join(dir, 'manifest.json')))
    throw new Error(
      `The extension is not built at ${dir}. Run pnpm build first (or reinstall the package).`,
    );
  return dir;
}

/**
 * Starts Chromium with `args` (which end with --remote-debugging-pipe), its output appended to
 * `<stateDir>/chromium.log`, in a process group of its own and with umask 077 (privateFiles), and
 * returns it with the CDP client on its pipe.
 */
export function spawnChromium(
  executable: string,
  args: string[],
  stateDir: string,
  log: Logger,
): { child: ChildProcess; cdp: CdpPipe } {
  const logFd = openSync(join(stateDir, 'chromium.log'), 'a', 0o600);
  const child = privateFiles(() =>
    spawn(executable, args, {
      stdio: ['ignore', logFd, logFd, 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    }),
  );
  closeSync(logFd);
  child.on('error', (err) => log.error(`browser process: ${err.message}`));
  const [, , , toBrowser, fromBrowser] = child.stdio;
  if (!(toBrowser instanceof Writable) || !(fromBrowser instanceof Readable)) {
    if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
    throw new Error('Could not open the debugging pipe to the browser.');
  }
  return { child, cdp: new CdpPipe(toBrowser, fromBrowser) };
}

/** What tells two launches' extra options apart (order-sensitive, as Chromium reads flags). */
export function launchExtrasKey(options: Pick<LaunchOptions, 'args' | 'grantPermissions'>): string {
  return JSON.stringify([options.args ?? [], options.grantPermissions ?? []]);
}

export interface RelayPageFacts {
  /** No browser policy files on this machine (policyFiles.ts), asked once by the caller. */
  noPolicy: boolean;
  /** Handed to the page to pair it; absent once the worker took the link over the pipe. */
  pairing?: Pairing;
  /** The startup tab's target id, for the page to name to the worker (`?spare=`). */
  spareTarget?: string | undefined;
}

/**
 * The relay page a launched browser opens. `launch=1` tells the page the browser is ours, so the
 * service worker holds the link itself; `policy=none`: no admin lists to wait for. A pairing
 * rides in the URL fragment, which never leaves the browser; the page stores it and removes it
 * from the address. Once the worker took the link over the pipe (pipeHandoff.ts), the page only
 * shows the sessions and the log, and carries no pairing and no spare tab.
 */
export function relayPageUrl(bridgePort: number, facts: RelayPageFacts): string {
  const policy = facts.noPolicy ? '&policy=none' : '';
  const { spareTarget, pairing } = facts;
  const spare = spareTarget === undefined ? '' : `&spare=${encodeURIComponent(spareTarget)}`;
  const fragment = pairing === undefined ? '' : pairingFragment(pairing);
  return `chrome-extension://${EXTENSION_ID}/${RELAY_PAGE_PATH}?port=${bridgePort}&launch=1${policy}${spare}${fragment}`;
}

/** Opens the relay page in a tab of its own; `note` ends the log line. */
async function openRelayPage(cdp: CdpPipe, url: string, log: Logger, note = ''): Promise<void> {
  await cdp.send('Target.createTarget', { url });
  log.info(`relay page opened${note}`);
}

/**
 * The target id of the blank tab Chromium opened at start (`about:blank` on its command line),
 * if it is still there. The relay page hands it to the worker (`?spare=`): the first session's
 * first tab is that one, whose renderer runs already, instead of a new one (extension
 * worker/spareTab.ts).
 */
export async function startupBlankTab(cdp: CdpPipe): Promise<string | undefined> {
  const { targetInfos } = (await cdp.send('Target.getTargets')) as {
    targetInfos?: { targetId: string; type: string; url: string }[];
  };
  return targetInfos?.find((t) => t.type === 'page' && t.url === 'about:blank')?.targetId;
}

/** A Chromium the daemon started, with the extension loaded and the relay page open. */
export class LaunchedBrowser {
  /** What it was started with, to tell whether a new server's launch options fit it. */
  readonly executable: string;
  readonly profile: string;
  readonly owner: string | undefined;
  /** The extra flags and permissions, joined: a server asking for others gets its own browser. */
  readonly extras: string;
  readonly #child: ChildProcess;
  readonly #cdp: CdpPipe;
  readonly exited: Promise<void>;

  private constructor(
    child: ChildProcess,
    cdp: CdpPipe,
    started: { executable: string; profile: string; options: LaunchOptions },
  ) {
    this.executable = started.executable;
    this.profile = started.profile;
    this.owner = started.options.owner;
    this.extras = launchExtrasKey(started.options);
    this.#child = child;
    this.#cdp = cdp;
    this.exited = new Promise((resolveExit) => child.once('exit', () => resolveExit()));
  }

  static launch(
    options: LaunchOptions,
    pairing: Pairing,
    bridgePort: number,
    stateDir: string,
    log: Logger,
  ): LaunchedBrowser {
    const executable = findBrowser(options.executablePath);
    const extDir = builtExtensionDir();
    // The MCP server normally names the profile (see shared/profiles.ts for the precedence).
    // --isolated without one is a context in the shared isolated browser (launchSlot.ts), never
    // a browser of this kind.
    const profile = options.userDataDir ?? defaultProfileDir();
    const args = [
      `--user-data-dir=${profile}`,
      ...extensionFlags(extDir),
      ...QUIET_FLAGS,
      WINDOW_SIZE_FLAG,
      ...(options.headless ? ['--headless=new'] : []),
      ...machineFlags(),
      ...AUTOMATION_HIDDEN_FLAGS,
      ...(options.args ?? []),
      // The relay page is opened over the pipe once the extension is up: given on the command
      // line it loads before the extension is registered and shows an error page.
      '--remote-debugging-pipe',
      'about:blank',
    ];
    // A kept profile may hold the worker of another build of the extension (workerCache.ts).
    if (dropStaleWorkers(profile, extDir)) {
      log.info('the profile held an extension worker of another build: removed before launch');
    }
    log.info(
      `launching ${executable} (${options.headless ? 'headless' : 'headed'}, profile ${profile})`,
    );
    const { child, cdp } = spawnChromium(executable, args, stateDir, log);
    const browser = new LaunchedBrowser(child, cdp, { executable, profile, options });
    const extensionOrigin = `chrome-extension://${EXTENSION_ID}/`;
    browser.ready = waitForTarget(cdp, extensionOrigin, EXTENSION_READY_TIMEOUT_MS).then(
      async (target) => {
        if (options.grantPermissions?.length) {
          // Browser-level, so only here: chrome.debugger reaches page targets, not the browser.
          await cdp.send('Browser.grantPermissions', { permissions: options.grantPermissions });
          log.info(`granted ${options.grantPermissions.join(', ')}`);
        }
        const spare = await startupBlankTab(cdp).catch(() => undefined);
        const noPolicy = !browserPolicyMayExist();
        const policyNote = noPolicy
          ? " (no browser policy files: calls do not wait for Chrome's admin lists)"
          : '';
        // The worker takes its link over the pipe as soon as it has run; the relay page, which
        // only shows the sessions now, opens after that (pipeHandoff.ts says why).
        const handed =
          target.type === 'service_worker' &&
          (await handOffOverPipe(
            cdp,
            target.targetId,
            {
              kind: 'launch_handoff',
              pairing: { secret: pairing.secret, label: pairing.label },
              bridgePort,
              noBrowserPolicy: noPolicy,
              spareTarget: spare ?? null,
            },
            PIPE_HANDOFF_TIMEOUT_MS,
          ));
        if (handed) {
          log.info(`the worker took the link over the pipe${policyNote}`);
          const url = relayPageUrl(bridgePort, { noPolicy });
          browser.#heldRelayPage = new HeldRelayPage(() => {
            openRelayPage(cdp, url, log).catch((err: unknown) =>
              log.warn(`the relay page did not open: ${String(err)}`),
            );
          });
        } else {
          const url = relayPageUrl(bridgePort, { noPolicy, pairing, spareTarget: spare });
          await openRelayPage(cdp, url, log, policyNote);
        }
        // Downloads go to the server's output directory; a tab's debugger cannot set this.
        if (options.downloadDir !== undefined) {
          // Chrome writes downloads with its own modes: only a directory no one else can
          // reach keeps them private. Refused, downloads are denied rather than sent elsewhere.
          const problem = ensurePrivateDir(options.downloadDir);
          if (problem !== undefined) log.error(`downloads denied: ${problem}`);
          await cdp
            .send(
              'Browser.setDownloadBehavior',
              problem === undefined
                ? { behavior: 'allow', downloadPath: options.downloadDir }
                : { behavior: 'deny' },
            )
            .catch((err: unknown) =>
              log.warn(`downloads stay in the default folder: ${String(err)}`),
            );
        }
      },
    );
    return browser;
  }

  /**
   * Settles when the extension holds the link (or its relay page is open to hand it over), or
   * fails with why the extension did not come up.
   */
  ready: Promise<void> = Promise.resolve();

  /** The relay page held back for the first call, after a hand-off over the pipe. */
  #heldRelayPage: HeldRelayPage | undefined;

  /** A call's answer came back from the extension: a relay page held back opens shortly. */
  callAnswered(): void {
    this.#heldRelayPage?.callAnswered();
  }

  /**
   * Stops the browser. Browser.close first, so cookies and localStorage reach the profile on
   * disk; then the whole process group, in case it hangs.
   */
  async close(): Promise<void> {
    this.#heldRelayPage?.cancel();
    await stopBrowser(this.#child, this.#cdp, this.exited, CLOSE_GRACE_MS);
  }
}

/**
 * Browser.close over the pipe first, waiting `graceMs` (a kept profile's cookies and storage are
 * written then); then the whole process group, SIGTERM and at last SIGKILL, in case it hangs.
 */
export async function stopBrowser(
  child: ChildProcess,
  cdp: CdpPipe,
  exited: Promise<void>,
  graceMs: number,
): Promise<void> {
  const pid = child.pid;
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  if (running()) {
    cdp.send('Browser.close').catch(() => undefined);
    await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
  }
  if (pid !== undefined && running()) {
    killGroup(pid, 'SIGTERM');
    const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
}

export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    if (process.platform === 'win32') process.kill(pid, signal);
    else process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Runs `start` (a synchronous spawn) with umask 077, which the child inherits: Chrome creates
 * downloads (and its profile's files) with 0666 less the umask, so they are 0600 whatever
 * directory they land in, where before they were 0644 beside the 0700 directory that alone kept
 * them private (#25.1).
 */
export function privateFiles<T>(start: () => T): T {
  if (process.platform === 'win32') return start();
  const before = process.umask(0o077);
  try {
    return start();
  } finally {
    process.umask(before);
  }
}
