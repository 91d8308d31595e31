/**
 * Tells the worker what was typed into a secret field of this frame (#25.4), so request and
 * response bodies hide that value wherever it goes, whatever the field is named: a person's
 * password typed into `<input type=password name="x1">` left the page as `x1=…`, which no name
 * rule finds. A field counts by the shared rule (type, autocomplete; shared/secretKind.ts).
 *
 * Only trusted input counts (a person's keys, the agent's CDP input, the browser's autofill), so
 * a page or one of its frames cannot script values into the list to blank out parts of other
 * bodies. Values go only to this extension's worker, which keeps them in memory for tabs an
 * agent uses, and only as long as the tab.
 */
import type { ContentMessage } from '../shared/messages';
import { inputSecretKind } from './secretForms';
import { shadowRootOf } from './shadowRoots';

/**
 * Shorter values are not worth telling: the worker ignores them (requestSecrets.ts
 * MIN_TYPED_SECRET, the same bound: this script cannot import the worker's code, and importing
 * it from the protocol package would put zod into every frame's content script).
 */
const MIN_CHARS = 4;
/** Typing is told once it pauses, not per key. */
const PAUSE_MS = 250;

/** The element with the focus, inside open and closed shadow roots too. */
function focusedField(): Element | null {
  let el = document.activeElement;
  for (;;) {
    const inner = el === null ? null : shadowRootOf(el)?.activeElement;
    if (inner === null || inner === undefined) return el;
    el = inner;
  }
}

function isSecretInput(el: Element | null): el is HTMLInputElement {
  return el instanceof HTMLInputElement && inputSecretKind(el) !== undefined;
}

export function watchSecretTyping(): void {
  const pending = new Set<HTMLInputElement>();
  const told = new WeakMap<HTMLInputElement, string>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    for (const field of pending) {
      const value = field.value;
      if ([...value].length < MIN_CHARS || told.get(field) === value) continue;
      told.set(field, value);
      const message: ContentMessage = { kind: 'secret_typed', value };
      chrome.runtime.sendMessage(message).catch(() => undefined);
    }
    pending.clear();
  };

  const noteFocused = (event: Event): void => {
    if (!event.isTrusted) return;
    const field = focusedField();
    if (!isSecretInput(field)) return;
    pending.add(field);
    clearTimeout(timer);
    timer = setTimeout(flush, PAUSE_MS);
  };

  window.addEventListener('input', noteFocused, true);
  // Before the value can leave: Enter, a press on a submit button, a submit, the page going away.
  window.addEventListener(
    'keydown',
    (event) => {
      if (event.isTrusted && event.key === 'Enter') flush();
    },
    true,
  );
  window.addEventListener('pointerdown', (event) => event.isTrusted && flush(), true);
  window.addEventListener('submit', (event) => event.isTrusted && flush(), true);
  window.addEventListener('pagehide', flush, true);
}
