/**
 * The relay's half of the handshake with the daemon (relayClient.ts holds the socket). On open
 * it sends `hello` with the ids of the stored pairings; then either the daemon proves a stored
 * pairing (`challenge`, answered with `auth`), or it asks to pair (`pairing_required`): the user
 * types the one-time code, both sides derive a key (`pair_start` / `pair_offer`), the relay
 * proves the code first (`pair_confirm`) and the daemon's proof in `paired` must check out
 * before anything is stored.
 * Invariant: `verified` is true only once this connection's daemon proved the pairing; until
 * then the relay obeys nothing it sends.
 */
import {
  codeProofMessage,
  PROTOCOL_VERSION,
  proofMessage,
  type ExtensionToDaemonFrame,
  type FrameOf,
} from '@browser-agent/protocol';
import type { LinkState } from './messages';
import { BUILD_ID } from './buildId.js';
import {
  derivePairing,
  newEcdhKey,
  newNonce,
  oneTimeCodeKey,
  pairingIdOf,
  sign,
  verify,
} from './pairingCrypto';
import { loadPairings, savePairing, type StoredPairing } from './pairings';

/**
 * Asks the user to type the bridge's one-time pairing code (undefined: they declined); absent
 * where no one can see. `problem` says why it asks again (a wrong code).
 */
export type AskPairingCode = (
  problem?: string,
  /** The MCP clients the bridge has connected now; undefined when it does not say. */
  clients?: string[],
) => Promise<string | undefined>;

/** What the handshake needs of the relay's connection. */
export interface HandshakeLink {
  /** The daemon's address, for messages to the user. */
  readonly url: string;
  send(frame: ExtensionToDaemonFrame): void;
  setState(state: LinkState, detail: string): void;
  /** Closes the connection as unauthenticated, showing `detail` instead of the close reason. */
  close(detail: string): void;
  /** The connection now open; a different one means the one the handshake began on is gone. */
  current(): unknown;
}

type Step =
  | { at: 'hello'; nonce: string; pairings: StoredPairing[] }
  | { at: 'pairing'; key: Awaited<ReturnType<typeof newEcdhKey>>; code: string }
  | {
      at: 'confirming';
      secret: string;
      codeKey: string;
      extensionKey: string;
      daemonKey: string;
      pairingId: string;
      /** The code the user typed, named when the bridge refuses it. */
      code: string;
    }
  | { at: 'done' };

export type HandshakeFrame = FrameOf<'challenge' | 'pairing_required' | 'pair_offer' | 'paired'>;

export class RelayHandshake {
  readonly #link: HandshakeLink;
  readonly #askCode: AskPairingCode | undefined;
  /** Why the last pairing failed, told to the user when the form asks again. */
  #pairingProblem: string | undefined;
  /** The user said "Not now": this panel asks no more. */
  #declined = false;
  #step: Step = { at: 'done' };
  #verified = false;

  constructor(link: HandshakeLink, askCode?: AskPairingCode) {
    this.#link = link;
    this.#askCode = askCode;
  }

  /** True once this connection's daemon proved the pairing (challenge or confirmed pairing). */
  get verified(): boolean {
    return this.#verified;
  }

  /**
   * The connection closed; a close with 4401 while confirming means the code was wrong. The
   * message names the code typed, so a second wrong code reads as a new refusal, not an old one.
   */
  closed(code: number): void {
    const hs = this.#step;
    if (hs.at !== 'confirming' && hs.at !== 'pairing') return;
    this.#step = { at: 'done' };
    this.#pairingProblem =
      hs.at === 'confirming' && code === 4401
        ? `The bridge did not accept ${hs.code}. Ask your agent for the current code (three wrong tries replace it) and type it again.`
        : `The link to the bridge closed before ${hs.code} was checked. Type the code again.`;
  }

