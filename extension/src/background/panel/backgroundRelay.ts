import type { RelayToWorkerFrame, WorkerToRelayFrame } from '@browser-agent/protocol';
import type { LinkState } from '../../shared/messages';
import { RelayClient } from '../../shared/relayClient';

/**
 * The link held by the worker itself ("keep working when the panel is closed"). The socket's
 * keepalive traffic (< 30 s apart) keeps the worker running; if Chrome stops it anyway, the
 * alarm wired in index.ts wakes it and `start` reconnects.
 */
export class BackgroundRelay {
  readonly #handle: (frame: RelayToWorkerFrame, reply: (frame: WorkerToRelayFrame) => void) => void;
  readonly #onState: (state: LinkState, detail: string) => void;
  #relay: RelayClient | undefined;
  #port: number | undefined;

  constructor(
    handle: (frame: RelayToWorkerFrame, reply: (frame: WorkerToRelayFrame) => void) => void,
    onState: (state: LinkState, detail: string) => void,
  ) {
    this.#handle = handle;
    this.#onState = onState;
  }

  get running(): boolean {
    return this.#relay !== undefined;
  }

  get state(): LinkState {
    return this.#relay?.state ?? 'disconnected';
  }

  /** A new port (a launched browser's daemon got another ephemeral one) replaces the old link. */
  start(port: number): void {
    if (this.#relay && this.#port === port) return;
    this.#relay?.stop('The bridge moved to another port.');
    this.#port = port;
    const relay: RelayClient = new RelayClient(
      port,
      { post: (frame) => this.#handle(frame, (answer) => relay.fromWorker(answer)) },
      this.#onState,
    );
    this.#relay = relay;
    relay.start();
  }

  stop(reason: string): void {
    this.#relay?.stop(reason);
    this.#relay = undefined;
  }
}
