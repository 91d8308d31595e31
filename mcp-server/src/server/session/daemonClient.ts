/**
 * The MCP server's link to the daemon: NDJSON over the Unix socket. Connects on first use,
 * spawning the daemon (detached, shared by every client) when nobody answers. If the daemon goes
 * away, calls in flight fail with NOT_CONNECTED and the next call connects (and spawns) again.
 * Lines are parsed as daemon → server frames (links.ts); anything else is logged and dropped.
 */
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import {
  BridgeError,
  ErrorCode,
  PROTOCOL_VERSION,
  parseDaemonToServer,
  parseResponsePayload,
  splitResponse,
  serializeFrame,
  type ApprovalScope,
  type CancelFrame,
  type ClientInfo,
  type DaemonToServerFrame,
  type FrameOf,
  type OriginPolicy,
  type ServerToDaemonFrame,
  type SessionSettings,
  type ToolName,
  type ToolResult,
  type TransactionLimits,
} from '@browser-agent/protocol';
import { ResumeNotice } from '../response/resumeNotice.js';
import type { ToolResponse } from '../response/toolResponse.js';
import type { Logger } from '../../shared/logger.js';
import { LineSplitter } from '../../shared/ndjson.js';
import type { TraceWriter } from '../outputFiles/traceWriter.js';
import { DaemonReach } from './daemonReach.js';
import { PendingCalls } from './pendingCalls.js';
import type { DaemonRoute } from './projectSession.js';
import { buildId } from '../../shared/buildId.js';
import { meetOtherBuild, otherBuildOf } from './otherBuild.js';

/** How long a closing server waits for its `bye` to reach the daemon before it exits anyway. */
const BYE_FLUSH_MS = 300;

export interface DaemonClientOptions {
  /** Which daemon to reach and what to ask of it; read each time a connection opens. */
  route: () => DaemonRoute;
  /**
   * The daemon refused this server's launch options (BROWSER_IN_USE): true when the route now
   * leads to a daemon of the server's own, so the connection is tried once more.
   */
  onBrowserInUse?: ((why: string) => boolean) | undefined;
  log: Logger;
  /** Where this session's tabs may go; enforced in the extension. */
  policy?: OriginPolicy | undefined;
  /** Viewport, timeouts and file:// access of this session's tabs. */
  settings?: SessionSettings | undefined;
  /** Lets a restarted server take back its session within the daemon's grace period. */
  sessionKey?: string | undefined;
  /** Rollback give-up time, checkpoints kept, automatic checkpoints; enforced in the extension. */
  transactions?: TransactionLimits | undefined;
  /** Host the bridge in this process instead of the shared daemon (no Unix sockets here). */
  inProcess?: boolean | undefined;
  /** A daemon this server spawns starts the route's headless browser at once (prelaunch.ts). */
  launchAhead?: boolean | undefined;
  /** Set when BROWSER_AGENT_TRACE_FILE asks for per-hop timings. */
  trace?: TraceWriter | undefined;
  /** Events the extension sends this session (approval questions, for elicitation). */
  onEvent?: ((frame: FrameOf<'event'>) => void) | undefined;
}

export interface CallOptions {
  /** Aborted when the MCP client cancels the call or goes away. */
  signal?: AbortSignal | undefined;
}

export class DaemonClient {
  readonly #options: DaemonClientOptions;
  #client: ClientInfo = { name: 'MCP client', version: '?' };
  #connection: Promise<{ socket: Duplex; sessionId: string }> | undefined;
  /** The daemon being started ahead of the first call (startDaemonAhead); never rejects. */
  #ahead: Promise<void> | undefined;
  readonly #calls: PendingCalls;
  readonly #reach: DaemonReach;
  #closed = false;
  readonly #resumeNotice = new ResumeNotice();

