/**
 * The open questions to the user (ask-before-submit, permission modes, the irreversible-action
 * gate), shown in every panel, on the tab's overlay and, through the agent's MCP client, by
 * elicitation, until the user answers one or it expires; the first answer wins.
 *
 * Questions never pile up: each agent (session) has at most one open; a second one waits for
 * the first to close, and its wait counts against its own deadline.
 *
 * A question belongs to the call that asked it (issue #25): when that call ends another way
 * (cancelled by the client, timed out, its session gone: its signal aborts), the question
 * closes everywhere at once, so nothing is left open on the tab for the agent to answer itself.
 */
import type { ApprovalScope } from '@browser-agent/protocol';
import type { ApprovalQuestion } from '../../shared/messages';
import { delay } from '../common/timing';

export type Verdict = 'allow' | 'deny' | 'timeout';
export interface Answer {
  verdict: Verdict;
  /** What an Allow covers; `once` for Deny and timeout. */
  scope: ApprovalScope;
}

export type QuestionParts = Omit<
  ApprovalQuestion,
  'id' | 'tabTitle' | 'pageUrl' | 'expiresAt' | 'tabId' | 'scopes'
> & { scopes?: ApprovalScope[] };

/** How often settledFor looks again; every question has a deadline, so the wait ends. */
const SETTLED_POLL_MS = 250;

export class ApprovalQuestions {
  readonly #changed: (questions: ApprovalQuestion[]) => void;
  readonly #pending = new Map<
    string,
    { question: ApprovalQuestion; decide: (a: Answer) => void }
  >();
  /** Per session, the question being asked (or queued) last: the next one waits for it. */
  readonly #turns = new Map<string, Promise<unknown>>();

  constructor(changed: (questions: ApprovalQuestion[]) => void) {
    this.#changed = changed;
  }

  all(): ApprovalQuestion[] {
    return [...this.#pending.values()].map((p) => p.question);
  }

  of(sessionId: string): ApprovalQuestion | undefined {
    return this.all().find((q) => q.sessionId === sessionId);
  }

  get(id: string): ApprovalQuestion | undefined {
    return this.#pending.get(id)?.question;
  }

  /** An unknown or already answered id is ignored; a scope the question did not offer is `once`. */
  answer(id: string, allow: boolean, scope: ApprovalScope = 'once'): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    const offered = pending.question.scopes.includes(scope) ? scope : 'once';
    pending.decide({ verdict: allow ? 'allow' : 'deny', scope: allow ? offered : 'once' });
  }

  /**
   * Resolves once no question about the tab is open (answered, expired or ended): a tab left to
   * the person keeps its debugger until then (controls.ts), since a detach lets Chrome go on with
   * a download the gate holds paused.
   */
  async settledFor(tabId: number): Promise<void> {
    while (this.all().some((q) => q.tabId === tabId)) await delay(SETTLED_POLL_MS);
  }

  /** Ends the questions about a tab that closed, as unanswered ('timeout'). */
  endForTab(tabId: number): void {
    for (const { question, decide } of [...this.#pending.values()])
      if (question.tabId === tabId) decide({ verdict: 'timeout', scope: 'once' });
  }

  /**
   * Asks about one of the tab's pages; 'timeout' when `deadline` passes without an answer or
   * `signal` (the asking call's) aborts first.
   */
  ask(
    tabId: number,
    parts: QuestionParts,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<Answer> {
    const previous = this.#turns.get(parts.sessionId) ?? Promise.resolve();
    const turn = previous.then(() => this.#ask(tabId, parts, deadline, signal));
    const settled = turn.catch(() => undefined);
    this.#turns.set(parts.sessionId, settled);
    void settled.then(() => {
      if (this.#turns.get(parts.sessionId) === settled) this.#turns.delete(parts.sessionId);
    });
    return turn;
  }

  async #ask(
    tabId: number,
    parts: QuestionParts,
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<Answer> {
    const waitMs = deadline - Date.now();
    if (waitMs <= 0 || signal?.aborted === true) return { verdict: 'timeout', scope: 'once' };
    // -1: no tab yet (the agent's first navigation); chrome.tabs.get throws on it.
    const tab = tabId >= 0 ? await chrome.tabs.get(tabId).catch(() => undefined) : undefined;
    const question: ApprovalQuestion = {
      ...parts,
      scopes: parts.scopes ?? ['once'],
      id: crypto.randomUUID(),
      tabId,
      tabTitle: tab?.title ?? '',
      pageUrl: tab?.url ?? '',
      expiresAt: deadline,
    };
    const answer = await new Promise<Answer>((resolve) => {
      const timer = setTimeout(() => decide({ verdict: 'timeout', scope: 'once' }), waitMs);
      const ended = (): void => decide({ verdict: 'timeout', scope: 'once' });
      signal?.addEventListener('abort', ended, { once: true });
      const decide = (a: Answer): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', ended);
        this.#pending.delete(question.id);
        resolve(a);
      };
      this.#pending.set(question.id, { question, decide });
      this.#changed(this.all());
    });
    this.#changed(this.all());
    return answer;
  }
}
