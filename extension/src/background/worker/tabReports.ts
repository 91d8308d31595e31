/**
 * Tells the daemon each session's tabs (for `browser-agent-mcp doctor`), a moment after they may
 * have changed: a lease, a navigation, a title. Only changed lists are sent.
 */
import {
  reportedTab,
  SESSION_TABS_EVENT,
  SESSION_TABS_MAX,
  type WorkerToRelayFrame,
} from '@browser-agent/protocol';
import type { SessionStore } from '../sessionStore';

/** Coalesces bursts of tab changes into one report of each session's tabs to the daemon. */
const TABS_REPORT_DELAY_MS = 200;

export class TabReports {
  readonly #store: SessionStore;
  /** The way back to the daemon (the link that sent the latest frame), if any. */
  readonly #toDaemon: () => ((frame: WorkerToRelayFrame) => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The tab list last reported per session, so an unchanged one is not sent again. */
  readonly #reported = new Map<string, string>();

  constructor(
    store: SessionStore,
    toDaemon: () => ((frame: WorkerToRelayFrame) => void) | undefined,
  ) {
    this.#store = store;
    this.#toDaemon = toDaemon;
  }

  /** A (re)connected daemon knows nothing of this session's tabs yet. */
  forget(sessionId: string): void {
    this.#reported.delete(sessionId);
  }

  mayHaveChanged(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#report(), TABS_REPORT_DELAY_MS);
  }

  async #report(): Promise<void> {
    const toDaemon = this.#toDaemon();
    if (!toDaemon) return;
    const records = await this.#store.all();
    const live = new Set(records.map((r) => r.sessionId));
    for (const id of this.#reported.keys()) if (!live.has(id)) this.#reported.delete(id);
    for (const r of records) {
      const tabs = await Promise.all(
        r.tabIds.slice(0, SESSION_TABS_MAX).map(async (tabId) => {
          const tab = await chrome.tabs.get(tabId).catch(() => undefined);
          return reportedTab({ tabId, url: tab?.url ?? '', title: tab?.title ?? '' });
        }),
      );
      const key = JSON.stringify(tabs);
      if (this.#reported.get(r.sessionId) === key) continue;
      try {
        toDaemon({
          type: 'event',
          sessionId: r.sessionId,
          event: SESSION_TABS_EVENT,
          data: { tabs },
        });
        this.#reported.set(r.sessionId, key);
      } catch {
        // No link right now; the next session_start asks again.
      }
    }
  }
}
