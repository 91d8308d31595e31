/**
 * The daemon's side of the relay WebSocket (ws://127.0.0.1:<port>).
 * Upgrade: refused (403) unless the Origin is our extension's and the Host is loopback; then
 * refused (403) when the OS says the peer runs as another user (peerUid.ts); only then counted
 * against the rate limit of that user's upgrades (429), so pages and wrong origins, however many,
 * never use up the real extension's budget.
 * Handshake: the extension sends `hello` (role extension) within HELLO_TIMEOUT_MS; then the
 * mutual pairing proof of extensionHandshake.ts; only then `welcome`. Messages are parsed as
 * extension → daemon frames (links.ts), so a frame only the daemon sends counts as malformed. One
 * extension link is active at a time: the first; a second relay is closed with 4005 and keeps
 * retrying until the first goes away. In launch mode the launched browser's link displaces any
 * other (4409).
 */
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  MAX_FRAME_BYTES,
  PROTOCOL_VERSION,
  parseExtensionToDaemon,
  serializeFrame,
  type DaemonToExtensionFrame,
  type ExtensionToDaemonFrame,
  type WireError,
} from '@browser-agent/protocol';
import type { Logger } from '../../shared/logger.js';
import { checkUpgrade } from './originCheck.js';
import { ExtensionHandshake, type HandshakeAuthority } from './extensionHandshake.js';
import { checkPeerUid } from '../peerUid.js';
import { RateLimiter } from '../rateLimiter.js';
import { splitResponseBytes, type ResponseBytes } from '../responseBytes.js';
import { versionSkew } from './versionSkew.js';
import { packageVersion } from '../../shared/version.js';
import { buildId } from '../../shared/buildId.js';

const HELLO_TIMEOUT_MS = 5_000;
const PAIRING_TIMEOUT_MS = 120_000;
/** Upgrade attempts per window that passed the Origin check; failed handshakes count 5 more. */
const UPGRADES_PER_WINDOW = 40;
const RATE_WINDOW_MS = 10_000;
/** Refused upgrades logged per window: a flood must not fill the log. */
const REFUSALS_LOGGED_PER_WINDOW = 10;
/** Connections that may wait for the user to type a pairing code at once. */
const MAX_PENDING_PAIRINGS = 4;
/** Protocol-level pings find a dead link (a frozen or killed page) that never sent a close. */
const HEARTBEAT_MS = 15_000;

export interface ExtensionLinkEvents {
  connected(): void;
  /** The release an extension named in its hello, and how it differs from ours (if it does). */
  extensionHello?(
    release: string | undefined,
    skew: (WireError & { blocking: boolean }) | undefined,
    build?: string,
  ): void;
  disconnected(reason: string): void;
  /** A response or event the extension sent once the link was up (pings are answered here). */
  frame(frame: Extract<ExtensionToDaemonFrame, { type: 'response' | 'event' | 'unpair' }>): void;
  /** A success response, cut without parsing its payload (responseBytes.ts). */
  response(response: ResponseBytes): void;
}

export class ExtensionLink {
  readonly #wss: WebSocketServer;
  readonly #log: Logger;
  readonly #events: ExtensionLinkEvents;
  readonly #authority: HandshakeAuthority;
  readonly #limiters: Map<string, RateLimiter>;
  #active: WebSocket | undefined;
  #activePairing: string | undefined;
  #pendingPairings = 0;

