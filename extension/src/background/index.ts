/**
 * Service-worker entry: only synchronous, top-level listener wiring, so Chrome can wake the
 * worker for any of these events after it was stopped.
 */
import type { ContentMessage, OverlayState } from '../shared/messages';
import { Worker } from './worker';
import { exposePipeHandoff } from './worker/pipeHandoff';

/** Wakes a stopped worker so a worker-held link comes back (30 s is Chrome's minimum period). */
const RELAY_ALARM = 'relay-keepalive';
const RELAY_ALARM_PERIOD_MIN = 0.5;

const worker = new Worker();
// Before anything awaits: the launching daemon's call may be waiting for it (pipeHandoff.ts).
exposePipeHandoff(globalThis, (raw) => worker.panelMessages.pipeHandoff(raw));
void worker.applySettings();
worker.popups.refresh();

chrome.runtime.onInstalled.addListener(() => {
  void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true });
});

void chrome.alarms.create(RELAY_ALARM, { periodInMinutes: RELAY_ALARM_PERIOD_MIN });
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === RELAY_ALARM) void worker.applySettings();
});

chrome.runtime.onConnect.addListener((port) => worker.panels.accept(port));

chrome.runtime.onMessage.addListener((message: ContentMessage, sender, sendResponse) => {
  const tabId = sender.tab?.id;
  if (sender.id !== chrome.runtime.id || tabId === undefined) return false;
  if (message.kind === 'take_over') {
    void worker.controls.takeOver(tabId);
    return false;
  }
  if (message.kind === 'guard_query') {
    sendResponse(worker.approvals.armState(tabId));
    return false;
  }
  if (message.kind === 'submit_held') {
    worker.approvals.held(tabId, sender.frameId ?? 0, message);
    return false;
  }
  if (message.kind === 'secret_typed') {
    worker.secretTyped(tabId, message.value);
    return false;
  }
  if (message.kind === 'overlay_answer') {
    // The overlay draws only in the top frame; an answer from a subframe is not ours.
    if (sender.frameId === 0) worker.answerFromOverlay(tabId, message);
    return false;
  }
  void worker.overlayFor(tabId).then((client) =>
    sendResponse({
      kind: 'overlay',
      client,
      question: client === null ? undefined : worker.permissions.overlayQuestion(tabId),
    } satisfies OverlayState),
  );
  return true;
});

chrome.debugger.onEvent.addListener((source, method, params) =>
  worker.hub.handleEvent(source, method, params),
);
chrome.debugger.onDetach.addListener((source) => {
  if (source.tabId !== undefined) worker.hub.handleDetach(source.tabId);
});

chrome.tabs.onRemoved.addListener((tabId) => {
  worker.popups.removed(tabId);
  void worker.tabClosed(tabId);
});
// The tab that really opened it (target=_blank, window.open): tabs.onCreated's openerTabId is
// only the tab that was active, which may be another agent's or the user's.
// A popup stays in the popup guard's scope until it is adopted and guarded over CDP.
chrome.tabs.onCreated.addListener((tab) => worker.popups.created(tab));
chrome.webNavigation.onCommitted.addListener((details) => {
  if (details.frameId === 0) worker.popups.committed(details.tabId);
});
chrome.webNavigation.onCreatedNavigationTarget.addListener((details) => {
  worker.popups.hold(details.tabId);
  void worker.contexts
    .adoptPopup(details.tabId, details.sourceTabId, details.url)
    .then((outcome) => {
      if (outcome !== 'blocked') worker.popups.decided(details.tabId);
    })
    .catch(() => undefined);
});
// Dragging a tab into a session's group hands it over; dragging it out takes it back.
chrome.tabs.onUpdated.addListener((tabId, change) => {
  if (change.url !== undefined) {
    void worker.enforcePolicy(tabId, change.url);
    worker.popups.refresh();
  }
  if (change.url !== undefined || change.title !== undefined) worker.tabsMayHaveChanged();
  if (change.groupId === undefined) return;
  void worker.leaseFollowsGroup(tabId, change.groupId);
});
