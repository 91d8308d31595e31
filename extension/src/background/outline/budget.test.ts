import { describe, expect, it } from 'vitest';
import { fitOutline } from './budget';
import { formatOutlineLines } from './format';
import type { OutlineElement, OutlineNode } from './nodes';

let nextRef = 1;
function el(
  role: string,
  children: OutlineNode[] = [],
  name = '',
  withRef = false,
): OutlineElement {
  return {
    kind: 'element',
    role,
    name,
    world: undefined,
    localId: undefined,
    pointer: false,
    states: [],
    value: undefined,
    valueHidden: false,
    url: undefined,
    framed: false,
    ref: withRef ? `e${nextRef++}` : undefined,
    children,
  };
}
const text = (t: string): OutlineNode => ({ kind: 'text', text: t });
const size = (lines: readonly string[]) => lines.reduce((n, l) => n + l.length + 1, 0);

describe('fitOutline', () => {
  it('leaves an outline that fits alone', () => {
    const nodes = [el('heading', [text('Hi')], 'Hi', true)];
    const whole = formatOutlineLines(nodes);
    expect(fitOutline(nodes, whole, 1000)).toEqual({ lines: whole, note: undefined });
  });

  it('writes rows of simple cells on one line, keeping every link and its ref', () => {
    const rows = Array.from({ length: 1000 }, (_, i) =>
      el(
        'row',
        [
          el('cell', [text(String(i + 1))], String(i + 1), true),
          el('cell', [el('link', [text(`Item ${i + 1}`)], `Item ${i + 1}`, true)], '', true),
        ],
        '',
        true,
      ),
    );
    const nodes = [el('table', rows, '', true)];
    const whole = formatOutlineLines(nodes);
    expect(size(whole)).toBeGreaterThan(38_000);
    const fitted = fitOutline(nodes, whole, 38_000);
    expect(size(fitted.lines)).toBeLessThanOrEqual(38_000);
    expect(fitted.lines[1]).toMatch(/^ {2}- row: (1 \| )?link "Item 1" \[e\d+\]$/);
    expect(fitted.note).toMatch(/one line|controls only/);
  });

  it('shortens prose, then leaves it out with a pointer, and keeps the controls after it', () => {
    const long = 'word '.repeat(400);
    const paragraphs = Array.from({ length: 300 }, () => el('paragraph', [text(long)]));
    const section = el('region', [...paragraphs, el('button', [], 'Send', true)], 'Story', true);
    const nodes = [section];
    const whole = formatOutlineLines(nodes);
    const fitted = fitOutline(nodes, whole, 5_000);
    expect(size(fitted.lines)).toBeLessThanOrEqual(5_000);
    expect(fitted.lines.at(-1)).toMatch(/- button "Send" \[e\d+\]/);
    expect(fitted.lines.join('\n')).toMatch(
      /text line\(s\) left out; browser_snapshot \{"ref": "e\d+"\}/,
    );

    const shorter = fitOutline(nodes, whole, 40_000);
    expect(shorter.lines.join('\n')).toMatch(/… \[\+\d+ chars\]/);
    expect(shorter.lines.at(-1)).toMatch(/- button "Send"/);
  });
});
