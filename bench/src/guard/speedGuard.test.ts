import { describe, expect, it } from 'vitest';
import type { SuitePass } from '../runner/runSuite.js';
import { GUARD_BOUNDS, judge } from './speedGuard.js';

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
            ['navigate', 100],
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

  it('fails a step kind past 2.5× and a suite past 1.6×', () => {
    const v = judge({
      passes: {
        bridge: [
          pass([
            ['click', 260],
            ['navigate', 400],
          ]),
        ],
        floor: [
          pass([
            ['click', 100],
            ['navigate', 400],
          ]),
        ],
      },
    });
    expect(v.failures).toEqual(['click: 2.60× the floor (bound 2.5×)']);
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
    expect(slow.failures).toEqual(['suite: 1.70× the floor (bound 1.6×)']);
  });

  it('fails when the suite failed or has no passes', () => {
    expect(judge({ passes: {}, error: 'bridge flow login: boom' }).failures).toEqual([
      'the suite failed: bridge flow login: boom',
      'no timed passes to compare',
    ]);
  });
});

describe('speed guard, step kinds reported only (CI until each holds its bound)', () => {
  const slowClick = {
    passes: {
      bridge: [
        pass([
          ['click', 90],
          ['navigate', 100],
        ]),
      ],
      floor: [
        pass([
          ['click', 20],
          ['navigate', 150],
        ]),
      ],
    },
  };

  it('shows a step kind past its bound without failing on it', () => {
    const v = judge(slowClick, GUARD_BOUNDS, { enforceSteps: false });
    expect(v.rows.find((r) => r.step === 'click')).toMatchObject({ judged: true, ok: false });
    expect(v.failures).toEqual([]);
    expect(judge(slowClick).failures).toEqual(['click: 4.50× the floor (bound 2.5×)']);
  });

  it('still fails on the suite', () => {
    const slowSuite = {
      passes: {
        bridge: [pass([['navigate', 300]])],
        floor: [pass([['navigate', 100]])],
      },
    };
    expect(judge(slowSuite, GUARD_BOUNDS, { enforceSteps: false }).failures).toEqual([
      'suite: 3.00× the floor (bound 1.6×)',
    ]);
  });
});
