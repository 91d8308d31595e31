import type { PermissionMode } from '@browser-agent/protocol';
import type { ControlAction, SessionView } from '../shared/messages';
import { hostOf } from '../shared/callSentence';
import { friendlyClientName } from '../shared/clientNames';
import { allControls, CARD_STATE_LABELS, cardDoing, cardState, CardState } from './cardState';
import { el } from './dom';
import { cardModeRows, ModeOffers } from './modeChoice';

const COLORS: Record<string, string> = {
  grey: '#6b7280',
  blue: '#2563eb',
  red: '#dc2626',
  yellow: '#ca8a04',
  green: '#16a34a',
  pink: '#db2777',
  purple: '#7c3aed',
  cyan: '#0891b2',
  orange: '#ea580c',
};

/** Fields the permissions side adds to a session's view; shown when present. */
interface PermissionFields {
  permissionMode?: unknown;
  pendingQuestion?: unknown;
}

export interface SessionListActions {
  control(action: ControlAction, sessionId: string): void;
  setMode(sessionId: string, mode: PermissionMode): void;
  stopAll(): void;
  resumeAll(): void;
  filter(sessionId: string, client: string): void;
}

/** The same counters browser_session_info gives the agent, shown once there is something to count. */
function transactionCounters(t: SessionView['transaction']): string[] {
  const out: string[] = [];
  if (t.open || t.commits > 0 || t.rollbacks > 0)
    out.push(
      `transaction ${t.open ? 'open' : 'none'}, ${t.commits} commits, ${t.rollbacks} rollbacks${t.lastRollbackMs !== undefined ? ` (last ${t.lastRollbackMs} ms)` : ''}`,
    );
  if (t.checkpoints > 0 || t.checkpointBytes !== undefined)
    out.push(`${t.checkpoints} checkpoints kept (${t.checkpointBytes ?? 0} bytes)`);
  if (t.resumes > 0)
    out.push(
      `resumed ${t.resumes}×${t.lastResumeMs !== undefined ? ` (last in ${t.lastResumeMs} ms)` : ''}`,
    );
  return out;
}

/** The question's words, whatever shape the permissions side gives it. */
function questionText(q: unknown): string | undefined {
  if (typeof q === 'string') return q || undefined;
  if (typeof q !== 'object' || q === null) return undefined;
  const r = q as Record<string, unknown>;
  if (typeof r['text'] === 'string' && r['text'] !== '') return r['text'];
  const fields = Array.isArray(r['fields']) ? r['fields'].map(String).join(', ') : '';
  const target = typeof r['targetOrigin'] === 'string' ? r['targetOrigin'] : '';
  if (r['kind'] === 'submit')
    return `Submit a form with a ${fields || 'secret'} field${target ? ` to ${target}` : ''}?`;
  if (r['kind'] === 'script') return 'Run a script on a page with a secret field?';
  return 'An answer is needed in the questions above.';
}

/** Chrome's cached icon of a page, served to the extension itself (the `favicon` permission). */
function faviconOf(url: string): string {
  const src = new URL(chrome.runtime.getURL('/_favicon/'));
  src.searchParams.set('pageUrl', url);
  src.searchParams.set('size', '32');
  return src.toString();
}

/** The agents working in this browser, each with the user's controls. */
export class SessionList {
  readonly #root: HTMLElement;
  readonly #actions: SessionListActions;
  readonly #stopAll: HTMLButtonElement;
  readonly #resumeAll: HTMLButtonElement;
  readonly #offers = new ModeOffers();

  constructor(
    root: HTMLElement,
    actions: SessionListActions,
    stopAll: HTMLButtonElement,
    resumeAll: HTMLButtonElement,
  ) {
    this.#root = root;
    this.#actions = actions;
    this.#stopAll = stopAll;
    this.#resumeAll = resumeAll;
    stopAll.addEventListener('click', () => actions.stopAll());
    resumeAll.addEventListener('click', () => actions.resumeAll());
    this.render([]);
  }

