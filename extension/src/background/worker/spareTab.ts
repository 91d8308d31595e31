/**
 * The blank tab a launched browser opened at start, given to the first session that opens a tab
 * instead of a new one: its renderer has run since the browser started, where a new tab's first
 * answers take ~300 ms on a busy 2-core machine (a launched browser's first call, #26), and a
 * person watching a headed launch sees no stray empty tab beside the agent's.
 *
 * Only that tab is taken: its DevTools target id comes from the daemon, which read it over the
 * browser's debugging pipe, in the relay page's URL (`?spare=`), and only a launched browser's
 * relay page may name it. It is handed out once, and only while it is still blank, owned by no
 * session and opened by no page: a tab a page opened (window.open of about:blank) would give that
 * page a handle on the agent's tab.
 */
import { DEVTOOLS_TARGET_ID } from '../../shared/messages';
import { fromLaunchRelayPage, type HandoffContext } from './launchHandoff';

export class SpareTab {
  #tabId: number | undefined;
  /**
   * The adoption still asking Chrome for its targets (~10 ms on a launched browser's busy start):
   * the hand-off brings the link up beside it, so the first call's take() may come first and
   * waits for it.
   */
  #adopting: Promise<boolean> = Promise.resolve(false);

  /** The relay page named the startup tab; false when the message was not taken. */
  async offer(
    targetId: unknown,
    sender: chrome.runtime.MessageSender | undefined,
    where: HandoffContext,
  ): Promise<boolean> {
    if (!fromLaunchRelayPage(sender, where)) return false;
    return this.adopt(targetId);
  }

  /**
   * The startup tab named by a caller already trusted to name it (the relay page above, or the
   * daemon over the debugging pipe: worker/pipeHandoff.ts). False when it is not a tab's page.
   */
  adopt(targetId: unknown): Promise<boolean> {
    // A failed lookup leaves no spare tab: the first session then opens a tab of its own.
    this.#adopting = this.#adopt(targetId).catch(() => false);
    return this.#adopting;
  }

  async #adopt(targetId: unknown): Promise<boolean> {
    if (typeof targetId !== 'string' || !DEVTOOLS_TARGET_ID.test(targetId)) return false;
    const targets = await chrome.debugger.getTargets();
    const target = targets.find((t) => t.id === targetId && t.type === 'page');
    if (target?.tabId === undefined) return false;
    this.#tabId = target.tabId;
    return true;
  }

  /** The spare tab, if it is still one to give (see the header); never the same tab twice. */
  async take(ownerOf: (tabId: number) => Promise<unknown>): Promise<chrome.tabs.Tab | undefined> {
    await this.#adopting;
    const tabId = this.#tabId;
    this.#tabId = undefined;
    if (tabId === undefined) return undefined;
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    if (tab?.id === undefined || tab.openerTabId !== undefined || tab.incognito) return undefined;
    if ((tab.pendingUrl ?? tab.url) !== 'about:blank') return undefined;
    if ((await ownerOf(tab.id)) !== undefined) return undefined;
    return tab;
  }
}
