import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import { BusyClock, timedClient } from './busyClock';
import type { CdpClient } from './cdp';
import type { DebuggerHub } from './debuggerHub';
import type { ArrivalTab, ClosedTab, HandlerContext, TabSummary } from './handlerContext';
import type { TabHandle } from './tabStates';
import type { SessionRecord, SessionStore } from './sessionStore';
import type { TabStates } from './tabStates';
import { addToGroup } from './leases';
import { checkOrigin } from '@browser-agent/protocol';
import type { BlockedLoad } from './guard/originGuard';
import { notingPresses } from './recording/presses';
import type { SpareTab } from './worker/spareTab';
import { closeAgentTab } from './worker/closeTab';

/** See adoptPopup. */
const POPUP_CLOSE_DELAY_MS = 300;

const NO_TAB_HINT = 'Call browser_navigate with a URL, or browser_tabs with action "new".';

/** Builds the HandlerContext of one session on top of chrome.tabs and the debugger hub. */
export class SessionContexts {
  readonly #store: SessionStore;
  readonly #hub: DebuggerHub;
  readonly #tabStates: TabStates;
  readonly #changed: () => void;
  readonly #onBlockedPopup: (openerTabId: number, load: BlockedLoad) => void;
  readonly #spare: SpareTab | undefined;

  constructor(
    store: SessionStore,
    hub: DebuggerHub,
    tabStates: TabStates,
    changed: () => void,
    onBlockedPopup: (openerTabId: number, load: BlockedLoad) => void,
    spare?: SpareTab,
  ) {
    this.#spare = spare;
    this.#onBlockedPopup = onBlockedPopup;
    this.#store = store;
    this.#hub = hub;
    this.#tabStates = tabStates;
    this.#changed = changed;
  }

