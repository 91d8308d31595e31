/**
 * One MCP server's connection to the daemon: NDJSON over the Unix socket.
 * Handshake: the server's first line must be `hello` (role server) within HELLO_TIMEOUT_MS; the
 * daemon answers `welcome` with the new session's id. A malformed line after the handshake gets
 * an `error` frame and the connection stays up; anything but a hello first closes it.
 */
import type { Socket } from 'node:net';
import {
  ErrorCode,
  PROTOCOL_VERSION,
  checkVersion,
  parseFrame,
  serializeFrame,
  type Frame,
  type HelloFrame,
  type RequestFrame,
} from '@browser-agent/protocol';
import { LineSplitter } from '../shared/ndjson.js';

const HELLO_TIMEOUT_MS = 5_000;

export interface ServerConnectionEvents {
  /** Returns the id of the session this connection now owns. */
  hello(conn: ServerConnection, hello: HelloFrame): string;
  request(conn: ServerConnection, frame: RequestFrame): void;
  closed(conn: ServerConnection): void;
}

export class ServerConnection {
  readonly #socket: Socket;
  readonly #events: ServerConnectionEvents;
  sessionId: string | undefined;

  constructor(socket: Socket, events: ServerConnectionEvents) {
    this.#socket = socket;
    this.#events = events;
    socket.setEncoding('utf8');
    const timer = setTimeout(() => this.#fail('No hello within 5 s.'), HELLO_TIMEOUT_MS);
    const lines = new LineSplitter(
      (line) => this.#onLine(line, timer),
      () =>
        this.send({
          type: 'error',
          error: {
            code: ErrorCode.INVALID_FRAME,
            message: 'Frame exceeds the size limit and was dropped.',
          },
        }),
    );
    socket.on('data', (chunk: string) => lines.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      this.#events.closed(this);
    });
  }

  send(frame: Frame): void {
    if (!this.#socket.destroyed) this.#socket.write(`${serializeFrame(frame)}\n`);
  }

  close(): void {
    this.#socket.end();
  }

  #onLine(line: string, helloTimer: NodeJS.Timeout): void {
    const parsed = parseFrame(line);
    if (!parsed.ok) {
      if (this.sessionId === undefined) this.#fail(parsed.error.message);
      else this.send({ type: 'error', error: parsed.error });
      return;
    }
    const frame = parsed.frame;
    if (this.sessionId === undefined) {
      clearTimeout(helloTimer);
      if (frame.type !== 'hello' || frame.role !== 'server') {
        this.#fail('The first frame must be a hello from an MCP server.');
        return;
      }
      const mismatch = checkVersion(frame.protocolVersion, 'the MCP server');
      if (mismatch) {
        this.send({ type: 'error', error: mismatch });
        this.#socket.end();
        return;
      }
      this.sessionId = this.#events.hello(this, frame);
      this.send({ type: 'welcome', protocolVersion: PROTOCOL_VERSION, sessionId: this.sessionId });
      return;
    }
    if (frame.type === 'request') {
      // A server may only act for its own session.
      this.#events.request(this, { ...frame, sessionId: this.sessionId });
    } else if (frame.type === 'ping') {
      this.send({ type: 'pong', t: frame.t });
    } else {
      this.send({
        type: 'error',
        error: {
          code: ErrorCode.INVALID_FRAME,
          message: `Unexpected ${frame.type} frame from an MCP server.`,
        },
      });
    }
  }

  #fail(message: string): void {
    this.send({ type: 'error', error: { code: ErrorCode.INVALID_FRAME, message } });
    this.#socket.end();
  }
}