  async hello(): Promise<void> {
    this.#verified = false;
    const nonce = newNonce();
    const pairings = await loadPairings();
    this.#step = { at: 'hello', nonce, pairings };
    const version = chrome.runtime.getManifest().version;
    this.#link.send({
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
  refuse(detail: string): void {
    // A refusal while pairing is the answer to the code the user typed: the form that asks again
    // after the reconnect says it (the status line it was shown in is replaced 250 ms later).
    if (this.#step.at === 'pairing' || this.#step.at === 'confirming')
      this.#pairingProblem = detail;
    this.#step = { at: 'done' };
    this.#link.close(detail);
  }

  async onFrame(frame: HandshakeFrame): Promise<void> {
    switch (frame.type) {
      case 'challenge':
        await this.#onChallenge(frame);
        return;
      case 'pairing_required':
        await this.#onPairingRequired(frame.clients);
        return;
      case 'pair_offer':
        await this.#onPairOffer(frame);
        return;
      case 'paired':
        await this.#onPaired(frame);
        return;
    }
  }

  async #onChallenge(frame: FrameOf<'challenge'>): Promise<void> {
    const hs = this.#step;
    const pairing =
      hs.at === 'hello' ? hs.pairings.find((p) => p.id === frame.pairingId) : undefined;
    if (
      hs.at !== 'hello' ||
      !pairing ||
      !(await verify(pairing.secret, proofMessage.daemon(hs.nonce, frame.nonce), frame.proof))
    ) {
      this.refuse(
        `The program on ${this.#link.url} could not prove it is your paired Browser Agent bridge, so it gets no access. Retrying…`,
      );
      return;
    }
    this.#step = { at: 'done' };
    this.#verified = true;
    this.#link.send({
      type: 'auth',
      proof: await sign(pairing.secret, proofMessage.extension(frame.nonce, hs.nonce)),
    });
  }

  async #onPairingRequired(clients: string[] | undefined): Promise<void> {
    if (this.#declined) {
      this.refuse('Pairing declined. Reopen this panel to pair.');
      return;
    }
    if (!this.#askCode) {
      this.refuse(
        'This browser is not paired with the bridge yet: open the Browser Agent side panel to pair.',
      );
      return;
    }
    this.#link.setState(
      'connecting',
      'Not paired yet: type the pairing code your agent reports into the form above.',
    );
    const problem = this.#pairingProblem;
    this.#pairingProblem = undefined;
    const connection = this.#link.current();
    const code = await this.#askCode(problem, clients);
    // The connection may have timed out while the user typed; the next one asks the same form.
    if (this.#link.current() !== connection) return;
    if (code === undefined) {
      this.#declined = true;
      this.refuse('Pairing declined. Reopen this panel to pair.');
      return;
    }
    const key = await newEcdhKey();
    this.#step = { at: 'pairing', key, code };
    this.#link.setState('connecting', 'Pairing with the bridge…');
    this.#link.send({ type: 'pair_start', publicKey: key.publicKey });
  }

  async #onPairOffer(frame: FrameOf<'pair_offer'>): Promise<void> {
    const hs = this.#step;
    if (hs.at !== 'pairing' || frame.codeSalt === undefined) {
      this.refuse('Pairing failed: the bridge offered no code salt (is it an older version?).');
      return;
    }
    const secret = await derivePairing(hs.key, frame.publicKey);
    if ((await pairingIdOf(secret)) !== frame.pairingId) {
      this.refuse('Pairing failed: the bridge and this browser did not agree on a key.');
      return;
    }
    const codeKey = await oneTimeCodeKey(hs.code, frame.codeSalt);
    const extensionKey = hs.key.publicKey;
    // We prove the code first; the daemon's proof comes back in `paired` and must check out
    // before anything is stored or obeyed (a program on the port that lacks the code fails here).
    this.#step = {
      at: 'confirming',
      secret,
      codeKey,
      extensionKey,
      daemonKey: frame.publicKey,
      pairingId: frame.pairingId,
      code: hs.code,
    };
    this.#link.send({
      type: 'pair_confirm',
      pairingId: frame.pairingId,
      proof: await sign(
        codeKey,
        codeProofMessage.extension(extensionKey, frame.publicKey, frame.pairingId),
      ),
    });
  }

  async #onPaired(frame: FrameOf<'paired'>): Promise<void> {
    const hs = this.#step;
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
      this.refuse(
        `The program on ${this.#link.url} could not prove it knows the pairing code, so it gets no access.`,
      );
      return;
    }
    await savePairing(hs.secret, 'Paired in the side panel');
    this.#step = { at: 'done' };
    this.#verified = true;
  }
}
