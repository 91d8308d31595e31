import type { ActivityEntry } from '../shared/messages';
import { callSentence, timeOfDay } from '../shared/callSentence';
import { el } from './dom';
import { WhileVisible } from './whileVisible';

const MAX_ENTRIES = 200;
/** The log is at most this share of the panel's height (as panel.css's max-height says). */
const LOG_MAX_VIEWPORT_SHARE = 0.5;

/**
 * Live log of relayed calls, one sentence each with the time of day:
 * `10:42:07 Claude Code Clicked button "Sign in" on github.com, 84 ms`. Typed text shows only
 * where the handler echoed it (never into a secret field); "Details" opens the tool's name and
 * its arguments, with typed text and values hidden (activity.ts).
 */
export class ActivityLog {
  readonly #root: HTMLElement;
  readonly #filterLabel: HTMLElement;
  readonly #showAll: HTMLElement;
  readonly #items = new Map<string, HTMLLIElement>();
  #filter: string | undefined;
  /** One fit per task, and none while the page is hidden (whileVisible.ts). */
  readonly #fitter = new WhileVisible(() => this.#fit());

  constructor(root: HTMLElement, filterLabel: HTMLElement, showAll: HTMLElement) {
    this.#root = root;
    this.#filterLabel = filterLabel;
    this.#showAll = showAll;
    showAll.addEventListener('click', () => this.filter(undefined, ''));
    // Details opening or closing, and a resized panel, move where the rows end.
    root.addEventListener('toggle', () => this.#scheduleFit(), true);
    window.addEventListener('resize', () => this.#scheduleFit());
    this.#showEmpty();
  }

  filter(sessionId: string | undefined, client: string): void {
    this.#filter = sessionId;
    this.#filterLabel.hidden = this.#showAll.hidden = sessionId === undefined;
    this.#filterLabel.textContent = sessionId === undefined ? '' : `of ${client}`;
    for (const li of this.#items.values())
      li.hidden = sessionId !== undefined && li.dataset['sessionId'] !== sessionId;
    this.#scheduleFit();
  }

  replaceAll(entries: ActivityEntry[]): void {
    this.#items.clear();
    this.#root.replaceChildren();
    for (const e of entries) this.upsert(e);
    this.#showEmpty();
  }

  upsert(entry: ActivityEntry): void {
    let li = this.#items.get(entry.id);
    if (!li) {
      this.#root.querySelector(':scope > .empty')?.remove();
      li = el('li');
      li.dataset['tool'] = entry.tool;
      li.dataset['sessionId'] = entry.sessionId;
      this.#items.set(entry.id, li);
      this.#root.prepend(li);
      this.#trim();
    }
    if (entry.event !== undefined) {
      li.className = 'event';
      li.dataset['event'] = entry.event;
    } else
      li.className =
        entry.outcome === undefined ? 'pending' : entry.outcome === 'ok' ? 'ok' : 'err';
    // An open "Details" stays open while the entry updates.
    const open = li.querySelector('details')?.open === true;
    const details = el(
      'details',
      { open },
      el('summary', {}, 'Details'),
      el(
        'pre',
        {},
        `${entry.tool} → ${entry.outcome ?? 'running'}${entry.durationMs === undefined ? '' : ` (${entry.durationMs} ms)`}\n${entry.details}`,
      ),
    );
    li.replaceChildren(
      el('time', { dateTime: new Date(entry.startedAt).toISOString() }, timeOfDay(entry.startedAt)),
      ' ',
      el('span', { className: 'who' }, entry.client),
      ' ',
      el('span', { className: 'what' }, callSentence(entry)),
      ...(entry.event === undefined ? [details] : []),
    );
    li.hidden = this.#filter !== undefined && entry.sessionId !== this.#filter;
    this.#scheduleFit();
  }

  #scheduleFit(): void {
    this.#fitter.run();
  }

  /**
   * Ends the log's box at the bottom of the last row that fits whole, so the bottom row is never
   * cut in half and the rows below are a scroll away (rows wrap, so no fixed height fits them).
   */
  #fit(): void {
    const limit = Math.floor(window.innerHeight * LOG_MAX_VIEWPORT_SHARE);
    // Fractional pixels: rows are rarely a whole number of pixels high.
    const top = this.#root.getBoundingClientRect().top - this.#root.scrollTop;
    let fit = 0;
    for (const li of this.#root.children) {
      if (!(li instanceof HTMLElement) || li.hidden) continue;
      const bottom = li.getBoundingClientRect().bottom - top;
      if (bottom > limit) break;
      fit = bottom;
    }
    const overflows = this.#root.scrollHeight > limit;
    // A single row taller than the limit is cut; it scrolls.
    this.#root.style.maxHeight = overflows ? `${fit > 0 ? Math.ceil(fit) : limit}px` : '';
  }

  #showEmpty(): void {
    if (this.#items.size === 0)
      this.#root.replaceChildren(el('li', { className: 'empty' }, 'No calls yet.'));
  }

  #trim(): void {
    while (this.#items.size > MAX_ENTRIES) {
      const last = this.#root.lastElementChild;
      if (!(last instanceof HTMLLIElement)) break;
      last.remove();
      for (const [id, li] of this.#items) if (li === last) this.#items.delete(id);
    }
  }
}
