/**
 * The calls this server has sent to the daemon and not yet had answered, by request id. Each
 * settles exactly once: with the daemon's response, this side's own deadline (the daemon's
 * timeout plus some slack), the MCP client's cancel, or the daemon going away.
 */
import {
  BridgeError,
  ErrorCode,
  hopTime,
  stampHop,
  toolResultSchema,
  type ResponseEnvelope,
  type ResponsePayload,
  type ToolName,
  type ToolResult,
} from '@browser-agent/protocol';
import type { TraceWriter } from '../outputFiles/traceWriter.js';

/** Slack over the daemon's own timeout, so the daemon's TIMEOUT answer normally wins. */
const CALLER_SLACK_MS = 5_000;

interface Waiter {
  action: ToolName;
  startedAt: number;
  resolve(result: ToolResult): void;
  reject(error: BridgeError): void;
  timer: NodeJS.Timeout;
}

export class PendingCalls {
  readonly #waiters = new Map<string, Waiter>();
  readonly #trace: TraceWriter | undefined;

  constructor(trace: TraceWriter | undefined) {
    this.#trace = trace;
  }

  /**
   * Waits for call `id`. The abort signal (an MCP cancel, the client gone) and the deadline both
   * call `cancel`, which tells the daemon, so the daemon and the extension stop the call instead
   * of finishing it for nobody while the session's next call waits behind it. `send` writes the
   * request once the waiter is in place; it gets the time the call left (for the trace).
   */
  add(
    id: string,
    action: ToolName,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    cancel: (reason: string) => void,
    send: (startedAt: number) => void,
  ): Promise<ToolResult> {
    return new Promise<ToolResult>((resolve, reject) => {
      const onAbort = (): void => {
        const waiter = this.#waiters.get(id);
        if (!waiter) return;
        this.#waiters.delete(id);
        clearTimeout(waiter.timer);
        cancel('cancelled by the MCP client');
        reject(new BridgeError(ErrorCode.CANCELLED, `${action} was cancelled.`));
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(id);
        signal?.removeEventListener('abort', onAbort);
        cancel('timed out in the MCP server');
        reject(
          BridgeError.from({
            code: ErrorCode.TIMEOUT,
            message: `${action} got no answer from the bridge daemon within ${timeoutMs + CALLER_SLACK_MS} ms.`,
          }),
        );
      }, timeoutMs + CALLER_SLACK_MS);
      const startedAt = hopTime();
      const settle =
        <T>(done: (value: T) => void) =>
        (value: T): void => {
          signal?.removeEventListener('abort', onAbort);
          done(value);
        };
      this.#waiters.set(id, {
        action,
        startedAt,
        resolve: settle(resolve),
        reject: settle(reject),
        timer,
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      send(startedAt);
    });
  }

  /** A payload that is not valid (undefined) fails its call instead of leaving it to time out. */
  settle(envelope: ResponseEnvelope, payload: ResponsePayload | undefined): void {
    const waiter = this.#waiters.get(envelope.id);
    if (!waiter) return;
    this.#waiters.delete(envelope.id);
    clearTimeout(waiter.timer);
    if (envelope.hops)
      this.#trace?.record(waiter.action, waiter.startedAt, stampHop(envelope, 'server.back'));
    if (payload && !payload.success) {
      waiter.reject(BridgeError.from(payload.error));
      return;
    }
    const result = payload ? toolResultSchema.safeParse(payload.data) : undefined;
    if (result?.success) waiter.resolve(result.data);
    else
      waiter.reject(
        BridgeError.from({
          code: ErrorCode.INTERNAL,
          message: 'The extension returned a malformed tool result.',
        }),
      );
  }

  /** The daemon went away: every call in flight fails at once. */
  failAll(): void {
    for (const [id, waiter] of this.#waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(
        BridgeError.from({
          code: ErrorCode.NOT_CONNECTED,
          message: 'The bridge daemon went away during the call.',
          hint: 'Retry the call; a new daemon is started automatically.',
        }),
      );
      this.#waiters.delete(id);
    }
  }
}
