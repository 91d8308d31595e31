import { median, slope } from '../stats.js';

/** One measured series over time, e.g. the daemon's RSS. */
export interface Series {
  name: string;
  /** Growth allowed between the first and the last quarter: the larger of the two. */
  tolerance: { fraction: number; mib: number };
  points: Array<{ minute: number; mib: number }>;
}

export interface TrendVerdict {
  name: string;
  firstQuarterMiB: number;
  lastQuarterMiB: number;
  growthMiB: number;
  allowedMiB: number;
  slopeMiBPerMinute: number;
  grew: boolean;
}

/** Samples taken while caches and JITs warm up are left out of the comparison. */
const WARMUP_FRACTION = 0.2;

/**
 * No-growth check robust to noise: after the warm-up, the median of the first quarter of the
 * samples against the median of the last quarter, with a tolerance. The least-squares slope is
 * reported beside it, for the reader.
 */
export function judgeTrend(series: Series): TrendVerdict {
  const kept = series.points.slice(Math.floor(series.points.length * WARMUP_FRACTION));
  const quarter = Math.max(1, Math.floor(kept.length / 4));
  const first = median(kept.slice(0, quarter).map((p) => p.mib));
  const last = median(kept.slice(-quarter).map((p) => p.mib));
  const allowed = Math.max(series.tolerance.mib, first * series.tolerance.fraction);
  return {
    name: series.name,
    firstQuarterMiB: first,
    lastQuarterMiB: last,
    growthMiB: last - first,
    allowedMiB: allowed,
    slopeMiBPerMinute: slope(kept.map((p) => ({ x: p.minute, y: p.mib }))),
    grew: last - first > allowed,
  };
}
