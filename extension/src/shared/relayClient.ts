/**
 * The relay: holds the WebSocket to the daemon (ws://127.0.0.1:<port>) and passes frames between
 * it and the service worker. It runs in the side panel (default) or, with "keep working when the
 * panel is closed", inside the worker itself; `WorkerLink` is the only difference.
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
import type { LinkState } from './messages';

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 2000;
/** Under the worker's 30 s idle limit: traffic on the socket keeps a worker-held link alive. */
const KEEPALIVE_MS = 20_000;

/** How frames reach the worker; its answers come back through `RelayClient.fromWorker`. */
export interface WorkerLink {
  post(frame: Frame): void;
}

export class RelayClient {
  readonly #url: string;
  readonly #link: WorkerLink;
  readonly #onState: (state: LinkState, detail: string) => void;
  #ws: WebSocket | undefined;
  #backoffMs = RECONNECT_MIN_MS;
  #stopped = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #keepalive: ReturnType<typeof setInterval>;
  readonly #inFlight = new Map<string, RequestFrame>();
  state: LinkState = 'disconnected';

  constructor(port: number, link: WorkerLink, onState: (state: LinkState, detail: string) => void) {
    this.#url = `ws://127.0.0.1:${port}`;
    this.#link = link;
    this.#onState = onState;
    this.#keepalive = setInterval(() => this.#send({ type: 'ping', t: Date.now() }), KEEPALIVE_MS);
  }

  start(): void {
    if (this.#stopped) return;
    this.#setState('connecting', `Connecting to the bridge at ${this.#url}…`);
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
      if (this.#stopped) return;
      const why =
        ev.reason || 'the bridge is not running (start an MCP client, or run browser-agent-mcp)';
      this.#setState('disconnected', `Not connected: ${why}. Retrying…`);
      this.#retryTimer = setTimeout(() => this.start(), this.#backoffMs);
      this.#backoffMs = Math.min(this.#backoffMs * 2, RECONNECT_MAX_MS);
    };
  }

  /** Closes the link for good (e.g. the worker takes it over); calls in flight fail at once. */
  stop(reason: string): void {
    this.#stopped = true;
    clearTimeout(this.#retryTimer);
    clearInterval(this.#keepalive);
    this.#ws?.close(1000, reason);
    this.#ws = undefined;
    this.#setState('disconnected', reason);
  }

  /** A frame from the worker: responses and events go to the daemon. */
  fromWorker(frame: Frame): void {
    if (frame.type === 'response') {
      this.#inFlight.delete(frame.id);
      this.#send(stampHop(frame, 'relay.back'));
    } else if (frame.type === 'event') {
      this.#send(frame);
    }
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
        this.#setState('connected', `Connected to the bridge at ${this.#url}.`);
        return;
      case 'request':
        this.#inFlight.set(frame.id, frame);
        this.#link.post(stampHop(frame, 'relay.in'));
        return;
      case 'session_start':
      case 'session_end':
        this.#link.post(frame);
        return;
      case 'ping':
        this.#send({ type: 'pong', t: frame.t });
        return;
      case 'error':
        this.#setState(
          'disconnected',
          `${frame.error.message}${frame.error.hint ? ` ${frame.error.hint}` : ''}`,
        );
        return;
      case 'hello':
      case 'register':
      case 'register_ok':
      case 'response':
      case 'event':
      case 'pong':
        return;
    }
  }

  #setState(state: LinkState, detail: string): void {
    this.state = state;
    this.#onState(state, detail);
  }

  #send(frame: Frame): void {
    if (this.#ws?.readyState === WebSocket.OPEN) this.#ws.send(serializeFrame(frame));
  }
}
