/**
 * Calls that arrived while the extension link was down, per server connection. Each waits for
 * the link (or its time) in ConnectionWaiters; a cancel meanwhile marks it, so it is never
 * forwarded once the link comes back.
 */
import { ConnectionWaiters } from './connectionWaiters.js';

export class CallsAwaitingLink {
  readonly #waiters = new ConnectionWaiters();
  /** Per connection: call id → true once cancelled. */
  readonly #calls = new WeakMap<object, Map<string, boolean>>();

  /** Resolves true when the call should still go ahead (it was not cancelled meanwhile). */
  async wait(conn: object, id: string, waitMs: number): Promise<boolean> {
    let waiting = this.#calls.get(conn);
    if (!waiting) this.#calls.set(conn, (waiting = new Map<string, boolean>()));
    waiting.set(id, false);
    await this.#waiters.wait(waitMs);
    const cancelled = waiting.get(id) === true;
    waiting.delete(id);
    return !cancelled;
  }

  cancel(conn: object, id: string): void {
    const waiting = this.#calls.get(conn);
    if (waiting?.has(id)) waiting.set(id, true);
  }

  /** The link is up: every waiting call goes on. */
  wakeAll(): void {
    this.#waiters.wakeAll();
  }
}
