/**
 * The one key press: a key's definition (named keys and single characters) and the CDP key
 * events that press it. Chords (chords.ts) and typing (typing.ts) both press keys through here.
 */
import type { CdpClient } from '../cdp';

export interface KeyDefinition {
  key: string;
  code: string;
  keyCode: number;
  text: string;
}

/** CDP modifier bits, for key and mouse events alike. */
export const MODIFIER_BITS = { Alt: 1, Control: 2, Meta: 4, Shift: 8 } as const;
export type Modifier = keyof typeof MODIFIER_BITS;

/** Named keys: code, Windows key code, and the text they type. */
const NAMED: Record<string, [string, number, string]> = {
  Enter: ['Enter', 13, '\r'],
  Tab: ['Tab', 9, ''],
  Escape: ['Escape', 27, ''],
  Backspace: ['Backspace', 8, ''],
  Delete: ['Delete', 46, ''],
  Insert: ['Insert', 45, ''],
  ArrowUp: ['ArrowUp', 38, ''],
  ArrowDown: ['ArrowDown', 40, ''],
  ArrowLeft: ['ArrowLeft', 37, ''],
  ArrowRight: ['ArrowRight', 39, ''],
  Home: ['Home', 36, ''],
  End: ['End', 35, ''],
  PageUp: ['PageUp', 33, ''],
  PageDown: ['PageDown', 34, ''],
  ' ': ['Space', 32, ' '],
};
for (let i = 1; i <= 12; i += 1) NAMED[`F${i}`] = [`F${i}`, 111 + i, ''];

/** A named key (Enter, Tab, F5, " "...), or undefined. */
export function namedKey(name: string): KeyDefinition | undefined {
  const named = NAMED[name];
  if (named === undefined) return undefined;
  const [code, keyCode, text] = named;
  return { key: name, code, keyCode, text };
}

/** One character's key; with Shift held a letter is its capital. */
export function characterKey(char: string, shifted = false): KeyDefinition {
  const upper = char.toUpperCase();
  const letter = /^[A-Z]$/.test(upper);
  const digit = /^\d$/.test(char);
  const typed = letter && shifted ? upper : char;
  return {
    key: typed,
    code: letter ? `Key${upper}` : digit ? `Digit${char}` : '',
    keyCode: letter || digit ? upper.charCodeAt(0) : 0,
    text: typed,
  };
}

/** Presses and releases one key; `modifiers` (CDP bits) are held by the caller. */
export async function pressKey(
  cdp: CdpClient,
  def: KeyDefinition,
  modifiers?: number,
): Promise<void> {
  const common = {
    key: def.key,
    code: def.code,
    windowsVirtualKeyCode: def.keyCode,
    nativeVirtualKeyCode: def.keyCode,
    ...(modifiers === undefined ? {} : { modifiers }),
  };
  // keyDown with text makes Chrome fire keypress and input too; rawKeyDown would fire keydown only.
  // Both sent at once: Chrome dispatches them in order, keyUp after the page handled keyDown
  // (mouse.ts), so only a round trip through chrome.debugger is saved.
  await Promise.all([
    cdp.send('Input.dispatchKeyEvent', {
      type: def.text === '' ? 'rawKeyDown' : 'keyDown',
      ...common,
      text: def.text,
      unmodifiedText: def.text,
    }),
    cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...common }),
  ]);
}

const ENTER = namedKey('Enter') as KeyDefinition;
const DELETE = namedKey('Delete') as KeyDefinition;

export function pressEnter(cdp: CdpClient): Promise<void> {
  return pressKey(cdp, ENTER);
}

export function pressDelete(cdp: CdpClient): Promise<void> {
  return pressKey(cdp, DELETE);
}

/** Types text one character at a time with full key events, for pages that listen to keys. */
export async function typeSlowly(cdp: CdpClient, text: string): Promise<void> {
  for (const char of text) await pressKey(cdp, keyFor(char));
}

function keyFor(char: string): KeyDefinition {
  if (char === '\n' || char === '\r') return ENTER;
  return namedKey(char) ?? characterKey(char);
}
