import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CdpClient } from '../cdp';
import {
  UNRESPONSIVE_MS,
  WATCH_AFTER_MS,
  watchRenderer,
  type WatchedSession,
} from './rendererWatch';

function session(
  answers: boolean,
  dialogOpen = false,
  crashed = false,
  navigating = false,
  asking = false,
) {
  const replaced: number[] = [];
  const cdp = {
    send: () => (answers ? Promise.resolve({}) : new Promise(() => undefined)),
    on: () => () => undefined,
  } as unknown as CdpClient;
  const watched: WatchedSession = {
    currentTab: () =>
      Promise.resolve({ tabId: 7, cdp, dialogOpen: () => dialogOpen, crashed: () => crashed }),
    urlOf: () => Promise.resolve('http://127.0.0.1/spin'),
    navigationPending: () => Promise.resolve(navigating),
    questionOpen: (tabId) => asking && tabId === 7,
    replaceTab: (tabId) => {
      replaced.push(tabId);
      return Promise.resolve();
    },
  };
  return { watched, replaced };
}

describe('watchRenderer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('finds a renderer that does not answer, and replaces its tab only when told to', async () => {
    const { watched, replaced } = session(false);
    const watching = watchRenderer(watched, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(WATCH_AFTER_MS + UNRESPONSIVE_MS + 10);
    const wedged = await watching;
    expect(wedged?.error.message).toContain('stopped answering');
    expect(wedged?.error.hint).toContain('fresh blank tab');
    expect(replaced).toEqual([]);
    await wedged?.recover();
    expect(replaced).toEqual([7]);
  });

  it('leaves a renderer that answers, a page held by a dialog, a tab whose navigation waits on its server and a tab with a question for the person alone until the call ends', async () => {
    for (const [answers, dialog, navigating, asking] of [
      [true, false, false, false],
      [false, true, false, false],
      [false, false, true, false],
      // A download held for the person's answer: replacing the tab would let it be saved.
      [false, false, false, true],
    ] as const) {
      const { watched, replaced } = session(answers, dialog, false, navigating, asking);
      const call = new AbortController();
      const watching = watchRenderer(watched, call.signal);
      await vi.advanceTimersByTimeAsync(WATCH_AFTER_MS + 3 * UNRESPONSIVE_MS);
      call.abort();
      await vi.advanceTimersByTimeAsync(UNRESPONSIVE_MS + 10);
      expect(await watching).toBeUndefined();
      expect(replaced).toEqual([]);
    }
  });

  it('replaces a crashed renderer without waiting for a probe to go unanswered', async () => {
    const { watched, replaced } = session(false, false, true);
    const watching = watchRenderer(watched, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(WATCH_AFTER_MS + 10);
    const crashed = await watching;
    expect(crashed?.error.code).toBe('TAB_CLOSED');
    expect(crashed?.error.message).toContain('crashed');
    expect(crashed?.error.hint).toContain('browser_navigate');
    await crashed?.recover();
    expect(replaced).toEqual([7]);
  });
});
