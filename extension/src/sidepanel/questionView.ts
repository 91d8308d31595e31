import type { SubmitQuestion } from '../shared/messages';
import { el } from './dom';

/**
 * The open "may the agent submit this form?" (or "run a script on this page?") questions, each with Allow / Deny. Every panel shows
 * them; the first answer wins and the worker withdraws the question from all of them.
 */
export class QuestionView {
  readonly #box: HTMLElement;
  readonly #answer: (id: string, allow: boolean) => void;

  constructor(box: HTMLElement, answer: (id: string, allow: boolean) => void) {
    this.#box = box;
    this.#answer = answer;
  }

  render(questions: readonly SubmitQuestion[]): void {
    this.#box.hidden = questions.length === 0;
    this.#box.replaceChildren(...questions.map((q) => this.#item(q)));
    this.#box.querySelector('button')?.focus();
  }

  #item(q: SubmitQuestion): HTMLElement {
    const allow = el('button', { type: 'button', className: 'allow' }, 'Allow');
    const deny = el('button', { type: 'button', className: 'deny' }, 'Deny');
    allow.addEventListener('click', () => this.#answer(q.id, true));
    deny.addEventListener('click', () => this.#answer(q.id, false));
    const seconds = Math.max(0, Math.round((q.expiresAt - Date.now()) / 1000));
    return el(
      'article',
      { className: 'question' },
      ...(q.kind === 'submit'
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
      el('p', { className: 'detail' }, `Denied automatically in ${seconds} s.`),
      allow,
      deny,
    );
  }
}
