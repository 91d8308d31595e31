/** Navigating a tab and waiting, bounded, for the new page to load. */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { TabHandle } from '../tabStates';
import { dialogOpened } from '../recorders/dialogs';
import { Hint } from '../common/hints';
import { dataUrlDocument, writeDataUrl } from './dataUrl';
import { navigationFailedHint } from './navigationHint';
import { watchNavigationAtOnce, type NavigationWatch } from './navigationWatch';
import { watchDocumentResponse, type DocumentResponse } from './documentResponse';
import { pageInfo, type PageInfo } from './pageInfo';
import { oneLine } from '../common/text';
import { orAbort, within } from '../common/timing';
import { isRestrictedUrl } from './urlPolicy';
import { waitUntilUsable } from './settle';
import { stillLoadingReport } from './usable';

/** Unless the session's settings say otherwise (timeouts.navigationMs). */
export const NAVIGATION_TIMEOUT_MS = 30_000;

/** The page a navigation ended on, and what of it is still loading (a line, or ''). */
export interface LoadedPage extends PageInfo {
  pending: string;
  /** The main document's HTTP response, when one arrived during the navigation. */
  response?: DocumentResponse | undefined;
}

/**
 * Stops whatever the tab is loading. A navigation that timed out or was cancelled must not go on
 * in the background: until it commits or fails, Chrome holds the tab's next commands (a snapshot,
 * an evaluate, the next navigation) behind it. Sent on the tab's own client, not the call's: the
 * call may have been aborted already, and this is the clean-up it still owes the tab.
 */
export async function stopLoading(tab: TabHandle): Promise<void> {
  const cdp = tab.control ?? tab.cdp;
  await within(
    cdp.send('Page.stopLoading').catch(() => undefined),
    STOP_LOADING_WAIT_MS,
  );
}

/** Page.stopLoading answers at once unless the renderer is stuck; it is not waited for longer. */
const STOP_LOADING_WAIT_MS = 1_000;

/**
 * Runs a navigation's wait; when it times out, fails or is aborted before the page was usable,
 * the tab's loading is stopped, so the tab answers the next call at once.
 */
async function stoppedOnFailure<T>(tab: TabHandle, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    await stopLoading(tab);
    throw err;
  }
}

/**
 * Opens url (already checked by checkNavigableUrl) in the tab and waits until the page is usable
 * (usable.ts): DOMContentLoaded and a capped settle, not the load event. A beforeunload dialog
 * stops the wait: the dialog is reported, the navigation waits on it.
 */
export async function navigateTab(
  tab: TabHandle,
  url: string,
  timeoutMs = NAVIGATION_TIMEOUT_MS,
  signal?: AbortSignal,
): Promise<LoadedPage> {
  if (/^data:/i.test(url)) {
    dataUrlDocument(url);
    const info = await navigateTab(tab, 'about:blank', timeoutMs, signal);
    await writeDataUrl(tab, url);
    return { ...info, title: (await pageInfo(tab.cdp)).title };
  }
  const startedAt = Date.now();
  const watch = await watchNavigationAtOnce(tab);
  const response = watchDocumentResponse(tab, watch);
  try {
    await stoppedOnFailure(tab, () => navigateAndWait(tab, url, watch, timeoutMs, signal));
  } finally {
    response.dispose();
    watch.dispose();
  }
  return {
    ...(await pageInfo(tab.cdp)),
    pending: stillLoadingReport(tab, startedAt),
    response: response.latest(),
  };
}

async function navigateAndWait(
  tab: TabHandle,
  url: string,
  watch: NavigationWatch,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const dialog = dialogOpened(tab);
  try {
    const navigating = tab.cdp.send('Page.navigate', { url });
    navigating.catch(() => undefined);
    // Page.navigate itself waits for the response, so a slow server counts against the limit.
    const first = await within(
      orAbort(Promise.race([navigating, dialog.opened.then(() => 'dialog' as const)]), signal),
      timeoutMs,
    );
    // No answer to Page.navigate: the server has not sent the document (not a stuck page).
    if (first === undefined) throw noAnswer(url, timeoutMs);
    if (first === 'dialog') return;
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
      const usable = waitUntilUsable(tab.cdp, watch, deadline, signal);
      const done = await Promise.race([usable, dialog.opened.then(() => 'dialog' as const)]);
      if (done !== 'dialog')
        await waitForLoad(Promise.resolve(done || watch.navigated), url, timeoutMs);
    }
  } finally {
    dialog.dispose();
  }
}

