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
    // The action's own check, then one look after the page's next two frames, where routers
    // that set the URL in place render (Mithril); not a look at the next task and then that one.
    const looks = cdp.calls
      .filter((c) => c.method === 'Runtime.evaluate')
      .map((c) => String((c.params as { expression?: unknown }).expression));
    expect(looks).toHaveLength(2);
    expect(looks[0]).not.toContain('requestAnimationFrame');
    expect(looks[1]).toContain('requestAnimationFrame');
  });

  describe('a page that became usable (#26: no fixed windows)', () => {
    const fetchStarted = (cdp: FakeCdp, requestId: string): void =>
      cdp.emit('Network.requestWillBeSent', {
        requestId,
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

    /**
     * A page whose DOMContentLoaded has fired; each look (the DOM-quiet check) takes lookMs and
     * runs `duringLook` for the look with that index.
     */
    async function usableAfter(lookMs: number, duringLook: (cdp: FakeCdp, look: number) => void) {
      let looks = 0;
      const cdp = fakeCdp({
        ...navigationScript(['http://127.0.0.1/']),
        'Runtime.evaluate': async () => {
          duringLook(cdp, looks++);
          await new Promise((resolve) => setTimeout(resolve, lookMs));
          return { result: { type: 'boolean', value: false } };
        },
      });
      const watch = await watchNavigation(cdp);
      watch.markStarted();
      cdp.emit('Page.frameNavigated', { frame: frame('http://127.0.0.1/a'), type: 'Navigation' });
      cdp.emit('Page.domContentEventFired', { timestamp: 1 });
      const usable = await waitUntilUsable(cdp, watch, Date.now() + 5_000);
      watch.dispose();
      return { usable, looks };
    }

    it('is usable after one look when its handlers asked for nothing', async () => {
      const quiet = await usableAfter(0, () => undefined);
      expect(quiet).toEqual({ usable: true, looks: 1 });
    });

    it("waits for a request the page's handlers started while it was looked at, then looks again", async () => {
      let answered = false;
      const busy = await usableAfter(5, (cdp, look) => {
        if (look !== 0) return;
        fetchStarted(cdp, 'r1');
        setTimeout(() => {
          answered = true;
          cdp.emit('Network.loadingFinished', {
            requestId: 'r1',
            timestamp: 2,
            encodedDataLength: 10,
          });
        }, 30);
      });
      expect(busy).toEqual({ usable: true, looks: 2 });
      expect(answered).toBe(true);
    });

    it("looks only a moment after a script's request answered: an app renders its data on a short timer", async () => {
      let rendered = false;
      const seen: boolean[] = [];
      const cdp = fakeCdp({
        ...navigationScript(['http://127.0.0.1/']),
        'Runtime.evaluate': () => {
          seen.push(rendered);
          return { result: { type: 'boolean', value: false } };
        },
      });
      const watch = await watchNavigation(cdp);
      watch.markStarted();
      cdp.emit('Page.frameNavigated', { frame: frame('http://127.0.0.1/a'), type: 'Navigation' });
      fetchStarted(cdp, 'items');
      cdp.emit('Page.domContentEventFired', { timestamp: 1 });
      setTimeout(() => {
        cdp.emit('Network.loadingFinished', {
          requestId: 'items',
          timestamp: 2,
          encodedDataLength: 10,
        });
        setTimeout(() => {
          rendered = true;
        }, 50);
      }, 10);
      expect(await waitUntilUsable(cdp, watch, Date.now() + 5_000)).toBe(true);
      watch.dispose();
      expect(seen).toEqual([true]);
    });

    it('follows a chain of requests, each started when the last answered', async () => {
      const chain = await usableAfter(2, (cdp, look) => {
        if (look > 2) return;
        fetchStarted(cdp, `r${look}`);
        setTimeout(
          () =>
            cdp.emit('Network.loadingFinished', {
              requestId: `r${look}`,
              timestamp: 2,
              encodedDataLength: 10,
            }),
          10,
        );
      });
      expect(chain).toEqual({ usable: true, looks: 4 });
    });
  });
});
