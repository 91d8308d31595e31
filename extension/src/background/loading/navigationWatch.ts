/**
 * Watches the main frame of one tab for navigation, so an action can tell whether it caused one
 * and wait for it to load. Start the watch before the action: events fired by the action are
 * only seen by listeners that already exist.
 */
import type { CdpClient } from '../cdp';
import type { TabHandle } from '../tabStates';
import { isBrowsersOwn } from '../recorders/networkLog';

type Condition = () => boolean;

/** Requests a page's scripts wait on before they render (module loaders, data fetches). */
const SCRIPT_REQUEST_TYPES: ReadonlySet<string> = new Set(['Script', 'Fetch', 'XHR']);

interface Waiter {
  condition: Condition;
  resolve: (met: boolean) => void;
  timer: ReturnType<typeof setTimeout>;
}

export class NavigationWatch {
  #mainFrameId: string;
  readonly #unsubscribe: (() => void)[];
  #waiters: Waiter[] = [];
  #started = false;
  #committed = false;
  #newDocument = false;
  #domContent = false;
  #loaded = false;
  #lastRequestAt = 0;
  #lastScriptAnswerAt = 0;
  /** Scripts, fetches and XHRs that scripts started, in flight, by request id, with when. */
  readonly #scriptRequests = new Map<string, number>();

