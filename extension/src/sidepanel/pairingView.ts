import { normalizeOneTimeCode } from '@browser-agent/protocol';
import { friendlyClientName } from '../shared/clientNames';
import { forgetPairing, loadPairings, PAIRINGS_KEY } from '../shared/pairings';
import { onStorageChanged } from '../shared/storageAreas';
import { byId, el } from './dom';

/**
 * The first-pairing form, where the user types the bridge's one-time code (the act that pairs:
 * no program can type into this panel for them), and the list of paired bridges, with a way to
 * forget each. The list follows extension storage, so a new pairing shows at once.
 */
export class PairingView {
  readonly #box = byId('pairing');
  readonly #form = byId<HTMLFormElement>('pairing-form');
  readonly #input = byId<HTMLInputElement>('pairing-code-input');
  readonly #error = byId('pairing-error');
  readonly #clients = byId('pairing-client');
  readonly #no = byId<HTMLButtonElement>('pair-no');
  readonly #list = byId('pairings');
  #pending: Promise<string | undefined> | undefined;
  /** Called when the user forgets a pairing, so the bridge can drop its half too. */
  onForget: (id: string) => void = () => undefined;

  constructor() {
    onStorageChanged.addListener((changes, area) => {
      if (area === 'local' && PAIRINGS_KEY in changes) void this.render();
    });
  }

  /**
   * Waits for the user to type the code; undefined when they decline. A prompt already open is
   * shared, so reconnects while the user types do not ask twice. `problem` says why it asks again.
   */
  askCode(problem?: string, clients?: string[]): Promise<string | undefined> {
    this.#error.textContent = problem ?? '';
    this.#error.hidden = problem === undefined;
    this.#clients.textContent = clientsText(clients);
    if (this.#pending) return this.#pending;
    this.#box.hidden = false;
    this.#input.value = '';
    this.#input.focus();
    this.#pending = new Promise((resolve) => {
      const done = (code: string | undefined): void => {
        this.#box.hidden = true;
        this.#form.onsubmit = this.#no.onclick = null;
        this.#pending = undefined;
        resolve(code);
      };
      this.#form.onsubmit = (ev) => {
        ev.preventDefault();
        const code = normalizeOneTimeCode(this.#input.value);
        if (code === undefined) {
          this.#error.textContent =
            'A pairing code has 10 letters and digits, like ABCDE-12345. Check it and try again.';
          this.#error.hidden = false;
          return;
        }
        // A refusal shown before belongs to the code typed before; the next one names this code.
        this.#error.hidden = true;
        done(code);
      };
      this.#no.onclick = () => done(undefined);
    });
    return this.#pending;
  }

  async render(): Promise<void> {
    const pairings = await loadPairings();
    if (pairings.length === 0) {
      this.#list.replaceChildren(el('li', { className: 'empty' }, 'None yet.'));
      return;
    }
    this.#list.replaceChildren(
      ...pairings.map((p) => {
        const forget = el(
          'button',
          { type: 'button', title: 'This bridge will have to pair again' },
          'Forget',
        );
        forget.addEventListener('click', () => {
          this.onForget(p.id);
          void forgetPairing(p.id);
        });
        const item = el(
          'li',
          {},
          `${p.label} · ${new Date(p.createdAt).toLocaleString()} · ${p.id}`,
          forget,
        );
        item.dataset['pairingId'] = p.id;
        return item;
      }),
    );
  }
}

/**
 * Who waits for this pairing: the MCP clients the bridge has connected now. The bridge cannot
 * tell which of them asked (the code goes to every agent whose call found no paired browser).
 */
function clientsText(clients: string[] | undefined): string {
  if (clients === undefined || clients.length === 0)
    return 'The bridge did not say which agent asks.';
  const names = [...new Set(clients.map(friendlyClientName))];
  return `${names.length === 1 ? 'Agent' : 'Agents'} connected to the bridge: ${names.join(', ')}.`;
}
