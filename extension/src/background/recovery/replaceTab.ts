/**
 * Puts a fresh blank tab in place of a wedged one: the same session, the same index in its tab
 * list, current if the wedged one was, in its group and window. The wedged tab is detached and
 * closed; nothing of it stays in the session's records.
 */
import type { DebuggerHub } from '../debuggerHub';
import type { SessionStore } from '../sessionStore';
import type { TabStates } from '../tabStates';
import { addToGroup } from '../leases';
import { within } from '../common/timing';

/** Closing a tab whose renderer is stuck can wait on that renderer; it is not waited for longer. */
const CLOSE_WAIT_MS = 2_000;

export async function replaceTab(
  deps: { store: SessionStore; hub: DebuggerHub; tabStates: TabStates; changed: () => void },
  sessionId: string,
  tabId: number,
): Promise<void> {
  const record = await deps.store.get(sessionId);
  const old = await chrome.tabs.get(tabId).catch(() => undefined);
  const index = record?.tabIds.indexOf(tabId) ?? -1;
  if (!record || index < 0) return;
  const fresh = await chrome.tabs.create({
    url: 'about:blank',
    active: old?.active ?? false,
    ...(old === undefined ? {} : { index: old.index + 1, windowId: old.windowId }),
  });
  if (fresh.id === undefined) return;
  record.tabIds[index] = fresh.id;
  if (record.currentTabId === tabId) record.currentTabId = fresh.id;
  await addToGroup(record, fresh.id);
  await deps.store.save();
  deps.tabStates.delete(tabId);
  await within(deps.hub.detach(tabId), CLOSE_WAIT_MS);
  await within(
    chrome.tabs.remove(tabId).catch(() => undefined),
    CLOSE_WAIT_MS,
  );
  deps.changed();
}
