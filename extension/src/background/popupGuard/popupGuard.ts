/**
 * The origin policy for tabs that do not exist yet: popups (`target=_blank`, `window.open`) and
 * the frames an `about:blank` popup writes.
 *
 * Why not CDP: chrome.debugger cannot attach to a tab before its first request, and a tab's
 * auto-attach does not cover popups, so the CDP guard (originGuard.ts) sees a popup only after
 * its first request (with the user's cookies) has left. declarativeNetRequest session rules are
 * in place before the tab exists: the browser refuses the request itself (ERR_BLOCKED_BY_CLIENT).
 *
 * Scope, so the user's own tabs keep working: each session with a policy gets rules that match
 * only documents (top frames and frames) of tabs the extension does not know yet
 * (`excludedTabIds` lists every known tab), started by a page on one of the session's sites
 * (`initiatorDomains`). A new tab is known once its first page commits, or for a popup once
 * `adoptPopup` has put it in its session and attached the CDP guard, or found its opener is not
 * a session's tab. The session's own tabs are left to the CDP guard, which reports the loads it
 * refuses.
 */
import { normalizeHost } from '@browser-agent/protocol';
import type { SessionRecord, SessionStore } from '../sessionStore';
import { inMemoryContext } from '../../shared/storageAreas';
import { popupRules } from './popupRules';
import { pickIncognitoBlock, ruleBlock, type RuleBlock } from './ruleBlock';

/** A new tab that neither commits nor turns out a popup (a discarded tab) is known by then. */
const UNDECIDED_MAX_MS = 5_000;

