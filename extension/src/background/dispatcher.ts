import {
  BridgeError,
  CALL_TIMEOUT_HINT,
  ErrorCode,
  DEFAULT_TOOL_TIMEOUT_MS,
  findContract,
  hopTime,
  stampHop,
  isToolName,
  type Hops,
  type RequestFrame,
  type ResponseFrame,
  type ToolArgs,
  type ToolContract,
  type ToolName,
  type ToolResult,
} from '@browser-agent/protocol';
import { BusyClock } from './busyClock';
import { CallResponse } from './callResponse';
import type { ArrivalTab, Handler, HandlerContext, HandlerRegistry } from './handlerContext';

/** A cross-cutting step that adds its section to every call whose contract asks for it. */
export type SectionStep = (
  contract: ToolContract,
  ctx: HandlerContext,
  response: CallResponse,
) => Promise<void>;

/**
 * Runs beside each call until its signal is aborted; resolves when the session's tab was found
 * wedged (recovery/rendererWatch.ts) to the error the call ends with and the recovery that runs
 * once the call is stopped, before it is answered.
 */
export type CallWatch = (
  sessionId: string,
  signal: AbortSignal,
) => Promise<{ error: BridgeError; recover: () => Promise<void> } | undefined>;

/** A call's response before it is rendered: the worker's own steps may still add to it. */
export interface PendingResponse {
  readonly response: CallResponse;
  /** Renders the frame, once. */
  render(): ResponseFrame;
}

/**
 * The session's context for one call: its CDP commands count on clock (for the traced `cdpMs`)
 * and fail with CANCELLED once signal is aborted.
 */
