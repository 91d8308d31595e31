/**
 * Closing a tab the agent asked to close. A page that asks before leaving (a beforeunload handler,
 * which Chrome honours once the page has had a user gesture, such as the agent's own click) holds
 * chrome.tabs.remove until its dialog is answered. With the debugger detached first, nobody could
 * answer it: the call waited out its 45 s limit, and the session's next call met a tab that no
 * longer answered. So the debugger stays attached while Chrome closes the tab, and such a dialog
 * is answered "leave": the agent asked for the tab to go (Playwright's page.close() does not run
 * beforeunload at all), and the answer says the page asked.
 */
import type { DebuggerHub } from '../debuggerHub';
import type { TabState } from '../tabStates';

/** Removes the tab; resolves true when its page asked before leaving and was answered "leave". */
export async function closeAgentTab(
  hub: DebuggerHub,
  tabId: number,
  state: TabState | undefined,
): Promise<boolean> {
  if (!hub.isAttached(tabId)) {
    // Never driven over CDP (a popup adopted without a policy): the agent gave it no gesture, so
    // Chrome does not let it ask.
    await chrome.tabs.remove(tabId).catch(() => undefined);
    return false;
  }
  const cdp = hub.client(tabId);
  let asked = false;
  const leave = (): void => {
    asked = true;
    void cdp.send('Page.handleJavaScriptDialog', { accept: true }).catch(() => undefined);
  };
  const off = cdp.on('Page.javascriptDialogOpening', (e, sessionId) => {
    if (sessionId === undefined && e.type === 'beforeunload') leave();
  });
  try {
    // One already open (a navigation the page held, reported as "not navigated yet") is answered
    // the same way: the tab is going either way.
    if (state?.dialog?.type === 'beforeunload') leave();
    await chrome.tabs.remove(tabId).catch(() => undefined);
  } finally {
    off();
  }
  await hub.detach(tabId);
  return asked;
}
