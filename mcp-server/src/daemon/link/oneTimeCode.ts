/**
 * The daemon's one-time pairing code: minted when an unpaired extension asks, kept only in this
 * process's memory, shown to the user through the agent's NOT_PAIRED error, typed by the user
 * into the side panel. It pairs one browser, then a new one is minted; PAIRING_CODE_MAX_TRIES
 * wrong proofs also retire it, so a guesser gets that many tries per code the user was shown.
 */
import { pbkdf2, randomBytes } from 'node:crypto';
import {
  PAIRING_CODE_MAX_TRIES,
  PAIRING_CODE_PBKDF2_ITERATIONS,
  formatOneTimeCode,
} from '@browser-agent/protocol';

/** How long after an unpaired extension asked the agent keeps being told the code. */
const REQUEST_SHOWN_MS = 10 * 60_000;

export interface CodeKey {
  /** base64 salt, sent to the extension in pair_offer. */
  salt: string;
  /** PBKDF2 of the code under the salt: the HMAC key of both code proofs. */
  key: Promise<Buffer>;
  /** Which minted code this is, so a proof checked against a retired code is not counted twice. */
  generation: number;
}

export class OneTimeCode {
  #code: string | undefined;
  #current: CodeKey | undefined;
  #generation = 0;
  #wrongTries = 0;
  #requestedAt = Number.NEGATIVE_INFINITY;
  /** Told when the code to show changes (the daemon's status file, which `doctor` reads). */
  readonly #onChange: () => void;

  constructor(onChange: () => void = () => undefined) {
    this.#onChange = onChange;
  }

  /** An unpaired extension asked: from now on the agent is told the code. */
  requested(now = Date.now()): CodeKey {
    this.#requestedAt = now;
    const key = this.#key();
    this.#onChange();
    return key;
  }

  /** The code to show the user, while a pairing was asked for recently; else undefined. */
  shown(now = Date.now()): string | undefined {
    if (now - this.#requestedAt > REQUEST_SHOWN_MS) return undefined;
    this.#key();
    return this.#code;
  }

  /** A proof made with this code was wrong: after PAIRING_CODE_MAX_TRIES the code is retired. */
  wrong(generation: number): void {
    if (generation !== this.#generation) return;
    this.#wrongTries += 1;
    if (this.#wrongTries >= PAIRING_CODE_MAX_TRIES) this.#retire();
  }

  /**
   * The code paired a browser: it never pairs another, and the request it answered is over, so
   * no fresh code is shown (doctor and the agent would otherwise report the pairing as still
   * waiting for about REQUEST_SHOWN_MS). The next unpaired extension asks again.
   */
  used(generation: number): void {
    if (generation !== this.#generation) return;
    this.#requestedAt = Number.NEGATIVE_INFINITY;
    this.#retire();
  }

  #retire(): void {
    this.#code = undefined;
    this.#current = undefined;
    this.#wrongTries = 0;
    this.#onChange();
  }

  #key(): CodeKey {
    if (this.#current) return this.#current;
    this.#generation += 1;
    const code = formatOneTimeCode(randomBytes(16));
    const salt = randomBytes(16);
    this.#code = code;
    this.#current = {
      salt: salt.toString('base64'),
      generation: this.#generation,
      key: new Promise((resolve, reject) =>
        pbkdf2(code, salt, PAIRING_CODE_PBKDF2_ITERATIONS, 32, 'sha256', (err, key) =>
          err ? reject(err) : resolve(key),
        ),
      ),
    };
    return this.#current;
  }
}
