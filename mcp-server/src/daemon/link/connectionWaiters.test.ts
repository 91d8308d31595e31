import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionWaiters } from './connectionWaiters.js';

describe('ConnectionWaiters', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('lets go of a waiter whose timeout ran out, so calls without a link do not pile up', async () => {
    const waiters = new ConnectionWaiters();
    const woken: number[] = [];
    for (let i = 0; i < 100; i++) void waiters.wait(5_000).then(() => woken.push(i));
    expect(waiters.size).toBe(100);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(woken).toHaveLength(100);
    expect(waiters.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('wakes every waiter when the link comes, and clears their timers', async () => {
    const waiters = new ConnectionWaiters();
    let woken = 0;
    void waiters.wait(5_000).then(() => (woken += 1));
    void waiters.wait(30_000).then(() => (woken += 1));
    waiters.wakeAll();
    await vi.advanceTimersByTimeAsync(0);
    expect(woken).toBe(2);
    expect(waiters.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
