import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { JsonFile, hasStrings } from '../jsonFile.js';

export interface Pairing {
  id: string;
  /** base64 of the 32-byte secret K. */
  secret: string;
  label: string;
  createdAt: string;
}

/**
 * Most pairings a daemon keeps; the oldest go first. Only the user's acts add one (a code typed
 * into the side panel, or provisionPairing by whoever owns the state directory); launched
 * browsers get theirs in memory only, so they never push a real pairing out.
 */
const MAX_PAIRINGS = 20;

/**
 * The daemon's half of every pairing, in `<state dir>/pairings.json`, readable by the user only
 * (0600, inside the 0700 state directory). Whoever holds a secret can drive the browser.
 */
export class PairingStore {
  readonly #file: JsonFile<Pairing>;

  constructor(stateDir: string) {
    this.#file = new JsonFile(join(stateDir, 'pairings.json'), isPairing);
  }

  all(): Pairing[] {
    return this.#file.read();
  }

  find(ids: readonly string[]): Pairing | undefined {
    const all = this.all();
    return ids.map((id) => all.find((p) => p.id === id)).find((p) => p !== undefined);
  }

  add(secret: Buffer, label: string): Pairing {
    const pairing: Pairing = {
      id: pairingId(secret),
      secret: secret.toString('base64'),
      label,
      createdAt: new Date().toISOString(),
    };
    this.#file.write(
      [...this.all().filter((p) => p.id !== pairing.id), pairing].slice(-MAX_PAIRINGS),
    );
    return pairing;
  }

  /** A fresh stored pairing (provisionPairing: the state directory's owner vouches for it). */
  mint(label: string): Pairing {
    return this.add(randomBytes(32), label);
  }

  /** Forgets a pairing; true when it was there. Its browser has to pair again. */
  remove(id: string): boolean {
    const all = this.all();
    const kept = all.filter((p) => p.id !== id);
    if (kept.length === all.length) return false;
    this.#file.write(kept);
    return true;
  }

  /** The file this store lives in (the daemon watches it for revocations made by the CLI). */
  get path(): string {
    return this.#file.path;
  }
}

/**
 * The pairing of a browser the daemon launches: minted for it, handed over the private debugging
 * pipe, and kept only in the daemon's memory, so it dies with the daemon and fills no store.
 */
export function ephemeralPairing(label: string): Pairing {
  const secret = randomBytes(32);
  return {
    id: pairingId(secret),
    secret: secret.toString('base64'),
    label,
    createdAt: new Date().toISOString(),
  };
}

function isPairing(entry: unknown): entry is Pairing {
  return hasStrings(entry, 'id', 'secret');
}

/**
 * The URL fragment that hands a browser its half of a pairing. A fragment never leaves the
 * browser; the relay page stores the secret and removes it from the address.
 */
export function pairingFragment(pairing: Pairing): string {
  return `#pair=${pairing.id}.${pairing.secret}`;
}

/**
 * Pairs a browser that its starter opens the relay page in (the e2e harness, the bench soak),
 * the way launch mode does: a fresh pairing in `<stateDir>/pairings.json`, and the fragment for
 * the relay page's URL.
 */
export function provisionPairing(stateDir: string, label: string): string {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  return pairingFragment(new PairingStore(stateDir).mint(label));
}

/** A public name for a secret: lets each side find the right K without revealing it. */
export function pairingId(secret: Buffer): string {
  return createHash('sha256')
    .update('browser-agent-pairing-id|')
    .update(secret)
    .digest('base64url')
    .slice(0, 16);
}

export function sign(secret: Buffer, message: string): string {
  return createHmac('sha256', secret).update(message).digest('base64');
}

export function verify(secret: Buffer, message: string, proof: string): boolean {
  const expected = Buffer.from(sign(secret, message), 'base64');
  const given = Buffer.from(proof, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
