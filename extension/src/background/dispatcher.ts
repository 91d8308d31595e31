import {
  BridgeError,
  ErrorCode,
  DEFAULT_TOOL_TIMEOUT_MS,
  findContract,
  hopTime,
  stampHop,
  isToolName,
  toWireError,
  type RequestFrame,
  type ResponseFrame,
  type ToolArgs,
  type ToolName,
} from '@browser-agent/protocol';
import { BusyClock } from './busyClock';
import type { Handler, HandlerContext, HandlerRegistry } from './handlerContext';

/**
 * The session's context for one call: its CDP commands count on clock (for the traced `cdpMs`)
 * and fail with CANCELLED once signal is aborted.
 */
export type ContextFor = (
  sessionId: string,
  clock: BusyClock,
  signal: AbortSignal,
) => Promise<HandlerContext>;

/**
 * Turns a REQUEST into exactly one RESPONSE: validated, run in order per session, never thrown.
 * Each call carries an AbortSignal, aborted when its caller cancels it (a `cancel` frame) or its
 * deadline passes: the call is answered CANCELLED or TIMEOUT at once, the session's next call
 * starts, and the handler's waits and CDP commands stop at their next step.
 */
export class Dispatcher {
  readonly #handlers: HandlerRegistry;
  readonly #contextFor: ContextFor;
  /** Calls queued or running, by request id. */
  readonly #calls = new Map<string, AbortController>();
  /** Calls of one session run one after another; sessions run in parallel. */
  readonly #queues = new Map<string, Promise<unknown>>();

  /** Runs before each call from an agent, in its session's turn (automatic checkpoints). */
  readonly #beforeCall: (action: string, ctx: HandlerContext) => Promise<void>;

  constructor(
    handlers: HandlerRegistry,
    contextFor: ContextFor,
    beforeCall: (action: string, ctx: HandlerContext) => Promise<void> = () => Promise.resolve(),
  ) {
    this.#handlers = handlers;
    this.#contextFor = contextFor;
    this.#beforeCall = beforeCall;
  }

  /** Sessions with a call queued or running, for the panel's "working" indicator. */
  busySessions(): ReadonlySet<string> {
    return new Set(this.#queues.keys());
  }

  /** Stops a queued or running call; an unknown id (already answered) is ignored. */
  cancel(id: string, reason: string): void {
    this.#calls.get(id)?.abort(new BridgeError(ErrorCode.CANCELLED, `Cancelled: ${reason}.`));
  }

  dispatch(frame: RequestFrame): Promise<ResponseFrame> {
    const previous = this.#queues.get(frame.sessionId) ?? Promise.resolve();
    const controller = new AbortController();
    this.#calls.set(frame.id, controller);
    const run = previous
      .then(() => this.#runWithin(frame, controller))
      .finally(() => this.#calls.delete(frame.id));
    const tail = run.catch(() => undefined);
    this.#queues.set(frame.sessionId, tail);
    void tail.then(() => {
      if (this.#queues.get(frame.sessionId) === tail) this.#queues.delete(frame.sessionId);
    });
    return run;
  }

  /**
   * A handler stuck on the browser (e.g. a screenshot of a tab Chrome does not paint) must not
   * hold the session's queue: at the caller's own deadline the call is answered TIMEOUT and the
   * queue moves on. The daemon has answered the caller by then too; this answer is dropped there.
   */
  #runWithin(frame: RequestFrame, controller: AbortController): Promise<ResponseFrame> {
    const { signal } = controller;
    const failed = (err: unknown): ResponseFrame => ({
      type: 'response',
      id: frame.id,
      sessionId: frame.sessionId,
      payload: { success: false, error: toWireError(err) },
    });
    if (signal.aborted) return Promise.resolve(failed(signal.reason));
    const limitMs = frame.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    const timer = setTimeout(() => {
      controller.abort(
        new BridgeError(
          ErrorCode.TIMEOUT,
          `${frame.action} did not finish within ${limitMs} ms.`,
          'The page may be busy or not painted (a background tab); retry, or select the tab first.',
        ),
      );
    }, limitMs);
    const stopped = new Promise<ResponseFrame>((resolve) => {
      signal.addEventListener('abort', () => resolve(failed(signal.reason)), { once: true });
    });
    return Promise.race([this.#run(frame, signal), stopped]).finally(() => clearTimeout(timer));
  }

  async #run(request: RequestFrame, signal: AbortSignal): Promise<ResponseFrame> {
    const frame = stampHop(request, 'worker.in');
    const base = { type: 'response' as const, id: frame.id, sessionId: frame.sessionId };
    const startedAt = hopTime();
    const clock = new BusyClock();
    let response: ResponseFrame;
    try {
      const data = await this.#invoke(frame, clock, signal);
      response = { ...base, payload: { success: true, data } };
    } catch (err) {
      response = { ...base, payload: { success: false, error: toWireError(err) } };
    }
    if (!frame.hops) return response;
    const timing = { handlerMs: hopTime() - startedAt, cdpMs: clock.read() };
    return stampHop({ ...response, hops: frame.hops, timing }, 'worker.out');
  }

  async #invoke(frame: RequestFrame, clock: BusyClock, signal: AbortSignal): Promise<unknown> {
    const ctx = await this.#contextFor(frame.sessionId, clock, signal);
    if (isToolName(frame.action)) await this.#beforeCall(frame.action, ctx);
    return this.invokeTool(frame.action, frame.params, ctx);
  }

  /** Validates arguments against the tool's contract and runs its handler (also browser_batch's steps). */
  invokeTool(action: string, params: unknown, ctx: HandlerContext): Promise<unknown> {
    const contract = findContract(action);
    if (!contract || !isToolName(action)) {
      throw new BridgeError(
        ErrorCode.UNKNOWN_ACTION,
        `Unknown action "${action}".`,
        'Update the extension and the bridge to the same release.',
      );
    }
    const parsed = contract.input.safeParse(params ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      throw new BridgeError(
        ErrorCode.INVALID_ARGS,
        `${where}${issue?.message ?? 'invalid arguments'}`,
        `Check the arguments of ${contract.name}.`,
      );
    }
    // parsed.data was validated by this action's own contract.
    return this.#call(action, parsed.data, ctx);
  }

  #call<N extends ToolName>(name: N, args: ToolArgs<N>, ctx: HandlerContext): Promise<unknown> {
    const handler: Handler<N> = this.#handlers[name];
    return handler(args, ctx);
  }
}
