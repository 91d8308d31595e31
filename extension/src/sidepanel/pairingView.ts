import { forgetPairing, loadPairings } from '../shared/pairings';
import { byId, el } from './dom';

/** The first-pairing prompt and the list of paired bridges, with a way to forget each. */
export class PairingView {
  readonly #box = byId('pairing');
  readonly #code = byId('pairing-code');
  readonly #yes = byId<HTMLButtonElement>('pair-yes');
  readonly #no = byId<HTMLButtonElement>('pair-no');
  readonly #list = byId('pairings');

  /** Shows the code and waits for the user's decision (a deliberate click, never automatic). */
  confirm(code: string): Promise<boolean> {
    this.#code.textContent = code;
    this.#box.hidden = false;
    this.#yes.focus();
    return new Promise((resolve) => {
      const done = (ok: boolean): void => {
        this.#box.hidden = true;
        this.#yes.onclick = this.#no.onclick = null;
        void this.render();
        resolve(ok);
      };
      this.#yes.onclick = () => done(true);
      this.#no.onclick = () => done(false);
    });
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
        forget.addEventListener('click', () => void forgetPairing(p.id).then(() => this.render()));
        return el('li', {}, `${p.label} · ${new Date(p.createdAt).toLocaleString()}`, forget);
      }),
    );
  }
}
