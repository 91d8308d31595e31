import { describe, expect, it } from 'vitest';
import type { Protocol } from 'devtools-protocol';
import { fakeCdp } from '../testing/fakeCdp';
import { newTabState } from '../tabStates';
import { recordNetwork } from './networkLog';

function request(id: string, url: string): Protocol.Network.RequestWillBeSentEvent {
  return {
    requestId: id,
    loaderId: 'L1',
    documentURL: 'http://127.0.0.1:8080/',
    request: { url, method: 'GET', headers: {} },
    timestamp: 1,
    wallTime: 1,
    initiator: { type: 'script' },
    redirectHasExtraInfo: false,
    type: 'Script',
    frameId: 'main',
  } as Protocol.Network.RequestWillBeSentEvent;
}

describe('the network log', () => {
  it("lists the page's requests, not an extension's own files", async () => {
    const cdp = fakeCdp({
      'Network.enable': () => undefined,
      'Fetch.enable': () => undefined,
      'Page.getFrameTree': () => ({ frameTree: { frame: { id: 'main' } } }) as never,
    });
    const state = newTabState();
    await recordNetwork({ tabId: 1, cdp, state });
    cdp.emit('Network.requestWillBeSent', request('1', 'http://127.0.0.1:8080/app.js'));
    // Our overlay's content script loading its modules, and another extension's.
    cdp.emit(
      'Network.requestWillBeSent',
      request('2', 'chrome-extension://ipilknjhbkhclneddmimelglabojbfki/assets/overlay.js'),
    );
    cdp.emit('Network.requestWillBeSent', request('3', 'chrome-extension://otherext/inject.js'));
    expect(state.network.map((e) => e.url)).toEqual(['http://127.0.0.1:8080/app.js']);
  });
});
