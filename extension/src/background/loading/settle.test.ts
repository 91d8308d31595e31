import { describe, expect, it, vi } from 'vitest';
import { watchNavigation } from './navigationWatch';
import { settle, waitUntilUsable } from './settle';
import { fakeCdp, type FakeCdp } from '../testing/fakeCdp';
import { frame, MAIN_FRAME_ID, navigationScript } from '../testing/fakePage';

function page(): FakeCdp {
  return fakeCdp({
    ...navigationScript(['http://127.0.0.1/']),
    // The DOM-quiet script: this page has no mutations, so it answers at once; its value says
    // whether the action clicked an <a download> (no).
    'Runtime.evaluate': () => ({ result: { type: 'boolean', value: false } }),
  });
}

describe('settle', () => {
  it('returns after one quiet check when the action started no navigation', async () => {
    const cdp = page();
    const watch = await watchNavigation(cdp);
    const outcome = await settle(cdp, watch);
    expect(outcome).toEqual({
      navigated: false,
      newDocument: false,
      stillLoading: false,
      downloadAsked: false,
    });
    expect(cdp.calls.filter((c) => c.method === 'Runtime.evaluate')).toHaveLength(1);
  });

  it('passes on that the action clicked an <a download>, so the action waits for it to begin', async () => {
    const cdp = fakeCdp({
      ...navigationScript(['http://127.0.0.1/']),
      'Runtime.evaluate': () => ({ result: { type: 'boolean', value: true } }),
    });
    const outcome = await settle(cdp, await watchNavigation(cdp));
    expect(outcome.downloadAsked).toBe(true);
  });

  it('waits for no navigation that did not show by the quiet check: no timer has to run out (#26)', async () => {
    vi.useFakeTimers();
    try {
      const cdp = page();
      const watch = await watchNavigation(cdp);
      let outcome: unknown;
      void settle(cdp, watch).then((o) => (outcome = o));
      // Only tasks due now run; before #26 a blind 150 ms wait for a late navigation followed.
      await vi.advanceTimersByTimeAsync(0);
      expect(outcome).toEqual({
        navigated: false,
        newDocument: false,
        stillLoading: false,
        downloadAsked: false,
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets the short timers an action set fire before the quiet check answers', async () => {
    const cdp = page();
    const watch = await watchNavigation(cdp);
    await settle(cdp, watch);
    const check = cdp.calls.find((c) => c.method === 'Runtime.evaluate');
    expect((check?.params as { expression: string }).expression).toMatch(
      /^\(window\[".*LateTimers"\] \? .*\.idle\(\)/,
    );
  });

  it('waits for a navigation that showed while the quiet check ran', async () => {
    const cdp = fakeCdp({
      ...navigationScript(['http://127.0.0.1/']),
      'Runtime.evaluate': () => {
        cdp.emit('Page.frameStartedLoading', { frameId: MAIN_FRAME_ID });
        setTimeout(() => {
          cdp.emit('Page.frameNavigated', {
            frame: frame('http://127.0.0.1/b'),
            type: 'Navigation',
          });
          cdp.emit('Page.loadEventFired', { timestamp: 1 });
        }, 20);
        return { result: { type: 'boolean', value: false } };
      },
    });
    const watch = await watchNavigation(cdp);
    expect(await settle(cdp, watch)).toEqual({
      navigated: true,
      newDocument: true,
      stillLoading: false,
      downloadAsked: false,
    });
  });

  it('gives a navigation that destroyed the quiet check a grace window to show', async () => {
    const cdp = fakeCdp({
      ...navigationScript(['http://127.0.0.1/']),
      'Runtime.evaluate': () => {
        setTimeout(() => {
          cdp.emit('Page.frameRequestedNavigation', {
            frameId: MAIN_FRAME_ID,
            reason: 'scriptInitiated',
            url: 'http://127.0.0.1/b',
            disposition: 'currentTab',
          });
          cdp.emit('Page.frameNavigated', {
            frame: frame('http://127.0.0.1/b'),
            type: 'Navigation',
          });
          cdp.emit('Page.loadEventFired', { timestamp: 1 });
        }, 10);
        throw new Error('Execution context was destroyed.');
      },
    });
    const watch = await watchNavigation(cdp);
    expect(await settle(cdp, watch)).toEqual({
      navigated: true,
      newDocument: true,
      stillLoading: false,
      downloadAsked: false,
    });
  });

  it('ignores navigations of child frames', async () => {
    const cdp = page();
    const watch = await watchNavigation(cdp);
    cdp.emit('Page.frameStartedLoading', { frameId: 'child-frame' });
    cdp.emit('Page.frameNavigated', {
      frame: frame('http://127.0.0.1/ad', MAIN_FRAME_ID),
      type: 'Navigation',
    });
    expect(await settle(cdp, watch)).toEqual({
      navigated: false,
      newDocument: false,
      stillLoading: false,
      downloadAsked: false,
    });
  });

  it('waits for the load of a navigation the action started', async () => {
    const cdp = page();
    const watch = await watchNavigation(cdp);
    cdp.emit('Page.frameRequestedNavigation', {
      frameId: MAIN_FRAME_ID,
      reason: 'anchorClick',
      url: 'http://127.0.0.1/next',
      disposition: 'currentTab',
    });
    setTimeout(() => {
      cdp.emit('Page.frameNavigated', {
        frame: frame('http://127.0.0.1/next'),
        type: 'Navigation',
      });
    }, 100);
    setTimeout(() => cdp.emit('Page.loadEventFired', { timestamp: 1 }), 300);
    const started = performance.now();
    expect(await settle(cdp, watch)).toEqual({
      navigated: true,
      newDocument: true,
      stillLoading: false,
      downloadAsked: false,
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('treats a same-document navigation as loaded at once', async () => {
    const cdp = page();
    const watch = await watchNavigation(cdp);
    cdp.emit('Page.navigatedWithinDocument', {
      frameId: MAIN_FRAME_ID,
      url: 'http://127.0.0.1/#b',
      navigationType: 'historyApi',
    });
    expect(await settle(cdp, watch)).toEqual({
      navigated: true,
      newDocument: false,
      stillLoading: false,
      downloadAsked: false,
    });
  });

  describe('a page the back/forward cache gives back', () => {
    /** Chrome's order for a restore: loading starts and stops, then frameNavigated says how. */
    async function wentBack(type: 'BackForwardCacheRestore' | 'Navigation', pageshowFetch = false) {
      const cdp = page();
      const watch = await watchNavigation(cdp);
      watch.markStarted();
      cdp.emit('Page.frameStartedLoading', { frameId: MAIN_FRAME_ID });
      cdp.emit('Page.frameStoppedLoading', { frameId: MAIN_FRAME_ID });
      setTimeout(() => {
        cdp.emit('Page.frameNavigated', { frame: frame('http://127.0.0.1/a'), type });
        if (pageshowFetch)
          cdp.emit('Network.requestWillBeSent', {
            requestId: 'r1',
            loaderId: 'l',
            documentURL: 'http://127.0.0.1/a',
            request: {
              url: 'http://127.0.0.1/api',
              method: 'GET',
              headers: {},
              initialPriority: 'High',
              referrerPolicy: 'no-referrer',
            },
            timestamp: 1,
            wallTime: 1,
            initiator: { type: 'script' },
            redirectHasExtraInfo: false,
            type: 'Fetch',
          });
        if (pageshowFetch)
          setTimeout(
            () =>
              cdp.emit('Network.loadingFinished', {
                requestId: 'r1',
                timestamp: 2,
                encodedDataLength: 10,
              }),
            20,
          );
      }, 15);
      const usable = await waitUntilUsable(cdp, watch, Date.now() + 5_000);
      watch.dispose();
      return { usable, quietChecks: cdp.calls.filter((c) => c.method === 'Runtime.evaluate') };
    }

    it('is usable as it was left: no quiet windows, no DOM check', async () => {
      const restored = await wentBack('BackForwardCacheRestore');
      expect(restored.usable).toBe(true);
      expect(restored.quietChecks).toHaveLength(0);
    });

    it('still settles when its pageshow asked for something, and a page loaded anew does too', async () => {
      const fetched = await wentBack('BackForwardCacheRestore', true);
      expect(fetched.usable).toBe(true);
      expect(fetched.quietChecks.length).toBeGreaterThan(0);
      const loaded = await wentBack('Navigation');
      expect(loaded.usable).toBe(true);
      expect(loaded.quietChecks.length).toBeGreaterThan(0);
    });
  });
});
