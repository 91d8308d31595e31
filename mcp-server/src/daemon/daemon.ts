/**
 * The per-user daemon: one Unix socket for every MCP server, one WebSocket for the extension.
 * It gives each server a session, routes its requests to the extension, tells the extension
 * when sessions start and end, and exits IDLE_EXIT_MS after the last session is gone.
 */
import { createServer, type Server } from 'node:net';
import {
  ErrorCode,
  PROTOCOL_VERSION,
  reportedTab,
  SESSION_TABS_EVENT,
  sessionTabsSchema,
  stampHop,
  type DaemonToExtensionFrame,
  type SessionTab,
  type ExtensionToDaemonFrame,
  type FrameOf,
  type RequestFrame,
  type LoggedCall,
  type WireError,
} from '@browser-agent/protocol';
import type { Logger } from '../shared/logger.js';
import { ExtensionLink } from './link/extensionLink.js';
import { LaunchedBrowser, launchExtrasKey, type LaunchOptions } from './launch/chromeLauncher.js';
import { Router, notConnected } from './router.js';
import { ServerConnection } from './serverConnection.js';
import { SessionRegistry, type Session } from './sessions.js';
import { PairingStore, ephemeralPairing, type Pairing } from './link/pairingStore.js';
import { OneTimeCode } from './link/oneTimeCode.js';
import { chmodSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { SessionFile } from './sessionFile.js';
import { CallLog } from './callLog.js';
import { ConnectionWaiters } from './link/connectionWaiters.js';
import { recentCalls } from './recentCalls.js';
import { writeStatus } from './statusFile.js';
import { packageVersion } from '../shared/version.js';
import { buildId } from '../shared/buildId.js';
import { isOtherBuild, welcomeFacts } from './daemonBuild.js';
import { join, resolve as resolvePath } from 'node:path';
import type { Duplex } from 'node:stream';

/** Write-ahead log: rotate at 5 MiB, keep 3 old files (~20 MiB at most). */
const WAL_FILE_BYTES = 5 * 1024 * 1024;
const WAL_FILES = 3;

export interface DaemonConfig {
  /** Unix socket to serve; undefined when the daemon runs inside a server (fallback). */
  socketPath: string | undefined;
  stateDir: string;
  port: number;
  idleExitMs: number;
  /** How long a call waits for a missing extension link (the relay retries every ≤ 2 s). */
  extensionWaitMs: number;
  /** Same, while a browser the daemon launched is still starting. */
  launchWaitMs: number;
  /** How long a keyed session waits for its restarted server before it ends. */
  sessionGraceMs: number;
}

export class Daemon {
  readonly #config: DaemonConfig;
  readonly #log: Logger;
  readonly #sessions: SessionRegistry;
  readonly #router: Router;
  #link: ExtensionLink | undefined;
  #unixServer: Server | undefined;
  #browser: LaunchedBrowser | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #launchError: string | undefined;
  readonly #pairings: PairingStore;
  /** The one-time code an unpaired extension needs; shown to the agent in NOT_PAIRED. */
  readonly #code = new OneTimeCode(() => this.#writeStatus());
  /** Launch mode: the pairing minted for the launched browser, the only one then accepted. */
  #launchedPairing: Pairing | undefined;
  #pairingsWatcher: FSWatcher | undefined;
  /** Each session's tabs as the extension last reported them (for status.json only). */
  readonly #tabs = new Map<string, SessionTab[]>();
  readonly #waiters = new ConnectionWaiters();
  /**
   * Calls waiting for the extension link, per server connection: true once cancelled, so they
   * are never forwarded.
   */
  readonly #waitingForLink = new WeakMap<ServerConnection, Map<string, boolean>>();
  #stopping: Promise<void> | undefined;
  /** What the last extension said of its release, and how it differs from ours (doctor, errors). */
  #extensionRelease: string | undefined;
  #extensionBuild: string | undefined;
  #skew: (WireError & { blocking: boolean }) | undefined;
  readonly #startedAt = new Date().toISOString();
  /** The write-ahead log's directory; none for the in-process fallback. */
  readonly #walDir: string | undefined;

  constructor(config: DaemonConfig, log: Logger) {
    this.#config = config;
    this.#log = log;
    this.#walDir = config.socketPath === undefined ? undefined : join(config.stateDir, 'wal');
    this.#router = new Router(
      (frame) => this.#link?.send(frame) ?? false,
      this.#walDir === undefined
        ? undefined
        : new CallLog({ dir: this.#walDir, maxFileBytes: WAL_FILE_BYTES, keepFiles: WAL_FILES }),
      (sessionId) => this.#onAnswered(sessionId),
    );
    this.#pairings = new PairingStore(config.stateDir);
    this.#sessions = new SessionRegistry(
      config.sessionGraceMs,
      (session) => this.#endSession(session),
      config.socketPath === undefined ? undefined : new SessionFile(config.stateDir),
    );
  }

  /** Serves one server connection over any stream (the Unix socket, or in-process fallback). */
  accept(stream: Duplex): void {
    new ServerConnection(stream, {
      hello: (_conn, hello) => {
        // A server of another build replaces this daemon or goes elsewhere (otherBuild.ts): no
        // browser is started for it here.
        if (!hello.launch || isOtherBuild(hello.build)) return undefined;
        const refusal = this.#launchRefusal(hello.launch);
        if (refusal === undefined) this.#ensureBrowser(hello.launch);
        return refusal;
      },
      welcome: () => welcomeFacts(this.#sessions.values()),
      register: (conn, frame) => this.#register(conn, frame),
      request: (conn, frame) => void this.#onRequest(conn, stampHop(frame, 'daemon.in')),
      cancel: (conn, frame) => this.#onCancel(conn, frame),
      // The extension checks the question belongs to this session; no link, no question open.
      approvalAnswer: (_conn, frame) => void this.#link?.send(frame),
      bye: (conn) => this.#sessions.leftCleanly(conn),
      closed: (conn) => this.#onServerClosed(conn),
    });
  }

  async start(): Promise<void> {
    this.#link = await ExtensionLink.listen(
      this.#config.port,
      this.#log.child('ws'),
      {
        connected: () => this.#onExtensionConnected(),
        disconnected: (reason) => {
          this.#router.failAll(
            notConnected(`The browser extension disconnected during the call (${reason}).`),
          );
          this.#writeStatus();
        },
        frame: (frame) => this.#onExtensionFrame(frame),
        response: ({ header, payload }) =>
          this.#router.resolveBytes(stampHop(header, 'daemon.back'), payload),
        extensionHello: (release, skew, build) => {
          this.#extensionRelease = release;
          this.#extensionBuild = build;
          this.#skew = skew;
          this.#writeStatus();
        },
      },
      {
        pairings: this.#pairings,
        code: this.#code,
        launched: () => this.#launchedPairing,
      },
    );
    this.#watchRevocations();
    if (this.#config.socketPath !== undefined) {
      this.#unixServer = await listenUnix(this.#config.socketPath, (socket) => this.accept(socket));
    }
    const restored = this.#sessions.restore();
    if (restored.length > 0)
      this.#log.info(`restored ${restored.length} session(s) a previous daemon left`);
    this.#log.info(
      `listening on ${this.#config.socketPath ?? '(in-process)'} and ws://127.0.0.1:${this.#link.port}`,
    );
    this.#armIdleTimer();
    this.#writeStatus();
  }

  /** status.json for `browser-agent-mcp doctor`; only the per-user or project daemon writes it. */
  #writeStatus(): void {
    if (this.#config.socketPath === undefined || this.#stopping) return;
    writeStatus(this.#config.stateDir, {
      pid: process.pid,
      version: packageVersion(),
      protocolVersion: PROTOCOL_VERSION,
      build: buildId(),
      socket: this.#config.socketPath,
      port: this.#link?.port ?? this.#config.port,
      startedAt: this.#startedAt,
      extension: {
        connected: this.#link?.connected ?? false,
        version: this.#extensionRelease,
        build: this.#extensionBuild,
        refused: this.#skew,
      },
      pairingCode: this.#launchedPairing ? undefined : this.#code.shown(),
      pairings: this.#pairings.all().length,
      launchError: this.#launchError,
      sessions: [...this.#sessions.values()].map((s) => ({
        id: s.id,
        client: s.client.name,
        project: s.project,
        connected: s.conn !== undefined,
        tabs: this.#tabs.get(s.id) ?? [],
      })),
    });
  }

  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      this.#log.info('stopping');
      clearTimeout(this.#idleTimer);
      this.#router.failAll({
        code: ErrorCode.NOT_CONNECTED,
        message: 'The bridge daemon is shutting down.',
        hint: 'Retry; the next call starts a new daemon.',
      });
      for (const s of this.#sessions.values()) s.conn?.close();
      this.#sessions.clear();
      await new Promise<void>((resolve) =>
        this.#unixServer ? this.#unixServer.close(() => resolve()) : resolve(),
      );
      this.#pairingsWatcher?.close();
      await this.#link?.close();
      await this.#browser?.close();
    })();
    return this.#stopping;
  }

  #register(
    conn: ServerConnection,
    frame: FrameOf<'register'>,
  ): Omit<FrameOf<'register_ok'>, 'type'> {
    const { session, resumed, cutOff } = this.#sessions.bind(conn, {
      client: frame.client,
      project: frame.project,
      sessionKey: frame.sessionKey,
      policy: frame.policy,
      transactions: frame.transactions,
      settings: frame.settings,
    });
    clearTimeout(this.#idleTimer);
    this.#log.info(
      `session ${session.id} ${resumed ? 'resumed' : 'started'} for ${frame.client.name}`,
    );
    this.#link?.send(sessionStart(session));
    this.#writeStatus();
    // The recent calls (the "resumed" notice) only for a server that was cut off: a client that
    // starts a server per call (CLI-style) would otherwise get them with every call.
    if (!resumed || !cutOff || this.#walDir === undefined)
      return { sessionId: session.id, resumed };
    return { sessionId: session.id, resumed, recentCalls: this.#recentCalls(session.id) };
  }

  #recentCalls(sessionId: string): LoggedCall[] {
    try {
      return this.#walDir === undefined ? [] : recentCalls(this.#walDir, sessionId);
    } catch (err) {
      this.#log.warn(`cannot read the write-ahead log back: ${String(err)}`);
      return [];
    }
  }

  /** A resumed session's first answered call ends its resume; the extension learns how long. */
  #onAnswered(sessionId: string): void {
    const session = this.#sessions.answered(sessionId);
    if (session) this.#link?.send(sessionStart(session));
  }

  #onServerClosed(conn: ServerConnection): void {
    this.#router.dropConnection(conn);
    const session = this.#sessions.release(conn);
    if (session)
      this.#log.info(`session ${session.id} lost its server; waiting for it to come back`);
  }

  #endSession(session: Session): void {
    this.#log.info(`session ${session.id} ended`);
    this.#link?.send({ type: 'session_end', sessionId: session.id, reason: 'client disconnected' });
    this.#armIdleTimer();
    this.#writeStatus();
  }

  /** A call still waiting for the extension link is remembered, so it is never forwarded. */
  #onCancel(conn: ServerConnection, frame: FrameOf<'cancel'>): void {
    if (this.#router.cancel(conn, frame.id, frame.reason ?? 'cancelled')) return;
    const waiting = this.#waitingForLink.get(conn);
    if (waiting?.has(frame.id)) waiting.set(frame.id, true);
  }

  async #onRequest(conn: ServerConnection, frame: RequestFrame): Promise<void> {
    if (!this.#link?.connected) {
      const waitMs = this.#browser ? this.#config.launchWaitMs : this.#config.extensionWaitMs;
      let waiting = this.#waitingForLink.get(conn);
      if (!waiting) this.#waitingForLink.set(conn, (waiting = new Map<string, boolean>()));
      waiting.set(frame.id, false);
      await this.#waiters.wait(waitMs);
      const cancelled = waiting.get(frame.id) === true;
      waiting.delete(frame.id);
      if (cancelled) return;
    }
    const refusal = this.#whyNotConnected();
    if (refusal !== undefined) {
      conn.send({
        type: 'response',
        id: frame.id,
        sessionId: frame.sessionId,
        payload: { success: false, error: refusal },
      });
      return;
    }
    this.#router.forward(conn, frame);
  }

  /** A better answer than NOT_CONNECTED when the daemon knows why there is no extension. */
  #whyNotConnected(): WireError | undefined {
    if (this.#link?.connected) return undefined;
    if (this.#skew?.blocking) {
      const { code, message, hint } = this.#skew;
      return { code, message, hint };
    }
    const code = this.#launchedPairing ? undefined : this.#code.shown();
    if (code !== undefined) {
      return {
        code: ErrorCode.NOT_PAIRED,
        message: `The Browser Agent extension asks to pair with this bridge. The one-time pairing code is ${code}.`,
        hint: `Tell the user: open the Browser Agent side panel and type the code ${code} there, then retry (\`browser-agent-mcp doctor\` shows the pairing state). Only the user can do this; the code works once, and three wrong tries replace it with a new one.`,
      };
    }
    if (this.#launchError !== undefined) {
      return {
        code: ErrorCode.LAUNCH_FAILED,
        message: this.#launchError,
        hint: 'Fix the browser setup (see the message), then restart the MCP client. `browser-agent-mcp doctor` names what is wrong.',
      };
    }
    // The facts `doctor` reports (status.json), told to the agent so it can tell the user.
    const port = this.#link?.port ?? this.#config.port;
    if (this.#browser) {
      return notConnected(
        `The browser this bridge launched has not connected yet (port ${port}); it may still be starting.`,
      );
    }
    return {
      code: ErrorCode.NOT_CONNECTED,
      message:
        this.#extensionRelease === undefined
          ? `No Browser Agent extension has contacted this bridge (port ${port}).`
          : `The Browser Agent extension (${this.#extensionRelease}) is not connected to this bridge (port ${port}).`,
      hint: 'Tell the user: open the Browser Agent side panel in Chrome (if the extension is not installed, load the folder `browser-agent-mcp extension` prints), or restart the MCP server with --launch. `browser-agent-mcp doctor` checks each part and says what to fix.',
    };
  }

  #onExtensionConnected(): void {
    // A (re)connected relay learns every live session, so its worker and panel are in step.
    for (const s of this.#sessions.values()) this.#link?.send(sessionStart(s));
    this.#waiters.wakeAll();
    this.#writeStatus();
  }

  #onExtensionFrame(
    frame: Extract<ExtensionToDaemonFrame, { type: 'response' | 'event' | 'unpair' }>,
  ): void {
    if (frame.type === 'unpair') {
      // Only the authenticated extension gets here; the store's watcher ends a revoked link.
      if (this.#pairings.remove(frame.pairingId))
        this.#log.info(`pairing ${frame.pairingId} forgotten in the side panel`);
      return;
    }
    if (frame.type === 'response') this.#router.resolve(stampHop(frame, 'daemon.back'));
    else if (frame.event === SESSION_TABS_EVENT) this.#onSessionTabs(frame.sessionId, frame.data);
    else if (frame.sessionId) this.#sessions.get(frame.sessionId)?.conn?.send(frame);
  }

  /** The extension's report of a session's tabs: kept for `doctor`, not passed to the server. */
  #onSessionTabs(sessionId: string | undefined, data: unknown): void {
    if (sessionId === undefined || this.#sessions.get(sessionId) === undefined) return;
    const parsed = sessionTabsSchema.safeParse(data);
    if (!parsed.success) {
      this.#log.warn(`ignored a malformed tab report for session ${sessionId}`);
      return;
    }
    this.#tabs.set(sessionId, parsed.data.tabs.map(reportedTab));
    for (const id of this.#tabs.keys())
      if (this.#sessions.get(id) === undefined) this.#tabs.delete(id);
    this.#writeStatus();
  }

  /**
   * A server's launch options that the browser this daemon already runs cannot honour: another
   * profile, another binary, or --isolated from a server that did not start it (a fresh profile
   * was asked for, and this one has been used). Such a server gets a browser of its own
   * (server/launchRoute.ts); sharing silently was the bug.
   */
  #launchRefusal(options: LaunchOptions): WireError | undefined {
    const running = this.#browser;
    if (running === undefined) return this.#servesUsersBrowser();
    const mismatches: string[] = [];
    if (options.userDataDir === undefined && options.isolated) {
      if (running.owner === undefined || running.owner !== options.owner)
        mismatches.push('--isolated asks for a fresh profile, and this browser is in use');
    } else if (
      options.userDataDir !== undefined &&
      resolvePath(options.userDataDir) !== resolvePath(running.profile)
    ) {
      mismatches.push(`it runs on the profile ${running.profile}, not ${options.userDataDir}`);
    }
    if (
      options.executablePath !== undefined &&
      resolvePath(options.executablePath) !== resolvePath(running.executable)
    ) {
      mismatches.push(`it runs ${running.executable}, not ${options.executablePath}`);
    }
    if (launchExtrasKey(options) !== running.extras) {
      mismatches.push('it was started with other proxy, launch args or granted permissions');
    }
    if (mismatches.length === 0) return undefined;
    return {
      code: ErrorCode.BROWSER_IN_USE,
      message: `This daemon's browser does not fit the launch options: ${mismatches.join('; ')}.`,
      hint: 'The server starts a browser of its own for them.',
    };
  }

  /**
   * A browser the user paired (a pairing in pairings.json) holds the link: launching here would
   * close its link (4409) and lock it out until this daemon exits, taking the user's own Chrome
   * away from every other agent. The launch server gets a daemon of its own instead, as for a
   * browser that does not fit (BROWSER_IN_USE), and both links stay up. A peer holding a pairing
   * no one stored (none can, but launch pairings are in memory only) is still dropped below.
   */
  #servesUsersBrowser(): WireError | undefined {
    const held = this.#link?.connected === true ? this.#link.activePairing : undefined;
    if (held === undefined || this.#pairings.find([held]) === undefined) return undefined;
    return {
      code: ErrorCode.BROWSER_IN_USE,
      message:
        'This daemon serves a browser the user paired (their own Chrome), not a launched one.',
      hint: 'The server starts a browser of its own, with a daemon of its own.',
    };
  }

  /**
   * Launch mode. Whatever else holds the link (the user's Chrome, or a peer that got a pairing
   * somehow), the daemon starts its own browser and from then on accepts only the pairing minted
   * for it, which reaches that browser over the private debugging pipe alone.
   */
  #ensureBrowser(options: LaunchOptions): void {
    if (this.#browser) return;
    const pairing = ephemeralPairing('Launched browser');
    this.#launchedPairing = pairing;
    this.#link?.dropUnless(
      (id) => id === pairing.id,
      4409,
      'This bridge launched its own browser and serves only that one',
    );
    try {
      const browser = LaunchedBrowser.launch(
        options,
        pairing,
        this.#link?.port ?? this.#config.port,
        this.#config.stateDir,
        this.#log.child('chrome'),
      );
      this.#browser = browser;
      browser.ready.catch((err: unknown) => {
        this.#launchError = `The launched browser did not come up: ${err instanceof Error ? err.message : String(err)}`;
        this.#log.error(this.#launchError);
        void browser.close();
      });
      void browser.exited.then(() => {
        if (this.#browser === browser) this.#browser = undefined;
        this.#log.info('launched browser exited');
      });
      this.#launchError = undefined;
    } catch (err) {
      this.#launchError = `Could not launch the browser: ${err instanceof Error ? err.message : String(err)}`;
      this.#log.error(this.#launchError);
      this.#writeStatus();
    }
  }

  /**
   * A pairing revoked while its link is up (`browser-agent-mcp pairings revoke`, which edits the
   * store's file) ends that link at once; its browser has to pair again.
   */
  #watchRevocations(): void {
    const file = basename(this.#pairings.path);
    try {
      this.#pairingsWatcher = watch(dirname(this.#pairings.path), (_event, name) => {
        if (name !== file) return;
        const launched = this.#launchedPairing?.id;
        const stored = new Set(this.#pairings.all().map((p) => p.id));
        this.#link?.dropUnless(
          (id) => id === launched || stored.has(id),
          4401,
          'This pairing was revoked',
        );
      });
      this.#pairingsWatcher.on('error', () => undefined);
    } catch (err) {
      this.#log.warn(`cannot watch the pairings for revocations: ${String(err)}`);
    }
  }

  #armIdleTimer(): void {
    if (this.#sessions.size > 0) return;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => {
      this.#log.info(`no sessions for ${this.#config.idleExitMs} ms, exiting`);
      void this.stop().then(() => process.exit(0));
    }, this.#config.idleExitMs);
  }
}

function sessionStart(s: Session): DaemonToExtensionFrame {
  return {
    type: 'session_start',
    sessionId: s.id,
    client: s.client,
    ...(s.project ? { project: s.project } : {}),
    ...(s.policy ? { policy: s.policy } : {}),
    ...(s.transactions ? { transactions: s.transactions } : {}),
    ...(s.resume.count > 0 ? { resume: s.resume } : {}),
    ...(s.settings ? { settings: s.settings } : {}),
  };
}

async function listenUnix(
  path: string,
  onSocket: Parameters<typeof createServer>[1],
): Promise<Server> {
  const server = createServer(onSocket);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path, readableAll: false, writableAll: false }, () => {
      server.off('error', reject);
      // listen() leaves the socket file to the umask (often 0755); the 0700 directory guards it,
      // and the file itself is made 0600 too, so neither alone is the only wall.
      if (process.platform !== 'win32') chmodSync(path, 0o600);
      resolve();
    });
  });
  return server;
}
