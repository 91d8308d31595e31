import { randomUUID } from 'node:crypto';
import {
  CALL_TIMEOUT_HINT,
  DEFAULT_TOOL_TIMEOUT_MS,
  ErrorCode,
  stampHop,
  type CancelFrame,
  type RequestFrame,
  type ResponseFrame,
  type ResponseHeader,
  type WireError,
} from '@browser-agent/protocol';
import type { ServerConnection } from './serverConnection.js';
import type { CallLog } from './callLog.js';

interface Pending {
  conn: ServerConnection;
  callerId: string;
  sessionId: string;
  action: string;
  startedAt: number;
  timer: NodeJS.Timeout;
}

/**
 * Routes requests to the extension and answers each exactly once: with the extension's response,
 * or with an error when it times out, the extension goes away, or it cannot be reached. Ids are
 * re-issued by the daemon so two servers' ids can never collide on the shared link.
 */
export class Router {
  readonly #pending = new Map<string, Pending>();
  readonly #sendToExtension: (frame: RequestFrame | CancelFrame) => boolean;
  readonly #log: CallLog | undefined;
  readonly #onAnswered: (sessionId: string) => void;

  constructor(
    sendToExtension: (frame: RequestFrame | CancelFrame) => boolean,
    log?: CallLog,
    onAnswered: (sessionId: string) => void = () => undefined,
  ) {
    this.#sendToExtension = sendToExtension;
    this.#log = log;
    this.#onAnswered = onAnswered;
  }

  get inFlight(): number {
    return this.#pending.size;
  }

  forward(conn: ServerConnection, frame: RequestFrame): void {
    const id = randomUUID();
    const timeoutMs = frame.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    const timer = setTimeout(() => {
      this.#settle(id, {
        code: ErrorCode.TIMEOUT,
        message: `${frame.action} got no answer from the browser within ${timeoutMs} ms.`,
        hint: CALL_TIMEOUT_HINT,
      });
    }, timeoutMs);
    this.#pending.set(id, {
      conn,
      callerId: frame.id,
      sessionId: frame.sessionId,
      action: frame.action,
      startedAt: Date.now(),
      timer,
    });
    this.#writeAhead(id, frame);
    const sent = this.#sendToExtension(stampHop({ ...frame, id }, 'daemon.out'));
    if (!sent) this.#settle(id, notConnected('The browser extension is not connected.'));
  }

  /** A response from the extension; one for an unknown or already answered id is dropped. */
  resolve(frame: ResponseFrame): void {
    const p = this.#take(frame.id);
    if (!p) return;
    // The answer goes out before the log's synchronous write: only the call line must come first.
    p.conn.send({ ...frame, id: p.callerId, sessionId: p.sessionId });
    this.#logResult(frame.id, p, frame.payload.success ? 'ok' : frame.payload.error.code);
    this.#onAnswered(p.sessionId);
  }

  /** A success response whose payload goes to the caller as the bytes the extension sent. */
  resolveBytes(header: ResponseHeader, payload: Buffer): void {
    const p = this.#take(header.id);
    if (!p) return;
    const envelope = { ...header, id: p.callerId, sessionId: p.sessionId };
    p.conn.sendResponse(envelope, header.payloadChars, payload);
    this.#logResult(header.id, p, 'ok');
    this.#onAnswered(p.sessionId);
  }

  #take(id: string): Pending | undefined {
    const p = this.#pending.get(id);
    if (!p) return undefined;
    this.#pending.delete(id);
    clearTimeout(p.timer);
    return p;
  }

  /** Fails every call in flight, e.g. when the extension link drops mid-call. */
  failAll(error: WireError): void {
    for (const id of [...this.#pending.keys()]) this.#settle(id, error);
  }

  #writeAhead(id: string, frame: RequestFrame): void {
    try {
      this.#log?.call({ id, sessionId: frame.sessionId, tool: frame.action, args: frame.params });
    } catch {
      // A full disk must not stop the browser from working; the daemon log says why.
    }
  }

  #logResult(id: string, p: Pending, code: string): void {
    try {
      this.#log?.result({
        id,
        sessionId: p.sessionId,
        tool: p.action,
        code,
        ms: Date.now() - p.startedAt,
      });
    } catch {
      // As above.
    }
  }

  /**
   * The caller went away: its calls are dropped so nothing is sent to a dead socket, and the
   * extension stops them so the session's next call does not queue behind them.
   */
  dropConnection(conn: ServerConnection): void {
    for (const [id, p] of this.#pending) {
      if (p.conn === conn) this.#abandon(id, p, 'the MCP server disconnected');
    }
  }

  /** The caller cancelled one call: no answer goes back, and the extension stops it. */
  cancel(conn: ServerConnection, callerId: string, reason: string): boolean {
    for (const [id, p] of this.#pending) {
      if (p.conn === conn && p.callerId === callerId) {
        this.#abandon(id, p, reason);
        return true;
      }
    }
    return false;
  }

  #abandon(id: string, p: Pending, reason: string): void {
    clearTimeout(p.timer);
    this.#pending.delete(id);
    this.#logResult(id, p, 'CANCELLED');
    this.#sendToExtension({ type: 'cancel', id, sessionId: p.sessionId, reason });
  }

  #settle(id: string, error: WireError): void {
    const p = this.#take(id);
    if (!p) return;
    this.#logResult(id, p, error.code);
    // A call that timed out here keeps no browser work going behind the caller's back.
    if (error.code === ErrorCode.TIMEOUT)
      this.#sendToExtension({ type: 'cancel', id, sessionId: p.sessionId, reason: 'timed out' });
    p.conn.send({
      type: 'response',
      id: p.callerId,
      sessionId: p.sessionId,
      payload: { success: false, error },
    });
  }
}

export function notConnected(message: string): WireError {
  return {
    code: ErrorCode.NOT_CONNECTED,
    message,
    hint: 'Open the Browser Agent side panel in Chrome so it can reconnect (or run the server with --launch), then retry.',
  };
}
