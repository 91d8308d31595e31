/**
 * Asks the user through the MCP client too (issue #19): when the extension opens an approval
 * question for this session and the client advertises the `elicitation` capability, the same
 * question is elicited there, so a user who lives in a terminal answers where they are. The
 * first answer anywhere wins: an answer here is sent to the extension (`approval_answer`), and
 * a question answered elsewhere or expired (`approval_closed`) aborts the elicitation.
 *
 * "Decline" answers Deny; a dismissed elicitation (cancel) answers nothing, so the panel and
 * the tab can still be used. An answer outside the choices (a client that does not enforce the
 * enum) is asked again, saying so, while the question is open. Secret values in the question's
 * words (typed text) are shown by name, as in every result. Whatever happens here, the call itself ends by the extension's
 * deadline (APPROVAL_TIMEOUT), never hangs.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode as McpErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  APPROVAL_CLOSED_EVENT,
  APPROVAL_QUESTION_EVENT,
  approvalClosedEventSchema,
  approvalQuestionEventSchema,
  type ApprovalScope,
  type FrameOf,
} from '@browser-agent/protocol';
import type { Logger } from '../../shared/logger.js';

/** The one-of choices, as the client shows them. */
const CHOICES: Record<ApprovalScope | 'deny', string> = {
  once: 'Allow',
  site: 'Allow on this site',
  task: 'Allow for the rest of this task',
  deny: 'Deny',
};

export type AnswerSender = (questionId: string, allow: boolean, scope: ApprovalScope) => void;

/** Times an answer outside the choices is asked again before the client is left out. */
export const MAX_REASKS = 3;

/** Said before the question when the last answer was none of its choices. */
export const NOT_A_CHOICE = 'That answer is not one of the choices; please pick one.';

export class ApprovalElicitation {
  readonly #server: Server;
  readonly #send: AnswerSender;
  readonly #log: Logger;
  readonly #open = new Map<string, AbortController>();
  readonly #redact: (text: string) => string;

  constructor(
    server: Server,
    send: AnswerSender,
    log: Logger,
    redact: (text: string) => string = (text) => text,
  ) {
    this.#server = server;
    this.#send = send;
    this.#log = log;
    this.#redact = redact;
  }

  /** An event from the daemon for this session; others are not ours. */
  onEvent(frame: FrameOf<'event'>): void {
    if (frame.event === APPROVAL_CLOSED_EVENT) {
      const closed = approvalClosedEventSchema.safeParse(frame.data);
      if (closed.success) this.#open.get(closed.data.questionId)?.abort();
      return;
    }
    if (frame.event !== APPROVAL_QUESTION_EVENT) return;
    const question = approvalQuestionEventSchema.safeParse(frame.data);
    if (!question.success) {
      this.#log.warn('ignored a malformed approval question');
      return;
    }
    if (this.#server.getClientCapabilities()?.elicitation === undefined) return;
    void this.#elicit(question.data);
  }

  async #elicit(q: {
    questionId: string;
    message: string;
    scopes: ApprovalScope[];
    expiresAt: number;
  }): Promise<void> {
    if (this.#open.has(q.questionId)) return;
    const controller = new AbortController();
    this.#open.set(q.questionId, controller);
    const choices = [...q.scopes.map((s) => CHOICES[s]), CHOICES.deny];
    const message = `Browser Agent asks: ${this.#redact(q.message)}`;
    try {
      for (let asked = 0; ; asked += 1) {
        const retry = asked > 0;
        const waitMs = q.expiresAt - Date.now();
        // A client that answers off the choices every time is not asked forever: the panel
        // and the tab still can be.
        if (waitMs <= 0 || controller.signal.aborted || asked > MAX_REASKS) return;
        const result = await this.#server
          .elicitInput(
            {
              message: retry ? `${NOT_A_CHOICE} ${message}` : message,
              requestedSchema: {
                type: 'object',
                properties: {
                  answer: { type: 'string', title: 'Your answer', enum: choices },
                },
                required: ['answer'],
              },
            },
            { signal: controller.signal, timeout: waitMs },
          )
          // The SDK checks an accepted answer against the schema: outside the enum it throws.
          .catch((err: unknown) => {
            if (err instanceof McpError && err.code === Number(McpErrorCode.InvalidParams))
              return undefined;
            throw err;
          });
        if (controller.signal.aborted) return;
        if (result === undefined) {
          this.#log.info('approval elicitation: an answer outside the choices; asking again');
          continue;
        }
        if (result.action === 'decline') {
          this.#send(q.questionId, false, 'once');
          return;
        }
        if (result.action !== 'accept') return;
        const answer = result.content?.['answer'];
        const scope = q.scopes.find((s) => CHOICES[s] === answer);
        if (scope !== undefined) {
          this.#send(q.questionId, true, scope);
          return;
        }
        if (answer === CHOICES.deny) {
          this.#send(q.questionId, false, 'once');
          return;
        }
        this.#log.info('approval elicitation: an answer outside the choices; asking again');
      }
    } catch (err) {
      // Aborted (answered elsewhere), timed out, or the client failed: the extension decides.
      if (!controller.signal.aborted)
        this.#log.info(`approval elicitation ended without an answer: ${String(err)}`);
    } finally {
      this.#open.delete(q.questionId);
    }
  }
}
