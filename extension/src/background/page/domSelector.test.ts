import { describe, expect, it } from 'vitest';
import { makeShadowSelector } from './domSelector';

const { parse } = makeShadowSelector();

describe('shadow-piercing selector parsing', () => {
  it('splits at top-level combinators and commas only', () => {
    expect(parse('#host  form>button.primary, a ~ b + c')).toEqual([
      { compounds: ['#host', 'form', 'button.primary'], combinators: [' ', '>'] },
      { compounds: ['a', 'b', 'c'], combinators: ['~', '+'] },
    ]);
  });

  it('keeps brackets, parentheses, quotes and escapes inside one compound', () => {
    expect(parse('[aria-label="a > b, c"] :not(.x .y) #a\\ b')).toEqual([
      {
        compounds: ['[aria-label="a > b, c"]', ':not(.x .y)', '#a\\ b'],
        combinators: [' ', ' '],
      },
    ]);
  });
});