interface Hold {
  why: 'new' | 'popup';
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class PopupGuard {
  readonly #store: SessionStore;
  /** New tabs with an opener, not yet known to be a session's popup or the user's tab. */
  readonly #undecided = new Map<number, Hold>();
  /**
   * Tabs decided so far (the rules exclude them). Kept from events, never from a tab query: a
   * query can list a popup whose onCreated has not reached us yet, and would exclude it.
   */
  readonly #known = new Set<number>();
  #started: Promise<void> | undefined;
  /** The rule ids this worker builds and removes (ruleBlock.ts). */
  #block: RuleBlock | undefined;
  #running: Promise<void> = Promise.resolve();
  #queued = false;
  /** What of the sessions the rules in place were built from (sessionsKey), once built. */
  #builtKey: string | undefined;

  constructor(store: SessionStore) {
    this.#store = store;
  }

  /**
   * A tab was created. Nothing tells yet whether a page opened it: tabs.onCreated gives a
   * `target=_blank` link's tab no opener (noopener) and other tabs the active tab as opener. So
   * every new tab stays in scope until its first page commits or its navigation-target event
   * says whose it is. A tab the user opens (new tab page, typed URL) starts with a navigation
   * no page started, which the rules never match.
   */
  created(tab: chrome.tabs.Tab): void {
    if (tab.id !== undefined) this.#hold(tab.id, 'new');
  }

  /**
   * A popup (webNavigation.onCreatedNavigationTarget): in scope until `decided`, or for good
   * when it heads to a refused origin (it is closed a moment later, and its request may not
   * have started yet: a `target=_blank` link's starts well after this event).
   */
  hold(tabId: number): void {
    this.#hold(tabId, 'popup');
  }

  /** A tab's top frame committed: a new tab that is no page's popup is known from now on. */
  committed(tabId: number): void {
    if (this.#undecided.get(tabId)?.why === 'new') this.decided(tabId);
  }

  /** The tab is a session's (and guarded over CDP) or the user's: the rules leave it alone. */
  decided(tabId: number): void {
    clearTimeout(this.#undecided.get(tabId)?.timer);
    this.#undecided.delete(tabId);
    if (this.#known.has(tabId)) return;
    this.#known.add(tabId);
    this.refresh();
  }

  removed(tabId: number): void {
    clearTimeout(this.#undecided.get(tabId)?.timer);
    this.#undecided.delete(tabId);
    this.#known.delete(tabId);
  }

  #hold(tabId: number, why: Hold['why']): void {
    if (this.#known.delete(tabId)) this.refresh();
    const held = this.#undecided.get(tabId);
    if (held) {
      if (why === 'popup') {
        clearTimeout(held.timer);
        held.why = why;
      }
      return;
    }
    this.#undecided.set(tabId, {
      why,
      timer: why === 'new' ? setTimeout(() => this.decided(tabId), UNDECIDED_MAX_MS) : undefined,
    });
  }

  /**
   * The sessions may have changed: the rules are rebuilt only when what they are built from did
   * (a session's policy, state or tabs). Every call's start and end says the sessions changed
   * (the panel shows the activity), and a rebuild each time queried every tab and the rules
   * beside each call: 13% of the worker's busy time in the bench's suite. A tab's new address
   * (tabs.onUpdated) and a tab becoming known call refresh themselves.
   */
  sessionsChanged(): void {
    void this.#store
      .all()
      .then((records) => {
        if (sessionsKey(records) !== this.#builtKey) this.refresh();
      })
      .catch(() => this.refresh());
  }

  /** Rebuilds the rules from the sessions and tabs; bursts coalesce into one more rebuild. */
  refresh(): void {
    if (this.#queued) return;
    this.#queued = true;
    this.#running = this.#running.then(async () => {
      this.#queued = false;
      await this.#rebuild().catch(() => undefined);
    });
  }

  async #rebuild(): Promise<void> {
    // The tabs that exist when the worker starts are all known, as is a session's every tab.
    this.#started ??= chrome.tabs.query({}).then((tabs) => {
      for (const t of tabs)
        if (t.id !== undefined && !this.#undecided.has(t.id)) this.#known.add(t.id);
    });
    await this.#started;
    const [records, tabs, all] = await Promise.all([
      this.#store.all(),
      chrome.tabs.query({}),
      chrome.declarativeNetRequest.getSessionRules(),
    ]);
    const block = (this.#block ??= inMemoryContext()
      ? pickIncognitoBlock(
          all.map((r) => r.id),
          Math.random,
        )
      : ruleBlock(0));
    // Other contexts' rules are theirs to replace.
    const old = all.filter((r) => block.owns(r.id));
    const urls = new Map(tabs.map((t) => [t.id, t.url ?? t.pendingUrl ?? '']));
    const live = new Set(tabs.map((t) => t.id));
    const excludedTabIds = [...this.#known].filter((id) => live.has(id));
    const rules: chrome.declarativeNetRequest.Rule[] = [];
    // Two id ranges in turn, so the new rules go in before the old ones go out (below).
    const base = block.nextBase(old.map((r) => r.id));
    for (const record of records) {
      if (!record.policy || record.state === 'revoked') continue;
      const initiatorDomains = [
        ...new Set(record.tabIds.map((id) => hostOf(urls.get(id) ?? '')).filter(Boolean)),
      ] as string[];
      if (initiatorDomains.length === 0) continue;
      rules.push(
        ...popupRules(record.policy, { initiatorDomains, excludedTabIds }, base + rules.length),
      );
    }
    const key = sessionsKey(records);
    if (JSON.stringify(withoutIds(old)) !== JSON.stringify(withoutIds(rules))) {
      // Whether one update that removes and adds is atomic for requests in flight is not
      // documented; adding first, then removing, never leaves a moment without rules.
      await chrome.declarativeNetRequest.updateSessionRules({ addRules: rules });
      await chrome.declarativeNetRequest.updateSessionRules({
        removeRuleIds: old.map((r) => r.id),
      });
    }
    // Only once the rules are in place: a failed rebuild leaves the next change to try again.
    this.#builtKey = key;
  }
}

/** The fields of the sessions that the rules are built from. */
function sessionsKey(records: readonly SessionRecord[]): string {
  return JSON.stringify(records.map((r) => [r.sessionId, r.state, r.policy ?? null, r.tabIds]));
}

function hostOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    return normalizeHost(parsed.hostname);
  } catch {
    return undefined;
  }
}

/** Rules compared without their ids, key order or absent fields (Chrome's copies differ). */
function withoutIds(rules: chrome.declarativeNetRequest.Rule[]): unknown[] {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([, x]) => x !== undefined)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, x]) => [k, canon(x)]),
          )
        : v;
  return [...rules].sort((a, b) => a.id - b.id).map((r) => canon({ ...r, id: 0 }));
}
