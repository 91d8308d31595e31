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

/**
 * The same client, with every command it sends counted on clock. Once signal is aborted (the
 * call was cancelled or timed out) no command is sent any more and those in flight fail with the
 * abort's reason: a loop of commands (typing slowly, a pointer path, polling) stops at its next
 * step without the handler having to look.
 */
export function timedClient(cdp: CdpClient, clock: BusyClock, signal?: AbortSignal): CdpClient {
  return {
    send: <M extends CdpCommand>(method: M, params?: CdpParams<M>, sessionId?: string) => {
      if (signal === undefined)
        return clock.time<CdpReturn<M>>(cdp.send(method, params, sessionId));
      if (signal.aborted) return Promise.reject(toError(signal.reason));
      return clock.time<CdpReturn<M>>(abortable(cdp.send(method, params, sessionId), signal));
    },
    on: (event, listener) => cdp.on(event, listener),
  };
}

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(toError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function toError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
