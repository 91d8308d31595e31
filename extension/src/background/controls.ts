import type { ControlAction } from '../shared/messages';
import type { DebuggerHub } from './debuggerHub';
import { addToGroup, ungroup } from './leases';
import { showOverlay } from './overlay';
import type { SessionRecord, SessionStore } from './sessionStore';
import type { TabStates } from './tabStates';
import { friendlyClientName } from '../shared/clientNames';
import { closeAgentTab } from './worker/closeTab';

/** What the user can do to a session from the side panel or the overlay. */
export class Controls {
  readonly #store: SessionStore;
  readonly #hub: DebuggerHub;
  readonly #tabStates: TabStates;
  readonly #changed: () => void;
  readonly #questionsSettled: (tabId: number) => Promise<void>;

  constructor(
    store: SessionStore,
    hub: DebuggerHub,
    tabStates: TabStates,
    changed: () => void,
    questionsSettled: (tabId: number) => Promise<void> = () => Promise.resolve(),
  ) {
    this.#store = store;
    this.#hub = hub;
    this.#tabStates = tabStates;
    this.#changed = changed;
    this.#questionsSettled = questionsSettled;
  }

  async apply(action: ControlAction, sessionId: string): Promise<void> {
    const record = await this.#store.get(sessionId);
    if (!record) return;
    // The user's own word on this agent: "Resume all" no longer speaks for it.
    if (action === 'pause' || action === 'resume' || action === 'revoke')
      record.stoppedByAll = false;
    switch (action) {
      case 'dismiss':
        if (record.state === 'revoked') record.dismissed = true;
        break;
      case 'pause':
        if (record.state === 'active') record.state = 'paused';
        break;
      case 'resume':
        if (record.state === 'paused') record.state = 'active';
        break;
      case 'revoke':
        record.state = 'revoked';
        await this.releaseTabs(record, false);
        break;
      case 'focus':
        await this.#focus(record);
        break;
      case 'handover':
        await this.#handOver(record);
        break;
    }
    await this.#store.save();
    this.#changed();
  }

  /**
   * Closes the session's tabs or leaves them to the user, and detaches from them. A detach lets
   * Chrome go on with a response the download gate holds paused, so it never comes first (#25.2):
   * a tab to close is closed first (its paused requests go with it), and a tab left to the
   * person stays attached until its open questions are answered or expire.
   */
  async releaseTabs(record: SessionRecord, close: boolean): Promise<void> {
    const tabIds = [...record.tabIds];
    record.tabIds = [];
    record.currentTabId = undefined;
    for (const tabId of tabIds) {
      const state = this.#tabStates.peek(tabId);
      this.#tabStates.delete(tabId);
      if (close) {
        // A page that asks before leaving would hold the remove, and the rest of the tabs with it.
        await closeAgentTab(this.#hub, tabId, state);
      } else {
        showOverlay(tabId, null);
        void this.#questionsSettled(tabId).then(() => this.#hub.detach(tabId));
      }
    }
    if (!close) await ungroup(tabIds);
    record.groupId = undefined;
    await this.#store.save();
  }

  /** Pausing from the overlay's "Take over" button: the user acts, the agent waits. */
  async takeOver(tabId: number): Promise<void> {
    const owner = await this.#store.ownerOf(tabId);
    if (owner) await this.apply('pause', owner.sessionId);
  }

  async #focus(record: SessionRecord): Promise<void> {
    const tabId = record.currentTabId ?? record.tabIds[0];
    if (tabId === undefined) return;
    const tab = await chrome.tabs.update(tabId, { active: true }).catch(() => undefined);
    if (tab?.windowId !== undefined)
      await chrome.windows.update(tab.windowId, { focused: true }).catch(() => undefined);
  }

  /** The user gives the agent the tab they are looking at (never the panel's own page). */
  async #handOver(record: SessionRecord): Promise<void> {
    const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    if (tab?.id === undefined || tab.url?.startsWith(chrome.runtime.getURL(''))) return;
    await this.adopt(record, tab.id);
  }

  /** Adds a tab to a session's lease (hand-over, or dragged into its group). */
  async adopt(record: SessionRecord, tabId: number): Promise<void> {
    const previous = await this.#store.ownerOf(tabId);
    if (previous === record) return;
    if (previous) {
      previous.tabIds = previous.tabIds.filter((id) => id !== tabId);
      if (previous.currentTabId === tabId) previous.currentTabId = previous.tabIds.at(-1);
    }
    record.tabIds.push(tabId);
    record.currentTabId = tabId;
    await addToGroup(record, tabId);
    await this.#store.save();
    showOverlay(tabId, friendlyClientName(record.client.name));
    this.#changed();
  }

  /** A tab dragged out of its session's group goes back to the user. */
  async release(tabId: number): Promise<void> {
    const owner = await this.#store.ownerOf(tabId);
    if (!owner) return;
    owner.tabIds = owner.tabIds.filter((id) => id !== tabId);
    if (owner.currentTabId === tabId) owner.currentTabId = owner.tabIds.at(-1);
    await this.#hub.detach(tabId);
    this.#tabStates.delete(tabId);
    showOverlay(tabId, null);
    await this.#store.save();
    this.#changed();
  }
}
