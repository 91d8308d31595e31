import type { Protocol } from 'devtools-protocol';
import { describe, expect, it } from 'vitest';
import { watchNavigation } from './navigationWatch';
import { fakeCdp } from '../testing/fakeCdp';
import { MAIN_FRAME_ID, navigationScript } from '../testing/fakePage';

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
});
