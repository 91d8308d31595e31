/** Key chords like "Control+Shift+R": parsed into modifiers and one key, then pressed. */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { CdpClient } from '../cdp';
import { characterKey, namedKey, pressKey } from './keyboard';

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
  const named = namedKey(keyName);
  if (named !== undefined) return { modifiers, held: names, ...named };
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
  const typed = characterKey(keyName, (modifiers & SHIFT) !== 0);
  // With Control, Alt or Meta held the key is a shortcut: it types nothing.
  return { modifiers, held: names, ...typed, text: (modifiers & ~SHIFT) !== 0 ? '' : typed.text };
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
  await pressKey(cdp, chord, chord.modifiers);
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