  private constructor(
    wss: WebSocketServer,
    log: Logger,
    events: ExtensionLinkEvents,
    authority: HandshakeAuthority,
    limiters: Map<string, RateLimiter>,
  ) {
    this.#wss = wss;
    this.#log = log;
    this.#events = events;
    this.#authority = authority;
    this.#limiters = limiters;
    wss.on('connection', (ws, req) => this.#accept(ws, peerKey(req.socket.remotePort)));
  }

  static listen(
    port: number,
    log: Logger,
    events: ExtensionLinkEvents,
    authority: HandshakeAuthority,
  ): Promise<ExtensionLink> {
    // One budget per OS user behind the upgrades that passed the Origin check (all loopback
    // peers share one address, so the uid is the finest key the OS gives us).
    const limiters = new Map<string, RateLimiter>();
    const refusalLog = new RateLimiter(REFUSALS_LOGGED_PER_WINDOW, RATE_WINDOW_MS);
    // Port 0 asks for an ephemeral port; the Host check needs the one actually bound.
    let boundPort = port;
    return new Promise((resolve, reject) => {
      const wss = new WebSocketServer({
        host: '127.0.0.1',
        port,
        maxPayload: MAX_FRAME_BYTES,
        verifyClient: (info, done) => {
          const refusal =
            checkUpgrade(info.origin, info.req.headers.host, boundPort) ??
            checkPeerUid(info.req.socket.remotePort, boundPort);
          if (refusal) {
            if (refusalLog.allow()) log.warn(`refused WebSocket upgrade: ${refusal}`);
            done(false, 403, 'Forbidden');
            return;
          }
          if (!limiterFor(limiters, peerKey(info.req.socket.remotePort)).allow()) {
            done(false, 429, 'Too Many Requests');
            return;
          }
          done(true);
        },
      });
      wss.once('error', reject);
      wss.once('listening', () => {
        wss.off('error', reject);
        const address = wss.address();
        if (typeof address === 'object' && address !== null) boundPort = address.port;
        wss.on('error', (err) => log.error(`WebSocket server: ${err.message}`));
        resolve(new ExtensionLink(wss, log, events, authority, limiters));
      });
    });
  }

  /** The pairing the active link authenticated with. */
  get activePairing(): string | undefined {
    return this.#activePairing;
  }

  /**
   * Drops the active link unless it holds `keep` (a revoked pairing: keep undefined drops the
   * link that holds `drop`; launch mode: only the launched browser's pairing stays).
   */
  dropUnless(keep: (pairingId: string) => boolean, code: number, reason: string): void {
    const ws = this.#active;
    const id = this.#activePairing;
    if (!ws || id === undefined || keep(id)) return;
    this.#log.warn(`closing the extension link of pairing ${id}: ${reason}`);
    ws.close(code, reason);
  }

  /** The port the WebSocket server listens on (the ephemeral one when asked for port 0). */
  get port(): number {
    const address = this.#wss.address();
    return typeof address === 'object' && address !== null ? address.port : 0;
  }

  /** Some connection waits for the user to type the pairing code in its side panel. */
  get awaitingCode(): boolean {
    return this.#pendingPairings > 0;
  }

  get connected(): boolean {
    return this.#active !== undefined;
  }

  send(frame: DaemonToExtensionFrame): boolean {
    const ws = this.#active;
    if (!ws) return false;
    ws.send(serializeFrame(frame));
    return true;
  }

  close(): Promise<void> {
    for (const ws of this.#wss.clients) ws.terminate();
    return new Promise((resolve) => this.#wss.close(() => resolve()));
  }

  /** The handshake succeeded: the link becomes the active one, unless another holds it. */
  #greet(ws: WebSocket, pairingId: string, frames: DaemonToExtensionFrame[]): void {
    // `paired` goes out even to a relay that must wait: the pairing is made, so it keeps its half.
    for (const frame of frames) ws.send(serializeFrame(frame));
    if (this.#active && this.#active !== ws) {
      // First relay wins: a second one (panel and relay tab both open) waits and retries, so
      // the two never take the link from each other in turn. The launched browser's link is the
      // exception: the daemon closed any other link when it launched (Daemon.#ensureBrowser).
      ws.close(4005, 'Another Browser Agent relay holds the link');
      return;
    }
    ws.send(
      serializeFrame({
        type: 'welcome',
        protocolVersion: PROTOCOL_VERSION,
        release: packageVersion(),
        build: buildId(),
      }),
    );
    this.#active = ws;
    this.#activePairing = pairingId;
    this.#log.info(`extension connected (pairing ${pairingId})`);
    this.#events.connected();
  }

  #accept(ws: WebSocket, peer: string): void {
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

    const handshake = new ExtensionHandshake(this.#authority);
    let pendingPairing = false;
    const endPendingPairing = (): void => {
      if (pendingPairing) this.#pendingPairings -= 1;
      pendingPairing = false;
    };
    // Handshake steps may wait (the code's key derivation); frames are handled in arrival order.
    let handshakeQueue = Promise.resolve();
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
      // Only what an extension may send parses here; anything else is a malformed frame.
      const parsed = parseExtensionToDaemon(bytes.toString('utf8'));
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
            { release: frame.client?.version, protocol: frame.protocolVersion, build: frame.build },
            { release: packageVersion(), protocol: PROTOCOL_VERSION, build: buildId() },
          );
          this.#events.extensionHello?.(frame.client?.version, skew, frame.build);
          if (skew?.blocking) {
            const { code, message, hint } = skew;
            ws.send(serializeFrame({ type: 'error', error: { code, message, hint } }));
            ws.close(4004, 'Protocol version mismatch');
            return;
          }
        }
        handshakeQueue = handshakeQueue
          .then(async () => {
            if (ws.readyState !== ws.OPEN) return;
            // A frame that arrived while the last handshake step was still being checked.
            if (greeted) {
              afterHandshake(frame);
              return;
            }
            const step = await handshake.step(frame);
            if (ws.readyState !== ws.OPEN) return;
            switch (step.kind) {
              case 'send':
                ws.send(serializeFrame(step.frame));
                return;
              case 'pairing':
                if (this.#pendingPairings >= MAX_PENDING_PAIRINGS) {
                  ws.close(4429, 'Too many pairings waiting for a code');
                  return;
                }
                pendingPairing = true;
                this.#pendingPairings += 1;
                // The user needs time to read the code from the agent and type it in the panel.
                this.#authority.code.requested();
                clearTimeout(helloTimer);
                helloTimer = setTimeout(
                  () => ws.close(4001, 'No pairing code was entered in time'),
                  PAIRING_TIMEOUT_MS,
                );
                this.#log.warn(
                  'an extension asks to pair: the agent is told the one-time code to type in the side panel',
                );
                ws.send(serializeFrame(step.frame));
                return;
              case 'fail':
                limiterFor(this.#limiters, peer).penalize();
                this.#log.warn(`extension handshake refused: ${step.reason}`);
                ws.close(4401, step.reason);
                return;
              case 'done':
                this.#greet(ws, step.pairingId, step.frames);
                greeted = ws === this.#active;
                endPendingPairing();
                clearTimeout(helloTimer);
                return;
            }
          })
          .catch((err: unknown) => {
            this.#log.error(`extension handshake failed: ${String(err)}`);
            ws.close(1011, 'The bridge could not finish the handshake');
          });
        return;
      }
      afterHandshake(frame);
    });
    const afterHandshake = (frame: ExtensionToDaemonFrame): void => {
      switch (frame.type) {
        case 'ping':
          // The service worker's keepalive: traffic under 30 s keeps it from being stopped.
          ws.send(serializeFrame({ type: 'pong', t: frame.t }));
          return;
        case 'response':
        case 'event':
        case 'unpair':
          if (ws === this.#active) this.#events.frame(frame);
          return;
        case 'error':
          this.#log.warn(`the extension reports: ${frame.error.message}`);
          return;
        case 'hello':
        case 'auth':
        case 'pair_start':
        case 'pair_confirm':
          // The handshake is over; a late handshake frame changes nothing.
          return;
      }
    };

    ws.on('close', (code, reason) => {
      clearTimeout(helloTimer);
      clearInterval(heartbeat);
      endPendingPairing();
      if (ws !== this.#active) return;
      this.#active = undefined;
      this.#activePairing = undefined;
      const why = reason.toString() || `code ${code}`;
      this.#log.info(`extension disconnected: ${why}`);
      this.#events.disconnected(why);
    });
    ws.on('error', (err) => this.#log.warn(`extension socket: ${err.message}`));
  }
}

function peerKey(remotePort: number | undefined): string {
  const uid = process.getuid?.();
  // checkPeerUid let the peer in, so where the OS can tell it is our own user.
  return remotePort === undefined || uid === undefined ? 'peer' : `uid:${uid}`;
}

/** Each key's limiter; keys are OS users, so the map stays as small as the machine's users. */
function limiterFor(limiters: Map<string, RateLimiter>, key: string): RateLimiter {
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = new RateLimiter(UPGRADES_PER_WINDOW, RATE_WINDOW_MS);
    limiters.set(key, limiter);
  }
  return limiter;
}

function rawBytes(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return data;
}
