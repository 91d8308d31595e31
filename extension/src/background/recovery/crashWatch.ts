/**
 * A renderer that crashed (out of memory, a renderer bug, `Page.crash`) answers nothing: every
 * command on its tab waits for its deadline. Chrome says so at once (Inspector.targetCrashed on
 * the tab's own session); the tab is marked, so the renderer watch (rendererWatch.ts) replaces it
 * without first waiting UNRESPONSIVE_MS for a probe. A main-frame navigation brings a new
 * renderer, and clears the mark.
 */
import type { AttachHook, TabState } from '../tabStates';

/** Tabs whose renderer crashed since their last main-frame navigation. */
const crashed = new WeakSet<TabState>();

export function hasCrashed(state: TabState): boolean {
  return crashed.has(state);
}

export const trackCrashes: AttachHook = async (tab) => {
  const { state } = tab;
  tab.cdp.on('Inspector.targetCrashed', (_e, sessionId) => {
    if (sessionId === undefined) crashed.add(state);
  });
  tab.cdp.on('Page.frameNavigated', (e, sessionId) => {
    if (sessionId === undefined && e.frame.parentId === undefined) crashed.delete(state);
  });
  // Inspector's events come only once it is enabled; a tab that cannot (closing) has none to send.
  await tab.cdp.send('Inspector.enable').catch(() => undefined);
};
