/** Typing into a text field: check it takes text, select or place the caret, type, echo. */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { CdpClient } from '../cdp';
import { Hint } from '../common/hints';
import { oneLine } from '../common/text';
import type { ElementHandle, FirstStep } from '../elements/resolveRef';
import { pressDelete, pressEnter, typeSlowly } from './keyboard';
import { SECRET_FIELD_FUNCTION } from '../../shared/secretKind';

const MAX_ECHO_CHARS = 100;

// Runs on the element: focuses it (unless the caller did: focused), checks it takes typed text
// and selects what it holds (or puts the caret at the end), so the typed text replaces (or
// extends) it. Focusing here saves DOM.focus's round trip (#26); when the element does not end up
// focused (a handler moved focus on, an element only DOM.focus reaches) it says so and changes
// nothing, and the caller focuses the CDP way, whose error is the one an agent should see.
const PREPARE_FIELD_FUNCTION = `function (clear, focused) {
  const textInputs = ['', 'text', 'search', 'url', 'tel', 'email', 'password', 'number'];
  const el = this;
  if (!focused) {
    el.focus();
    if (el.getRootNode().activeElement !== el) return { unfocused: true };
  }
  if (el.localName === 'input' || el.localName === 'textarea') {
    const type = el.localName === 'input' ? el.type : '';
    if (el.localName === 'input' && !textInputs.includes(type)) return { reason: 'it is an <input type=' + type + '>' };
    if (el.disabled) return { reason: 'it is disabled' };
    if (el.readOnly) return { reason: 'it is read-only' };
    if (clear) el.select();
    else if (type !== 'number' && type !== 'email') el.setSelectionRange(el.value.length, el.value.length);
    return { ok: true, password: (${SECRET_FIELD_FUNCTION})(el) };
  }
  if (el.isContentEditable) {
    const range = document.createRange();
    range.selectNodeContents(el);
    if (!clear) range.collapse(false);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    return { ok: true, password: false };
  }
  return { reason: 'it is not a text field' };
}`;

interface FieldCheck {
  ok: boolean;
  password: boolean;
  reason: string;
  /** The page-side focus did not land on the element. */
  unfocused: boolean;
}

/** prepareField's page-side step, sent with the element's check (resolveModelEntry). */
export function prepareFieldStep(clear: boolean): FirstStep {
  return { fn: PREPARE_FIELD_FUNCTION, args: [clear, false] };
}

/**
 * Focuses a text field and selects its text (clear) or moves the caret to its end. `first` is
 * what prepareFieldStep returned when it went out with the element's check; without it the
 * field is prepared here.
 */
export async function prepareField(
  cdp: CdpClient,
  element: ElementHandle,
  clear: boolean,
  first?: unknown,
): Promise<FieldCheck> {
  const notEditable = (why: string): BridgeError =>
    new BridgeError(
      ErrorCode.NOT_EDITABLE,
      `Cannot type into ${element.label}: ${why}.`,
      Hint.notEditable,
    );
  const prepare = async (focused: boolean): Promise<FieldCheck> => {
    const { result } = await cdp.send('Runtime.callFunctionOn', {
      objectId: element.objectId,
      functionDeclaration: PREPARE_FIELD_FUNCTION,
      arguments: [{ value: clear }, { value: focused }],
      returnByValue: true,
    });
    return asFieldCheck(result.value);
  };
  let field = first === undefined ? await prepare(false) : asFieldCheck(first);
  if (field.unfocused) {
    await cdp.send('DOM.focus', { objectId: element.objectId }).catch(() => {
      throw notEditable('it cannot take focus');
    });
    field = await prepare(true);
  }
  if (!field.ok) throw notEditable(field.reason);
  return field;
}

/**
 * Types into the prepared field (empty text with clear deletes the selection), then presses Enter
 * when submit. Enter goes out behind inserted text without waiting for it: Chrome dispatches
 * input in the order it was sent (mouse.ts). Typed slowly, each key waits for the one before.
 */
export async function typeText(
  cdp: CdpClient,
  text: string,
  options: { slowly: boolean; clear: boolean; submit?: boolean },
): Promise<void> {
  let typing: Promise<unknown> | undefined;
  if (text === '') {
    if (options.clear) typing = pressDelete(cdp);
  } else if (options.slowly) await typeSlowly(cdp, text);
  else typing = cdp.send('Input.insertText', { text });
  await Promise.all([typing, options.submit === true ? pressEnter(cdp) : undefined]);
}

export function echo(text: string, password: boolean): string {
  return password
    ? `${[...text].length} characters`
    : JSON.stringify(oneLine(text, MAX_ECHO_CHARS));
}

const NOT_A_FIELD = 'it is not a text field';

function asFieldCheck(value: unknown): FieldCheck {
  const record: Record<string, unknown> =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return {
    ok: record.ok === true,
    password: record.password === true,
    reason: typeof record.reason === 'string' ? record.reason.slice(0, 200) : NOT_A_FIELD,
    unfocused: record.unfocused === true,
  };
}
