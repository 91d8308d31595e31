/**
 * A renderer that crashed (out of memory, a renderer bug, `Page.crash`) answers nothing: every
 * command on its tab waits for its deadline. Chrome says so at once (Inspector.targetCrashed on
 * the tab's own session); the tab is marked, so the renderer watch (rendererWatch.ts) replaces it
 * without first waiting UNRESPONSIVE_MS for a probe. A main-frame navigation brings a new
 * renderer, and clears the mark.
 */
import type { AttachHook, TabState } from '../tabStates';

export function hasCrashed(state: TabState): boolean {
  return state.crashed;
}

export const trackCrashes: AttachHook = async (tab) => {
  const { state } = tab;
  tab.cdp.on('Inspector.targetCrashed', (_e, sessionId) => {
    if (sessionId === undefined) state.crashed = true;
  });
  tab.cdp.on('Page.frameNavigated', (e, sessionId) => {
    if (sessionId === undefined && e.frame.parentId === undefined) state.crashed = false;
  });
  // Inspector's events come only once it is enabled; a tab that cannot (closing) has none to send.
  await tab.cdp.send('Inspector.enable').catch(() => undefined);
};
