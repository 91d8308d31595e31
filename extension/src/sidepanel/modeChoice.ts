/**
 * Choosing how an agent may act (issue #28, item 4), where the person looks: on the agent's own
 * card, beside the Permissions section's list, and offered once when a client connects for the
 * first time (its mode so far is only the default, which the person never chose for it).
 */
import { PERMISSION_MODES, type PermissionMode } from '@browser-agent/protocol';
import { el } from './dom';

export const MODE_LABELS: Record<PermissionMode, string> = {
  ask: 'Ask before each action',
  'per-site': 'Ask once per site',
  autonomous: 'Act without asking',
};

/** What each mode means for the person, in the first-connect offer. */
const MODE_MEANING: Record<PermissionMode, string> = {
  ask: 'asks you before each action',
  'per-site': 'asks you once for each site',
  autonomous: 'acts without asking you',
};

export function modeSelect(id: string): HTMLSelectElement {
  const select = el('select', { id });
  select.append(...PERMISSION_MODES.map((m) => el('option', { value: m }, MODE_LABELS[m])));
  return select;
}

/**
 * The clients whose mode the person has seen offered, kept in the extension's localStorage
 * (shared by the side panel and the relay tab, per profile): the offer shows until they choose
 * a mode or keep the one it has.
 */
export class ModeOffers {
  static readonly #KEY = 'modeOfferedClients';

  has(client: string): boolean {
    return this.#all().includes(client);
  }

  add(client: string): void {
    if (this.has(client)) return;
    localStorage.setItem(ModeOffers.#KEY, JSON.stringify([...this.#all(), client].slice(-200)));
  }

  #all(): string[] {
    try {
      const saved: unknown = JSON.parse(localStorage.getItem(ModeOffers.#KEY) ?? '[]');
      return Array.isArray(saved) ? saved.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  }
}

/**
 * The card's mode row: a select that changes the agent's mode, and the first-connect offer
 * under it ("First time here: Claude Code acts without asking you. Choose…, or Keep").
 */
export function cardModeRows(
  session: { sessionId: string; client: { name: string }; permissionMode: PermissionMode },
  friendly: string,
  offers: ModeOffers,
  setMode: (sessionId: string, mode: PermissionMode) => void,
): HTMLElement[] {
  const select = modeSelect(`card-mode-${session.sessionId}`);
  select.value = session.permissionMode;
  select.setAttribute('aria-label', `Mode of ${friendly}`);
  select.dataset['key'] = `${session.sessionId}:mode`;
  select.addEventListener('change', () => {
    offers.add(session.client.name);
    setMode(session.sessionId, select.value as PermissionMode);
  });
  const rows: HTMLElement[] = [el('label', { className: 'mode' }, 'Mode ', select)];
  if (offers.has(session.client.name)) return rows;
  const keep = el('button', { type: 'button', title: 'Keep this mode for it' }, 'Keep');
  keep.dataset['key'] = `${session.sessionId}:keep-mode`;
  keep.addEventListener('click', () => {
    offers.add(session.client.name);
    keep.parentElement?.remove();
  });
  rows.push(
    el(
      'div',
      { className: 'mode-offer', role: 'note' },
      `First time here: ${friendly} ${MODE_MEANING[session.permissionMode]}. Choose its mode above, or `,
      keep,
    ),
  );
  return rows;
}
