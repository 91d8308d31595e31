import { describe, expect, it, vi } from 'vitest';
import { BusyClock } from './busyClock';

describe('BusyClock', () => {
  it('counts overlapping commands once, and gaps between them not at all', () => {
    vi.useFakeTimers();
    try {
      const clock = new BusyClock();
      const a = clock.begin();
      vi.advanceTimersByTime(10);
      const b = clock.begin();
      vi.advanceTimersByTime(10);
      a();
      vi.advanceTimersByTime(10);
      b();
      vi.advanceTimersByTime(100);
      const c = clock.begin();
      vi.advanceTimersByTime(5);
      c();
      c();
      expect(clock.read()).toBeCloseTo(35, 5);
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts a command still in flight up to the moment of reading', () => {
    vi.useFakeTimers();
    try {
      const clock = new BusyClock();
      clock.begin();
      vi.advanceTimersByTime(7);
      expect(clock.read()).toBeCloseTo(7, 5);
    } finally {
      vi.useRealTimers();
    }
  });
});
