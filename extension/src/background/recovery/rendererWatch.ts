/**
 * A wedged renderer (a page script that never returns, a renderer that stopped answering) holds
 * every call on its tab until the call's deadline, and the calls after it too: nothing the agent
 * can send reaches the page. While a call runs longer than a moment, the session's current tab is
 * probed; a renderer that does not answer a trivial evaluate for UNRESPONSIVE_MS is wedged, and
 * the bridge takes the one step that works itself: a fresh tab in its place (replaceTab.ts). A
 * renderer that crashed is replaced the same way, at once (crashWatch.ts).
 *
 * A tab whose navigation waits on the network is never wedged: while its server has not sent the
 * document, Chrome holds the tab's commands (a probe included) behind the navigation, so a slow
 * server (a dev server's first compile, a slow report) looks exactly like a stuck renderer. That
 * wait belongs to the navigation timeout (loading/load.ts), which names the URL that did not answer.
 *
 * Nor is a tab with a question open for the person (issue #25.2): a download held for their
 * answer keeps the tab's document request paused, and replacing the tab would detach the
 * debugger, which lets Chrome go on with the paused response and save the file unasked. The
 * question's own deadline ends that wait.
 */
import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { CdpClient } from '../cdp';
import { Hint } from '../common/hints';
import { oneLine } from '../common/text';
import { delay, within } from '../common/timing';

/** A call that answers within this long never costs a probe. */
export const WATCH_AFTER_MS = 1_500;
/**
 * A renderer that does not run a trivial task for this long counts as wedged: a page busy longer
 * than this is beyond any call's action timeout anyway (5 s by default).
 */
export const UNRESPONSIVE_MS = 5_000;
/** Between probes of a renderer that answered. */
const PROBE_EVERY_MS = 1_000;

/** What the watch needs of the session's tabs, so tests can fake it. */
export interface WatchedSession {
  /** The session's current tab, when it has one attached; undefined otherwise. */
  currentTab(): Promise<
    | { tabId: number; cdp: CdpClient; dialogOpen: () => boolean; crashed?: () => boolean }
    | undefined
  >;
  /** The tab's URL, as Chrome has it (no page script needed). */
  urlOf(tabId: number): Promise<string>;
  /** Whether a question to the person about this tab is open (a held download among them). */
  questionOpen?(tabId: number): boolean;
  /** Whether a navigation of the tab is waiting for its document (Chrome's pendingUrl). */
  navigationPending(tabId: number): Promise<boolean>;
  /** Puts a fresh blank tab in the wedged tab's place. */
  replaceTab(tabId: number): Promise<void>;
}

export interface Wedged {
  /** What the call is answered. */
  error: BridgeError;
  /** Replaces the tab; run once the call has stopped, before it is answered. */
  recover: () => Promise<void>;
}

/**
 * Runs beside a call until signal is aborted (the call answered, was cancelled or timed out).
 * Resolves, when the session's tab was found wedged, to the error the call should end with and
 * the replacement to run; undefined otherwise.
 */
export async function watchRenderer(
  session: WatchedSession,
  signal: AbortSignal,
): Promise<Wedged | undefined> {
  try {
    await delay(WATCH_AFTER_MS, signal);
    while (!signal.aborted) {
      const tab = await session.currentTab();
      // A crashed renderer never answers a probe: Chrome said so already (crashWatch.ts).
      if (tab?.crashed?.() === true) {
        const url = await session.urlOf(tab.tabId);
        const { tabId } = tab;
        return {
          error: new BridgeError(
            ErrorCode.TAB_CLOSED,
            `The page in this session's tab crashed (its renderer is gone): ${oneLine(url, 200)}.`,
            Hint.tabReplaced,
          ),
          recover: () => session.replaceTab(tabId),
        };
      }
      // A JavaScript dialog holds the page's tasks too; it is reported, not replaced.
      if (tab !== undefined && !tab.dialogOpen()) {
        const probe = tab.cdp
          .send('Runtime.evaluate', { expression: '0', returnByValue: true })
          .then(
            () => true,
            // A navigation swapping the renderer, a closed tab: not a wedge.
            () => true,
          );
        const answered = (await within(probe, UNRESPONSIVE_MS)) === true;
        if (signal.aborted) return undefined;
        if (
          !answered &&
          !tab.dialogOpen() &&
          session.questionOpen?.(tab.tabId) !== true &&
          !(await session.navigationPending(tab.tabId))
        ) {
          const url = await session.urlOf(tab.tabId);
          const { tabId } = tab;
          return {
            error: new BridgeError(
              ErrorCode.TIMEOUT,
              `The page in this session's tab stopped answering for ${UNRESPONSIVE_MS / 1000} s (a script that never returns, or a stuck renderer): ${oneLine(url, 200)}.`,
              Hint.tabReplaced,
            ),
            recover: () => session.replaceTab(tabId),
          };
        }
      }
      await delay(PROBE_EVERY_MS, signal);
    }
  } catch {
    // Aborted: the call is over.
  }
  return undefined;
}
