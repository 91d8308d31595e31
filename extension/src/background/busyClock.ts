import type { CdpClient, CdpCommand, CdpParams, CdpReturn } from './cdp';

/**
 * The time during which at least one CDP command was in flight: the union of their intervals, so
 * commands sent in parallel count once and "total − CDP" is the bridge's own time.
 */
export class BusyClock {
  #inFlight = 0;
  #since = 0;
  #busyMs = 0;

  /** Marks a command as sent; call the returned function once it is answered. */
  begin(): () => void {
    if (this.#inFlight++ === 0) this.#since = performance.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.#inFlight === 0) this.#busyMs += performance.now() - this.#since;
    };
  }

  /** Busy time so far, counting commands still in flight up to now. */
  read(): number {
    return this.#busyMs + (this.#inFlight > 0 ? performance.now() - this.#since : 0);
  }

  /** Runs work (e.g. an attach and its setup commands) as busy time. */
  async time<T>(work: Promise<T>): Promise<T> {
    const end = this.begin();
    try {
      return await work;
    } finally {
      end();
    }
  }
}

/** The same client, with every command it sends counted on clock. */
export function timedClient(cdp: CdpClient, clock: BusyClock): CdpClient {
  return {
    send: <M extends CdpCommand>(method: M, params?: CdpParams<M>, sessionId?: string) =>
      clock.time<CdpReturn<M>>(cdp.send(method, params, sessionId)),
    on: (event, listener) => cdp.on(event, listener),
  };
}
