import type { RequestFrame, ResponseFrame } from '@browser-agent/protocol';

const MAX_ENTRIES = 200;
const MAX_ARGS_CHARS = 80;

/** Live log of relayed calls: tool, short arguments, duration, result or error code. */
export class ActivityLog {
  readonly #root: HTMLElement;
  readonly #clientName: (sessionId: string) => string;
  readonly #pending = new Map<string, { li: HTMLLIElement; startedAt: number; label: string }>();

  constructor(root: HTMLElement, clientName: (sessionId: string) => string) {
    this.#root = root;
    this.#clientName = clientName;
  }

  started(frame: RequestFrame): void {
    const li = document.createElement('li');
    li.className = 'pending';
    li.dataset['tool'] = frame.action;
    const label = `${this.#clientName(frame.sessionId)} · ${frame.action} ${shortArgs(frame.params)}`;
    li.textContent = `${label} …`;
    this.#root.prepend(li);
    while (this.#root.childElementCount > MAX_ENTRIES) this.#root.lastElementChild?.remove();
    this.#pending.set(frame.id, { li, startedAt: performance.now(), label });
  }

  finished(frame: ResponseFrame): void {
    const entry = this.#pending.get(frame.id);
    if (!entry) return;
    this.#pending.delete(frame.id);
    const ms = Math.round(performance.now() - entry.startedAt);
    const outcome = frame.payload.success ? 'ok' : frame.payload.error.code;
    entry.li.className = frame.payload.success ? 'ok' : 'err';
    entry.li.textContent = `${entry.label} → ${outcome} (${ms} ms)`;
  }
}

/** Typed text is not shown: it may be a secret the user would not want on screen. */
function shortArgs(params: unknown): string {
  if (typeof params !== 'object' || params === null) return '';
  const shown = Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, k === 'text' ? '…' : v]),
  );
  const json = JSON.stringify(shown);
  return json.length > MAX_ARGS_CHARS ? `${json.slice(0, MAX_ARGS_CHARS)}…` : json;
}
