/**
 * The dispatcher's renderer watch for one call (recovery/rendererWatch.ts), given the worker's
 * view of the session's current tab and the way to put a fresh tab in a wedged one's place.
 */
import type { DebuggerHub } from '../debuggerHub';
import { hasCrashed } from '../recovery/crashWatch';
import { watchRenderer } from '../recovery/rendererWatch';
import { replaceTab } from '../recovery/replaceTab';
import type { SessionStore } from '../sessionStore';
import type { TabStates } from '../tabStates';

export interface RendererWatchDeps {
  store: SessionStore;
  permissions: { questions: { all(): ReadonlyArray<{ tabId: number }> } };
  hub: DebuggerHub;
  tabStates: TabStates;
  sessionsChanged(): void;
}

export function watchRendererOf(
  deps: RendererWatchDeps,
  sessionId: string,
  signal: AbortSignal,
): ReturnType<typeof watchRenderer> {
  const { store, hub, tabStates } = deps;
  return watchRenderer(
    {
      currentTab: async () => {
        const tabId = (await store.get(sessionId))?.currentTabId;
        if (tabId === undefined || !hub.isAttached(tabId)) return undefined;
        const state = tabStates.get(tabId);
        return {
          tabId,
          cdp: hub.client(tabId),
          dialogOpen: () => state.dialog !== undefined,
          crashed: () => hasCrashed(state),
        };
      },
      questionOpen: (tabId) => deps.permissions.questions.all().some((q) => q.tabId === tabId),
      navigationPending: async (tabId) =>
        Boolean((await chrome.tabs.get(tabId).catch(() => undefined))?.pendingUrl),
      urlOf: async (tabId) => {
        const tab = await chrome.tabs.get(tabId).catch(() => undefined);
        return tab?.url ?? tab?.pendingUrl ?? '';
      },
      replaceTab: (tabId) =>
        replaceTab(
          { store, hub, tabStates, changed: () => deps.sessionsChanged() },
          sessionId,
          tabId,
        ),
    },
    signal,
  );
}
