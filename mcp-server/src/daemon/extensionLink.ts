/**
 * The daemon's side of the relay WebSocket (ws://127.0.0.1:<port>).
 * Handshake: the extension sends `hello` (role extension) within HELLO_TIMEOUT_MS; then the
 * mutual pairing proof of extensionHandshake.ts; only then `welcome`. Upgrades from any Origin but our extension's, or with
 * a non-loopback Host, are refused before the handshake. One extension link is active at a time:
 * the first; a second relay is closed with 4005 and keeps retrying until the first goes away.
 */
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  MAX_FRAME_BYTES,
  PROTOCOL_VERSION,
  parseFrame,
  serializeFrame,
  type Frame,
  type WireError,
} from '@browser-agent/protocol';
import type { Logger } from '../shared/logger.js';
import { checkUpgrade } from './originCheck.js';
import { ExtensionHandshake } from './extensionHandshake.js';
import type { PairingStore } from './pairingStore.js';
import { RateLimiter } from './rateLimiter.js';
import { splitResponseBytes, type ResponseBytes } from './responseBytes.js';
import { versionSkew } from './versionSkew.js';
import { packageVersion } from '../shared/version.js';

const HELLO_TIMEOUT_MS = 5_000;
const PAIRING_TIMEOUT_MS = 120_000;
/** Upgrade attempts allowed per window, before authentication; failed handshakes count 5 more. */
const UPGRADES_PER_WINDOW = 40;
const RATE_WINDOW_MS = 10_000;
/** Protocol-level pings find a dead link (a frozen or killed page) that never sent a close. */
const HEARTBEAT_MS = 15_000;

export interface ExtensionLinkEvents {
  connected(): void;
  /** A first pairing waits for the user: the code to compare, or undefined when it is over. */
  pairingCode(code: string | undefined): void;
  /** The release an extension named in its hello, and how it differs from ours (if it does). */
  extensionHello?(
    release: string | undefined,
    skew: (WireError & { blocking: boolean }) | undefined,
  ): void;
  disconnected(reason: string): void;
  frame(frame: Frame): void;
  /** A success response, cut without parsing its payload (responseBytes.ts). */
  response(response: ResponseBytes): void;
}

export class ExtensionLink {
  readonly #wss: WebSocketServer;
  readonly #log: Logger;
  readonly #events: ExtensionLinkEvents;
  readonly #pairings: PairingStore;
  readonly #limiter: RateLimiter;
  #active: WebSocket | undefined;

  private constructor(
    wss: WebSocketServer,
    log: Logger,
    events: ExtensionLinkEvents,
    pairings: PairingStore,
    limiter: RateLimiter,
  ) {
    this.#wss = wss;
    this.#log = log;
    this.#events = events;
    this.#pairings = pairings;
    this.#limiter = limiter;
    wss.on('connection', (ws) => this.#accept(ws));
  }

  static listen(
    port: number,
    log: Logger,
    events: ExtensionLinkEvents,
    pairings: PairingStore,
  ): Promise<ExtensionLink> {
    const limiter = new RateLimiter(UPGRADES_PER_WINDOW, RATE_WINDOW_MS);
    // Port 0 asks for an ephemeral port; the Host check needs the one actually bound.
    let boundPort = port;
    return new Promise((resolve, reject) => {
      const wss = new WebSocketServer({
        host: '127.0.0.1',
        port,
        maxPayload: MAX_FRAME_BYTES,
        verifyClient: (info, done) => {
          // Counted before any check, so a flood costs the daemon next to nothing.
          if (!limiter.allow()) {
            done(false, 429, 'Too Many Requests');
            return;
          }
          const refusal = checkUpgrade(info.origin, info.req.headers.host, boundPort);
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
        const address = wss.address();
        if (typeof address === 'object' && address !== null) boundPort = address.port;
        wss.on('error', (err) => log.error(`WebSocket server: ${err.message}`));
        resolve(new ExtensionLink(wss, log, events, pairings, limiter));
      });
    });
  }

  /** The port the WebSocket server listens on (the ephemeral one when asked for port 0). */
  get port(): number {
    const address = this.#wss.address();
    return typeof address === 'object' && address !== null ? address.port : 0;
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
    let helloTimer = setTimeout(() => ws.close(4001, 'No handshake within 5 s'), HELLO_TIMEOUT_MS);
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

    const handshake = new ExtensionHandshake(this.#pairings);
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        ws.close(4002, 'Binary frames are not part of the protocol');
        return;
      }
      const bytes = rawBytes(data);
      if (greeted && ws === this.#active) {
        // The hot path: results are routed by their header; their payload is passed on as bytes.
        const response = splitResponseBytes(bytes);
        if (response) {
          this.#events.response(response);
          return;
        }
      }
      const parsed = parseFrame(bytes.toString('utf8'));
      if (!parsed.ok) {
        this.#log.warn(`bad frame from extension: ${parsed.error.message}`);
        if (greeted) ws.send(serializeFrame({ type: 'error', error: parsed.error }));
        else ws.close(4003, 'Malformed frame during the handshake');
        return;
      }
      const frame = parsed.frame;
      if (!greeted) {
        if (frame.type === 'hello') {
          // Versions are compared before any proof: the extension may say which release it is.
          const skew = versionSkew(
            { release: frame.client?.version, protocol: frame.protocolVersion },
            { release: packageVersion(), protocol: PROTOCOL_VERSION },
          );
          this.#events.extensionHello?.(frame.client?.version, skew);
          if (skew?.blocking) {
            const { code, message, hint } = skew;
            ws.send(serializeFrame({ type: 'error', error: { code, message, hint } }));
            ws.close(4004, 'Protocol version mismatch');
            return;
          }
        }
        const step = handshake.step(frame);
        switch (step.kind) {
          case 'send':
            ws.send(serializeFrame(step.frame));
            return;
          case 'pairing':
            // The user needs time to compare codes and click; the code also reaches the agent.
            clearTimeout(helloTimer);
            helloTimer = setTimeout(
              () => ws.close(4001, 'Pairing was not confirmed in time'),
              PAIRING_TIMEOUT_MS,
            );
            this.#events.pairingCode(step.code);
            this.#log.warn(
              `pairing requested by an extension: confirm code ${step.code} in the side panel`,
            );
            ws.send(serializeFrame(step.frame));
            return;
          case 'fail':
            this.#limiter.penalize();
            this.#log.warn(`extension handshake refused: ${step.reason}`);
            ws.close(4401, step.reason);
            return;
          case 'done':
            break;
        }
        clearTimeout(helloTimer);
        this.#events.pairingCode(undefined);
        if (this.#active && this.#active !== ws) {
          // First relay wins: a second one (panel and relay tab both open) waits and retries, so
          // the two never take the link from each other in turn.
          ws.close(4005, 'Another Browser Agent relay holds the link');
          return;
        }
        greeted = true;
        if (frame.type === 'pair_confirm')
          ws.send(serializeFrame({ type: 'paired', pairingId: step.pairingId }));
        ws.send(
          serializeFrame({
            type: 'welcome',
            protocolVersion: PROTOCOL_VERSION,
            release: packageVersion(),
          }),
        );
        this.#active = ws;
        this.#log.info(`extension connected (pairing ${step.pairingId})`);
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

function rawBytes(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return data;
}
