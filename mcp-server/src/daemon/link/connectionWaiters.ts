/**
 * Calls waiting for the extension link, each for at most its own timeout. A waiter whose
 * timeout ran out leaves the set at once: otherwise every call made while the extension is
 * away would keep its closure until the link came back, which may be never.
 */
export class ConnectionWaiters {
  readonly #waiters = new Set<() => void>();

  get size(): number {
    return this.#waiters.size;
  }

  /** Resolves when wakeAll runs or after timeoutMs, whichever comes first. */
  wait(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, timeoutMs);
      this.#waiters.add(wake);
    });
  }

  wakeAll(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}
