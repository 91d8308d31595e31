/**
 * The relay: holds the WebSocket to the daemon (ws://127.0.0.1:<port>) and the runtime port to
 * the service worker, and passes frames between them.
 *
 * Handshake: on open, send `hello` (role extension, protocol version); only after the daemon's
 * `welcome` does the link count as connected. Reconnects with capped backoff forever: the daemon
 * may start later than the browser, or restart.
 * Invariant: a request whose worker dies before answering still gets one response (an error),
 * so the daemon never waits out its timeout for a call that can no longer finish.
 */
import {
  ErrorCode,
  PROTOCOL_VERSION,
  parseFrame,
  serializeFrame,
  stampHop,
  type Frame,
  type RequestFrame,
  type ResponseFrame,
} from '@browser-agent/protocol';
import { RELAY_PORT_NAME } from '../shared/messages';

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 2000;
/** Under the worker's 30 s idle limit, so an idle but connected worker is not stopped. */
const WORKER_KEEPALIVE_MS = 20_000;

export type LinkState = 'connecting' | 'connected' | 'disconnected';

export interface RelayObserver {
  state(state: LinkState, detail: string): void;
  request(frame: RequestFrame): void;
  response(frame: ResponseFrame): void;
  session(frame: Extract<Frame, { type: 'session_start' | 'session_end' }>): void;
}

export class RelayClient {
  readonly #url: string;
  readonly #observer: RelayObserver;
  #ws: WebSocket | undefined;
  #port: chrome.runtime.Port | undefined;
  #backoffMs = RECONNECT_MIN_MS;
  readonly #inFlight = new Map<string, RequestFrame>();

  constructor(port: number, observer: RelayObserver) {
    this.#url = `ws://127.0.0.1:${port}`;
    this.#observer = observer;
    setInterval(() => this.#toWorker({ type: 'ping', t: Date.now() }), WORKER_KEEPALIVE_MS);
  }

  start(): void {
    this.#observer.state('connecting', `Connecting to the bridge at ${this.#url}…`);
    const ws = new WebSocket(this.#url);
    this.#ws = ws;
    ws.onopen = () => {
      const version = chrome.runtime.getManifest().version;
      this.#send({
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        role: 'extension',
        client: { name: 'Browser Agent extension', version },
      });
    };
    ws.onmessage = (ev) => this.#fromDaemon(typeof ev.data === 'string' ? ev.data : '');
    ws.onclose = (ev) => {
      if (this.#ws !== ws) return;
      this.#ws = undefined;
      const why =
        ev.reason || 'the bridge is not running (start an MCP client, or run browser-agent-mcp)';
      this.#observer.state('disconnected', `Not connected: ${why}. Retrying…`);
      setTimeout(() => this.start(), this.#backoffMs);
      this.#backoffMs = Math.min(this.#backoffMs * 2, RECONNECT_MAX_MS);
    };
  }

  #fromDaemon(text: string): void {
    const parsed = parseFrame(text);
    if (!parsed.ok) {
      this.#send({ type: 'error', error: parsed.error });
      return;
    }
    const frame = parsed.frame;
    switch (frame.type) {
      case 'welcome':
        this.#backoffMs = RECONNECT_MIN_MS;
        this.#observer.state('connected', `Connected to the bridge at ${this.#url}.`);
        return;
      case 'request':
        this.#inFlight.set(frame.id, frame);
        this.#observer.request(frame);
        this.#toWorker(stampHop(frame, 'relay.in'));
        return;
      case 'session_start':
      case 'session_end':
        this.#observer.session(frame);
        this.#toWorker(frame);
        return;
      case 'ping':
        this.#send({ type: 'pong', t: frame.t });
        return;
      case 'error':
        this.#observer.state(
          'disconnected',
          `${frame.error.message}${frame.error.hint ? ` ${frame.error.hint}` : ''}`,
        );
        return;
      case 'hello':
      case 'response':
      case 'event':
      case 'pong':
        return;
    }
  }

  #fromWorker(text: unknown): void {
    if (typeof text !== 'string') return;
    const parsed = parseFrame(text);
    if (!parsed.ok) return;
    const frame = parsed.frame;
    if (frame.type === 'response') {
      this.#inFlight.delete(frame.id);
      this.#observer.response(frame);
      this.#send(stampHop(frame, 'relay.back'));
    } else if (frame.type === 'event') {
      this.#send(frame);
    }
  }

  #toWorker(frame: Frame): void {
    const port = this.#workerPort();
    port.postMessage(serializeFrame(frame));
  }

  #workerPort(): chrome.runtime.Port {
    if (this.#port) return this.#port;
    const port = chrome.runtime.connect({ name: RELAY_PORT_NAME });
    port.onMessage.addListener((m: unknown) => this.#fromWorker(m));
    port.onDisconnect.addListener(() => {
      this.#port = undefined;
      this.#failInFlight();
    });
    this.#port = port;
    return port;
  }

  /** The worker stopped mid-call: its answers are lost, so say so now rather than time out. */
  #failInFlight(): void {
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
      this.#observer.response(frame);
      this.#send(frame);
    }
    this.#inFlight.clear();
  }

  #send(frame: Frame): void {
    if (this.#ws?.readyState === WebSocket.OPEN) this.#ws.send(serializeFrame(frame));
  }
}
