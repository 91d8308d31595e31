/**
 * The open questions of ask-before-submit (see submitApprovals.ts), shown in every panel until
 * the user answers one or it expires; the first answer wins.
 */
import type { SubmitQuestion } from '../shared/messages';

export type Verdict = 'allow' | 'deny' | 'timeout';

export type QuestionParts = Omit<SubmitQuestion, 'id' | 'tabTitle' | 'pageUrl' | 'expiresAt'>;

export class ApprovalQuestions {
  readonly #changed: (questions: SubmitQuestion[]) => void;
  readonly #pending = new Map<string, { question: SubmitQuestion; decide: (v: Verdict) => void }>();

  constructor(changed: (questions: SubmitQuestion[]) => void) {
    this.#changed = changed;
  }

  all(): SubmitQuestion[] {
    return [...this.#pending.values()].map((p) => p.question);
  }

  answer(id: string, allow: boolean): void {
    this.#pending.get(id)?.decide(allow ? 'allow' : 'deny');
  }

  /** Asks about one of the tab's pages; 'timeout' when `waitMs` passes without an answer. */
  async ask(tabId: number, parts: QuestionParts, waitMs: number): Promise<Verdict> {
    if (waitMs <= 0) return 'timeout';
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    const question: SubmitQuestion = {
      ...parts,
      id: crypto.randomUUID(),
      tabTitle: tab?.title ?? '',
      pageUrl: tab?.url ?? '',
      expiresAt: Date.now() + waitMs,
    };
    const verdict = await new Promise<Verdict>((resolve) => {
      const timer = setTimeout(() => decide('timeout'), waitMs);
      const decide = (v: Verdict): void => {
        clearTimeout(timer);
        this.#pending.delete(question.id);
        resolve(v);
      };
      this.#pending.set(question.id, { question, decide });
      this.#changed(this.all());
    });
    this.#changed(this.all());
    return verdict;
  }
}
