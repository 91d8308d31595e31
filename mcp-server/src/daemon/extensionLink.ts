/**
 * The daemon's side of the relay WebSocket (ws://127.0.0.1:<port>).
 * Handshake: the extension sends `hello` (role extension) within HELLO_TIMEOUT_MS; the daemon
 * checks the version and answers `welcome`. Upgrades from any Origin but our extension's, or with
 * a non-loopback Host, are refused before the handshake. One extension link is active at a time:
 * the first; a second relay is closed with 4005 and keeps retrying until the first goes away.
 */
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  MAX_FRAME_BYTES,
  PROTOCOL_VERSION,
  checkVersion,
  parseFrame,
  serializeFrame,
  type Frame,
} from '@browser-agent/protocol';
import type { Logger } from '../shared/logger.js';
import { checkUpgrade } from './originCheck.js';

const HELLO_TIMEOUT_MS = 5_000;
/** Protocol-level pings find a dead link (a frozen or killed page) that never sent a close. */
const HEARTBEAT_MS = 15_000;

export interface ExtensionLinkEvents {
  connected(): void;
  disconnected(reason: string): void;
  frame(frame: Frame): void;
}

export class ExtensionLink {
  readonly #wss: WebSocketServer;
  readonly #log: Logger;
  readonly #events: ExtensionLinkEvents;
  #active: WebSocket | undefined;

  private constructor(wss: WebSocketServer, log: Logger, events: ExtensionLinkEvents) {
    this.#wss = wss;
    this.#log = log;
    this.#events = events;
    wss.on('connection', (ws) => this.#accept(ws));
  }

  static listen(port: number, log: Logger, events: ExtensionLinkEvents): Promise<ExtensionLink> {
    return new Promise((resolve, reject) => {
      const wss = new WebSocketServer({
        host: '127.0.0.1',
        port,
        maxPayload: MAX_FRAME_BYTES,
        verifyClient: (info, done) => {
          const refusal = checkUpgrade(info.origin, info.req.headers.host, port);
          if (refusal) {
            log.warn(`refused WebSocket upgrade: ${refusal}`);
            done(false, 403, 'Forbidden');
          } else {
            done(true);
          }
        },
      });
      wss.once('error', reject);
      wss.once('listening', () => {
        wss.off('error', reject);
        wss.on('error', (err) => log.error(`WebSocket server: ${err.message}`));
        resolve(new ExtensionLink(wss, log, events));
      });
    });
  }

  get connected(): boolean {
    return this.#active !== undefined;
  }

  send(frame: Frame): boolean {
    const ws = this.#active;
    if (!ws) return false;
    ws.send(serializeFrame(frame));
    return true;
  }

  close(): Promise<void> {
    for (const ws of this.#wss.clients) ws.terminate();
    return new Promise((resolve) => this.#wss.close(() => resolve()));
  }

  #accept(ws: WebSocket): void {
    let greeted = false;
    let alive = true;
    const helloTimer = setTimeout(() => ws.close(4001, 'No hello within 5 s'), HELLO_TIMEOUT_MS);
    const heartbeat = setInterval(() => {
      if (!alive) {
        ws.terminate();
        return;
      }
      alive = false;
      ws.ping();
    }, HEARTBEAT_MS);
    ws.on('pong', () => {
      alive = true;
    });

    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        ws.close(4002, 'Binary frames are not part of the protocol');
        return;
      }
      const parsed = parseFrame(rawText(data));
      if (!parsed.ok) {
        this.#log.warn(`bad frame from extension: ${parsed.error.message}`);
        ws.send(serializeFrame({ type: 'error', error: parsed.error }));
        return;
      }
      const frame = parsed.frame;
      if (!greeted) {
        if (frame.type !== 'hello' || frame.role !== 'extension') {
          ws.close(4003, 'Expected hello');
          return;
        }
        const mismatch = checkVersion(frame.protocolVersion, 'the extension');
        if (mismatch) {
          ws.send(serializeFrame({ type: 'error', error: mismatch }));
          ws.close(4004, 'Protocol version mismatch');
          return;
        }
        clearTimeout(helloTimer);
        if (this.#active && this.#active !== ws) {
          // First relay wins: a second one (panel and relay tab both open) waits and retries, so
          // the two never take the link from each other in turn.
          ws.close(4005, 'Another Browser Agent relay holds the link');
          return;
        }
        greeted = true;
        ws.send(serializeFrame({ type: 'welcome', protocolVersion: PROTOCOL_VERSION }));
        this.#active = ws;
        this.#log.info(`extension connected (${frame.client?.version ?? 'unknown version'})`);
        this.#events.connected();
        return;
      }
      if (frame.type === 'ping') {
        // The service worker's keepalive: traffic under 30 s keeps it from being stopped.
        ws.send(serializeFrame({ type: 'pong', t: frame.t }));
        return;
      }
      if (ws === this.#active) this.#events.frame(frame);
    });

    ws.on('close', (code, reason) => {
      clearTimeout(helloTimer);
      clearInterval(heartbeat);
      if (ws !== this.#active) return;
      this.#active = undefined;
      const why = reason.toString() || `code ${code}`;
      this.#log.info(`extension disconnected: ${why}`);
      this.#events.disconnected(why);
    });
    ws.on('error', (err) => this.#log.warn(`extension socket: ${err.message}`));
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
