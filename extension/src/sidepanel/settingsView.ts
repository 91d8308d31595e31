import type { Settings } from '../shared/messages';
import { byId } from './dom';

export class SettingsView {
  readonly #keepWorking = byId<HTMLInputElement>('keep-working');
  readonly #onEnd = byId<HTMLSelectElement>('on-end');

  constructor(save: (patch: Partial<Settings>) => void) {
    this.#keepWorking.addEventListener('change', () =>
      save({ keepWorkingWhenPanelClosed: this.#keepWorking.checked }),
    );
    this.#onEnd.addEventListener('change', () =>
      save({ onSessionEnd: this.#onEnd.value === 'release' ? 'release' : 'close' }),
    );
  }

  show(settings: Settings): void {
    this.#keepWorking.checked = settings.keepWorkingWhenPanelClosed;
    this.#onEnd.value = settings.onSessionEnd;
  }
}