  render(sessions: SessionView[]): void {
    const all = allControls(sessions);
    this.#stopAll.hidden = all.stopHidden;
    this.#stopAll.disabled = all.stopDisabled;
    this.#resumeAll.hidden = all.resumeHidden;
    if (sessions.length === 0) {
      this.#root.replaceChildren(
        el(
          'li',
          { className: 'empty' },
          'No agent connected. An MCP client that uses the Browser Agent server shows up here.',
        ),
      );
      return;
    }
    // Rebuilding keeps focus only if we restore it: keyboard users must not lose their place.
    const focused =
      document.activeElement instanceof HTMLElement
        ? document.activeElement.dataset['key']
        : undefined;
    this.#root.replaceChildren(...sessions.map((s) => this.#item(s)));
    if (focused)
      this.#root.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]`)?.focus();
  }

  #item(s: SessionView & PermissionFields): HTMLLIElement {
    const state = cardState(s);
    const revoked = state === CardState.revoked;
    const friendly = friendlyClientName(s.client.name);
    const name = el(
      'button',
      { className: 'name', type: 'button', title: 'Show only this agent’s activity' },
      friendly,
    );
    name.dataset['key'] = `${s.sessionId}:filter`;
    name.addEventListener('click', () => this.#actions.filter(s.sessionId, friendly));
    const head = el(
      'div',
      { className: 'head' },
      name,
      el('span', { className: `state ${state}` }, CARD_STATE_LABELS[state]),
    );
    if (friendly !== s.client.name)
      head.append(
        el('span', { className: 'client-id', title: 'The name the client gave' }, s.client.name),
      );

    const rows: HTMLElement[] = [head];
    // A revoked agent has no mode and no tabs any more (Revoke released them to the user).
    if (!revoked)
      rows.push(
        ...cardModeRows(s, friendly, this.#offers, (id, m) => this.#actions.setMode(id, m)),
      );
    if (!revoked) rows.push(this.#page(s));
    rows.push(
      el('div', { className: state === CardState.working ? 'doing now' : 'doing' }, cardDoing(s)),
    );
    const question = revoked ? undefined : questionText(s.pendingQuestion);
    if (question !== undefined)
      rows.push(
        el('div', { className: 'pending-question', role: 'alert' }, `Waiting for you: ${question}`),
      );
    const tabs = s.tabs.length === 1 ? '1 tab' : `${s.tabs.length} tabs`;
    const meta = [s.project, revoked ? '' : tabs, ...transactionCounters(s.transaction)].filter(
      Boolean,
    );
    if (meta.length > 0) rows.push(el('div', { className: 'meta' }, meta.join(' · ')));
    const li = el('li', { className: 'session' }, ...rows, this.#buttons(s));
    li.dataset['sessionId'] = s.sessionId;
    li.dataset['state'] = s.state;
    li.dataset['card'] = state;
    li.style.borderLeftColor = COLORS[s.color] ?? COLORS['grey'] ?? '';
    return li;
  }

  /** The page the agent is on: its icon, title and origin (never a page-chosen icon URL). */
  #page(s: SessionView): HTMLElement {
    const page = s.page;
    if (!page) return el('div', { className: 'page none' }, 'No page yet');
    const host = hostOf(page.url);
    let origin = host ?? page.url;
    try {
      const u = new URL(page.url);
      if (u.protocol === 'http:' || u.protocol === 'https:') origin = u.origin;
    } catch {
      // about:blank and the like are shown as they are.
    }
    const icon = el('img', { className: 'favicon', alt: '', width: 16, height: 16 });
    icon.src = faviconOf(page.url);
    return el(
      'div',
      { className: 'page', title: page.url },
      icon,
      el('span', { className: 'title' }, page.title || origin),
      el('span', { className: 'origin' }, origin),
    );
  }

  #buttons(s: SessionView): HTMLElement {
    const button = (action: ControlAction, text: string, title: string): HTMLButtonElement => {
      const b = el('button', { type: 'button', title }, text);
      b.dataset['action'] = action;
      b.dataset['key'] = `${s.sessionId}:${action}`;
      b.addEventListener('click', () => this.#actions.control(action, s.sessionId));
      return b;
    };
    const buttons: HTMLButtonElement[] = [];
    if (s.state === 'revoked')
      return el(
        'div',
        { className: 'actions' },
        button('dismiss', 'Dismiss', 'Remove this card from the panel; the agent stays revoked'),
      );
    if (s.tabs.length > 0)
      buttons.push(button('focus', 'Show tab', 'Bring this agent’s tab to the front'));
    buttons.push(
      s.state === 'paused'
        ? button('resume', 'Resume', 'Let this agent act again')
        : button('pause', 'Pause', 'Stop this agent’s calls until you resume it'),
      button('handover', 'Give it this tab', 'Let this agent work in the tab you are looking at'),
      button('revoke', 'Revoke', 'End this agent’s access; its tabs stay open for you'),
    );
    return el('div', { className: 'actions' }, ...buttons);
  }
}
