import type { Settings } from '../shared/messages';
import { byId } from './dom';

export class SettingsView {
  readonly #keepWorking = byId<HTMLInputElement>('keep-working');
  readonly #onEnd = byId<HTMLSelectElement>('on-end');
  readonly #askSecretSubmit = byId<HTMLInputElement>('ask-secret-submit');

  constructor(save: (patch: Partial<Settings>) => void) {
    this.#keepWorking.addEventListener('change', () =>
      save({ keepWorkingWhenPanelClosed: this.#keepWorking.checked }),
    );
    this.#askSecretSubmit.addEventListener('change', () =>
      save({ askBeforeSecretSubmit: this.#askSecretSubmit.checked }),
    );
    this.#onEnd.addEventListener('change', () =>
      save({ onSessionEnd: this.#onEnd.value === 'release' ? 'release' : 'close' }),
    );
  }

  show(settings: Settings): void {
    this.#keepWorking.checked = settings.keepWorkingWhenPanelClosed;
    this.#onEnd.value = settings.onSessionEnd;
    this.#askSecretSubmit.checked = settings.askBeforeSecretSubmit;
  }
}
