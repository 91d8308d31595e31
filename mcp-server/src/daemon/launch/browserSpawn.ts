/**
 * Starting and stopping a Chromium process for launch mode: which binary, which extension, the
 * command line, the spawn with its debugging pipe, and the stop. Kept free of the protocol's
 * schemas and of the daemon's other modules: the daemon's first lines spawn the browser with it
 * (prelaunch.ts) before the rest of the daemon has loaded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { Logger } from '../../shared/logger.js';
import { packageDir } from '../../shared/packageDir.js';
import { defaultProfileDir } from '../../shared/profiles.js';
import { CdpPipe } from './cdpPipe.js';
import { extensionFlags, launchedBrowserFlags } from './chromiumFlags.js';

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

/** A started browser: its process group, the CDP client on its pipe, and its end. */
export interface SpawnedBrowser {
  /** The browser's pid, which leads its process group (killGroup). */
  pid: number | undefined;
  /** Until the process has exited. */
  running(): boolean;
  cdp: CdpPipe;
  /** Settles when the process exits (made at the spawn, so an early exit is not missed). */
  exited: Promise<void>;
}

/** A browser process just spawned, its debugging pipe's two ends still plain streams. */
export interface BrowserProcess {
  child: ChildProcess;
  toBrowser: Writable;
  fromBrowser: Readable;
}

/**
 * Starts Chromium with `args` (which end with --remote-debugging-pipe), its output appended to
 * `<stateDir>/chromium.log`, in a process group of its own and with umask 077 (privateFiles).
 */
export function startBrowserProcess(
  executable: string,
  args: string[],
  stateDir: string,
  log: Logger,
): BrowserProcess {
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
  return { child, toBrowser, fromBrowser };
}

/** startBrowserProcess, with the CDP client on its pipe: a browser this process owns. */
export function spawnChromium(
  executable: string,
  args: string[],
  stateDir: string,
  log: Logger,
): SpawnedBrowser {
  const { child, toBrowser, fromBrowser } = startBrowserProcess(executable, args, stateDir, log);
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  return {
    pid: child.pid,
    running: () => child.exitCode === null && child.signalCode === null,
    cdp: new CdpPipe(toBrowser, fromBrowser),
    exited,
  };
}

/**
 * Browser.close over the pipe first, waiting `graceMs` (a kept profile's cookies and storage are
 * written then); then the whole process group, SIGTERM and at last SIGKILL, in case it hangs.
 */
export async function stopBrowser(browser: SpawnedBrowser, graceMs: number): Promise<void> {
  const { pid, cdp, exited } = browser;
  if (browser.running()) {
    cdp.send('Browser.close').catch(() => undefined);
    await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
  }
  if (pid !== undefined && browser.running()) {
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

const KILL_GRACE_MS = 3_000;

/** What a launch runs: the binary, the profile it starts on, and its whole command line. */
export interface LaunchCommand {
  executable: string;
  profile: string;
  extensionDir: string;
  args: string[];
}

/**
 * The command line of a launch with `options`. The daemon's prelaunch and the launch a session
 * asks for both build it here, so a prelaunched browser is adopted only when this is equal.
 */
export function launchCommand(options: LaunchOptions): LaunchCommand {
  const executable = findBrowser(options.executablePath);
  const extDir = builtExtensionDir();
  // The MCP server normally names the profile (see shared/profiles.ts for the precedence).
  const profile = options.userDataDir ?? defaultProfileDir();
  const args = [
    ...launchedBrowserFlags({
      profile,
      headless: options.headless,
      args: options.args ?? [],
      leading: extensionFlags(extDir),
    }),
    // The relay page is opened over the pipe once the extension is up: given on the command
    // line it loads before the extension is registered and shows an error page.
    '--remote-debugging-pipe',
    'about:blank',
  ];
  return { executable, profile, extensionDir: extDir, args };
}
