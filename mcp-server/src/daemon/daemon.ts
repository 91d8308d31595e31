/**
 * The per-user daemon: one Unix socket for every MCP server, one WebSocket for the extension.
 * It gives each server a session, routes its requests to the extension, tells the extension
 * when sessions start and end, and exits IDLE_EXIT_MS after the last session is gone.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import {
  ErrorCode,
  stampHop,
  type Frame,
  type HelloFrame,
  type ClientInfo,
} from '@browser-agent/protocol';
import type { Logger } from '../shared/logger.js';
import { ExtensionLink } from './extensionLink.js';
import { LaunchedBrowser, type LaunchOptions } from './chromeLauncher.js';
import { Router, notConnected } from './router.js';
import { ServerConnection } from './serverConnection.js';

export interface DaemonConfig {
  socketPath: string;
  stateDir: string;
  port: number;
  idleExitMs: number;
  /** How long a call waits for a missing extension link (the relay retries every ≤ 2 s). */
  extensionWaitMs: number;
  /** Same, while a browser the daemon launched is still starting. */
  launchWaitMs: number;
}

interface Session {
  id: string;
  client: ClientInfo;
  conn: ServerConnection;
}

export class Daemon {
  readonly #config: DaemonConfig;
  readonly #log: Logger;
  readonly #sessions = new Map<string, Session>();
  readonly #router: Router;
  #link: ExtensionLink | undefined;
  #unixServer: Server | undefined;
  #browser: LaunchedBrowser | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #launchError: string | undefined;
  #waiters: Array<() => void> = [];
  #stopping: Promise<void> | undefined;

  constructor(config: DaemonConfig, log: Logger) {
    this.#config = config;
    this.#log = log;
    this.#router = new Router((frame) => this.#link?.send(frame) ?? false);
  }

  async start(): Promise<void> {
    this.#link = await ExtensionLink.listen(this.#config.port, this.#log.child('ws'), {
      connected: () => this.#onExtensionConnected(),
      disconnected: (reason) =>
        this.#router.failAll(
          notConnected(`The browser extension disconnected during the call (${reason}).`),
        ),
      frame: (frame) => this.#onExtensionFrame(frame),
    });
    this.#unixServer = await listenUnix(this.#config.socketPath, (socket) => {
      new ServerConnection(socket, {
        hello: (conn, hello) => this.#openSession(conn, hello),
        request: (conn, frame) => void this.#onRequest(conn, stampHop(frame, 'daemon.in')),
        closed: (conn) => this.#closeSession(conn),
      });
    });
    this.#log.info(
      `listening on ${this.#config.socketPath} and ws://127.0.0.1:${this.#config.port}`,
    );
    this.#armIdleTimer();
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
      for (const s of this.#sessions.values()) s.conn.close();
      await new Promise<void>((resolve) =>
        this.#unixServer ? this.#unixServer.close(() => resolve()) : resolve(),
      );
      await this.#link?.close();
      await this.#browser?.close();
    })();
    return this.#stopping;
  }

  #openSession(conn: ServerConnection, hello: HelloFrame): string {
    const id = randomUUID();
    const client = hello.client ?? { name: 'MCP client', version: '?' };
    this.#sessions.set(id, { id, client, conn });
    clearTimeout(this.#idleTimer);
    this.#log.info(`session ${id} started for ${client.name}`);
    this.#link?.send({ type: 'session_start', sessionId: id, client });
    if (hello.launch) this.#ensureBrowser(hello.launch);
    return id;
  }

  #closeSession(conn: ServerConnection): void {
    this.#router.dropConnection(conn);
    const id = conn.sessionId;
    if (id === undefined || !this.#sessions.delete(id)) return;
    this.#log.info(`session ${id} ended`);
    this.#link?.send({ type: 'session_end', sessionId: id, reason: 'client disconnected' });
    this.#armIdleTimer();
  }

  async #onRequest(conn: ServerConnection, frame: Frame & { type: 'request' }): Promise<void> {
    if (!this.#link?.connected) {
      const waitMs = this.#browser ? this.#config.launchWaitMs : this.#config.extensionWaitMs;
      await this.#whenConnected(waitMs);
    }
    if (!this.#link?.connected && this.#launchError !== undefined) {
      const error = {
        code: ErrorCode.LAUNCH_FAILED,
        message: this.#launchError,
        hint: 'Fix the browser setup (see the message), then restart the MCP client.',
      };
      conn.send({
        type: 'response',
        id: frame.id,
        sessionId: frame.sessionId,
        payload: { success: false, error },
      });
      return;
    }
    this.#router.forward(conn, frame);
  }

  #onExtensionConnected(): void {
    // A (re)connected relay learns every live session, so its worker and panel are in step.
    for (const s of this.#sessions.values()) {
      this.#link?.send({ type: 'session_start', sessionId: s.id, client: s.client });
    }
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  #onExtensionFrame(frame: Frame): void {
    if (frame.type === 'response') this.#router.resolve(stampHop(frame, 'daemon.back'));
    else if (frame.type === 'event' && frame.sessionId)
      this.#sessions.get(frame.sessionId)?.conn.send(frame);
  }

  #whenConnected(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  #ensureBrowser(options: LaunchOptions): void {
    if (this.#browser || this.#link?.connected) return;
    try {
      const browser = LaunchedBrowser.launch(
        options,
        this.#config.port,
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

async function listenUnix(
  path: string,
  onSocket: Parameters<typeof createServer>[1],
): Promise<Server> {
  const server = createServer(onSocket);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path, readableAll: false, writableAll: false }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
