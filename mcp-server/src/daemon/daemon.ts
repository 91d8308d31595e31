/**
 * The per-user daemon: one Unix socket for every MCP server, one WebSocket for the extension.
 * It gives each server a session, routes its requests to the extension, tells the extension
 * when sessions start and end, and exits IDLE_EXIT_MS after the last session is gone.
 */
import {
  ErrorCode,
  PROTOCOL_VERSION,
  SESSION_TABS_EVENT,
  stampHop,
  type ExtensionToDaemonFrame,
  type FrameOf,
  type RequestFrame,
  type LoggedCall,
  type WireError,
} from '@browser-agent/protocol';
import type { FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { buildId } from '../shared/buildId.js';
import { isOtherBuild, welcomeFacts } from './daemonBuild.js';
import type { Duplex } from 'node:stream';
import type { Server } from 'node:net';
import type { Logger } from '../shared/logger.js';
import { packageVersion } from '../shared/version.js';
import { CallLog } from './callLog.js';
import { LaunchSlot } from './launch/launchSlot.js';
import type { Prelaunch } from './launch/prelaunch.js';
import { CallsAwaitingLink } from './link/callsAwaitingLink.js';
import { ExtensionLink } from './link/extensionLink.js';
import { listenFallingBack } from './link/portFallback.js';
import { whyNotConnected } from './link/notConnectedReason.js';
import { OneTimeCode } from './link/oneTimeCode.js';
import { PairingStore } from './link/pairingStore.js';
import { watchRevocations } from './link/revocationWatch.js';
import { recentCalls } from './recentCalls.js';
import { Router, notConnected } from './router.js';
import { ServerConnection, listenUnix } from './serverConnection.js';
import { SessionFile } from './sessionFile.js';
import { SessionRegistry, sessionStart, type Session } from './sessions.js';
import { SessionTabs } from './sessionTabs.js';
import { writeStatus } from './statusFile.js';

/** Write-ahead log: rotate at 5 MiB, keep 3 old files (~20 MiB at most). */
const WAL_FILE_BYTES = 5 * 1024 * 1024;
const WAL_FILES = 3;
/** As many client names as pairing_required carries (protocol/src/frames.ts). */
const MAX_PAIRING_CLIENTS = 20;

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
  /** The browser started in the daemon's first lines, for the first launch to take (main.ts). */
  prelaunch?: Prelaunch | undefined;
}