export type ContextFor = (
  sessionId: string,
  clock: BusyClock,
  signal: AbortSignal,
  arrival?: ArrivalTab,
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
  /** Calls queued or running (or kept by `keep` until their caller is done), by request id. */
  readonly #calls = new Map<
    string,
    { sessionId: string; controller: AbortController; kept: boolean; arrival?: ArrivalTab }
  >();
  /** Calls of one session run one after another; sessions run in parallel. */
  readonly #queues = new Map<string, Promise<unknown>>();

  /** Runs before each call from an agent, in its session's turn (automatic checkpoints). */
  readonly #beforeCall: (action: string, ctx: HandlerContext) => Promise<void>;
  /** Run after each handler that returned, batch steps included (the open dialog). */
  readonly #sectionSteps: readonly SectionStep[];
  readonly #watch: CallWatch | undefined;

  constructor(
    handlers: HandlerRegistry,
    contextFor: ContextFor,
    beforeCall: (action: string, ctx: HandlerContext) => Promise<void> = () => Promise.resolve(),
    sectionSteps: readonly SectionStep[] = [],
    watch?: CallWatch,
  ) {
    this.#handlers = handlers;
    this.#contextFor = contextFor;
    this.#beforeCall = beforeCall;
    this.#sectionSteps = sectionSteps;
    this.#watch = watch;
  }

  /** Sessions with a call queued or running, for the panel's "working" indicator. */
  busySessions(): ReadonlySet<string> {
    return new Set(this.#queues.keys());
  }

  /** Stops a queued or running call; an unknown id (already answered) is ignored. */
  cancel(id: string, reason: string, hint?: string): void {
    this.#calls
      .get(id)
      ?.controller.abort(new BridgeError(ErrorCode.CANCELLED, `Cancelled: ${reason}.`, hint));
  }

  /** Stops every queued or running call of the session (the panel's "Stop all agents"). */
  cancelSession(sessionId: string, reason: string, hint?: string): void {
    for (const [id, call] of this.#calls)
      if (call.sessionId === sessionId) this.cancel(id, reason, hint);
  }

  /**
   * Runs work in the session's turn: after the calls queued so far, before any queued later (a
   * step's screenshot for the recording, taken once the call's answer has left). Its failure is
   * its own; the queue moves on.
   */
  inTurn(sessionId: string, work: () => Promise<void>): void {
    const previous = this.#queues.get(sessionId) ?? Promise.resolve();
    const tail = previous.then(work).catch(() => undefined);
    this.#queues.set(sessionId, tail);
    void tail.then(() => {
      if (this.#queues.get(sessionId) === tail) this.#queues.delete(sessionId);
    });
  }

  /**
   * Keeps the call cancellable after its handler returned, until `end()`: the worker's own steps
   * after the handler (a question about a submit the call caused) belong to the call too, so a
   * `cancel` frame or "Stop all agents" arriving then aborts `signal` (issue #25). Call before
   * `call(frame)`, which then runs under the same signal.
   */
  keep(frame: RequestFrame): { signal: AbortSignal; end: () => void } {
    const entry = { sessionId: frame.sessionId, controller: new AbortController(), kept: true };
    this.#calls.set(frame.id, entry);
    return {
      signal: entry.controller.signal,
      end: () => {
        if (this.#calls.get(frame.id) === entry) this.#calls.delete(frame.id);
      },
    };
  }

  /** Runs the call in its session's turn; the caller may add sections, then renders it. */
  call(frame: RequestFrame, arrival?: ArrivalTab): Promise<PendingResponse> {
    const previous = this.#queues.get(frame.sessionId) ?? Promise.resolve();
    const entry = this.#calls.get(frame.id) ?? {
      sessionId: frame.sessionId,
      controller: new AbortController(),
      kept: false,
    };
    if (arrival !== undefined) entry.arrival = arrival;
    this.#calls.set(frame.id, entry);
    const run = previous
      .then(() => this.#runWithin(frame, entry.controller))
      .finally(() => {
        if (!entry.kept) this.#calls.delete(frame.id);
      });
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
  #runWithin(frame: RequestFrame, controller: AbortController): Promise<PendingResponse> {
    const { signal } = controller;
    const failed = (err: unknown): PendingResponse => {
      const response = new CallResponse();
      response.fail(err);
      return pending(frame, response);
    };
    if (signal.aborted) return Promise.resolve(failed(signal.reason));
    const limitMs = frame.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    const timer = setTimeout(() => {
      controller.abort(
        new BridgeError(
          ErrorCode.TIMEOUT,
          `${frame.action} did not finish within ${limitMs} ms.`,
          CALL_TIMEOUT_HINT,
        ),
      );
    }, limitMs);
    let recovery: Promise<void> | undefined;
    const stopped = new Promise<PendingResponse>((resolve) => {
      signal.addEventListener(
        'abort',
        () => {
          const answer = failed(signal.reason);
          if (recovery === undefined) resolve(answer);
          else void recovery.catch(() => undefined).then(() => resolve(answer));
        },
        { once: true },
      );
    });
    // The watch ends with the call: answered, cancelled or timed out.
    const ended = new AbortController();
    signal.addEventListener('abort', () => ended.abort(), { once: true });
    void this.#watch?.(frame.sessionId, ended.signal).then((wedged) => {
      if (wedged === undefined || signal.aborted) return;
      // The call stops first (its commands fail with this error), then the tab is replaced; the
      // answer goes out once the replacement is done, so the session's next call finds it.
      recovery = Promise.resolve().then(wedged.recover);
      controller.abort(wedged.error);
    });
    // The handler runs under a signal of its own that ends with the call's answer, however the
    // answer came: one left behind (answered DIALOG_OPEN while it waited on the page) must not
    // go on and click once the dialog is gone. Its commands fail from then on.
    const handler = new AbortController();
    signal.addEventListener('abort', () => handler.abort(signal.reason), { once: true });
    // A handler that fails because its call was stopped (its commands reject with the reason)
    // is answered with the reason itself, not with its own reading of that failure.
    const ran = this.#run(frame, handler.signal).then((done) => (signal.aborted ? stopped : done));
    return Promise.race([ran, stopped]).finally(() => {
      clearTimeout(timer);
      ended.abort();
      handler.abort(
        new BridgeError(
          ErrorCode.CANCELLED,
          `${frame.action} was answered already; it stops here.`,
        ),
      );
    });
  }

  async #run(request: RequestFrame, signal: AbortSignal): Promise<PendingResponse> {
    const frame = stampHop(request, 'worker.in');
    const startedAt = hopTime();
    const clock = new BusyClock();
    const response = new CallResponse();
    try {
      await this.#invoke(frame, clock, response, signal);
    } catch (err) {
      response.fail(err);
    }
    if (!frame.hops) return pending(frame, response);
    const timing = { handlerMs: hopTime() - startedAt, cdpMs: clock.read() };
    // Stamped when the call is done, as before the worker's own steps ran.
    const { hops } = stampHop({ hops: frame.hops }, 'worker.out');
    return pending(frame, response, hops, timing);
  }

  async #invoke(
    frame: RequestFrame,
    clock: BusyClock,
    response: CallResponse,
    signal: AbortSignal,
  ): Promise<void> {
    const arrival = this.#calls.get(frame.id)?.arrival;
    const ctx = await this.#contextFor(frame.sessionId, clock, signal, arrival);
    if (isToolName(frame.action)) await this.#beforeCall(frame.action, ctx);
    await this.#fill(frame.action, frame.params, ctx, response);
  }

  /** Runs one of browser_batch's steps the way a call runs; its sections are the step's result. */
  async invokeTool(action: string, params: unknown, ctx: HandlerContext): Promise<ToolResult> {
    const response = new CallResponse();
    await this.#fill(action, params, ctx, response);
    return response.result();
  }

  /**
   * Runs a tool on the worker's own behalf (the recording's capture), without the section steps:
   * they hand over what is new since the agent's last result (console entries, downloads), and
   * a capture that took them would take them from the agent's next result.
   */
  async invokeOwnTool(action: string, params: unknown, ctx: HandlerContext): Promise<ToolResult> {
    const response = new CallResponse();
    await this.#fill(action, params, ctx, response, false);
    return response.result();
  }

  /** Validates arguments against the tool's contract, runs its handler, then the section steps. */
  async #fill(
    action: string,
    params: unknown,
    ctx: HandlerContext,
    response: CallResponse,
    withSections = true,
  ): Promise<void> {
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
    response.add(await this.#call(action, parsed.data, ctx));
    if (!withSections) return;
    for (const step of this.#sectionSteps) await step(contract, ctx, response);
  }

  #call<N extends ToolName>(name: N, args: ToolArgs<N>, ctx: HandlerContext): Promise<ToolResult> {
    const handler: Handler<N> = this.#handlers[name];
    return handler(args, ctx);
  }
}

function pending(
  frame: RequestFrame,
  response: CallResponse,
  hops?: Hops,
  timing?: ResponseFrame['timing'],
): PendingResponse {
  let rendered: ResponseFrame | undefined;
  return {
    response,
    render() {
      rendered ??= {
        type: 'response',
        id: frame.id,
        sessionId: frame.sessionId,
        payload: response.payload(),
        ...(hops === undefined ? {} : { hops, timing }),
      };
      return rendered;
    },
  };
}
