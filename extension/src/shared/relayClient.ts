/**
 * The relay: holds the WebSocket to the daemon (ws://127.0.0.1:<port>) and passes frames between
 * it and the service worker. It runs in the side panel (default) or, with "keep working when the
 * panel is closed", inside the worker itself; `WorkerLink` is the only difference.
 *
 * Handshake (relayHandshake.ts): on open, send `hello` (role extension, protocol version); only
 * after the daemon proved the pairing and sent `welcome` does the link count as connected. The
 * daemon's messages are parsed as daemon → extension frames, the worker's as worker → relay
 * frames (links.ts). Reconnects with capped backoff forever: the daemon may start later than the
 * browser, or restart.
 * Invariant: a request whose worker dies before answering still gets one response (an error),
 * so the daemon never waits out its timeout for a call that can no longer finish.
 */
import { releaseSkewNotice } from './releaseSkew.js';
import {
  ErrorCode,
  parseDaemonToExtension,
  parseWorkerToRelay,
  serializeFrame,
  responseText,
  splitResponse,
  stampHop,
  type DaemonToExtensionFrame,
  type ExtensionToDaemonFrame,
  type RelayToWorkerFrame,
  type RequestFrame,
  type ResponseFrame,
  type WorkerToRelayFrame,
} from '@browser-agent/protocol';
import type { LinkState } from './messages';
import { FORGOTTEN_KEY, forgottenPairings } from './pairings';
import { RelayHandshake, type AskPairingCode } from './relayHandshake';
import { onStorageChanged, type StorageChanges } from './storageAreas';

export type { AskPairingCode } from './relayHandshake';

/** The only frames read before the daemon has authenticated itself. */
const HANDSHAKE_FRAMES: ReadonlySet<DaemonToExtensionFrame['type']> = new Set([
  'challenge',
  'pairing_required',
  'pair_offer',
  'paired',
  'welcome',
  'error',
]);

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 2000;
/** Under the worker's 30 s idle limit: traffic on the socket keeps a worker-held link alive. */
const KEEPALIVE_MS = 20_000;

/** How frames reach the worker; its answers come back through `RelayClient.fromWorker`. */
export interface WorkerLink {
  post(frame: RelayToWorkerFrame): void;
}

export class RelayClient {
  readonly #url: string;
  readonly #link: WorkerLink;
  readonly #onState: (state: LinkState, detail: string) => void;
  readonly #handshake: RelayHandshake;
  /** Why we refused the last connection; shown instead of the generic close reason. */
  #refusal: string | undefined;
  #ws: WebSocket | undefined;
  #handshakeInbox: Promise<void> = Promise.resolve();
  #backoffMs = RECONNECT_MIN_MS;
  #stopped = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #keepalive: ReturnType<typeof setInterval>;
  readonly #inFlight = new Map<string, RequestFrame>();
  state: LinkState = 'disconnected';

  constructor(
    port: number,
    link: WorkerLink,
    onState: (state: LinkState, detail: string) => void,
    askCode?: AskPairingCode,
  ) {
    this.#url = `ws://127.0.0.1:${port}`;
    this.#link = link;
    this.#onState = onState;
    this.#handshake = new RelayHandshake(
      {
        url: this.#url,
        send: (frame) => this.#send(frame),
        setState: (state, detail) => this.#setState(state, detail),
        close: (detail) => {
          this.#refusal = detail;
          this.#setState('disconnected', detail);
          this.#ws?.close(4401, 'Authentication failed');
        },
        current: () => this.#ws,
      },
      askCode,
    );
    this.#keepalive = setInterval(() => this.#send({ type: 'ping', t: Date.now() }), KEEPALIVE_MS);
    onStorageChanged.addListener(this.#onStorage);
  }

