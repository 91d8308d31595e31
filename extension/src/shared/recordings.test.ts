import { describe, expect, it } from 'vitest';
import { MAX_BYTES_TOTAL, MAX_STEPS_PER_SESSION, MAX_STEPS_TOTAL, stepsToDrop } from './recordings';

function steps(count: number, sessionOf: (i: number) => string, size = 1_000) {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    sessionId: sessionOf(i),
    image: { size },
  }));
}

describe('the recording bounds', () => {
  it('drops nothing within the bounds', () => {
    expect(
      stepsToDrop(
        steps(MAX_STEPS_PER_SESSION, () => 'a'),
        'a',
      ),
    ).toEqual([]);
  });

  it('drops the oldest steps of a session past its own bound, not another session’s', () => {
    const list = [
      ...steps(1, () => 'b'),
      ...steps(MAX_STEPS_PER_SESSION + 2, () => 'a').map((s) => ({ ...s, id: s.id + 1 })),
    ];
    expect(stepsToDrop(list, 'a')).toEqual([2, 3]);
  });

  it('drops the oldest steps of every session past the overall count', () => {
    const sessions = Math.ceil(MAX_STEPS_TOTAL / MAX_STEPS_PER_SESSION) + 1;
    const list = steps(MAX_STEPS_TOTAL + 5, (i) => `s${i % sessions}`);
    const dropped = stepsToDrop(list, 's0');
    expect(list.length - dropped.length).toBe(MAX_STEPS_TOTAL);
    expect(dropped).toEqual([1, 2, 3, 4, 5]);
  });

  it('drops the oldest pictures past the overall size, and never the newest step', () => {
    const big = Math.ceil(MAX_BYTES_TOTAL / 4);
    const list = steps(6, (i) => `s${i}`, big);
    // Four quarters fit exactly; the two oldest of six go.
    expect(stepsToDrop(list, 's5')).toEqual([1, 2]);
    expect(
      stepsToDrop(
        steps(1, () => 'a', MAX_BYTES_TOTAL * 2),
        'a',
      ),
    ).toEqual([]);
  });
});