  constructor(options: DaemonClientOptions) {
    this.#options = options;
    this.#calls = new PendingCalls(options.trace);
    this.#reach = new DaemonReach(
      options.log,
      options.inProcess === true,
      options.launchAhead === true,
    );
  }

  setClient(client: ClientInfo): void {
    this.#client = client;
  }

  /** Connects now (e.g. right after MCP initialize) so a launched browser starts early. */
  warmUp(): void {
    this.#connect().catch((err: unknown) =>
      this.#options.log.warn(`daemon not reachable yet: ${String(err)}`),
    );
  }

  /**
   * Starts the daemon without opening a session (launch mode: the browser waits for the first
   * call, the daemon's own start need not). The first call's connection waits for it.
   */
  startDaemonAhead(): void {
    if (this.#connection !== undefined) return;
    this.#ahead ??= this.#reach.startAhead(this.#options.route());
  }

  async call(
    action: ToolName,
    params: unknown,
    timeoutMs: number,
    response?: ToolResponse,
    options: CallOptions = {},
  ): Promise<ToolResult> {
    const result = await this.#send(action, params, timeoutMs, options);
    const notice = this.#resumeNotice.note(action);
    if (notice !== undefined) response?.addNote(notice);
    return result;
  }

  /**
   * The call's abort signal (an MCP cancel, the client gone) and this side's own deadline both
   * send a `cancel` frame, so the daemon and the extension stop the call instead of finishing it
   * for nobody while the session's next call waits behind it.
   */
  async #send(
    action: ToolName,
    params: unknown,
    timeoutMs: number,
    { signal }: CallOptions,
  ): Promise<ToolResult> {
    signal?.throwIfAborted();
    const { socket, sessionId } = await this.#connect();
    signal?.throwIfAborted();
    const id = randomUUID();
    const cancel = (reason: string): void => {
      const frame: CancelFrame = { type: 'cancel', id, sessionId, reason };
      if (!socket.destroyed && socket.writable) socket.write(`${serializeFrame(frame)}\n`);
    };
    return this.#calls.add(id, action, timeoutMs, signal, cancel, (startedAt) => {
      const hops = this.#options.trace ? { hops: [{ hop: 'server.out', at: startedAt }] } : {};
      const frame: ServerToDaemonFrame = {
        type: 'request',
        id,
        sessionId,
        action,
        params,
        timeoutMs,
        ...hops,
      };
      socket.write(`${serializeFrame(frame)}\n`);
    });
  }

  /** Says `bye` to the daemon (a clean close) and waits briefly for the line to leave. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#reach.stopInProcess();
    const connection = await this.#connection?.catch(() => undefined);
    if (!connection) return;
    const { socket } = connection;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, BYE_FLUSH_MS);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.end(`${serializeFrame({ type: 'bye' })}\n`);
    });
  }

  #connect(): Promise<{ socket: Duplex; sessionId: string }> {
    if (this.#closed)
      return Promise.reject(
        new BridgeError(ErrorCode.NOT_CONNECTED, 'The MCP server is shutting down.'),
      );
    this.#connection ??= this.#open()
      .catch((err: unknown) => {
        if (
          err instanceof BridgeError &&
          err.code === ErrorCode.BROWSER_IN_USE &&
          this.#options.onBrowserInUse?.(err.message) === true
        )
          return this.#open();
        throw err;
      })
      .catch(async (err: unknown) => {
        const ownDaemon = (why: string) => this.#options.onBrowserInUse?.(why) === true;
        await meetOtherBuild(err, { log: this.#options.log, ownDaemon });
        return this.#open();
      })
      .catch((err: unknown) => {
        this.#connection = undefined;
        throw err;
      });
    return this.#connection;
  }

  async #open(): Promise<{ socket: Duplex; sessionId: string }> {
    // Two spawns at once would race for the daemon's start lock: one is enough.
    await this.#ahead;
    const route = this.#options.route();
    const socket = await this.#reach.reach(route);
    socket.setEncoding('utf8');
    return new Promise((resolve, reject) => {
      let sessionId: string | undefined;
      const lines = new LineSplitter(
        (line) => {
          if (sessionId !== undefined) {
            // Results are read by their header; their payload is parsed on its own, once.
            const split = splitResponse(line);
            if (split) {
              this.#calls.settle(split.header, parseResponsePayload(split.payloadText));
              return;
            }
          }
          const parsed = parseDaemonToServer(line);
          if (!parsed.ok) {
            this.#options.log.warn(`bad frame from daemon: ${parsed.error.message}`);
            return;
          }
          const frame = parsed.frame;
          if (sessionId !== undefined) {
            this.#onFrame(frame);
          } else if (frame.type === 'register_ok') {
            sessionId = frame.sessionId;
            this.#options.log.info(`session ${sessionId}${frame.resumed ? ' (resumed)' : ''}`);
            // Without recent calls the daemon judged that nothing was lost (daemon.ts).
            if (frame.resumed && frame.recentCalls !== undefined)
              this.#resumeNotice.resumed(frame.recentCalls);
            resolve({ socket, sessionId });
          } else if (frame.type === 'welcome') {
            // Registered only with a daemon of this build (otherBuild.ts).
            const other = otherBuildOf(frame, route.paths);
            if (other === undefined) socket.write(`${serializeFrame(register)}\n`);
            else {
              reject(other);
              socket.destroy();
            }
          } else if (frame.type === 'error') {
            reject(BridgeError.from(frame.error));
          }
        },
        () => this.#options.log.warn('oversized frame from daemon dropped'),
      );
      socket.on('data', (chunk: string) => lines.push(chunk));
      socket.on('error', (err) => this.#options.log.warn(`daemon socket: ${err.message}`));
      socket.on('close', () => {
        if (sessionId === undefined) {
          // Never the live connection: a refused handshake (BROWSER_IN_USE) closes after the
          // retry on another daemon may have connected, which must stay.
          reject(
            new BridgeError(
              ErrorCode.NOT_CONNECTED,
              'The bridge daemon closed the connection during the handshake.',
            ),
          );
          return;
        }
        this.#connection = undefined;
        this.#calls.failAll();
      });
      const hello: ServerToDaemonFrame = {
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        role: 'server',
        client: this.#client,
        build: buildId(),
        ...(route.launch ? { launch: route.launch } : {}),
      };
      const register: ServerToDaemonFrame = {
        type: 'register',
        client: this.#client,
        ...(route.project !== undefined ? { project: route.project } : {}),
        ...(this.#options.sessionKey !== undefined ? { sessionKey: this.#options.sessionKey } : {}),
        ...(this.#options.policy !== undefined ? { policy: this.#options.policy } : {}),
        ...(this.#options.transactions !== undefined
          ? { transactions: this.#options.transactions }
          : {}),
        ...(this.#options.settings !== undefined ? { settings: this.#options.settings } : {}),
      };
      socket.write(`${serializeFrame(hello)}\n`);
    });
  }

  /** After registering, only responses matter here; events, pongs and errors are informational. */
  #onFrame(frame: DaemonToServerFrame): void {
    if (frame.type === 'response') this.#calls.settle(frame, frame.payload);
    else if (frame.type === 'event') this.#options.onEvent?.(frame);
  }

  /**
   * The user's answer to an approval question, given through the MCP client. Sent only on a
   * registered connection (the daemon stamps its session); without one there is no question.
   */
  sendApprovalAnswer(questionId: string, allow: boolean, scope: ApprovalScope): void {
    void this.#connection
      ?.then(({ socket, sessionId }) => {
        const frame: ServerToDaemonFrame = {
          type: 'approval_answer',
          sessionId,
          questionId,
          allow,
          scope,
        };
        if (!socket.destroyed && socket.writable) socket.write(`${serializeFrame(frame)}\n`);
      })
      .catch(() => undefined);
  }
}
