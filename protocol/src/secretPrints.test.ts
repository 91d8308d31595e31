import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { findPrinted, printOf, secretPrintsOf, secretPrintsSchema } from './secretPrints.js';

const BASES: [number, number] = [131_071, 4_000_037];

/** A repeatable stream of printable code units (xorshift32). */
function noise(length: number, seed: number): string {
  let x = seed;
  let out = '';
  for (let i = 0; i < length; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out += String.fromCharCode(32 + ((x >>> 0) % 95));
  }
  return out;
}

describe('secret prints', () => {
  it('finds each value wherever it stands, and nothing else', () => {
    const prints = secretPrintsOf(['hunter22', 'sk-live-XYZ'], BASES);
    const text = 'hunter22 said sk-live-XYZ, then hunter2 and sk-live-XY and hunter22';
    expect(findPrinted(text, prints).map(([a, b]) => text.slice(a, b))).toEqual([
      'hunter22',
      'sk-live-XYZ',
      'hunter22',
    ]);
  });

  it('merges overlapping and touching spans into one', () => {
    const prints = secretPrintsOf(['abab'], BASES);
    expect(findPrinted('xababab', prints)).toEqual([[1, 7]]);
    expect(findPrinted('ababababx', prints)).toEqual([[0, 8]]);
  });

  it('counts UTF-16 code units, as the page and the server both do', () => {
    const value = 'pä😀ss';
    const prints = secretPrintsOf([value], BASES);
    expect(prints.marks[0]?.length).toBe(6);
    const text = `« ${value} »`;
    const [span] = findPrinted(text, prints);
    expect(span && text.slice(span[0], span[1])).toBe(value);
  });

  it('agrees with printOf for every window and finds no value in 200,000 units of noise', () => {
    const text = noise(200_000, 7);
    const value = text.slice(123_456, 123_476);
    expect(findPrinted(text, secretPrintsOf([value], BASES))).toEqual([[123_456, 123_476]]);
    const absent = secretPrintsOf(['not-in-the-noise-§§'], BASES);
    expect(findPrinted(text, absent)).toEqual([]);
    expect(printOf(value, BASES[0])).toBe(secretPrintsOf([value], BASES).marks[0]?.prints[0]);
  });

  it('handles values longer than the text, and empty ones are left out', () => {
    const prints = secretPrintsOf(['', 'longer than the text'], BASES);
    expect(prints.marks).toHaveLength(1);
    expect(findPrinted('short', prints)).toEqual([]);
    expect(findPrinted('', prints)).toEqual([]);
  });

  it('crosses the wire as the schema says, and the schema refuses bases a double cannot carry', () => {
    const prints = secretPrintsOf(['a', 'bb'], BASES);
    expect(secretPrintsSchema.parse(JSON.parse(JSON.stringify(prints)))).toEqual(prints);
    expect(() => secretPrintsSchema.parse({ ...prints, bases: [2 ** 22, 3] })).toThrow();
  });

  it('closes over nothing, so the page model can carry it as source text', () => {
    // A fresh context has none of this module's bindings: a closure over them would throw.
    const rebuilt = runInNewContext(`(${findPrinted.toString()})`) as typeof findPrinted;
    const prints = secretPrintsOf(['needle'], BASES);
    expect(rebuilt('hay needle hay', prints)).toEqual([[4, 10]]);
  });
});
