/**
 * What a field holds now, read in the page's main world: a checkbox's or radio's checked state,
 * or a value (a text field's, a slider's, a <select>'s value and its option's label, an
 * editable element's text). A secret field's value never leaves the page, and is never compared
 * with anything: an answer to "is it 735?" would let an agent guess a PIN (#25.4).
 */
import type { TabHandle } from '../tabStates';
import { SECRET_FIELD_FUNCTION } from '../../shared/secretKind';
import { elementCdp } from './elementCdp';
import type { ResolvedElement } from './resolveRef';

export type FieldState =
  | { kind: 'checked'; checked: boolean }
  | { kind: 'value'; value: string; label?: string; equals: boolean }
  | { kind: 'secret' }
  | { kind: 'none' };

const FIELD_STATE_FUNCTION = `function (expected) {
  const el = this;
  const role = el.getAttribute('role');
  if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio'))
    return { kind: 'checked', checked: el.checked };
  if (role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox' || role === 'menuitemradio')
    return { kind: 'checked', checked: el.getAttribute('aria-checked') === 'true' };
  let value;
  let label;
  if (el.localName === 'select') {
    value = el.value;
    label = el.selectedOptions[0] ? el.selectedOptions[0].label : undefined;
  } else if (el.localName === 'input' || el.localName === 'textarea') value = el.value;
  else if (el.isContentEditable) value = el.innerText;
  else if (el.hasAttribute('aria-valuenow') || el.hasAttribute('aria-valuetext'))
    value = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow');
  else return { kind: 'none' };
  if ((${SECRET_FIELD_FUNCTION})(el)) return { kind: 'secret' };
  const equals = value === expected || label === expected;
  return { kind: 'value', value, label, equals };
}`;

/** The element's checked state or value, and whether it equals `expected`; a secret field says only that it is one. */
export async function fieldState(
  tab: TabHandle,
  element: ResolvedElement,
  expected: string,
): Promise<FieldState> {
  const { result } = await elementCdp(tab, element).send('Runtime.callFunctionOn', {
    objectId: element.objectId,
    functionDeclaration: FIELD_STATE_FUNCTION,
    arguments: [{ value: expected }],
    returnByValue: true,
  });
  const value: unknown = result.value;
  if (typeof value !== 'object' || value === null) return { kind: 'none' };
  return value as FieldState;
}

const MISSING_ITEMS_FUNCTION = `function (items) {
  const squash = (t) => String(t).replace(/\\s+/g, ' ').trim().toLowerCase();
  const text = squash(this.innerText || '');
  return items.filter((item) => !text.includes(squash(item)));
}`;

/** The items whose text the element does not show (its rendered text, any case). */
export async function missingItems(
  tab: TabHandle,
  element: ResolvedElement,
  items: readonly string[],
): Promise<string[]> {
  const { result } = await elementCdp(tab, element).send('Runtime.callFunctionOn', {
    objectId: element.objectId,
    functionDeclaration: MISSING_ITEMS_FUNCTION,
    arguments: [{ value: items }],
    returnByValue: true,
  });
  const value: unknown = result.value;
  return Array.isArray(value) ? value.map(String) : [...items];
}
