import { describe, expect, it } from 'vitest';
import { LineSplitter } from './ndjson.js';

describe('LineSplitter', () => {
  it('joins lines split across chunks and skips blank ones', () => {
    const lines: string[] = [];
    const s = new LineSplitter(
      (l) => lines.push(l),
      () => lines.push('!oversize'),
    );
    s.push('{"a":');
    s.push('1}\n\n{"b":2}\n{"c"');
    s.push(':3}\n');
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });
  it('drops an oversized line without buffering it, then carries on', () => {
    const lines: string[] = [];
    const s = new LineSplitter(
      (l) => lines.push(l),
      () => lines.push('!oversize'),
      10,
    );
    s.push('x'.repeat(8));
    s.push('x'.repeat(8));
    s.push('xxx\nok\n');
    expect(lines).toEqual(['!oversize', 'ok']);
  });
});
