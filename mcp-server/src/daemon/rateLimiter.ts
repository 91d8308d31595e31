/** A sliding-window counter: at most `limit` events per `windowMs`. */
export class RateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  #events: number[] = [];

  constructor(limit: number, windowMs: number) {
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  allow(now: number = Date.now()): boolean {
    this.#events = this.#events.filter((t) => now - t < this.#windowMs);
    if (this.#events.length >= this.#limit) return false;
    this.#events.push(now);
    return true;
  }

  /** A failed handshake weighs more than an attempt, so guessing is slowed down further. */
  penalize(now: number = Date.now()): void {
    for (let i = 0; i < 5; i++) this.#events.push(now);
  }
}
