/**
 * Service-worker entry: only synchronous, top-level listener wiring, so Chrome can wake the
 * worker for any of these events after it was stopped.
 */
import type { ContentMessage, OverlayState } from '../shared/messages';
import { acceptRelayPort } from './relayPort';
import { Worker } from './worker';

const worker = new Worker();

chrome.runtime.onInstalled.addListener(() => {
  void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true });
});

chrome.runtime.onConnect.addListener((port) => {
  acceptRelayPort(port, { onFrame: (frame, reply) => worker.onRelayFrame(frame, reply) });
});

chrome.runtime.onMessage.addListener((message: ContentMessage, sender, sendResponse) => {
  const tabId = sender.tab?.id;
  if (sender.id !== chrome.runtime.id || message.kind !== 'overlay_query' || tabId === undefined)
    return false;
  void worker
    .overlayFor(tabId)
    .then((client) => sendResponse({ kind: 'overlay', client } satisfies OverlayState));
  return true;
});

chrome.debugger.onEvent.addListener((source, method, params) =>
  worker.hub.handleEvent(source, method, params),
);
chrome.debugger.onDetach.addListener((source) => {
  if (source.tabId !== undefined) worker.hub.handleDetach(source.tabId);
});

chrome.tabs.onRemoved.addListener((tabId) => void worker.contexts.forgetTab(tabId));
chrome.tabs.onCreated.addListener((tab) => {
  if (tab.id !== undefined && tab.openerTabId !== undefined)
    void worker.contexts.adoptPopup(tab.id, tab.openerTabId);
});
