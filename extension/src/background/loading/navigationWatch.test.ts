import type { Protocol } from 'devtools-protocol';
import { describe, expect, it } from 'vitest';
import { watchNavigation, watchNavigationAtOnce } from './navigationWatch';
import { fakeCdp } from '../testing/fakeCdp';
import { fakeTab } from '../testing/fakeContext';
import { frame, MAIN_FRAME_ID, navigationScript } from '../testing/fakePage';
import { navigateTab } from './load';

function request(
  requestId: string,
  url: string,
  type: Protocol.Network.ResourceType,
  initiator: Protocol.Network.Initiator['type'],
): Protocol.Network.RequestWillBeSentEvent {
  return {
    requestId,
    loaderId: 'loader',
    documentURL: 'http://127.0.0.1/',
    request: {
      url,
      method: 'GET',
      headers: {},
      initialPriority: 'Low',
      referrerPolicy: 'no-referrer',
    },
    timestamp: 1,
    wallTime: 1,
    initiator: { type: initiator },
    redirectHasExtraInfo: false,
    type,
  };
}

describe('the navigation watch', () => {
  it("does not count the browser's own favicon request as the page at work (#26)", async () => {
    const cdp = fakeCdp(navigationScript(['http://127.0.0.1/']));
    const watch = await watchNavigation(cdp);
    cdp.emit('Page.frameStartedLoading', { frameId: MAIN_FRAME_ID });
    // Chrome asks for the favicon just after DOMContentLoaded: counting it held every navigate
    // for another network-quiet window.
    cdp.emit(
      'Network.requestWillBeSent',
      request('1', 'http://127.0.0.1/favicon.ico', 'Other', 'other'),
    );
    expect(watch.lastRequestAt).toBe(0);
    cdp.emit(
      'Network.requestWillBeSent',
      request('2', 'http://127.0.0.1/api/items', 'Fetch', 'script'),
    );
    expect(watch.lastRequestAt).toBeGreaterThan(0);
    expect(watch.scriptRequestsSince(0)).toBe(1);
    watch.dispose();
  });

  it("does not count an extension's module loads as the page at work (#26: the overlay's)", async () => {
    const cdp = fakeCdp(navigationScript(['http://127.0.0.1/']));
    const watch = await watchNavigation(cdp);
    cdp.emit('Page.frameStartedLoading', { frameId: MAIN_FRAME_ID });
    // The overlay's content script loads its chunks as the page finishes parsing: every
    // navigate waited for them.
    cdp.emit(
      'Network.requestWillBeSent',
      request('1', 'chrome-extension://abcdefghijklmnop/assets/overlay.js', 'Script', 'script'),
    );
    expect(watch.lastRequestAt).toBe(0);
    expect(watch.scriptRequestsSince(0)).toBe(0);
    watch.dispose();
  });

  describe('started at once (#26: a round trip before every navigate, back and action)', () => {
    /** A tab whose frame tree answers only when `answerTree` is called. */
    function slowTree(treeFrameId: string) {
      let answerTree = (): void => undefined;
      const tree = new Promise<void>((resolve) => {
        answerTree = resolve;
      });
      const cdp = fakeCdp({
        ...navigationScript(['http://127.0.0.1/']),
        'Page.getFrameTree': async () => {
          await tree;
          return { frameTree: { frame: { ...frame('http://127.0.0.1/'), id: treeFrameId } } };
        },
        'Page.navigate': () => ({ frameId: treeFrameId, loaderId: 'next' }),
      });
      return { cdp, tab: fakeTab(cdp), answerTree };
    }

    it('sends the navigation before the frame tree answers when the main frame is known', async () => {
      const { cdp, tab, answerTree } = slowTree(MAIN_FRAME_ID);
      tab.state.mainFrameId = MAIN_FRAME_ID;
      const navigation = navigateTab(tab, 'http://127.0.0.1/next', 2_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const sent = cdp.calls.map((c) => c.method);
      expect(sent.slice(0, 2)).toEqual(['Page.getFrameTree', 'Page.navigate']);
      answerTree();
      cdp.emit('Page.frameNavigated', {
        frame: frame('http://127.0.0.1/next'),
        type: 'Navigation',
      });
      cdp.emit('Page.domContentEventFired', { timestamp: 1 });
      cdp.emit('Page.loadEventFired', { timestamp: 1 });
      expect((await navigation).url).toBe('http://127.0.0.1/');
    });

    it('waits for the frame tree when the main frame is not known yet, and remembers it', async () => {
      const { cdp, tab, answerTree } = slowTree(MAIN_FRAME_ID);
      let watched = false;
      const watching = watchNavigationAtOnce(tab).then((watch) => {
        watched = true;
        return watch;
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(watched).toBe(false);
      answerTree();
      const watch = await watching;
      expect(watch.mainFrameId).toBe(MAIN_FRAME_ID);
      expect(tab.state.mainFrameId).toBe(MAIN_FRAME_ID);
      expect(cdp.calls.map((c) => c.method)).toEqual(['Page.enable', 'Page.getFrameTree']);
      watch.dispose();
    });

    it("follows the tree's answer when the main frame changed (a prerendered page took the tab)", async () => {
      const { cdp, tab, answerTree } = slowTree('prerendered');
      tab.state.mainFrameId = MAIN_FRAME_ID;
      const watch = await watchNavigationAtOnce(tab);
      expect(watch.mainFrameId).toBe(MAIN_FRAME_ID);
      answerTree();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(watch.mainFrameId).toBe('prerendered');
      expect(tab.state.mainFrameId).toBe('prerendered');
      // The old main frame's loading is no longer the tab's; the new one's is.
      cdp.emit('Page.frameStartedLoading', { frameId: MAIN_FRAME_ID });
      expect(watch.started).toBe(false);
      cdp.emit('Page.frameStartedLoading', { frameId: 'prerendered' });
      expect(watch.started).toBe(true);
      watch.dispose();
    });
  });
});
