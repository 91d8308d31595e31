import type { ApprovalScope } from '@browser-agent/protocol';
import type { SubmitQuestion } from '../shared/messages';
import { el } from './dom';

/** The button of each scope an Allow may cover (issue #19). */
const SCOPE_LABELS: Record<ApprovalScope, string> = {
  once: 'Allow',
  site: 'Allow on this site',
  task: 'Allow for the rest of this task',
};

/**
 * The open "may the agent submit this form?" (or "run a script on this page?") questions, each with Allow / Deny. Every panel shows
 * them; the first answer wins and the worker withdraws the question from all of them.
 */
export class QuestionView {
  readonly #box: HTMLElement;
  readonly #answer: (id: string, allow: boolean, scope?: ApprovalScope) => void;
  #countdown: ReturnType<typeof setInterval> | undefined;

  constructor(
    box: HTMLElement,
    answer: (id: string, allow: boolean, scope?: ApprovalScope) => void,
  ) {
    this.#box = box;
    this.#answer = answer;
  }

  render(questions: readonly SubmitQuestion[]): void {
    clearInterval(this.#countdown);
    this.#box.hidden = questions.length === 0;
    this.#box.replaceChildren(...questions.map((q) => this.#item(q)));
    this.#box.querySelector('button')?.focus();
    if (questions.length > 0) this.#countdown = setInterval(() => this.#tick(), 1000);
  }

  /** Counts every open question's time down, once a second, until they close. */
  #tick(): void {
    for (const line of this.#box.querySelectorAll<HTMLElement>('[data-expires-at]'))
      line.textContent = countdownText(Number(line.dataset['expiresAt']));
  }

  #item(q: SubmitQuestion): HTMLElement {
    const allows = (q.scopes.length > 0 ? q.scopes : (['once'] as ApprovalScope[])).map((scope) => {
      const button = el('button', { type: 'button', className: 'allow' }, SCOPE_LABELS[scope]);
      button.dataset['scope'] = scope;
      button.addEventListener('click', () => this.#answer(q.id, true, scope));
      return button;
    });
    const deny = el('button', { type: 'button', className: 'deny' }, 'Deny');
    deny.addEventListener('click', () => this.#answer(q.id, false));
    return el(
      'article',
      { className: 'question' },
      ...(q.kind === 'action' || q.kind === 'irreversible'
        ? [
            el('h2', {}, q.text ?? `Let ${q.client} act on this page?`),
            ...(q.why ? [el('p', { className: 'why' }, q.why)] : []),
          ]
        : q.kind === 'submit'
          ? [
              el('h2', {}, `Let ${q.client} submit this form?`),
              el(
                'p',
                {},
                `It has a ${q.fields.join(', ')} field and goes to `,
                el('strong', { className: 'target' }, q.targetOrigin),
                '.',
              ),
            ]
          : [
              el('h2', {}, `Let ${q.client} run a script on this page?`),
              el(
                'p',
                {},
                `The page has a form with a ${q.fields.join(', ')} field. `,
                'A script can submit it, or read it and send it anywhere.',
              ),
            ]),
      el('p', { className: 'detail' }, `Tab: ${q.tabTitle || q.pageUrl} (${q.pageUrl})`),
      countdownLine(q.expiresAt),
      ...allows,
      deny,
    );
  }
}

function countdownText(expiresAt: number): string {
  const seconds = Math.max(0, Math.ceil((expiresAt - Date.now()) / 1000));
  return `Not done unless you answer within ${seconds} s (the agent is told so).`;
}

function countdownLine(expiresAt: number): HTMLElement {
  const line = el('p', { className: 'detail countdown' }, countdownText(expiresAt));
  line.dataset['expiresAt'] = String(expiresAt);
  return line;
}
