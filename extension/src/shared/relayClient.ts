/**
 * The relay: holds the WebSocket to the daemon (ws://127.0.0.1:<port>) and passes frames between
 * it and the service worker. It runs in the side panel (default) or, with "keep working when the
 * panel is closed", inside the worker itself; `WorkerLink` is the only difference.
 *
 * Handshake: on open, send `hello` (role extension, protocol version); only after the daemon's
 * `welcome` does the link count as connected. The daemon's messages are parsed as daemon →
 * extension frames, the worker's as worker → relay frames (links.ts). Reconnects with capped backoff forever: the daemon
 * may start later than the browser, or restart.
 * Invariant: a request whose worker dies before answering still gets one response (an error),
 * so the daemon never waits out its timeout for a call that can no longer finish.
 */
import { releaseSkewNotice } from './releaseSkew.js';
import { BUILD_ID } from './buildId.js';
import {
  ErrorCode,
  PROTOCOL_VERSION,
  parseDaemonToExtension,
  parseWorkerToRelay,
  serializeFrame,
  codeProofMessage,
  proofMessage,
  responseText,
  splitResponse,
  stampHop,
  type DaemonToExtensionFrame,
  type ExtensionToDaemonFrame,
  type FrameOf,
  type RelayToWorkerFrame,
  type RequestFrame,
  type ResponseFrame,
  type WorkerToRelayFrame,
} from '@browser-agent/protocol';
import type { LinkState } from './messages';
import {
  derivePairing,
  newEcdhKey,
  newNonce,
  oneTimeCodeKey,
  pairingIdOf,
  sign,
  verify,
} from './pairingCrypto';
import {
  FORGOTTEN_KEY,
  forgottenPairings,
  loadPairings,
  savePairing,
  type StoredPairing,
} from './pairings';

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

/**
 * Asks the user to type the bridge's one-time pairing code (undefined: they declined); absent
 * where no one can see. `problem` says why it asks again (a wrong code).
 */
export type AskPairingCode = (problem?: string) => Promise<string | undefined>;

type Handshake =
  | { at: 'hello'; nonce: string; pairings: StoredPairing[] }
  | { at: 'pairing'; key: Awaited<ReturnType<typeof newEcdhKey>>; code: string }
  | {
      at: 'confirming';
      secret: string;
      codeKey: string;
      extensionKey: string;
      daemonKey: string;
      pairingId: string;
    }
  | { at: 'done' };

export class RelayClient {
  readonly #url: string;
  readonly #link: WorkerLink;
  readonly #onState: (state: LinkState, detail: string) => void;
  readonly #askCode: AskPairingCode | undefined;
  /** Why the last pairing failed, told to the user when the form asks again. */
  #pairingProblem: string | undefined;
  /** The user said "Not now": this panel asks no more. */
  #declined = false;
  #handshake: Handshake = { at: 'done' };
  /** True once this connection's daemon proved the pairing (challenge or confirmed pairing). */
  #verified = false;
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
    this.#askCode = askCode;
    this.#keepalive = setInterval(() => this.#send({ type: 'ping', t: Date.now() }), KEEPALIVE_MS);
    chrome.storage.onChanged.addListener(this.#onStorage);
  }

