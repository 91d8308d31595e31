import type { CdpClient } from '../cdp';

interface KeyDefinition {
  key: string;
  code: string;
  keyCode: number;
  text: string;
}

const ENTER: KeyDefinition = { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' };

export async function pressKey(cdp: CdpClient, def: KeyDefinition): Promise<void> {
  const common = {
    key: def.key,
    code: def.code,
    windowsVirtualKeyCode: def.keyCode,
    nativeVirtualKeyCode: def.keyCode,
  };
  // keyDown with text makes Chrome fire keypress and input too; rawKeyDown would fire keydown only.
  await cdp.send('Input.dispatchKeyEvent', {
    type: def.text === '' ? 'rawKeyDown' : 'keyDown',
    ...common,
    text: def.text,
    unmodifiedText: def.text,
  });
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...common });
}

export function pressEnter(cdp: CdpClient): Promise<void> {
  return pressKey(cdp, ENTER);
}

export function pressDelete(cdp: CdpClient): Promise<void> {
  return pressKey(cdp, { key: 'Delete', code: 'Delete', keyCode: 46, text: '' });
}

/** Types text one character at a time with full key events, for pages that listen to keys. */
export async function typeSlowly(cdp: CdpClient, text: string): Promise<void> {
  for (const char of text) await pressKey(cdp, keyFor(char));
}

function keyFor(char: string): KeyDefinition {
  if (char === '\n' || char === '\r') return ENTER;
  const upper = char.toUpperCase();
  if (/^[A-Z]$/.test(upper))
    return { key: char, code: `Key${upper}`, keyCode: upper.charCodeAt(0), text: char };
  if (/^\d$/.test(char))
    return { key: char, code: `Digit${char}`, keyCode: char.charCodeAt(0), text: char };
  if (char === ' ') return { key: ' ', code: 'Space', keyCode: 32, text: ' ' };
  return { key: char, code: '', keyCode: 0, text: char };
}
