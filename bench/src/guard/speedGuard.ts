/**
 * The speed guard's verdict (`pnpm bench:guard`, issue #26): the bridge's suite passes against
 * the in-process playwright-core floor's, run interleaved in one process, judged by ratios only.
 * The suite's median pass and each step kind's median step must stay within their bounds; a
 * step kind the floor does in no measurable time (console: an in-memory list) is shown, not
 * judged, since no ratio of it means anything.
 */
import type { SuitePass, SuiteResult } from '../runner/runSuite.js';
import { median } from '../stats.js';

export interface GuardBounds {
  /** Median bridge pass ÷ median floor pass. */
  suite: number;
  /** Median bridge step ÷ median floor step, per step kind. */
  step: number;
}

/**
 * Margins that hold on a busy 2-core machine; tighten them as they prove stable. The suite's was
 * 1.6× until session 34: in the runs since session 26 (CI's guard and `pnpm bench`) the suite
 * stayed at 0.80-1.02× the floor, so it is now the 1.3× issue #26 asks of the suite. The step
 * kinds' 2.5× stays: select, evaluate and type, the floor's shortest steps, still reach 2.0-2.3×
 * in some CI runs (docs/status.md).
 */
export const GUARD_BOUNDS: GuardBounds = { suite: 1.3, step: 2.5 };

/**
 * The step kinds the issue names; `submit` is a type that presses Enter (recordingAgent.ts).
 */
export const JUDGED_STEPS: readonly string[] = [
  'navigate',
  'click',
  'type',
  'submit',
  'select',
  'evaluate',
  'snapshot',
  'tabs',
  'screenshot',
];

/**
 * Step kinds judged and shown but not enforced, and why. A click's own step is not the same work
 * on both sides: the bridge's click waits for what it started (the SPA's request, a link's new
 * page) and reports the change, while the floor's returns at once and leaves that wait to the
 * agent's next step; in the suite three of five clicks start something, so the bridge's median
 * click is one of those and the floor's is not (docs/benchmarks.md, session 18).
 */
export const REPORTED_STEPS: Readonly<Record<string, string>> = {
  click: 'waits for what it started; the floor leaves that to its next step',
  // The same for a type that presses Enter: the login's submit loads the welcome page, which the
  // bridge waits for and reports; the floor's press returns once the navigation commits.
  submit: 'waits for what Enter started; the floor leaves that to its next step',
  // Measured since session 30, not yet enforced: the floor's select is its shortest judged step
  // (6-9 ms), so the bridge's fixed cost per call (~5 ms of hops) alone swings the ratio 1.2-3.2x
  // from run to run. Enforced, it failed CI at 3.23x (20.7 against 6.4 ms) the run after 2.12x.
  select: "the floor's 6-9 ms step: the bridge's fixed cost per call swings it 1.2-3.2x",
};

export interface GuardRow {
  step: string;
  bridgeMs: number;
  floorMs: number;
  ratio: number;
  judged: boolean;
  /** Judged, and its bound fails the guard (not only reported). */
  enforced: boolean;
  ok: boolean;
}

export interface GuardVerdict {
  rows: GuardRow[];
  suite: { bridgeMs: number; floorMs: number; ratio: number; ok: boolean };
  /** Everything that fails the guard, a line each. */
  failures: string[];
  /** The enforced step kinds past their bound (their lines are among the failures). */
  slowSteps: string[];
}

function slowLine(row: GuardRow, bounds: GuardBounds): string {
  return `${row.step}: ${row.ratio.toFixed(2)}× the floor (bound ${String(bounds.step)}×)`;
}

function stepMedian(passes: readonly SuitePass[], step: string): number {
  return median(passes.flatMap((p) => p.steps.filter((s) => s.step === step).map((s) => s.ms)));
}

export interface GuardOptions {
  /**
   * False: a step kind past its bound is shown as too slow but does not fail the guard; only the
   * suite's bound does (`--steps=report`, for a look at a build known to be slow).
   */
  enforceSteps: boolean;
}

export function judge(
  result: SuiteResult,
  bounds: GuardBounds = GUARD_BOUNDS,
  options: GuardOptions = { enforceSteps: true },
): GuardVerdict {
  const bridge = result.passes.bridge ?? [];
  const floor = result.passes.floor ?? [];
  const failures: string[] = [];
  if (result.error !== undefined) failures.push(`the suite failed: ${result.error}`);
  if (bridge.length === 0 || floor.length === 0) failures.push('no timed passes to compare');
  const kinds = [...new Set(bridge.flatMap((p) => p.steps.map((s) => s.step)))];
  const rows = kinds.map((step): GuardRow => {
    const bridgeMs = stepMedian(bridge, step);
    const floorMs = stepMedian(floor, step);
    const ratio = bridgeMs / floorMs;
    const judged = JUDGED_STEPS.includes(step) && Number.isFinite(ratio);
    const enforced = judged && options.enforceSteps && REPORTED_STEPS[step] === undefined;
    return {
      step,
      bridgeMs,
      floorMs,
      ratio,
      judged,
      enforced,
      ok: !judged || ratio <= bounds.step,
    };
  });
  const slow = rows.filter((r) => r.enforced && !r.ok);
  failures.push(...slow.map((r) => slowLine(r, bounds)));
  const bridgeMs = median(bridge.map((p) => p.wallMs));
  const floorMs = median(floor.map((p) => p.wallMs));
  const ratio = bridgeMs / floorMs;
  const ok = Number.isFinite(ratio) && ratio <= bounds.suite;
  if (!ok && Number.isFinite(ratio))
    failures.push(`suite: ${ratio.toFixed(2)}× the floor (bound ${String(bounds.suite)}×)`);
  return {
    rows,
    suite: { bridgeMs, floorMs, ratio, ok },
    failures,
    slowSteps: slow.map((r) => r.step),
  };
}

/**
 * The verdict of a second measurement taken because the first had step kinds past their bound:
 * a step kind fails only when it is past its bound in both (one slow moment of a shared 2-core
 * machine moves a median of three passes); everything else is the second's own verdict.
 */
export function judgedTwice(
  first: GuardVerdict,
  second: GuardVerdict,
  bounds: GuardBounds = GUARD_BOUNDS,
): GuardVerdict {
  const slowSteps = second.slowSteps.filter((step) => first.slowSteps.includes(step));
  const passedOnce = new Set(
    second.rows
      .filter((r) => second.slowSteps.includes(r.step) && !slowSteps.includes(r.step))
      .map((r) => slowLine(r, bounds)),
  );
  return {
    ...second,
    failures: second.failures.filter((f) => !passedOnce.has(f)),
    slowSteps,
  };
}
