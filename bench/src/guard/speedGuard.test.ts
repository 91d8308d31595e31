import { describe, expect, it } from 'vitest';
import type { SuitePass } from '../runner/runSuite.js';
import { GUARD_BOUNDS, judge, judgedTwice } from './speedGuard.js';

function pass(steps: Array<[string, number]>): SuitePass {
  const wallMs = steps.reduce((sum, [, ms]) => sum + ms, 0);
  return {
    wallMs,
    flows: [{ id: 'f', wallMs }],
    steps: steps.map(([step, ms]) => ({ step, ms, textChars: 1, imageChars: 0 })),
  };
}

describe('speed guard', () => {
  it('passes within the bounds and names each step kind with both medians and the ratio', () => {
    const v = judge({
      passes: {
        bridge: [
          pass([
            ['click', 40],
            ['navigate', 95],
            ['console', 5],
          ]),
        ],
        floor: [
          pass([
            ['click', 20],
            ['navigate', 90],
            ['console', 0],
          ]),
        ],
      },
    });
    expect(v.failures).toEqual([]);
    expect(v.rows.find((r) => r.step === 'click')).toMatchObject({
      bridgeMs: 40,
      floorMs: 20,
      ratio: 2,
      judged: true,
      ok: true,
    });
    // The floor reads its console in no time: shown, not judged.
    expect(v.rows.find((r) => r.step === 'console')).toMatchObject({ judged: false, ok: true });
  });

  it('fails a step kind past 2.5× and a suite past 1.3×', () => {
    const v = judge({
      passes: {
        bridge: [
          pass([
            ['type', 260],
            ['navigate', 500],
          ]),
        ],
        floor: [
          pass([
            ['type', 100],
            ['navigate', 500],
          ]),
        ],
      },
    });
    expect(v.failures).toEqual(['type: 2.60× the floor (bound 2.5×)']);
    expect(v.slowSteps).toEqual(['type']);
    const slow = judge({
      passes: {
        bridge: [
          pass([
            ['click', 240],
            ['navigate', 100],
          ]),
        ],
        floor: [
          pass([
            ['click', 100],
            ['navigate', 100],
          ]),
        ],
      },
    });
    expect(slow.suite.ratio).toBeCloseTo(1.7);
    expect(slow.failures).toEqual(['suite: 1.70× the floor (bound 1.3×)']);
    // Past 1.3× fails now; the bound was 1.6× until session 34.
    const slower = judge({
      passes: {
        bridge: [
          pass([
            ['click', 170],
            ['navigate', 100],
          ]),
        ],
        floor: [
          pass([
            ['click', 100],
            ['navigate', 100],
          ]),
        ],
      },
    });
    expect(slower.suite.ratio).toBeCloseTo(1.35);
    expect(slower.failures).toEqual(['suite: 1.35× the floor (bound 1.3×)']);
  });

  it('fails when the suite failed or has no passes', () => {
    expect(judge({ passes: {}, error: 'bridge flow login: boom' }).failures).toEqual([
      'the suite failed: bridge flow login: boom',
      'no timed passes to compare',
    ]);
  });
});

describe('speed guard, step kinds reported only (--steps=report)', () => {
  const slowType = {
    passes: {
      bridge: [
        pass([
          ['type', 90],
          ['navigate', 100],
        ]),
      ],
      floor: [
        pass([
          ['type', 20],
          ['navigate', 150],
        ]),
      ],
    },
  };

  it('shows a step kind past its bound without failing on it', () => {
    const v = judge(slowType, GUARD_BOUNDS, { enforceSteps: false });
    expect(v.rows.find((r) => r.step === 'type')).toMatchObject({
      judged: true,
      enforced: false,
      ok: false,
    });
    expect(v.failures).toEqual([]);
    expect(judge(slowType).failures).toEqual(['type: 4.50× the floor (bound 2.5×)']);
  });

  it('still fails on the suite', () => {
    const slowSuite = {
      passes: {
        bridge: [pass([['navigate', 300]])],
        floor: [pass([['navigate', 100]])],
      },
    };
    expect(judge(slowSuite, GUARD_BOUNDS, { enforceSteps: false }).failures).toEqual([
      'suite: 3.00× the floor (bound 1.3×)',
    ]);
  });
});

describe('speed guard, the click kind and a second measurement', () => {
  // A long navigate, the same on both sides, keeps the whole suite within its bound.
  const slow = (kinds: Array<[string, number]>) => ({
    passes: {
      bridge: [pass([...kinds, ['navigate', 1_000]])],
      floor: [pass([...kinds.map(([k]) => [k, 20] as [string, number]), ['navigate', 1_000]])],
    },
  });

  it('shows a click past its bound, and does not fail on it', () => {
    const v = judge(slow([['click', 90]]));
    expect(v.rows.find((r) => r.step === 'click')).toMatchObject({
      judged: true,
      enforced: false,
      ok: false,
    });
    expect(v.failures).toEqual([]);
  });

  it('judges a type that presses Enter apart from the plain types, and only reports it', () => {
    const v = judge(
      slow([
        ['submit', 200],
        ['type', 60],
      ]),
    );
    expect(v.rows.find((r) => r.step === 'submit')).toMatchObject({
      judged: true,
      enforced: false,
      ok: false,
    });
    // The plain types keep their bound.
    expect(v.failures).toEqual(['type: 3.00× the floor (bound 2.5×)']);
  });

  it('fails a step kind only when it is past its bound in both measurements', () => {
    const first = judge(
      slow([
        ['type', 60],
        ['evaluate', 60],
      ]),
    );
    expect(first.slowSteps).toEqual(['type', 'evaluate']);
    const second = judge(
      slow([
        ['type', 60],
        ['evaluate', 30],
      ]),
    );
    const v = judgedTwice(first, second);
    expect(v.slowSteps).toEqual(['type']);
    expect(v.failures).toEqual(['type: 3.00× the floor (bound 2.5×)']);
    // Slow the second time only: no failure either.
    expect(judgedTwice(judge(slow([['type', 30]])), judge(slow([['type', 60]]))).failures).toEqual(
      [],
    );
  });

  it("keeps the second measurement's own failures (the suite's bound)", () => {
    const first = judge(slow([['type', 60]]));
    const second = judge({
      passes: { bridge: [pass([['navigate', 300]])], floor: [pass([['navigate', 100]])] },
    });
    expect(judgedTwice(first, second).failures).toEqual(['suite: 3.00× the floor (bound 1.3×)']);
  });
});
