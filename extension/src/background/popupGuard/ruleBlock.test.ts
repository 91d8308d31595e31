import { describe, expect, it } from 'vitest';
import { GENERATION_SIZE, pickIncognitoBlock, ruleBlock } from './ruleBlock';

describe('popup rule id blocks', () => {
  it('a regular worker keeps the ids it always had, and alternates its two generations', () => {
    const block = ruleBlock(0);
    expect(block.nextBase([])).toBe(GENERATION_SIZE);
    expect(block.nextBase([GENERATION_SIZE, GENERATION_SIZE + 1])).toBe(1);
    expect(block.nextBase([1, 2])).toBe(GENERATION_SIZE);
    expect(block.owns(1)).toBe(true);
    expect(block.owns(GENERATION_SIZE + 4_999)).toBe(true);
  });

  it("an incognito context's block is never the regular one, nor one a rule in place uses", () => {
    const regular = ruleBlock(0);
    // Random 0 would be block 1; it is taken, so the next draw is used.
    const draws = [0, 0, 0.5];
    const taken = pickIncognitoBlock([5, 200_001, 200_002], () => draws.shift() ?? 0.9);
    expect(taken.offset).not.toBe(0);
    expect(taken.offset).not.toBe(200_000);
    expect(regular.owns(taken.offset + 1)).toBe(false);
    expect(taken.owns(5)).toBe(false);
    expect(taken.owns(200_001)).toBe(false);
    expect(taken.owns(taken.nextBase([]))).toBe(true);
    expect(taken.owns(taken.nextBase([taken.offset + GENERATION_SIZE]))).toBe(true);
  });

  it('two contexts own disjoint ids, and only their own are theirs to remove', () => {
    const a = pickIncognitoBlock([], () => 0.1);
    const aIds = [a.nextBase([]), a.nextBase([]) + 1];
    // The same draw first (its block is taken), then another.
    const draws = [0.1, 0.2];
    const b = pickIncognitoBlock(aIds, () => draws.shift() ?? 0.3);
    const bIds = [b.nextBase([])];
    expect(b.offset).not.toBe(a.offset);
    expect([...aIds, ...bIds].filter((id) => a.owns(id))).toEqual(aIds);
    expect([...aIds, ...bIds].filter((id) => b.owns(id))).toEqual(bIds);
  });

  it('gives up rather than share a block when every draw is taken', () => {
    const a = pickIncognitoBlock([], () => 0.5);
    expect(() => pickIncognitoBlock([a.offset + 1], () => 0.5)).toThrow('No free block');
  });

  it('every id stays a 32-bit signed integer', () => {
    const last = pickIncognitoBlock([], () => 0.999999999);
    expect(
      last.nextBase([last.offset + GENERATION_SIZE]) + GENERATION_SIZE * 2,
    ).toBeLessThanOrEqual(2 ** 31 - 1 + GENERATION_SIZE);
    expect(last.owns(2 ** 31 - 1 + 1)).toBe(false);
    expect(last.offset + 2 * GENERATION_SIZE - 1).toBeLessThanOrEqual(2 ** 31 - 1);
  });
});
