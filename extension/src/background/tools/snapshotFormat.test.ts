/**
 * Snapshot format against golden files in ./golden: readable, reviewable outlines. Set
 * UPDATE_GOLDEN=1 to rewrite them after an intended format change, then read the diff.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOutline } from './axOutline';
import { formatOutlineLines } from './outlineFormat';
import { diffOutlines } from './pageModel';
import { assignRefs } from './refTable';
import { cutLines } from './snapshot';
import { axTree, text, type AXSpec } from './testing/axTree';
import { newTabState } from './testing/fakeContext';

function golden(name: string, actual: string): void {
  const file = new URL(`./golden/${name}`, import.meta.url);
  if (process.env['UPDATE_GOLDEN'] === '1' || !existsSync(file)) writeFileSync(file, `${actual}\n`);
  expect(`${actual}\n`).toBe(readFileSync(file, 'utf8'));
}

function outlineOf(children: AXSpec[]) {
  const outline = buildOutline(axTree({ role: 'RootWebArea', children }));
  const state = newTabState();
  assignRefs(state, outline);
  return { outline, state };
}

const form: AXSpec[] = [
  { role: 'heading', name: 'Sign up', props: { level: 1 } },
  {
    role: 'form',
    children: [
      {
        role: 'textbox',
        name: 'Name',
        value: 'Ada',
        props: { editable: 'plaintext', focusable: true },
      },
      { role: 'checkbox', name: 'Terms', props: { checked: 'true', focusable: true } },
      { role: 'radio', name: 'Pro', props: { checked: 'false', focusable: true } },
      {
        role: 'combobox',
        name: 'Country',
        props: { expanded: true, focusable: true },
        children: [
          { role: 'option', name: 'France', props: { selected: true } },
          { role: 'option', name: 'Japan' },
        ],
      },
      { role: 'button', name: 'Send', props: { disabled: true } },
    ],
  },
  {
    role: 'link',
    name: 'Docs',
    props: { url: 'https://example.com/docs', focusable: true },
    children: [text('Docs')],
  },
  { role: 'paragraph', children: [text('Plain words: with a colon')] },
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
    const rows: AXSpec[] = Array.from({ length: 200 }, (_, i) => ({
      role: 'row',
      children: [{ role: 'cell', name: `Row ${i + 1}` }],
    }));
    const { outline } = outlineOf([{ role: 'table', children: rows }]);
    const { body, marker } = cutLines(formatOutlineLines(outline), 1000);
    golden('table-cut.txt', `${body}\n${marker ?? ''}`);
  });

  it('diffs by ref: added, removed and changed lines', () => {
    const before = formatOutlineLines(outlineOf(form).outline);
    const after = before
      .filter((line) => !line.includes('"Japan"'))
      .map((line) => line.replace('"Ada"', '"Grace"').replace(': Ada', ': Grace'))
      .concat(['- alert "Saved" [ref=e99]']);
    golden('form-diff.txt', diffOutlines(before, after).join('\n'));
  });
});
