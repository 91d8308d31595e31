/**
 * Watches the main frame of one tab for navigation, so an action can tell whether it caused one
 * and wait for it to load. Start the watch before the action: events fired by the action are
 * only seen by listeners that already exist.
 */
import type { CdpClient } from '../cdp';

type Condition = () => boolean;

interface Waiter {
  condition: Condition;
  resolve: (met: boolean) => void;
  timer: ReturnType<typeof setTimeout>;
}

export class NavigationWatch {
  readonly #mainFrameId: string;
  readonly #unsubscribe: (() => void)[];
  #waiters: Waiter[] = [];
  #started = false;
  #committed = false;
  #newDocument = false;
  #loaded = false;

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
      cdp.on('Page.loadEventFired', () => {
        if (this.#started) this.#update({ loaded: true });
      }),
      // Also ends navigations that never fire load: 204 responses, downloads, aborted loads.
      cdp.on('Page.frameStoppedLoading', (e) => {
        if (isMain(e.frameId) && this.#started) this.#update({ loaded: true });
      }),
    ];
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

  /** Marks a navigation the caller started itself (Page.navigate), so its load counts. */
  markStarted(): void {
    this.#update({ started: true });
  }

  waitForStart(timeoutMs: number): Promise<boolean> {
    return this.#wait(() => this.#started, timeoutMs);
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

  #update(change: { started?: boolean; committed?: boolean; loaded?: boolean }): void {
    this.#started ||= change.started ?? false;
    this.#committed ||= change.committed ?? false;
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
 * Sets up a watch while `preparing` (resolving, measuring) is in flight, so their round trips
 * overlap; the watch is disposed again if preparing fails.
 */
export async function watchWhile<T>(
  cdp: CdpClient,
  preparing: Promise<T>,
): Promise<[T, NavigationWatch]> {
  const watching = watchNavigation(cdp);
  try {
    return [await preparing, await watching];
  } catch (err) {
    void watching.then(
      (watch) => watch.dispose(),
      () => undefined,
    );
    throw err;
  }
}