  readonly #onStorage = (changes: Record<string, chrome.storage.StorageChange>): void => {
    if (FORGOTTEN_KEY in changes) void this.#sendForgotten();
  };

  start(): void {
    if (this.#stopped) return;
    this.#setState('connecting', `Connecting to the bridge at ${this.#url}…`);
    const ws = new WebSocket(this.#url);
    this.#ws = ws;
    this.#handshakeInbox = Promise.resolve();
    ws.onopen = () => void this.#hello();
    ws.onmessage = (ev) => {
      const text = typeof ev.data === 'string' ? ev.data : '';
      // Handshake steps await crypto; `paired` must be checked before `welcome` is looked at.
      if (this.state === 'connected') void this.#fromDaemon(text);
      else this.#handshakeInbox = this.#handshakeInbox.then(() => this.#fromDaemon(text));
    };
    ws.onclose = (ev) => {
      if (this.#ws !== ws) return;
      if (this.#handshake.at === 'confirming' && ev.code === 4401)
        this.#pairingProblem =
          'The bridge did not accept that code. Ask your agent for the current code (three wrong tries replace it) and type it again.';
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
    chrome.storage.onChanged.removeListener(this.#onStorage);
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

  async #hello(): Promise<void> {
    this.#verified = false;
    const nonce = newNonce();
    const pairings = await loadPairings();
    this.#handshake = { at: 'hello', nonce, pairings };
    const version = chrome.runtime.getManifest().version;
    this.#send({
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION,
      role: 'extension',
      client: { name: 'Browser Agent extension', version },
      build: BUILD_ID,
      nonce,
      pairings: pairings.map((p) => p.id),
    });
  }

  /** Refuses the link: whatever is on the port has not proven it is our paired daemon. */
  #refuse(detail: string): void {
    this.#handshake = { at: 'done' };
    this.#refusal = detail;
    this.#setState('disconnected', detail);
    this.#ws?.close(4401, 'Authentication failed');
  }

  async #onChallenge(frame: FrameOf<'challenge'>): Promise<void> {
    const hs = this.#handshake;
    const pairing =
      hs.at === 'hello' ? hs.pairings.find((p) => p.id === frame.pairingId) : undefined;
    if (
      hs.at !== 'hello' ||
      !pairing ||
      !(await verify(pairing.secret, proofMessage.daemon(hs.nonce, frame.nonce), frame.proof))
    ) {
      this.#refuse(
        `The program on ${this.#url} could not prove it is your paired Browser Agent bridge, so it gets no access. Retrying…`,
      );
      return;
    }
    this.#handshake = { at: 'done' };
    this.#verified = true;
    this.#send({
      type: 'auth',
      proof: await sign(pairing.secret, proofMessage.extension(frame.nonce, hs.nonce)),
    });
  }

  async #onPairingRequired(): Promise<void> {
    if (this.#declined) {
      this.#refuse('Pairing declined. Reopen this panel to pair.');
      return;
    }
    if (!this.#askCode) {
      this.#refuse(
        'This browser is not paired with the bridge yet: open the Browser Agent side panel to pair.',
      );
      return;
    }
    this.#setState(
      'connecting',
      'Not paired yet: type the pairing code your agent reports into the form above.',
    );
    const problem = this.#pairingProblem;
    this.#pairingProblem = undefined;
    const ws = this.#ws;
    const code = await this.#askCode(problem);
    // The connection may have timed out while the user typed; the next one asks the same form.
    if (this.#ws !== ws) return;
    if (code === undefined) {
      this.#declined = true;
      this.#refuse('Pairing declined. Reopen this panel to pair.');
      return;
    }
    const key = await newEcdhKey();
    this.#handshake = { at: 'pairing', key, code };
    this.#setState('connecting', 'Pairing with the bridge…');
    this.#send({ type: 'pair_start', publicKey: key.publicKey });
  }

  async #onPairOffer(frame: FrameOf<'pair_offer'>): Promise<void> {
    const hs = this.#handshake;
    if (hs.at !== 'pairing' || frame.codeSalt === undefined) {
      this.#refuse('Pairing failed: the bridge offered no code salt (is it an older version?).');
      return;
    }
    const secret = await derivePairing(hs.key, frame.publicKey);
    if ((await pairingIdOf(secret)) !== frame.pairingId) {
      this.#refuse('Pairing failed: the bridge and this browser did not agree on a key.');
      return;
    }
    const codeKey = await oneTimeCodeKey(hs.code, frame.codeSalt);
    const extensionKey = hs.key.publicKey;
    // We prove the code first; the daemon's proof comes back in `paired` and must check out
    // before anything is stored or obeyed (a program on the port that lacks the code fails here).
    this.#handshake = {
      at: 'confirming',
      secret,
      codeKey,
      extensionKey,
      daemonKey: frame.publicKey,
      pairingId: frame.pairingId,
    };
    this.#send({
      type: 'pair_confirm',
      pairingId: frame.pairingId,
      proof: await sign(
        codeKey,
        codeProofMessage.extension(extensionKey, frame.publicKey, frame.pairingId),
      ),
    });
  }

  async #onPaired(frame: FrameOf<'paired'>): Promise<void> {
    const hs = this.#handshake;
    if (
      hs.at !== 'confirming' ||
      frame.pairingId !== hs.pairingId ||
      frame.proof === undefined ||
      !(await verify(
        hs.codeKey,
        codeProofMessage.daemon(hs.extensionKey, hs.daemonKey, hs.pairingId),
        frame.proof,
      ))
    ) {
      this.#refuse(
        `The program on ${this.#url} could not prove it knows the pairing code, so it gets no access.`,
      );
      return;
    }
    await savePairing(hs.secret, 'Paired in the side panel');
    this.#handshake = { at: 'done' };
    this.#verified = true;
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
        await this.#onChallenge(frame);
        return;
      case 'pairing_required':
        await this.#onPairingRequired();
        return;
      case 'pair_offer':
        await this.#onPairOffer(frame);
        return;
      case 'paired':
        await this.#onPaired(frame);
        return;
      case 'welcome':
        if (!this.#verified) {
          this.#refuse(
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
        if (!this.#verified) this.#refusal = text;
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
