/**
 * The daemon's side of the extension handshake (see the header of protocol/src/frames.ts):
 * challenge-response on a shared pairing, or a first pairing by ECDH authenticated with the
 * daemon's one-time code (oneTimeCode.ts), which only the user can carry into the side panel.
 * The extension proves the code first; the daemon's own proof goes out only after that check, so
 * a fake extension learns nothing derived from the code. Until it succeeds the connection carries
 * nothing else. In launch mode only the pairing minted for the launched browser is accepted.
 */
import { createECDH, createHash, randomBytes } from 'node:crypto';
import {
  PAIRING_KDF_LABEL,
  codeProofMessage,
  proofMessage,
  type DaemonToExtensionFrame,
  type ExtensionHelloFrame,
  type ExtensionToDaemonFrame,
  type FrameOf,
} from '@browser-agent/protocol';
import { pairingId, sign, verify, type Pairing, type PairingStore } from './pairingStore.js';
import type { CodeKey, OneTimeCode } from './oneTimeCode.js';

export type HandshakeStep =
  | { kind: 'send'; frame: DaemonToExtensionFrame }
  | { kind: 'done'; pairingId: string; frames: DaemonToExtensionFrame[] }
  | { kind: 'fail'; reason: string }
  /** An unpaired extension: the connection may now wait for the user to type the code. */
  | { kind: 'pairing'; frame: DaemonToExtensionFrame };

/** What the handshake may accept: the stored pairings, the one-time code, the launched browser's. */
export interface HandshakeAuthority {
  pairings: PairingStore;
  code: OneTimeCode;
  /** Set in launch mode: then this is the only pairing accepted, and nothing new pairs. */
  launched(): Pairing | undefined;
  /** The MCP clients connected now, named to the user asked for the code (pairing_required). */
  clients?(): string[];
}

type State =
  | { at: 'hello' }
  | { at: 'auth'; secret: Buffer; id: string; extensionNonce: string; daemonNonce: string }
  | { at: 'pair_start' }
  | {
      at: 'pair_confirm';
      secret: Buffer;
      id: string;
      extensionKey: string;
      daemonKey: string;
      code: CodeKey;
    }
  | { at: 'done' };

export class ExtensionHandshake {
  readonly #authority: HandshakeAuthority;
  #state: State = { at: 'hello' };

  constructor(authority: HandshakeAuthority) {
    this.#authority = authority;
  }

  async step(frame: ExtensionToDaemonFrame): Promise<HandshakeStep> {
    const state = this.#state;
    switch (state.at) {
      case 'hello':
        return frame.type === 'hello' ? this.#onHello(frame) : fail('Expected hello');
      case 'auth':
        if (frame.type !== 'auth') return fail('Expected auth');
        this.#state = { at: 'done' };
        return verify(
          state.secret,
          proofMessage.extension(state.daemonNonce, state.extensionNonce),
          frame.proof,
        )
          ? { kind: 'done', pairingId: state.id, frames: [] }
          : fail('Wrong pairing proof');
      case 'pair_start':
        return frame.type === 'pair_start' ? this.#onPairStart(frame) : fail('Expected pair_start');
      case 'pair_confirm':
        if (frame.type !== 'pair_confirm' || frame.pairingId !== state.id)
          return fail('Expected pair_confirm');
        this.#state = { at: 'done' };
        return this.#onPairConfirm(state, frame);
      case 'done':
        return fail('Handshake already finished');
    }
  }

  #onHello(hello: ExtensionHelloFrame): HandshakeStep {
    if (hello.role !== 'extension' || hello.nonce === undefined)
      return fail('Expected an extension hello with a nonce');
    const launched = this.#authority.launched();
    const pairing = launched
      ? hello.pairings?.includes(launched.id)
        ? launched
        : undefined
      : this.#authority.pairings.find(hello.pairings ?? []);
    if (!pairing) {
      if (launched) return fail('This bridge serves only the browser it launched');
      this.#state = { at: 'pair_start' };
      const clients = this.#authority.clients?.() ?? [];
      return {
        kind: 'pairing',
        frame: { type: 'pairing_required', ...(clients.length > 0 ? { clients } : {}) },
      };
    }
    const secret = Buffer.from(pairing.secret, 'base64');
    const daemonNonce = randomBytes(24).toString('base64');
    this.#state = { at: 'auth', secret, id: pairing.id, extensionNonce: hello.nonce, daemonNonce };
    const proof = sign(secret, proofMessage.daemon(hello.nonce, daemonNonce));
    return {
      kind: 'send',
      frame: { type: 'challenge', pairingId: pairing.id, nonce: daemonNonce, proof },
    };
  }

  #onPairStart(start: FrameOf<'pair_start'>): HandshakeStep {
    const ecdh = createECDH('prime256v1');
    const daemonKey = ecdh.generateKeys('base64');
    let shared: Buffer;
    try {
      shared = ecdh.computeSecret(Buffer.from(start.publicKey, 'base64'));
    } catch {
      return fail('Bad public key');
    }
    const secret = createHash('sha256')
      .update(PAIRING_KDF_LABEL)
      .update(shared)
      .update(start.publicKey)
      .update(daemonKey)
      .digest();
    const id = pairingId(secret);
    const code = this.#authority.code.requested();
    this.#state = {
      at: 'pair_confirm',
      secret,
      id,
      extensionKey: start.publicKey,
      daemonKey,
      code,
    };
    return {
      kind: 'send',
      frame: { type: 'pair_offer', publicKey: daemonKey, pairingId: id, codeSalt: code.salt },
    };
  }

  async #onPairConfirm(
    state: Extract<State, { at: 'pair_confirm' }>,
    frame: FrameOf<'pair_confirm'>,
  ): Promise<HandshakeStep> {
    const codeKey = await state.code.key;
    const { extensionKey, daemonKey, id } = state;
    if (!verify(codeKey, codeProofMessage.extension(extensionKey, daemonKey, id), frame.proof)) {
      this.#authority.code.wrong(state.code.generation);
      return fail('Wrong pairing code');
    }
    this.#authority.code.used(state.code.generation);
    this.#authority.pairings.add(state.secret, 'Paired in the side panel');
    const proof = sign(codeKey, codeProofMessage.daemon(extensionKey, daemonKey, id));
    return { kind: 'done', pairingId: id, frames: [{ type: 'paired', pairingId: id, proof }] };
  }
}

function fail(reason: string): HandshakeStep {
  return { kind: 'fail', reason };
}
