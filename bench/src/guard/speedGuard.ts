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

/** Margins that hold on a busy 2-core machine; tighten them as they prove stable. */
export const GUARD_BOUNDS: GuardBounds = { suite: 1.6, step: 2.5 };

/** The step kinds the issue names (the suite has no select step yet). */
export const JUDGED_STEPS: readonly string[] = [
  'navigate',
  'click',
  'type',
  'select',
  'evaluate',
  'snapshot',
  'tabs',
  'screenshot',
];

export interface GuardRow {
  step: string;
  bridgeMs: number;
  floorMs: number;
  ratio: number;
  judged: boolean;
  ok: boolean;
}

export interface GuardVerdict {
  rows: GuardRow[];
  suite: { bridgeMs: number; floorMs: number; ratio: number; ok: boolean };
  failures: string[];
}

function stepMedian(passes: readonly SuitePass[], step: string): number {
  return median(passes.flatMap((p) => p.steps.filter((s) => s.step === step).map((s) => s.ms)));
}

export interface GuardOptions {
  /**
   * False: a step kind past its bound is shown as too slow but does not fail the guard; only the
   * suite's bound does. CI runs it so (scripts/test.sh) until every step kind holds its bound.
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
    const ok = !judged || ratio <= bounds.step;
    if (!ok && options.enforceSteps)
      failures.push(`${step}: ${ratio.toFixed(2)}× the floor (bound ${String(bounds.step)}×)`);
    return { step, bridgeMs, floorMs, ratio, judged, ok };
  });
  const bridgeMs = median(bridge.map((p) => p.wallMs));
  const floorMs = median(floor.map((p) => p.wallMs));
  const ratio = bridgeMs / floorMs;
  const ok = Number.isFinite(ratio) && ratio <= bounds.suite;
  if (!ok && Number.isFinite(ratio))
    failures.push(`suite: ${ratio.toFixed(2)}× the floor (bound ${String(bounds.suite)}×)`);
  return { rows, suite: { bridgeMs, floorMs, ratio, ok }, failures };
}