export class Daemon {
  readonly #config: DaemonConfig;
  readonly #log: Logger;
  readonly #sessions: SessionRegistry;
  readonly #router: Router;
  #link: ExtensionLink | undefined;
  #unixServer: Server | undefined;
  readonly #launch: LaunchSlot;
  #idleTimer: NodeJS.Timeout | undefined;
  readonly #pairings: PairingStore;
  /** The one-time code an unpaired extension needs; shown to the agent in NOT_PAIRED. */
  readonly #code = new OneTimeCode(() => this.#writeStatus());
  #pairingsWatcher: FSWatcher | undefined;
  readonly #tabs = new SessionTabs();
  readonly #awaitingLink = new CallsAwaitingLink();
  #stopping: Promise<void> | undefined;
  /** What the last extension said of its release, and how it differs from ours (doctor, errors). */
  #extensionRelease: string | undefined;
  #extensionBuild: string | undefined;
  #skew: (WireError & { blocking: boolean }) | undefined;
  /** Connections of launch-mode servers, which the launched browser serves. */
  readonly #launchConns = new Set<ServerConnection>();
  /** The fixed bridge port, when another program held it and the link listens elsewhere. */
  #portTaken: number | undefined;
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
    this.#launch = new LaunchSlot(config.stateDir, log, config.prelaunch);
    this.#sessions = new SessionRegistry(
      config.sessionGraceMs,
      (session) => this.#endSession(session),
      config.socketPath === undefined ? undefined : new SessionFile(config.stateDir),
    );
  }

  /** Serves one server connection over any stream (the Unix socket, or in-process fallback). */
  accept(stream: Duplex): void {
    new ServerConnection(stream, {
      hello: (conn, hello) => {
        // A server of another build replaces this daemon or goes elsewhere (otherBuild.ts): no
        // browser is started for it here.
        if (isOtherBuild(hello.build)) return undefined;
        if (!hello.launch)
          return this.#launch.ownChromeHello(this.#launchConns.size, this.#link, () =>
            this.#writeStatus(),
          );
        this.#launchConns.add(conn);
        const refusal = this.#launch.refusal(hello.launch, this.#link, this.#pairings);
        if (refusal === undefined)
          this.#launch.ensure(hello.launch, this.#link, this.#port(), () => this.#writeStatus());
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

  /** Whether it bound its socket path: one that lost it to another daemon leaves that file be. */
  get socketBound(): boolean {
    return this.#unixServer !== undefined;
  }

  async start(): Promise<void> {
    this.#link = await listenFallingBack(this.#config.port, this.#log, (port) =>
      ExtensionLink.listen(
        port,
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
          response: ({ header, payload }) => {
            this.#router.resolveBytes(stampHop(header, 'daemon.back'), payload);
            this.#launch.browser?.callAnswered?.();
          },
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
          launched: () => this.#launch.pairing,
          clients: () =>
            [
              ...new Set(
                [...this.#sessions.values()]
                  .filter((s) => s.conn !== undefined)
                  .map((s) => s.client.name),
              ),
            ].slice(0, MAX_PAIRING_CLIENTS),
        },
      ),
    );
    if (this.#link.port !== this.#config.port && this.#config.port !== 0)
      this.#portTaken = this.#config.port;
    this.#pairingsWatcher = watchRevocations(
      this.#pairings,
      (stored) => {
        const launched = this.#launch.pairing?.id;
        this.#link?.dropUnless(
          (id) => id === launched || stored.has(id),
          4401,
          'This pairing was revoked',
        );
      },
      this.#log,
    );
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
      port: this.#port(),
      startedAt: this.#startedAt,
      extension: {
        connected: this.#link?.connected ?? false,
        version: this.#extensionRelease,
        build: this.#extensionBuild,
        refused: this.#skew,
      },
      pairingCode: this.#pairingCode(),
      pairings: this.#pairings.all().length,
      launchError: this.#launch.error,
      sessions: [...this.#sessions.values()].map((s) => ({
        id: s.id,
        client: s.client.name,
        project: s.project,
        connected: s.conn !== undefined,
        tabs: this.#tabs.of(s.id),
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
      await this.#launch.close();
    })();
    return this.#stopping;
  }

  #port(): number {
    return this.#link?.port ?? this.#config.port;
  }

  /** The code an unpaired extension needs; none in launch mode, which pairs by itself. */
  #pairingCode(): string | undefined {
    return this.#launch.pairing ? undefined : this.#code.shown();
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
    this.#launchConns.delete(conn);
    this.#router.dropConnection(conn);
    const session = this.#sessions.release(conn);
    if (session)
      this.#log.info(`session ${session.id} lost its server; waiting for it to come back`);
  }

  #endSession(session: Session): void {
    this.#log.info(`session ${session.id} ended`);
    this.#link?.send({ type: 'session_end', sessionId: session.id, reason: 'client disconnected' });
    if (this.#sessions.size === 0 && this.#launchConns.size === 0)
      this.#launch.releaseIsolated(this.#link);
    this.#armIdleTimer();
    this.#writeStatus();
  }

  /** A call still waiting for the extension link is remembered, so it is never forwarded. */
  #onCancel(conn: ServerConnection, frame: FrameOf<'cancel'>): void {
    if (this.#router.cancel(conn, frame.id, frame.reason ?? 'cancelled')) return;
    this.#awaitingLink.cancel(conn, frame.id);
  }

  async #onRequest(conn: ServerConnection, frame: RequestFrame): Promise<void> {
    if (!this.#link?.connected) {
      const waitMs = this.#launch.browser
        ? this.#config.launchWaitMs
        : this.#config.extensionWaitMs;
      if (!(await this.#awaitingLink.wait(conn, frame.id, waitMs))) return;
    }
    const refusal = whyNotConnected({
      connected: this.#link?.connected ?? false,
      skew: this.#skew,
      pairingCode: () => this.#pairingCode(),
      awaitingCode: this.#link?.awaitingCode ?? false,
      paired: () => this.#pairings.all().length > 0,
      launchError: this.#launch.error,
      launching: this.#launch.browser !== undefined,
      port: this.#port(),
      portTaken: this.#portTaken,
      extensionRelease: this.#extensionRelease,
    });
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

  #onExtensionConnected(): void {
    // A (re)connected relay learns every live session, so its worker and panel are in step.
    for (const s of this.#sessions.values()) this.#link?.send(sessionStart(s));
    this.#awaitingLink.wakeAll();
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
    if (frame.type === 'response') {
      this.#router.resolve(stampHop(frame, 'daemon.back'));
      this.#launch.browser?.callAnswered?.();
    } else if (frame.event === SESSION_TABS_EVENT) this.#onSessionTabs(frame.sessionId, frame.data);
    else if (frame.sessionId) this.#sessions.get(frame.sessionId)?.conn?.send(frame);
  }

  /** The extension's report of a session's tabs: kept for `doctor`, not passed to the server. */
  #onSessionTabs(sessionId: string | undefined, data: unknown): void {
    if (sessionId === undefined || this.#sessions.get(sessionId) === undefined) return;
    if (!this.#tabs.report(sessionId, data, (id) => this.#sessions.get(id) !== undefined)) {
      this.#log.warn(`ignored a malformed tab report for session ${sessionId}`);
      return;
    }
    this.#writeStatus();
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