  /**
   * clock counts the time this context's CDP commands are in flight (attaching included); once
   * signal is aborted (the call was cancelled) they fail instead.
   */
  create(
    record: SessionRecord,
    clock = new BusyClock(),
    signal?: AbortSignal,
    arrival?: ArrivalTab,
  ): HandlerContext {
    let unread = arrival;
    const handle = async (tabId: number): Promise<TabHandle> => {
      const cdp: CdpClient = await clock.time(this.#hub.attach(tabId));
      const state = this.#tabStates.get(tabId);
      return {
        tabId,
        cdp: notingPresses(timedClient(cdp, clock, signal), state),
        state,
        control: cdp,
      };
    };

    const liveTab = async (tabId: number): Promise<chrome.tabs.Tab | undefined> =>
      chrome.tabs.get(tabId).catch(() => undefined);

    const currentTab = async (): Promise<TabHandle> => {
      const tabId = record.currentTabId;
      if (tabId === undefined) {
        throw new BridgeError(ErrorCode.NO_TAB, 'This session has no tab yet.', NO_TAB_HINT);
      }
      // Asking Chrome costs a round trip per call; an attached tab is known to be open.
      if (!this.#hub.isAttached(tabId) && !(await liveTab(tabId))) {
        await this.forgetTab(tabId);
        throw new BridgeError(
          ErrorCode.TAB_CLOSED,
          `The session's current tab (${tabId}) was closed.`,
          'Call browser_tabs with action "list" and select another tab, or open a new one.',
        );
      }
      return handle(tabId);
    };

    const newTab = async (url?: string, options?: { background?: boolean }): Promise<TabHandle> => {
      const background = options?.background === true;
      // A launched browser's startup tab, if it is still blank and nobody's (worker/spareTab.ts).
      const spare = background
        ? undefined
        : await this.#spare?.take((tabId) => this.#store.ownerOf(tabId));
      if (spare?.id !== undefined && !spare.active)
        await chrome.tabs.update(spare.id, { active: true });
      const tab = spare ?? (await chrome.tabs.create({ url: 'about:blank', active: !background }));
      if (tab.id === undefined)
        throw new BridgeError(ErrorCode.INTERNAL, 'Chrome created a tab without an id.');
      record.tabIds.push(tab.id);
      if (!background || record.currentTabId === undefined) record.currentTabId = tab.id;
      const tabId = tab.id;
      // Grouping (two or three round trips to Chrome) runs while the debugger attaches: the
      // attach reads the session's tabs from memory, not from the saved copy (#26).
      const leased = addToGroup(record, tabId).then(async () => {
        await this.#store.save();
        this.#changed();
      });
      const [attached, saved] = await Promise.allSettled([handle(tabId), leased]);
      if (attached.status === 'rejected') throw attached.reason;
      if (saved.status === 'rejected') throw saved.reason;
      const h = attached.value;
      if (url !== undefined) await h.cdp.send('Page.navigate', { url });
      return h;
    };

    const tabIdAt = (index: number): number => {
      const tabId = record.tabIds[index];
      if (tabId === undefined) {
        throw new BridgeError(
          ErrorCode.INVALID_ARGS,
          `No tab at index ${index}; this session has ${record.tabIds.length} tab(s).`,
          'Call browser_tabs with action "list" to see the indexes.',
        );
      }
      return tabId;
    };

    /** Tabs as the agent sees them, in order; a tab Chrome no longer has is forgotten. */
    const summarize = async (
      tabIds: readonly number[],
      tabs: readonly (chrome.tabs.Tab | undefined)[],
    ): Promise<TabSummary[]> => {
      const out: TabSummary[] = [];
      for (const [i, tabId] of tabIds.entries()) {
        const tab = tabs[i];
        if (!tab) {
          await this.forgetTab(tabId);
          continue;
        }
        out.push({
          index: out.length,
          tabId,
          url: tab.url ?? tab.pendingUrl ?? '',
          title: tab.title ?? '',
          current: tabId === record.currentTabId,
        });
      }
      return out;
    };

    return {
      sessionId: record.sessionId,
      client: record.client,
      settings: record.settings,
      policy: record.policy,
      signal,
      arrivalUrl: (tabId) => {
        const taken = unread;
        unread = undefined;
        return taken?.tabId === tabId ? taken.url : undefined;
      },
      currentTab,
      ensureTab: async () => (record.currentTabId === undefined ? newTab() : currentTab()),
      newTab,
      listTabs: async (): Promise<TabSummary[]> => {
        // Asked of Chrome at once: one at a time cost a round trip per tab, 8 ms each on a
        // browser busy with a tab it just opened (#26).
        const tabIds = [...record.tabIds];
        return summarize(tabIds, await Promise.all(tabIds.map((tabId) => liveTab(tabId))));
      },
      tabById: async (tabId: number): Promise<TabHandle> => {
        if (!record.tabIds.includes(tabId)) {
          const owner = await this.#store.ownerOf(tabId);
          const exists = await liveTab(tabId);
          if (!exists) {
            throw new BridgeError(
              ErrorCode.TAB_CLOSED,
              `Tab ${tabId} does not exist.`,
              'Call browser_tabs with action "list" to see your tabs.',
            );
          }
          throw new BridgeError(
            ErrorCode.NOT_OWNER,
            `Tab ${tabId} belongs to ${owner ? `another agent (${owner.client.name})` : 'the user'}, not to this session.`,
            'Work in your own tabs (browser_tabs list / new). The user can hand a tab over from the Browser Agent side panel.',
          );
        }
        return handle(tabId);
      },
      selectTab: async (index: number): Promise<TabHandle> => {
        const tabId = tabIdAt(index);
        await chrome.tabs.update(tabId, { active: true });
        record.currentTabId = tabId;
        await this.#store.save();
        return handle(tabId);
      },
      closeTab: async (index?: number): Promise<ClosedTab> => {
        const tabId = index === undefined ? record.currentTabId : tabIdAt(index);
        if (tabId === undefined)
          throw new BridgeError(ErrorCode.NO_TAB, 'This session has no tab to close.', NO_TAB_HINT);
        // The other tabs are read while this one closes (closing it changes none of them): the
        // browser takes 13-18 ms to remove a tab, and the list after it was another 4-13 (#26).
        const others = record.tabIds.filter((id) => id !== tabId);
        const [leaveAsked, tabs] = await Promise.all([
          (async () => {
            const asked = await closeAgentTab(this.#hub, tabId, this.#tabStates.peek(tabId));
            await this.forgetTab(tabId);
            return asked;
          })(),
          Promise.all(others.map((id) => liveTab(id))),
        ]);
        return { left: await summarize(others, tabs), leaveAsked };
      },
    };
  }

  /** Drops a tab from whichever session owned it; the last remaining tab becomes current. */
  async forgetTab(tabId: number): Promise<void> {
    const owner = await this.#store.ownerOf(tabId);
    this.#tabStates.delete(tabId);
    this.#hub.handleDetach(tabId);
    if (!owner) return;
    owner.tabIds = owner.tabIds.filter((id) => id !== tabId);
    if (owner.currentTabId === tabId) owner.currentTabId = owner.tabIds.at(-1);
    await this.#store.save();
    this.#changed();
  }

  /**
   * A tab opened by a session's page (target=_blank, window.open) joins that session, guarded,
   * unless it heads to an origin the session may not load ('blocked'); 'other' is no session's.
   */
  async adoptPopup(
    tabId: number,
    openerTabId: number,
    url: string,
  ): Promise<'adopted' | 'blocked' | 'other'> {
    const owner = await this.#store.ownerOf(openerTabId);
    if (!owner) return 'other';
    if (owner.tabIds.includes(tabId)) return 'adopted';
    const verdict = checkOrigin(owner.policy, url);
    if (!verdict.allowed) {
      // A popup to a blocked origin is never adopted, so the agent never sees it; it is closed a
      // moment later, because closing it while window.open is still creating it can leave the
      // opener's script (and the agent's call) waiting forever.
      setTimeout(() => void chrome.tabs.remove(tabId).catch(() => undefined), POPUP_CLOSE_DELAY_MS);
      this.#onBlockedPopup(openerTabId, { url, reason: verdict.reason, at: Date.now() });
      return 'blocked';
    }
    owner.tabIds.push(tabId);
    await addToGroup(owner, tabId);
    await this.#store.save();
    this.#changed();
    // Attach now so the guard also sees the popup's redirects and later navigations.
    if (owner.policy) await this.#hub.attach(tabId).catch(() => undefined);
    return 'adopted';
  }
}
