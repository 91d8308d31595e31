/**
 * Records the tab's requests from Network events (the attach hook), for the network tools and
 * for settling: an action waits for the requests it started. A new main-frame document starts
 * a new log, as DevTools does without "preserve log".
 */
import type { Protocol } from 'devtools-protocol';
import type { AttachHook, NetworkEntry, TabState } from '../tabStates';
import { keepResponseBodies, RESPONSE_BODY_PATTERNS } from './responseBodies';

/** Oldest requests are dropped past this, so a busy page cannot grow the worker's memory. */
const MAX_ENTRIES = 1000;

function headers(raw: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) out[k] = String(v);
  return out;
}

export const recordNetwork: AttachHook = async (tab) => {
  const { cdp, state } = tab;
  keepResponseBodies(cdp, state);
  const [, tree] = await Promise.all([
    cdp.send('Network.enable', {
      maxTotalBufferSize: 20_000_000,
      maxResourceBufferSize: 5_000_000,
    }),
    cdp.send('Page.getFrameTree'),
    cdp.send('Fetch.enable', { patterns: RESPONSE_BODY_PATTERNS }),
  ]);
  const mainFrameId = tree.frameTree.frame.id;
  const byId = (id: string): NetworkEntry | undefined => state.network.find((e) => e.id === id);
  cdp.on('Network.requestWillBeSent', (e, sessionId) => {
    if (sessionId !== undefined) return;
    // An extension's own files (a content script's modules: our overlay's, or another
    // extension's) are no request of the page: not listed, not waited for, and they would tell
    // the agent which extensions the person has installed.
    if (e.request.url.startsWith('chrome-extension://')) return;
    // A main-frame navigation: requests of the old document are history now.
    if (e.type === 'Document' && e.loaderId === e.requestId && e.frameId === mainFrameId)
      keepOnlyInFlight(state);
    const existing = byId(e.requestId);
    if (existing !== undefined) {
      // A redirect reuses the id; the entry follows the new URL.
      existing.url = e.request.url;
      return;
    }
    state.network.push({
      index: state.networkNext++,
      id: e.requestId,
      url: e.request.url,
      method: e.request.method,
      resourceType: e.type ?? 'Other',
      status: undefined,
      statusText: '',
      mimeType: '',
      requestHeaders: headers(e.request.headers),
      responseHeaders: {},
      hasPostData: e.request.hasPostData === true,
      postData: e.request.postData,
      failure: undefined,
      finished: false,
      startedAt: Date.now(),
      ...(isBrowsersOwn(e) ? { browsersOwn: true } : {}),
    });
    if (state.network.length > MAX_ENTRIES)
      state.network.splice(0, state.network.length - MAX_ENTRIES);
  });
  cdp.on('Network.responseReceived', (e, sessionId) => {
    const entry = sessionId === undefined ? byId(e.requestId) : undefined;
    if (entry === undefined) return;
    entry.status = e.response.status;
    entry.statusText = e.response.statusText;
    entry.mimeType = e.response.mimeType;
    entry.responseHeaders = headers(e.response.headers);
  });
  cdp.on('Network.loadingFinished', (e, sessionId) => {
    const entry = sessionId === undefined ? byId(e.requestId) : undefined;
    if (entry === undefined) return;
    entry.finished = true;
  });
  cdp.on('Network.loadingFailed', (e, sessionId) => {
    const entry = sessionId === undefined ? byId(e.requestId) : undefined;
    if (entry === undefined) return;
    entry.finished = true;
    entry.failure = e.errorText;
  });
};

function keepOnlyInFlight(state: TabState): void {
  state.network = state.network.filter((e) => !e.finished);
  // The new page's log is numbered from 1, as its list shows it.
  state.network.forEach((e, i) => {
    e.index = i + 1;
  });
  state.networkNext = state.network.length + 1;
}

/**
 * The browser's own requests for the page (its favicon: type Other, no initiator) and extensions'
 * are no work of the page: the settle does not wait for them (counting the favicon's, sent just after
 * DOMContentLoaded, held every navigate for another quiet window, about 75 ms in the bench, #26)
 * and a navigate's "still loading" line does not list them.
 */
export function isBrowsersOwn(e: Protocol.Network.RequestWillBeSentEvent): boolean {
  return (
    (e.type === 'Other' && e.initiator.type === 'other') ||
    // An extension's content script loading its modules (our overlay's, at document_idle: the
    // settle waited for them on every navigate, #26) is no work of the page either.
    e.request.url.startsWith('chrome-extension://')
  );
}

/** Whether any request started at or after `since`, finished or not. */
export function anyRequestSince(state: TabState, since: number): boolean {
  return state.network.some((e) => e.startedAt >= since);
}

/** Requests started at or after `since` that have not finished. */
export function inFlightSince(state: TabState, since: number): number {
  return state.network.filter((e) => !e.finished && e.startedAt >= since).length;
}
