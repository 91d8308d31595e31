/**
 * The side panel's Permissions section (issue #19): each agent's mode, the default mode, the
 * sites agents may act on (with Revoke), the sensitive-sites list, and the admin's lists, which
 * are shown but cannot be changed here. Built into `#permissions`; the worker decides and
 * stores everything, this only shows it and passes the user's changes on.
 */
import type { PermissionMode } from '@browser-agent/protocol';
import type {
  PanelToWorker,
  PermissionsView as PermissionsState,
  SessionView,
  Settings,
} from '../shared/messages';
import { el } from './dom';
import { friendlyClientName } from '../shared/clientNames';
import { modeSelect } from './modeChoice';

const EVERY_AGENT = '*';

export class PermissionsView {
  readonly #send: (m: PanelToWorker) => void;
  #sessions: SessionView[] = [];
  #state: PermissionsState = { grants: [], sensitiveSites: [], admin: [] };
  readonly #modes = el('ul', { className: 'modes' });
  readonly #grants = el('ul', { className: 'grants' });
  readonly #admin = el('div', { className: 'admin' });
  readonly #defaultMode = modeSelect('default-mode');
  readonly #sensitive = el('textarea', { id: 'sensitive-sites', rows: 6, spellcheck: false });
  readonly #grantSite = el('input', { id: 'grant-site', placeholder: 'https://example.com' });
  readonly #grantWho = el('select', { id: 'grant-client' });

  constructor(box: HTMLElement, send: (m: PanelToWorker) => void) {
    this.#send = send;
    this.#defaultMode.addEventListener('change', () =>
      send({
        kind: 'settings',
        settings: { defaultPermissionMode: this.#defaultMode.value as PermissionMode },
      }),
    );
    const saveSensitive = el('button', { type: 'button', id: 'save-sensitive' }, 'Save list');
    saveSensitive.addEventListener('click', () =>
      send({
        kind: 'settings',
        settings: {
          sensitiveSites: this.#sensitive.value
            .split('\n')
            .map((line) => line.trim())
            .filter((line) => line !== '' && !line.startsWith('#')),
        },
      }),
    );
    const add = el('button', { type: 'submit' }, 'Allow');
    const grantForm = el(
      'form',
      { className: 'grant-form' },
      el('label', {}, 'Site ', this.#grantSite),
      el('label', {}, 'for ', this.#grantWho),
      add,
    );
    grantForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const site = originOf(this.#grantSite.value);
      if (site === undefined) {
        this.#grantSite.setCustomValidity('Type an address like https://example.com');
        this.#grantSite.reportValidity();
        return;
      }
      this.#grantSite.setCustomValidity('');
      this.#grantSite.value = '';
      send({ kind: 'grant', site, client: this.#grantWho.value || EVERY_AGENT });
    });
    box.replaceChildren(
      el('h3', {}, 'How each agent may act'),
      this.#modes,
      el('label', {}, 'New agents: ', this.#defaultMode),
      el('h3', {}, 'Sites agents may act on without asking'),
      this.#grants,
      grantForm,
      el('h3', {}, 'Sensitive sites (agents always ask first)'),
      el(
        'p',
        { className: 'detail' },
        'One site per line: example.com covers its subdomains, *.example.com only them, https://example.com:8443 that origin only.',
      ),
      this.#sensitive,
      saveSensitive,
      this.#admin,
    );
  }

  showSessions(sessions: readonly SessionView[]): void {
    this.#sessions = [...sessions];
    this.#renderModes();
    this.#renderWho();
  }

  showSettings(settings: Settings): void {
    this.#defaultMode.value = settings.defaultPermissionMode;
  }

  show(state: PermissionsState): void {
    this.#state = state;
    // Not while the user types in it: their edit would be lost.
    if (document.activeElement !== this.#sensitive)
      this.#sensitive.value = state.sensitiveSites.join('\n');
    this.#renderGrants();
    this.#renderAdmin();
  }

  #renderModes(): void {
    if (this.#sessions.length === 0) {
      this.#modes.replaceChildren(el('li', { className: 'detail' }, 'No agent connected.'));
      return;
    }
    this.#modes.replaceChildren(
      ...this.#sessions.map((s) => {
        const select = modeSelect(`mode-${s.sessionId}`);
        select.value = s.permissionMode;
        select.setAttribute(
          'aria-label',
          `Permission mode for ${friendlyClientName(s.client.name)}`,
        );
        select.addEventListener('change', () =>
          this.#send({
            kind: 'set_mode',
            sessionId: s.sessionId,
            mode: select.value as PermissionMode,
          }),
        );
        return el(
          'li',
          {},
          el('span', { className: 'who' }, friendlyClientName(s.client.name)),
          ' ',
          select,
        );
      }),
    );
  }

  #renderWho(): void {
    const current = this.#grantWho.value;
    const names = [...new Set(this.#sessions.map((s) => s.client.name))];
    this.#grantWho.replaceChildren(
      el('option', { value: EVERY_AGENT }, 'every agent'),
      ...names.map((n) => el('option', { value: n }, friendlyClientName(n))),
    );
    if ([EVERY_AGENT, ...names].includes(current)) this.#grantWho.value = current;
  }

  #renderGrants(): void {
    const { grants } = this.#state;
    if (grants.length === 0) {
      this.#grants.replaceChildren(el('li', { className: 'detail' }, 'None yet.'));
      return;
    }
    this.#grants.replaceChildren(
      ...grants.map((g) => {
        const who = g.client === EVERY_AGENT ? 'every agent' : friendlyClientName(g.client);
        const revoke = el('button', { type: 'button', className: 'revoke' }, 'Revoke');
        revoke.setAttribute('aria-label', `Revoke ${g.site} for ${who}`);
        revoke.addEventListener('click', () =>
          this.#send({ kind: 'revoke_grant', site: g.site, client: g.client }),
        );
        return el(
          'li',
          { className: 'grant' },
          el('span', { className: 'site' }, g.site),
          ` for ${who} `,
          revoke,
        );
      }),
    );
  }

  #renderAdmin(): void {
    const { admin } = this.#state;
    this.#admin.replaceChildren(
      ...(admin.length === 0
        ? []
        : [
            el('h3', {}, 'Set by your administrator (cannot be changed here)'),
            ...admin.map((a) =>
              el(
                'p',
                { className: 'detail' },
                `${a.source}: `,
                a.allow ? `only ${a.allow.join(', ')}` : 'any site',
                a.block ? `; never ${a.block.join(', ')}` : '',
              ),
            ),
          ]),
    );
  }
}

function originOf(text: string): string | undefined {
  try {
    const url = new URL(text.includes('://') ? text.trim() : `https://${text.trim()}`);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
