/**
 * Each session's tabs as the extension last reported them (`session_tabs` events). Kept for
 * status.json (`doctor`) only; the server never sees them.
 */
import { reportedTab, sessionTabsSchema, type SessionTab } from '@browser-agent/protocol';

export class SessionTabs {
  readonly #tabs = new Map<string, SessionTab[]>();

  of(sessionId: string): SessionTab[] {
    return this.#tabs.get(sessionId) ?? [];
  }

  /**
   * Takes a report for a live session; forgets the tabs of sessions no longer live. False when
   * the report is malformed (nothing changed).
   */
  report(sessionId: string, data: unknown, live: (sessionId: string) => boolean): boolean {
    const parsed = sessionTabsSchema.safeParse(data);
    if (!parsed.success) return false;
    this.#tabs.set(sessionId, parsed.data.tabs.map(reportedTab));
    for (const id of this.#tabs.keys()) if (!live(id)) this.#tabs.delete(id);
    return true;
  }
}