/** Goes one entry back (-1) or forward (+1) in the tab's history and waits for that page. */
export async function goInHistory(
  tab: TabHandle,
  step: -1 | 1,
  timeoutMs = NAVIGATION_TIMEOUT_MS,
  signal?: AbortSignal,
): Promise<LoadedPage> {
  const startedAt = Date.now();
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
  const response = await loadAfter(
    tab,
    target.url,
    async () => {
      await tab.cdp.send('Page.navigateToHistoryEntry', { entryId: target.id });
    },
    timeoutMs,
    signal,
  );
  return {
    ...(await pageInfo(tab.cdp)),
    pending: stillLoadingReport(tab, startedAt),
    response,
  };
}

export function goBack(tab: TabHandle): Promise<LoadedPage> {
  return goInHistory(tab, -1);
}

/** Reloads the tab and waits for the new document to load. */
export async function reloadTab(
  tab: TabHandle,
  ignoreCache: boolean,
  timeoutMs = NAVIGATION_TIMEOUT_MS,
  signal?: AbortSignal,
): Promise<LoadedPage> {
  const startedAt = Date.now();
  const before = await pageInfo(tab.cdp);
  const response = await loadAfter(
    tab,
    before.url,
    async () => {
      await tab.cdp.send('Page.reload', { ignoreCache });
    },
    timeoutMs,
    signal,
  );
  return {
    ...(await pageInfo(tab.cdp)),
    pending: stillLoadingReport(tab, startedAt),
    response,
  };
}

/**
 * Starts a navigation and waits until the page is usable (usable.ts); a beforeunload dialog ends the wait early (the
 * dialog is reported and holds the navigation until it is handled).
 */
async function loadAfter(
  tab: TabHandle,
  url: string,
  start: () => Promise<void>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<DocumentResponse | undefined> {
  const deadline = Date.now() + timeoutMs;
  const watch = await watchNavigationAtOnce(tab);
  const response = watchDocumentResponse(tab, watch);
  const dialog = dialogOpened(tab);
  try {
    await stoppedOnFailure(tab, async () => {
      const starting = start();
      starting.catch(() => undefined);
      const first = await within(
        orAbort(
          Promise.race([
            starting.then(() => 'started' as const),
            dialog.opened.then(() => 'dialog' as const),
          ]),
          signal,
        ),
        timeoutMs,
      );
      if (first === undefined) await waitForLoad(Promise.resolve(false), url, timeoutMs);
      if (first === 'dialog') return;
      watch.markStarted();
      const usable = waitUntilUsable(tab.cdp, watch, deadline, signal);
      const done = await Promise.race([usable, dialog.opened.then(() => 'dialog' as const)]);
      // A page that committed but never reached DOMContentLoaded (a script that never answers) is
      // there, partly: it is reported with what is pending instead of failing.
      if (done !== 'dialog')
        await waitForLoad(Promise.resolve(done || watch.navigated), url, timeoutMs);
    });
    return response.latest();
  } finally {
    response.dispose();
    watch.dispose();
    dialog.dispose();
  }
}

/** A navigation whose server sent no response within the navigation timeout. */
function noAnswer(url: string, timeoutMs: number): BridgeError {
  return new BridgeError(
    ErrorCode.NAVIGATION_TIMEOUT,
    `${oneLine(url, 200)} did not answer within ${timeoutMs / 1000} s (its server sent no response); the bridge stopped the load.`,
    Hint.serverSilent,
  );
}

async function waitForLoad(loading: Promise<boolean>, url: string, timeoutMs: number) {
  if (await loading) return;
  throw new BridgeError(
    ErrorCode.NAVIGATION_TIMEOUT,
    `${oneLine(url, 200)} did not finish loading within ${timeoutMs / 1000} s; the bridge stopped the load.`,
    Hint.stillLoading,
  );
}
