import type { Settings } from '../shared/messages';
import { byId } from './dom';

/**
 * The user's settings. Every panel shows the worker's copy, which it broadcasts after each
 * change: a change made in one panel shows in every other at once, and applies from the next call.
 */
export class SettingsView {
  readonly #keepWorking = byId<HTMLInputElement>('keep-working');
  readonly #onEnd = byId<HTMLSelectElement>('on-end');
  readonly #askSecretSubmit = byId<HTMLInputElement>('ask-secret-submit');
  readonly #recordSteps = byId<HTMLInputElement>('record-steps');

  constructor(save: (patch: Partial<Settings>) => void) {
    this.#keepWorking.addEventListener('change', () =>
      save({ keepWorkingWhenPanelClosed: this.#keepWorking.checked }),
    );
    this.#askSecretSubmit.addEventListener('change', () =>
      save({ askBeforeSecretSubmit: this.#askSecretSubmit.checked }),
    );
    this.#recordSteps.addEventListener('change', () =>
      save({ recordSteps: this.#recordSteps.checked }),
    );
    this.#onEnd.addEventListener('change', () =>
      save({ onSessionEnd: this.#onEnd.value === 'release' ? 'release' : 'close' }),
    );
  }

  show(settings: Settings): void {
    this.#keepWorking.checked = settings.keepWorkingWhenPanelClosed;
    this.#onEnd.value = settings.onSessionEnd;
    this.#askSecretSubmit.checked = settings.askBeforeSecretSubmit;
    this.#recordSteps.checked = settings.recordSteps;
  }
}
