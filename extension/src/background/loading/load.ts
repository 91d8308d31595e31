/** Navigating a tab and waiting, bounded, for the new page to load. */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { TabHandle } from '../tabStates';
import { dialogOpened } from '../recorders/dialogs';
import { Hint } from '../common/hints';
import { navigationFailedHint } from './navigationHint';
import { watchNavigation } from './navigationWatch';
import { pageInfo, type PageInfo } from './pageInfo';
import { oneLine } from '../common/text';
import { within } from '../common/timing';
import { isRestrictedUrl } from './urlPolicy';

/** Unless the session's settings say otherwise (timeouts.navigationMs). */
export const NAVIGATION_TIMEOUT_MS = 30_000;

/**
 * Opens url (already checked by checkNavigableUrl) in the tab and waits for its load event. A
 * beforeunload dialog stops the wait: the dialog is reported, the navigation waits on it.
 */
export async function navigateTab(
  tab: TabHandle,
  url: string,
  timeoutMs = NAVIGATION_TIMEOUT_MS,
): Promise<PageInfo> {
  const deadline = Date.now() + timeoutMs;
  const watch = await watchNavigation(tab.cdp);
  const dialog = dialogOpened(tab);
  try {
    const navigating = tab.cdp.send('Page.navigate', { url });
    navigating.catch(() => undefined);
    // Page.navigate itself waits for the response, so a slow server counts against the limit.
    const first = await within(
      Promise.race([navigating, dialog.opened.then(() => 'dialog' as const)]),
      timeoutMs,
    );
    if (first === undefined) await waitForLoad(Promise.resolve(false), url, timeoutMs);
    if (first === 'dialog' || first === undefined) return await pageInfo(tab.cdp);
    const result = first;
    if (result.errorText !== undefined && result.errorText !== '') {
      throw new BridgeError(
        ErrorCode.NAVIGATION_FAILED,
        `Navigation to ${oneLine(url, 200)} failed: ${oneLine(result.errorText)}.`,
        navigationFailedHint(url, result.errorText),
      );
    }
    // Without a loader the navigation stayed in the same document (a #fragment): nothing loads.
    if (result.loaderId !== undefined) {
      watch.markStarted();
      const loaded = watch.waitForLoad(Math.max(0, deadline - Date.now()));
      const done = await Promise.race([loaded, dialog.opened.then(() => 'dialog' as const)]);
      if (done !== 'dialog') await waitForLoad(Promise.resolve(done), url, timeoutMs);
    }
  } finally {
    watch.dispose();
    dialog.dispose();
  }
  return pageInfo(tab.cdp);
}

/** Goes one entry back (-1) or forward (+1) in the tab's history and waits for that page. */
export async function goInHistory(
  tab: TabHandle,
  step: -1 | 1,
  timeoutMs = NAVIGATION_TIMEOUT_MS,
): Promise<PageInfo> {
  const { currentIndex, entries } = await tab.cdp.send('Page.getNavigationHistory');
  const target = entries[currentIndex + step];
  if (target === undefined) {
    throw new BridgeError(
      ErrorCode.NAVIGATION_FAILED,
      `There is no ${step < 0 ? 'previous' : 'next'} page in this tab.`,
      Hint.noHistory,
    );
  }
  if (isRestrictedUrl(target.url)) {
    throw new BridgeError(
      ErrorCode.RESTRICTED_URL,
      `The ${step < 0 ? 'previous' : 'next'} page, ${oneLine(target.url, 200)}, is a restricted page.`,
      Hint.restrictedUrl,
    );
  }
  await loadAfter(
    tab,
    target.url,
    async () => {
      await tab.cdp.send('Page.navigateToHistoryEntry', { entryId: target.id });
    },
    timeoutMs,
  );
  return pageInfo(tab.cdp);
}

export function goBack(tab: TabHandle): Promise<PageInfo> {
  return goInHistory(tab, -1);
}

/** Reloads the tab and waits for the new document to load. */
export async function reloadTab(
  tab: TabHandle,
  ignoreCache: boolean,
  timeoutMs = NAVIGATION_TIMEOUT_MS,
): Promise<PageInfo> {
  const before = await pageInfo(tab.cdp);
  await loadAfter(
    tab,
    before.url,
    async () => {
      await tab.cdp.send('Page.reload', { ignoreCache });
    },
    timeoutMs,
  );
  return pageInfo(tab.cdp);
}

/**
 * Starts a navigation and waits for it to load; a beforeunload dialog ends the wait early (the
 * dialog is reported and holds the navigation until it is handled).
 */
async function loadAfter(
  tab: TabHandle,
  url: string,
  start: () => Promise<void>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const watch = await watchNavigation(tab.cdp);
  const dialog = dialogOpened(tab);
  try {
    const starting = start();
    starting.catch(() => undefined);
    const first = await within(
      Promise.race([
        starting.then(() => 'started' as const),
        dialog.opened.then(() => 'dialog' as const),
      ]),
      timeoutMs,
    );
    if (first === undefined) await waitForLoad(Promise.resolve(false), url, timeoutMs);
    if (first === 'dialog') return;
    watch.markStarted();
    const loaded = watch.waitForLoad(Math.max(0, deadline - Date.now()));
    const done = await Promise.race([loaded, dialog.opened.then(() => 'dialog' as const)]);
    if (done !== 'dialog') await waitForLoad(Promise.resolve(done), url, timeoutMs);
  } finally {
    watch.dispose();
    dialog.dispose();
  }
}

async function waitForLoad(loading: Promise<boolean>, url: string, timeoutMs: number) {
  if (await loading) return;
  throw new BridgeError(
    ErrorCode.NAVIGATION_TIMEOUT,
    `${oneLine(url, 200)} did not finish loading within ${timeoutMs / 1000} s.`,
    Hint.stillLoading,
  );
}
