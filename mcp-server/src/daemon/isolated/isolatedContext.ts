/**
 * An `--isolated` session's browser, as its daemon sees it: a browser context in the shared
 * isolated browser (hostMain.ts), held for as long as the connection to the host is open. It
 * stands where a LaunchedBrowser stands for other launches (launchSlot.ts), so the daemon, its
 * link and its calls are the same code either way; what differs is that closing it disposes one
 * context (~20 ms) instead of a whole browser, and that the next isolated session finds the
 * browser started.
 */
import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { Logger } from '../../shared/logger.js';
import { LineSplitter } from '../../shared/ndjson.js';
import { packageDir } from '../../shared/packageDir.js';
import { tryConnect } from '../../shared/socketAnswers.js';
import type { Pairing } from '../link/pairingStore.js';
import { builtExtensionDir, findBrowser, type LaunchOptions } from '../launch/browserSpawn.js';
import { launchExtrasKey, relayPageUrl } from '../launch/chromeLauncher.js';
import { browserPolicyMayExist } from '../launch/policyFiles.js';
import { hostAnswer, type HostLaunch, type OpenFrame } from './hostFrames.js';
import { hostPaths } from './hostPaths.js';

/** A host spawned now has to load Chromium first; an old one may still be closing. */
const HOST_REACH_TIMEOUT_MS = 20_000;
const RESPAWN_EVERY_MS = 2_000;
const RETRY_MS = 50;

export class IsolatedContext {
  readonly executable: string;
  readonly owner: string | undefined;
  readonly extras: string;
  #profile = '';
  /** Settles when the relay page is open in the context; fails with why it could not be. */
  ready: Promise<void> = Promise.resolve();
  /** Settles when the context is gone (closed here, or the host or its browser went away). */
  readonly exited: Promise<void>;
  #socket: Socket | undefined;
  #closed = false;
  #exited: () => void = () => undefined;

  private constructor(options: LaunchOptions, executable: string) {
    this.executable = executable;
    this.owner = options.owner;
    this.extras = launchExtrasKey(options);
    this.exited = new Promise((resolve) => {
      this.#exited = resolve;
    });
  }

  /** The shared browser's temporary profile (known once the context is open). */
  get profile(): string {
    return this.#profile;
  }

  static open(
    options: LaunchOptions,
    pairing: Pairing,
    bridgePort: number,
    log: Logger,
  ): IsolatedContext {
    const executable = findBrowser(options.executablePath);
    // Checked here so the error is this call's, not a host that exits without a word.
    builtExtensionDir();
    const context = new IsolatedContext(options, executable);
    const launch: HostLaunch = { executable, headless: options.headless, args: options.args ?? [] };
    const open: OpenFrame = {
      type: 'open',
      relayUrl: relayPageUrl(bridgePort, { noPolicy: !browserPolicyMayExist(), pairing }),
      ...(options.downloadDir !== undefined ? { downloadDir: options.downloadDir } : {}),
      ...(options.grantPermissions?.length ? { grantPermissions: options.grantPermissions } : {}),
    };
    context.ready = context.#open(launch, open, log);
    return context;
  }

  async #open(launch: HostLaunch, open: OpenFrame, log: Logger): Promise<void> {
    const socket = await reachHost(launch, log);
    if (this.#closed) {
      socket.destroy();
      throw new Error('The isolated session ended before its browser context opened.');
    }
    this.#socket = socket;
    socket.on('error', () => undefined);
    socket.once('close', () => this.#exited());
    const answer = await new Promise<unknown>((resolve, reject) => {
      const lines = new LineSplitter(
        (line) => {
          try {
            resolve(JSON.parse(line));
          } catch {
            reject(new Error('The isolated host sent a frame that is not JSON.'));
          }
        },
        () => reject(new Error('The isolated host sent a frame too big.')),
      );
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => lines.push(chunk));
      socket.once('close', () => reject(new Error('The isolated host closed the connection.')));
      socket.write(`${JSON.stringify(open)}\n`);
    });
    const parsed = hostAnswer.safeParse(answer);
    if (!parsed.success) throw new Error('The isolated host answered something unexpected.');
    if (parsed.data.type === 'failed') throw new Error(parsed.data.message);
    this.#profile = parsed.data.profile;
    log.info(`isolated browser context ${parsed.data.contextId} open (profile ${this.#profile})`);
  }

  /** Ends the session's context: its tabs, cookies and storage go at once. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#socket === undefined) {
      this.#exited();
      return;
    }
    this.#socket.end();
    await this.exited;
  }
}

/** Connects to the host for these options, starting one when none answers. */
async function reachHost(launch: HostLaunch, log: Logger): Promise<Socket> {
  const paths = hostPaths(launch);
  const deadline = Date.now() + HOST_REACH_TIMEOUT_MS;
  let spawnedAt = 0;
  for (;;) {
    const socket = await tryConnect(paths.socket);
    if (socket !== undefined) return socket;
    if (Date.now() > deadline)
      throw new Error(
        `The isolated browser did not start within ${HOST_REACH_TIMEOUT_MS / 1000} s; its log is ${paths.logFile}.`,
      );
    if (Date.now() - spawnedAt >= RESPAWN_EVERY_MS) {
      spawnedAt = Date.now();
      spawnHost(launch, log);
    }
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
}

function spawnHost(launch: HostLaunch, log: Logger): void {
  const entry = join(packageDir(), 'dist', 'daemon', 'isolatedHost.js');
  const lingerMs = process.env['BROWSER_AGENT_ISOLATED_LINGER_MS'];
  log.info('starting the isolated browser host');
  const child = spawn(
    process.execPath,
    [
      entry,
      '--launch',
      JSON.stringify(launch),
      ...(lingerMs !== undefined ? ['--linger-ms', lingerMs] : []),
    ],
    { detached: true, stdio: 'ignore', env: process.env },
  );
  child.unref();
}
