import type { ActivityEntry } from '../shared/messages';
import { el } from './dom';

const MAX_ENTRIES = 200;

/** Live log of relayed calls: agent, tool, short arguments, duration, result or error code. */
export class ActivityLog {
  readonly #root: HTMLElement;
  readonly #filterLabel: HTMLElement;
  readonly #showAll: HTMLElement;
  readonly #items = new Map<string, HTMLLIElement>();
  #filter: string | undefined;

  constructor(root: HTMLElement, filterLabel: HTMLElement, showAll: HTMLElement) {
    this.#root = root;
    this.#filterLabel = filterLabel;
    this.#showAll = showAll;
    showAll.addEventListener('click', () => this.filter(undefined, ''));
  }

  filter(sessionId: string | undefined, client: string): void {
    this.#filter = sessionId;
    this.#filterLabel.hidden = this.#showAll.hidden = sessionId === undefined;
    this.#filterLabel.textContent = sessionId === undefined ? '' : `of ${client}`;
    for (const li of this.#items.values())
      li.hidden = sessionId !== undefined && li.dataset['sessionId'] !== sessionId;
  }

  replaceAll(entries: ActivityEntry[]): void {
    this.#items.clear();
    this.#root.replaceChildren();
    for (const e of entries) this.upsert(e);
  }

  upsert(entry: ActivityEntry): void {
    let li = this.#items.get(entry.id);
    if (!li) {
      li = el('li');
      li.dataset['tool'] = entry.tool;
      li.dataset['sessionId'] = entry.sessionId;
      this.#items.set(entry.id, li);
      this.#root.prepend(li);
      this.#trim();
    }
    const outcome =
      entry.outcome === undefined ? '…' : `→ ${entry.outcome} (${entry.durationMs ?? 0} ms)`;
    li.className = entry.outcome === undefined ? 'pending' : entry.outcome === 'ok' ? 'ok' : 'err';
    li.textContent = `${entry.client} · ${entry.tool} ${entry.args} ${outcome}`;
    li.hidden = this.#filter !== undefined && entry.sessionId !== this.#filter;
  }

  #trim(): void {
    while (this.#root.childElementCount > MAX_ENTRIES) {
      const last = this.#root.lastElementChild;
      if (!(last instanceof HTMLLIElement)) break;
      last.remove();
      for (const [id, li] of this.#items) if (li === last) this.#items.delete(id);
    }
  }
}
