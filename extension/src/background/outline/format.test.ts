/**
 * Snapshot format against golden files in ./golden: readable, reviewable outlines. Set
 * UPDATE_GOLDEN=1 to rewrite them after an intended format change, then read the diff.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatOutlineLines, refOfLine } from './format';
import { fromWire } from './nodes';
import type { WireNode } from '../page/wire';
import { diffOutlines } from './tabOutline';
import { assignRefs, refFromArg } from '../elements/refTable';
import { cutLines } from '../tools/snapshot';
import { newTabState } from '../testing/fakeContext';

function golden(name: string, actual: string): void {
  const file = new URL(`./golden/${name}`, import.meta.url);
  if (process.env['UPDATE_GOLDEN'] === '1' || !existsSync(file)) writeFileSync(file, `${actual}\n`);
  expect(`${actual}\n`).toBe(readFileSync(file, 'utf8'));
}

const WORLD = { sessionId: undefined, frameId: 'main', contextId: 1 };

/** Page-model output (page/wire.ts) as the worker receives it; ids mark elements that get refs. */
function outlineOf(wire: WireNode[]) {
  const outline = fromWire(wire, WORLD);
  const state = newTabState();
  assignRefs(state, outline);
  return { outline, state };
}

const form: WireNode[] = [
  { r: 'heading', n: 'Sign up', s: ['level=1'], i: 1 },
  {
    r: 'form',
    c: [
      { r: 'textbox', n: 'Name', v: 'Ada', i: 2 },
      { r: 'checkbox', n: 'Terms', s: ['checked'], i: 3 },
      { r: 'radio', n: 'Pro', i: 4 },
      {
        r: 'combobox',
        n: 'Country',
        s: ['expanded'],
        i: 5,
        c: [
          { r: 'option', n: 'France', s: ['selected'], i: 6 },
          { r: 'option', n: 'Japan', i: 7 },
        ],
      },
      { r: 'button', n: 'Send', s: ['disabled'], i: 8 },
    ],
  },
  { r: 'link', n: 'Docs', u: 'https://example.com/docs', i: 9 },
  { r: 'link', n: 'Terms', u: '#terms', i: 10 },
  { r: 'link', n: 'Settings', u: '#/settings', i: 11 },
  { r: 'paragraph', c: ['Plain words: with a colon'] },
  { r: 'paragraph', c: ['A second paragraph.'] },
  { r: 'term', c: ['Plan'] },
  { r: 'definition', c: ['Pro'] },
  { r: 'term', c: ['Alone'] },
];

describe('snapshot format (golden files)', () => {
  it('renders roles, names, states, values and link URLs', () => {
    const { outline } = outlineOf(form);
    golden('form.txt', formatOutlineLines(outline).join('\n'));
  });

  it('replaces subtrees below a depth limit with a line naming a ref to expand', () => {
    const { outline } = outlineOf(form);
    golden('form-depth1.txt', formatOutlineLines(outline, 1).join('\n'));
  });

  it('cuts at maxChars on a line boundary and says how to see the rest', () => {
    const rows: WireNode[] = Array.from({ length: 200 }, (_, i) => ({
      r: 'row',
      i: 1000 + 2 * i,
      c: [{ r: 'cell', n: `Row ${i + 1}`, i: 1001 + 2 * i }],
    }));
    const { outline } = outlineOf([{ r: 'table', c: rows }]);
    const { body, marker } = cutLines(formatOutlineLines(outline), 1000);
    golden('table-cut.txt', `${body}\n${marker ?? ''}`);
  });

  it('diffs by ref: added, removed and changed lines', () => {
    const before = formatOutlineLines(outlineOf(form).outline);
    const after = before
      .filter((line) => !line.includes('"Japan"'))
      .map((line) => line.replace('"Ada"', '"Grace"').replace(': Ada', ': Grace'))
      .concat(['- alert "Saved" [e99]']);
    golden('form-diff.txt', diffOutlines(before, after).join('\n'));
  });

  it('reports the same changes when the outlines share their first and last lines', () => {
    // A seeded walk of edits (change, remove, add, duplicate text) on outlines of refs and text.
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const line = (i: number): string =>
      i % 3 === 0
        ? `- text: t${i % 7}`
        : `- button "B${i}" [e${i}]${next(4) === 0 ? ' [active]' : ''}`;
    for (let round = 0; round < 200; round += 1) {
      const before = Array.from({ length: 5 + next(30) }, (_, i) => line(i));
      const after = [...before];
      for (let edits = next(4); edits >= 0; edits -= 1) {
        const at = next(after.length + 1);
        const kind = next(4);
        if (kind === 0) after.splice(at, 1);
        else if (kind === 1) after.splice(at, 0, `- text: t${next(7)}`);
        else if (kind === 2) after.splice(at, 0, `- link "L${round}" [e${100 + edits}]`);
        else if (after[at] !== undefined) after[at] = `${after[at]}: changed`;
      }
      // Lines unique to each side at both ends keep the whole of both outlines in the diff.
      const whole = diffOutlines(
        ['- text: <', ...before, '- text: >'],
        ['- text: {', ...after, '- text: }'],
      ).filter((l) => !/text: [<>{}]$/.test(l));
      expect([...diffOutlines(before, after)].sort()).toEqual([...whole].sort());
    }
    expect(
      diffOutlines(['- text: a', '- button "B" [e1]'], ['- text: a', '- button "B" [e1]']),
    ).toEqual([]);
  });

  it('does not report the focus moving as a change', () => {
    const before = ['- textbox "Name" [e2] [active]: Al', '- button "Go" [e3]'];
    const after = ['- textbox "Name" [e2]: Al', '- button "Go" [e3] [active]'];
    expect(diffOutlines(before, after)).toEqual([]);
    const typed = ['- textbox "Name" [e2] [active]: Alice', '- button "Go" [e3]'];
    expect(diffOutlines(before, typed)).toEqual(['~ - textbox "Name" [e2]: Alice']);
    // Page text that reads "[active]" is text, not the marker.
    expect(diffOutlines(['- text: a [active]'], ['- text: a'])).toEqual([
      '+ - text: a',
      '- - text: a [active]',
    ]);
  });
});

describe('refs in lines and in arguments', () => {
  it('reads a ref from the head of a line, never from page text', () => {
    expect(refOfLine('  - button "Send" [disabled] [e8]')).toBe('e8');
    expect(refOfLine('- generic [e3] [cursor=pointer]: Pick me')).toBe('e3');
    expect(refOfLine('- heading "Cites [e1]" [level=2] [e7]')).toBe('e7');
    expect(refOfLine('- textbox "Note" [e4]: see [e9]')).toBe('e4');
    expect(refOfLine('- paragraph: see [e4]')).toBeUndefined();
    expect(refOfLine('- text: "[e4]"')).toBeUndefined();
  });

  it('takes a ref as shown, with its brackets, or in Playwright spelling', () => {
    for (const arg of ['e12', '[e12]', 'ref=e12', '[ref=e12]', ' e12 ']) {
      expect(refFromArg(arg)).toBe('e12');
    }
    expect(refFromArg('button')).toBe('button');
  });
});