  constructor(cdp: CdpClient, mainFrameId: string) {
    this.#mainFrameId = mainFrameId;
    const isMain = (frameId: string): boolean => frameId === this.#mainFrameId;
    this.#unsubscribe = [
      cdp.on('Page.frameRequestedNavigation', (e) => {
        if (isMain(e.frameId) && e.disposition === 'currentTab') this.#update({ started: true });
      }),
      cdp.on('Page.frameStartedLoading', (e) => {
        if (isMain(e.frameId)) this.#update({ started: true });
      }),
      cdp.on('Page.frameNavigated', (e) => {
        if (e.frame.parentId !== undefined) return;
        // A page restored from the back/forward cache fires no load event.
        const loaded = e.type === 'BackForwardCacheRestore';
        this.#newDocument = true;
        this.#update({ started: true, committed: true, loaded });
      }),
      cdp.on('Page.navigatedWithinDocument', (e) => {
        if (isMain(e.frameId)) this.#update({ started: true, committed: true, loaded: true });
      }),
      cdp.on('Page.domContentEventFired', () => {
        if (this.#started) this.#update({ domContent: true });
      }),
      cdp.on('Page.loadEventFired', () => {
        if (this.#started) this.#update({ loaded: true });
      }),
      // The tab's network log (the attach hook) has Network enabled; the main session's
      // requests (same-process frames included) tell the settle whether the page is still busy.
      cdp.on('Network.requestWillBeSent', (e, sessionId) => {
        if (sessionId !== undefined || !this.#started || isBrowsersOwn(e)) return;
        this.#lastRequestAt = Date.now();
        // Started by a script (not the parser): a module loader or an app's first data.
        if (
          e.initiator.type === 'script' &&
          e.type !== undefined &&
          SCRIPT_REQUEST_TYPES.has(e.type)
        )
          this.#scriptRequests.set(e.requestId, this.#lastRequestAt);
      }),
      // A script's request that answers lets the script run on (and ask for the next module).
      cdp.on('Network.loadingFinished', (e, sessionId) => {
        if (sessionId === undefined && this.#scriptRequests.delete(e.requestId))
          this.#scriptAnswered();
      }),
      cdp.on('Network.loadingFailed', (e, sessionId) => {
        if (sessionId === undefined && this.#scriptRequests.delete(e.requestId))
          this.#scriptAnswered();
      }),
      // Also ends navigations that never fire load: 204 responses, downloads, aborted loads.
      cdp.on('Page.frameStoppedLoading', (e) => {
        if (isMain(e.frameId) && this.#started) this.#update({ loaded: true });
      }),
    ];
  }

  /** The frame id of the tab's main frame when the watch started. */
  get mainFrameId(): string {
    return this.#mainFrameId;
  }

  /** The tab's main frame is another than the one the watch started on (watchNavigationAtOnce). */
  correctMainFrame(frameId: string): void {
    this.#mainFrameId = frameId;
  }

  /** A main-frame navigation began since the watch started. */
  get started(): boolean {
    return this.#started;
  }

  /** The main frame committed a new document or changed its URL in place. */
  get navigated(): boolean {
    return this.#committed;
  }

  /** The main frame committed a new document (not a same-document history change). */
  get newDocument(): boolean {
    return this.#newDocument;
  }

  /** The new document's DOMContentLoaded (or its load) has fired. */
  get domContentLoaded(): boolean {
    return this.#domContent || this.#loaded;
  }

  /** The load event (or the end of loading) has fired. */
  get loaded(): boolean {
    return this.#loaded;
  }

  /**
   * When the main session last sent a request, or a script's request answered, since the
   * navigation began (0: none).
   */
  get lastRequestAt(): number {
    return this.#lastRequestAt;
  }

  /** When a script's own request (script, fetch, XHR) last answered or failed (0: none). */
  get lastScriptAnswerAt(): number {
    return this.#lastScriptAnswerAt;
  }

  #scriptAnswered(): void {
    this.#lastRequestAt = Date.now();
    this.#lastScriptAnswerAt = this.#lastRequestAt;
  }

  /** Scripts, fetches and XHRs that scripts started at or after `since`, not answered yet. */
  scriptRequestsSince(since: number): number {
    let n = 0;
    for (const at of this.#scriptRequests.values()) if (at >= since) n += 1;
    return n;
  }

  /** Marks a navigation the caller started itself (Page.navigate), so its load counts. */
  markStarted(): void {
    this.#update({ started: true });
  }

  waitForStart(timeoutMs: number): Promise<boolean> {
    return this.#wait(() => this.#started, timeoutMs);
  }

  /** Resolves true at DOMContentLoaded (or load), false after timeoutMs. */
  waitForDomContent(timeoutMs: number): Promise<boolean> {
    return this.#wait(() => this.#domContent || this.#loaded, timeoutMs);
  }

  waitForLoad(timeoutMs: number): Promise<boolean> {
    return this.#wait(() => this.#loaded, timeoutMs);
  }

  dispose(): void {
    for (const off of this.#unsubscribe) off();
    for (const waiter of this.#waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(waiter.condition());
    }
    this.#waiters = [];
  }

  #update(change: {
    started?: boolean;
    committed?: boolean;
    domContent?: boolean;
    loaded?: boolean;
  }): void {
    this.#started ||= change.started ?? false;
    this.#committed ||= change.committed ?? false;
    this.#domContent ||= change.domContent ?? false;
    this.#loaded ||= change.loaded ?? false;
    this.#waiters = this.#waiters.filter((waiter) => {
      if (!waiter.condition()) return true;
      clearTimeout(waiter.timer);
      waiter.resolve(true);
      return false;
    });
  }

  #wait(condition: Condition, timeoutMs: number): Promise<boolean> {
    if (condition()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        condition,
        resolve,
        timer: setTimeout(() => {
          this.#waiters = this.#waiters.filter((w) => w !== waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.#waiters.push(waiter);
    });
  }
}

/** Enables page events and starts watching the tab's main frame. */
export async function watchNavigation(cdp: CdpClient): Promise<NavigationWatch> {
  const [, tree] = await Promise.all([cdp.send('Page.enable'), cdp.send('Page.getFrameTree')]);
  return new NavigationWatch(cdp, tree.frameTree.frame.id);
}

/**
 * The same, without a round trip first when the tab's main frame is known (its last frame list):
 * the watch listens from now on, so a navigation sent next (it goes out after the frame tree, and
 * the browser takes a session's commands in order) is seen whole. The tree's answer, which comes
 * before the new document's events, corrects a main frame that changed (a prerendered page took
 * the tab's place) and keeps the tab's guess current. Every navigate, back and input action
 * waited one round trip for Page.enable and the tree first (#26, 2–10 ms here).
 */
export async function watchNavigationAtOnce(tab: TabHandle): Promise<NavigationWatch> {
  const { cdp, state } = tab;
  const guess = state.mainFrameId;
  if (guess === undefined) {
    const watch = await watchNavigation(cdp);
    state.mainFrameId = watch.mainFrameId;
    return watch;
  }
  const watch = new NavigationWatch(cdp, guess);
  // The Page domain is on since the tab was attached (attachTab.ts): enabling it again cost every
  // action a command in the page's queue ahead of its own. A tab that is gone fails the
  // navigation (or the action) that follows, with its own error.
  cdp.send('Page.getFrameTree').then(
    ({ frameTree }) => {
      state.mainFrameId = frameTree.frame.id;
      if (frameTree.frame.id !== guess) watch.correctMainFrame(frameTree.frame.id);
    },
    () => undefined,
  );
  return watch;
}
