import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  HeldRelayPage,
  RELAY_PAGE_AFTER_ANSWER_MS,
  RELAY_PAGE_LATEST_MS,
} from './heldRelayPage.js';

describe('the relay page held back for the first call', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens shortly after the first answer, not while it is on its way back', () => {
    const open = vi.fn();
    const held = new HeldRelayPage(open);
    vi.advanceTimersByTime(300);
    held.callAnswered();
    vi.advanceTimersByTime(RELAY_PAGE_AFTER_ANSWER_MS - 1);
    expect(open).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('opens once however many answers come, and not again at its latest time', () => {
    const open = vi.fn();
    const held = new HeldRelayPage(open);
    held.callAnswered();
    held.callAnswered();
    vi.advanceTimersByTime(RELAY_PAGE_AFTER_ANSWER_MS);
    held.callAnswered();
    vi.advanceTimersByTime(RELAY_PAGE_LATEST_MS * 2);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('opens at its latest time when no call comes (a person watching before any call)', () => {
    const open = vi.fn();
    const held = new HeldRelayPage(open);
    vi.advanceTimersByTime(RELAY_PAGE_LATEST_MS);
    expect(open).toHaveBeenCalledTimes(1);
    held.callAnswered();
    vi.advanceTimersByTime(RELAY_PAGE_AFTER_ANSWER_MS);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('an answer coming just before its latest time does not open it twice', () => {
    const open = vi.fn();
    const held = new HeldRelayPage(open);
    vi.advanceTimersByTime(RELAY_PAGE_LATEST_MS - 10);
    held.callAnswered();
    vi.advanceTimersByTime(RELAY_PAGE_LATEST_MS);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('opens nothing once cancelled (the browser is closing)', () => {
    const open = vi.fn();
    const held = new HeldRelayPage(open);
    held.callAnswered();
    held.cancel();
    vi.advanceTimersByTime(RELAY_PAGE_LATEST_MS * 2);
    expect(open).not.toHaveBeenCalled();
  });
});
