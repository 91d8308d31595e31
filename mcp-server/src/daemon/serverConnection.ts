/**
 * One MCP server's connection to the daemon: NDJSON over the Unix socket.
 * Handshake: the server's first line must be `hello` (role server) within HELLO_TIMEOUT_MS; the
 * daemon answers `welcome`. Then `register` binds the connection to a session (`register_ok`). A malformed line after the handshake gets
 * an `error` frame and the connection stays up; anything but a hello first closes it. Lines are
 * parsed as server → daemon frames (links.ts): a frame only the daemon sends counts as malformed.
 */
import { chmodSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  ErrorCode,
  PROTOCOL_VERSION,
  checkVersion,
  parseServerToDaemon,
  responseHead,
  serializeFrame,
  type DaemonToServerFrame,
  type FrameOf,
  type WireError,
  type RequestFrame,
  type ResponseEnvelope,
  type ServerHelloFrame,
} from '@browser-agent/protocol';
import { LineSplitter } from '../shared/ndjson.js';

const HELLO_TIMEOUT_MS = 5_000;

export interface ServerConnectionEvents {
  /** An error refuses the server: it is sent, and the connection closed. */
  hello(conn: ServerConnection, hello: ServerHelloFrame): WireError | undefined;
  /** What the welcome tells the server besides the protocol: build and live sessions. */
  welcome?(): { build: string; liveSessions: number };
  /** Binds the connection to a new or resumed session. */
  register(
    conn: ServerConnection,
    frame: FrameOf<'register'>,
  ): Omit<FrameOf<'register_ok'>, 'type'>;
  request(conn: ServerConnection, frame: RequestFrame): void;
  /** The server gave up on one of its requests (an MCP cancel or its own deadline). */
  cancel(conn: ServerConnection, frame: FrameOf<'cancel'>): void;
  /** The user answered an approval question through the server's MCP client (elicitation). */
  approvalAnswer(conn: ServerConnection, frame: FrameOf<'approval_answer'>): void;
  /** The server is closing on purpose (see byeFrameSchema). */
  bye(conn: ServerConnection): void;
  closed(conn: ServerConnection): void;
}

export class ServerConnection {
  readonly #socket: Duplex;
  readonly #events: ServerConnectionEvents;
  #greeted = false;
  sessionId: string | undefined;

  constructor(socket: Duplex, events: ServerConnectionEvents) {
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

  send(frame: DaemonToServerFrame): void {
    if (!this.#socket.destroyed && this.#socket.writable)
      this.#socket.write(`${serializeFrame(frame)}\n`);
  }

  /** A response around a payload passed on as received: never parsed nor re-serialized here. */
  sendResponse(envelope: ResponseEnvelope, payloadChars: number, payload: Buffer): void {
    const socket = this.#socket;
    if (socket.destroyed || !socket.writable) return;
    socket.cork();
    socket.write(responseHead(envelope, payloadChars));
    socket.write(payload);
    socket.write('}\n');
    socket.uncork();
  }

  close(): void {
    this.#socket.end();
  }

  #onLine(line: string, helloTimer: NodeJS.Timeout): void {
    // Only what a server may send parses here; anything else is refused like a malformed line.
    const parsed = parseServerToDaemon(line);
    if (!parsed.ok) {
      if (!this.#greeted) this.#fail(parsed.error.message);
      else this.send({ type: 'error', error: parsed.error });
      return;
    }
    const frame = parsed.frame;
    if (!this.#greeted) {
      clearTimeout(helloTimer);
      if (frame.type !== 'hello') {
        this.#fail('The first frame must be a hello from an MCP server.');
        return;
      }
      const mismatch = checkVersion(frame.protocolVersion, 'the MCP server');
      if (mismatch) {
        this.send({ type: 'error', error: mismatch });
        this.#socket.end();
        return;
      }
      const refusal = this.#events.hello(this, frame);
      if (refusal) {
        this.send({ type: 'error', error: refusal });
        this.#socket.end();
        return;
      }
      this.#greeted = true;
      this.send({
        type: 'welcome',
        protocolVersion: PROTOCOL_VERSION,
        ...this.#events.welcome?.(),
      });
      return;
    }
    switch (frame.type) {
      case 'register': {
        const ok = this.#events.register(this, frame);
        this.sessionId = ok.sessionId;
        this.send({ type: 'register_ok', ...ok });
        return;
      }
      case 'request':
        if (this.sessionId === undefined) {
          this.send({
            type: 'response',
            id: frame.id,
            sessionId: frame.sessionId,
            payload: {
              success: false,
              error: {
                code: ErrorCode.NOT_REGISTERED,
                message: 'Register a session before sending requests.',
              },
            },
          });
          return;
        }
        // A server may only act for its own session.
        this.#events.request(this, { ...frame, sessionId: this.sessionId });
        return;
      case 'cancel':
        if (this.sessionId !== undefined)
          this.#events.cancel(this, { ...frame, sessionId: this.sessionId });
        return;
      case 'approval_answer':
        // Only for the server's own session, whatever the frame says.
        if (this.sessionId !== undefined)
          this.#events.approvalAnswer(this, { ...frame, sessionId: this.sessionId });
        return;
      case 'bye':
        this.#events.bye(this);
        return;
      case 'ping':
        this.send({ type: 'pong', t: frame.t });
        return;
      case 'hello':
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

/** The Unix socket servers connect on, made 0600 as soon as it exists. */
export async function listenUnix(
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
