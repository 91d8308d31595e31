import type { OverlayState } from '../shared/messages';

/**
 * Tells a tab's content script to show (or hide, with null) the "controlled by" marker, and the
 * agent's open question on this tab, if any (issue #19).
 */
export function showOverlay(
  tabId: number,
  client: string | null,
  question?: OverlayState['question'],
): void {
  const message: OverlayState = { kind: 'overlay', client, question };
  // The content script may not be there yet (about:blank, still loading); it asks on load.
  chrome.tabs.sendMessage(tabId, message).catch(() => undefined);
}
