import { describe, expect, it } from 'vitest';
import { parseChord } from './chords';
import { caught } from '../testing/caught';

describe('parseChord', () => {
  it('reads modifiers and a letter; Control makes it a shortcut that types nothing', () => {
    expect(parseChord('Control+Shift+R')).toMatchObject({
      modifiers: 2 | 8,
      held: ['Control', 'Shift'],
      key: 'R',
      code: 'KeyR',
      keyCode: 82,
      text: '',
    });
  });

  it('knows named keys, aliases and the plus key', () => {
    expect(parseChord('Enter')).toMatchObject({ key: 'Enter', keyCode: 13, text: '\r' });
    expect(parseChord('Ctrl+ArrowDown')).toMatchObject({ modifiers: 2, key: 'ArrowDown' });
    expect(parseChord('Shift++')).toMatchObject({ modifiers: 8, key: '+', text: '+' });
    expect(parseChord('a')).toMatchObject({ key: 'a', code: 'KeyA', text: 'a' });
  });

  it('refuses unknown modifiers and keys with INVALID_ARGS', async () => {
    expect((await caught(Promise.resolve().then(() => parseChord('Hyper+X')))).code).toBe(
      'INVALID_ARGS',
    );
    expect((await caught(Promise.resolve().then(() => parseChord('Bogus')))).code).toBe(
      'INVALID_ARGS',
    );
  });
});
