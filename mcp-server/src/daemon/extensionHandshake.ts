/**
 * The daemon's side of the extension handshake (see the header of protocol/src/frames.ts):
 * challenge-response on a shared pairing, or a first pairing by ECDH with a code the user
 * compares. Until it succeeds the connection carries nothing else.
 */
import { createECDH, createHash, randomBytes } from 'node:crypto';
import {
  PAIRING_CODE_LABEL,
  PAIRING_KDF_LABEL,
  formatPairingCode,
  proofMessage,
  type DaemonToExtensionFrame,
  type ExtensionHelloFrame,
  type ExtensionToDaemonFrame,
  type FrameOf,
} from '@browser-agent/protocol';
import { pairingId, sign, verify, type PairingStore } from './pairingStore.js';

export type HandshakeStep =
  | { kind: 'send'; frame: DaemonToExtensionFrame }
  | { kind: 'done'; pairingId: string }
  | { kind: 'fail'; reason: string }
  | { kind: 'pairing'; code: string; frame: DaemonToExtensionFrame };

type State =
  | { at: 'hello' }
  | { at: 'auth'; secret: Buffer; id: string; extensionNonce: string; daemonNonce: string }
  | { at: 'pair_start' }
  | { at: 'pair_confirm'; secret: Buffer; id: string; extensionKey: string; daemonKey: string }
  | { at: 'done' };

export class ExtensionHandshake {
  readonly #pairings: PairingStore;
  #state: State = { at: 'hello' };

  constructor(pairings: PairingStore) {
    this.#pairings = pairings;
  }

  step(frame: ExtensionToDaemonFrame): HandshakeStep {
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
          ? { kind: 'done', pairingId: state.id }
          : fail('Wrong pairing proof');
      case 'pair_start':
        return frame.type === 'pair_start' ? this.#onPairStart(frame) : fail('Expected pair_start');
      case 'pair_confirm': {
        if (frame.type !== 'pair_confirm' || frame.pairingId !== state.id)
          return fail('Expected pair_confirm');
        this.#state = { at: 'done' };
        if (
          !verify(
            state.secret,
            proofMessage.confirm(state.extensionKey, state.daemonKey),
            frame.proof,
          )
        ) {
          return fail('Wrong pairing confirmation');
        }
        this.#pairings.add(state.secret, 'Paired in the side panel');
        return { kind: 'done', pairingId: state.id };
      }
      case 'done':
        return fail('Handshake already finished');
    }
  }

  #onHello(hello: ExtensionHelloFrame): HandshakeStep {
    if (hello.role !== 'extension' || hello.nonce === undefined)
      return fail('Expected an extension hello with a nonce');
    const pairing = this.#pairings.find(hello.pairings ?? []);
    if (!pairing) {
      this.#state = { at: 'pair_start' };
      return { kind: 'send', frame: { type: 'pairing_required' } };
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
    this.#state = { at: 'pair_confirm', secret, id, extensionKey: start.publicKey, daemonKey };
    const codeBytes = createHash('sha256').update(PAIRING_CODE_LABEL).update(secret).digest();
    return {
      kind: 'pairing',
      code: formatPairingCode(codeBytes),
      frame: { type: 'pair_offer', publicKey: daemonKey, pairingId: id },
    };
  }
}

function fail(reason: string): HandshakeStep {
  return { kind: 'fail', reason };
}