  readonly #onStorage = (changes: StorageChanges): void => {
    if (FORGOTTEN_KEY in changes) void this.#sendForgotten();
  };

  start(): void {
    if (this.#stopped) return;
    this.#setState('connecting', `Connecting to the bridge at ${this.#url}…`);
    const ws = new WebSocket(this.#url);
    this.#ws = ws;
    this.#handshakeInbox = Promise.resolve();
    ws.onopen = () => void this.#handshake.hello();
    ws.onmessage = (ev) => {
      const text = typeof ev.data === 'string' ? ev.data : '';
      // Handshake steps await crypto; `paired` must be checked before `welcome` is looked at.
      if (this.state === 'connected') void this.#fromDaemon(text);
      else this.#handshakeInbox = this.#handshakeInbox.then(() => this.#fromDaemon(text));
    };
    ws.onclose = (ev) => {
      if (this.#ws !== ws) return;
      this.#handshake.closed(ev.code);
      this.#ws = undefined;
      if (this.#stopped) return;
      const why =
        ev.reason || 'the bridge is not running (start an MCP client, or run browser-agent-mcp)';
      const refusal = this.#refusal;
      this.#refusal = undefined;
      this.#setState('disconnected', refusal ?? `Not connected: ${why}. Retrying…`);
      this.#retryTimer = setTimeout(() => this.start(), this.#backoffMs);
      this.#backoffMs = Math.min(this.#backoffMs * 2, RECONNECT_MAX_MS);
    };
  }

  /** Closes the link for good (e.g. the worker takes it over); calls in flight fail at once. */
  stop(reason: string): void {
    this.#stopped = true;
    onStorageChanged.removeListener(this.#onStorage);
    clearTimeout(this.#retryTimer);
    clearInterval(this.#keepalive);
    this.#ws?.close(1000, reason);
    this.#ws = undefined;
    this.#setState('disconnected', reason);
  }

  /** The user forgot a pairing in the panel: the daemon forgets its half too. */
  unpair(pairingId: string): void {
    if (this.state === 'connected') this.#send({ type: 'unpair', pairingId });
  }

  /**
   * Every pairing forgotten in the panel, sent over this link whoever holds it: the panel may
   * be closed or not hold the link (the worker does), or no link may be up when the user
   * clicks Forget. Called on every `welcome` and whenever the list changes.
   */
  async #sendForgotten(): Promise<void> {
    if (this.state !== 'connected') return;
    for (const pairingId of await forgottenPairings()) this.unpair(pairingId);
  }

  /** A frame from the worker: responses and events go to the daemon; a pong answered the panel. */
  fromWorker(frame: WorkerToRelayFrame): void {
    if (frame.type === 'response') {
      this.#inFlight.delete(frame.id);
      // The payload (a snapshot, a screenshot) is serialized before the stamp, so relay.back →
      // daemon.back is the way through the browser alone, and the serializing counts here.
      const { payload, ...envelope } = frame;
      const payloadText = JSON.stringify(payload);
      this.#sendText(responseText(stampHop(envelope, 'relay.back'), payloadText));
    } else if (frame.type === 'event' && this.state === 'connected') {
      // Before the handshake ends the daemon takes no other frame (a tab report would end it).
      this.#send(frame);
    }
  }

  /** A frame's text from the worker (panel-held link): a result passes on without being parsed. */
  fromWorkerText(text: string): void {
    const split = splitResponse(text);
    if (!split) {
      const parsed = parseWorkerToRelay(text);
      if (parsed.ok) this.fromWorker(parsed.frame);
      return;
    }
    this.#inFlight.delete(split.header.id);
    this.#sendText(responseText(stampHop(split.header, 'relay.back'), split.payloadText));
  }

  /** The worker stopped mid-call: its answers are lost, so say so now rather than time out. */
  workerGone(): void {
    for (const req of this.#inFlight.values()) {
      const frame: ResponseFrame = {
        type: 'response',
        id: req.id,
        sessionId: req.sessionId,
        payload: {
          success: false,
          error: {
            code: ErrorCode.DEBUGGER_DETACHED,
            message: `The extension's service worker restarted during ${req.action}; the call's result is lost.`,
            hint: 'Retry the call; take a new browser_snapshot first if it used a ref.',
          },
        },
      };
      this.#send(frame);
    }
    this.#inFlight.clear();
  }

  async #fromDaemon(text: string): Promise<void> {
    // Only what the daemon may send parses here; anything else is answered as malformed.
    const parsed = parseDaemonToExtension(text);
    if (!parsed.ok) {
      this.#send({ type: 'error', error: parsed.error });
      return;
    }
    const frame = parsed.frame;
    // Until the daemon has proven the pairing, nothing it sends is acted on.
    if (this.state !== 'connected' && !HANDSHAKE_FRAMES.has(frame.type)) return;
    switch (frame.type) {
      case 'challenge':
      case 'pairing_required':
      case 'pair_offer':
      case 'paired':
        await this.#handshake.onFrame(frame);
        return;
      case 'welcome':
        if (!this.#handshake.verified) {
          this.#handshake.refuse(
            `The program on ${this.#url} skipped authentication, so it gets no access. Retrying…`,
          );
          return;
        }
        this.#backoffMs = RECONNECT_MIN_MS;
        {
          const skew = releaseSkewNotice(frame.release, chrome.runtime.getManifest().version);
          this.#setState(
            'connected',
            `Connected to the bridge at ${this.#url}.${skew === undefined ? '' : ` ${skew}`}`,
          );
        }
        await this.#sendForgotten();
        return;
      case 'request':
        this.#inFlight.set(frame.id, frame);
        this.#link.post(stampHop(frame, 'relay.in'));
        return;
      case 'cancel':
        this.#inFlight.delete(frame.id);
        this.#link.post(frame);
        return;
      case 'session_start':
      case 'session_end':
      case 'approval_answer':
        this.#link.post(frame);
        return;
      case 'error': {
        const text = `${frame.error.message}${frame.error.hint ? ` ${frame.error.hint}` : ''}`;
        // Before the handshake ends, an error is why the daemon closes the link (a version
        // skew, say): it stays on show past the close instead of a bare "Not connected".
        if (!this.#handshake.verified) this.#refusal = text;
        this.#setState('disconnected', text);
        return;
      }
      case 'pong':
        return;
    }
  }

  #setState(state: LinkState, detail: string): void {
    this.state = state;
    this.#onState(state, detail);
  }

  #send(frame: ExtensionToDaemonFrame): void {
    this.#sendText(serializeFrame(frame));
  }

  #sendText(text: string): void {
    if (this.#ws?.readyState === WebSocket.OPEN) this.#ws.send(text);
  }
}
