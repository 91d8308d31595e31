/** Key chords like "Control+Shift+R": parsed into modifiers and one key, then pressed. */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { CdpClient } from '../cdp';

const SHIFT = 8;
const MODIFIER_BITS: Record<string, number> = { Alt: 1, Control: 2, Meta: 4, Shift: SHIFT };
const MODIFIER_CODES: Record<string, [string, number]> = {
  Alt: ['AltLeft', 18],
  Control: ['ControlLeft', 17],
  Meta: ['MetaLeft', 91],
  Shift: ['ShiftLeft', 16],
};
const ALIASES: Record<string, string> = {
  Ctrl: 'Control',
  Cmd: 'Meta',
  Command: 'Meta',
  Option: 'Alt',
  Esc: 'Escape',
  Return: 'Enter',
  Space: ' ',
};

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

export interface Chord {
  modifiers: number;
  held: string[];
  key: string;
  code: string;
  keyCode: number;
  text: string;
}

export function parseChord(raw: string): Chord {
  // "+" alone, or a chord ending in "+", means the plus key.
  const parts =
    raw === '+'
      ? ['+']
      : raw.endsWith('++')
        ? [...raw.slice(0, -2).split('+'), '+']
        : raw.split('+');
  const names = parts.map((p) => ALIASES[p] ?? p);
  const keyName = names.pop() ?? '';
  let modifiers = 0;
  for (const name of names) {
    const bit = MODIFIER_BITS[name];
    if (bit === undefined) {
      throw new BridgeError(
        ErrorCode.INVALID_ARGS,
        `"${name}" in "${raw}" is not a modifier (Alt, Control, Meta, Shift).`,
        'Write chords like "Control+Shift+R".',
      );
    }
    modifiers |= bit;
  }
  const named = NAMED[keyName];
  if (named !== undefined) {
    const [code, keyCode, text] = named;
    return { modifiers, held: names, key: keyName, code, keyCode, text };
  }
  const modifierKey = MODIFIER_CODES[keyName];
  if (modifierKey !== undefined) {
    return {
      modifiers,
      held: names,
      key: keyName,
      code: modifierKey[0],
      keyCode: modifierKey[1],
      text: '',
    };
  }
  if ([...keyName].length !== 1) {
    throw new BridgeError(
      ErrorCode.INVALID_ARGS,
      `Unknown key "${keyName}".`,
      'Use one character or a key name such as Enter, Tab, Escape, ArrowDown, PageUp, F5.',
    );
  }
  const upper = keyName.toUpperCase();
  const letter = /^[A-Z]$/.test(upper);
  const digit = /^\d$/.test(keyName);
  const shifted = (modifiers & SHIFT) !== 0;
  return {
    modifiers,
    held: names,
    key: letter && shifted ? upper : keyName,
    code: letter ? `Key${upper}` : digit ? `Digit${keyName}` : '',
    keyCode: letter || digit ? upper.charCodeAt(0) : 0,
    // With Control, Alt or Meta held a key is a shortcut and types nothing.
    text: (modifiers & ~SHIFT) !== 0 ? '' : letter && shifted ? upper : keyName,
  };
}

export async function pressChord(cdp: CdpClient, chord: Chord): Promise<void> {
  let held = 0;
  for (const name of chord.held) {
    const [code, keyCode] = MODIFIER_CODES[name] ?? ['', 0];
    held |= MODIFIER_BITS[name] ?? 0;
    await cdp.send('Input.dispatchKeyEvent', {
      type: 'rawKeyDown',
      key: name,
      code,
      windowsVirtualKeyCode: keyCode,
      modifiers: held,
    });
  }
  const common = {
    key: chord.key,
    code: chord.code,
    windowsVirtualKeyCode: chord.keyCode,
    nativeVirtualKeyCode: chord.keyCode,
    modifiers: chord.modifiers,
  };
  await cdp.send('Input.dispatchKeyEvent', {
    type: chord.text === '' ? 'rawKeyDown' : 'keyDown',
    ...common,
    text: chord.text,
    unmodifiedText: chord.text,
  });
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...common });
  for (const name of [...chord.held].reverse()) {
    const [code, keyCode] = MODIFIER_CODES[name] ?? ['', 0];
    held &= ~(MODIFIER_BITS[name] ?? 0);
    await cdp.send('Input.dispatchKeyEvent', {
      type: 'keyUp',
      key: name,
      code,
      windowsVirtualKeyCode: keyCode,
      modifiers: held,
    });
  }
}
