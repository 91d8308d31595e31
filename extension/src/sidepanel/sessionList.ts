import type { ControlAction, SessionView } from '../shared/messages';
import { el } from './dom';

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

export interface SessionListActions {
  control(action: ControlAction, sessionId: string): void;
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

/** The agents working in this browser, each with the user's controls. */
export class SessionList {
  readonly #root: HTMLElement;
  readonly #actions: SessionListActions;

  constructor(root: HTMLElement, actions: SessionListActions) {
    this.#root = root;
    this.#actions = actions;
    this.render([]);
  }

  render(sessions: SessionView[]): void {
    if (sessions.length === 0) {
      this.#root.replaceChildren(el('li', { className: 'empty' }, 'No agent connected.'));
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

  #item(s: SessionView): HTMLLIElement {
    const label = s.state === 'active' ? (s.busy ? 'working' : 'idle') : s.state;
    const name = el(
      'button',
      { className: 'name', type: 'button', title: 'Show only this agent’s activity' },
      s.client.name,
    );
    name.dataset['key'] = `${s.sessionId}:filter`;
    name.addEventListener('click', () => this.#actions.filter(s.sessionId, s.client.name));
    const tabs = s.tabs.length === 1 ? '1 tab' : `${s.tabs.length} tabs`;
    const last = s.lastActivity
      ? `last call ${new Date(s.lastActivity).toLocaleTimeString()}`
      : 'no calls yet';
    const meta = el(
      'div',
      { className: 'meta' },
      [s.project, tabs, last, ...transactionCounters(s.transaction)].filter(Boolean).join(' · '),
    );
    const li = el(
      'li',
      { className: 'session' },
      name,
      el('span', { className: `state ${label}` }, label),
      meta,
      this.#buttons(s),
    );
    li.dataset['sessionId'] = s.sessionId;
    li.dataset['state'] = s.state;
    li.style.borderLeftColor = COLORS[s.color] ?? COLORS['grey'] ?? '';
    return li;
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
    if (s.state === 'revoked') return el('div', { className: 'actions' });
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
