/**
 * The launched browser's relay page, held back while the first call runs (#26 item 3). After a
 * hand-off over the pipe (pipeHandoff.ts) the page only shows the sessions and the log; loading
 * beside the first call it slowed the worker's start, the link handshake and the first tab, and
 * loading while the first answer is on its way back it slowed that last stretch (up to 30 ms on
 * a 2-core machine). So it opens shortly after the first answer, or at the latest a while after
 * the hand-off (a person watching a headed browser before any call), and only once. A headless
 * browser gets none (chromeLauncher.ts): nobody could see it.
 */

/** The page opens at the latest this long after the hand-off... */
export const RELAY_PAGE_LATEST_MS = 2_000;
/** ...and this long after the first call's answer. */
export const RELAY_PAGE_AFTER_ANSWER_MS = 150;

export class HeldRelayPage {
  readonly #open: () => void;
  #timer: NodeJS.Timeout;
  #scheduled = false;

  /** `open` opens the page; it is called once, whatever calls the hold sees. */
  constructor(open: () => void) {
    this.#open = open;
    this.#timer = setTimeout(() => this.#schedule(undefined), RELAY_PAGE_LATEST_MS);
    this.#timer.unref();
  }

  /** A call's answer came back: the page opens RELAY_PAGE_AFTER_ANSWER_MS later. */
  callAnswered(): void {
    this.#schedule(RELAY_PAGE_AFTER_ANSWER_MS);
  }

  /** The browser is going away: nothing opens any more. */
  cancel(): void {
    this.#scheduled = true;
    clearTimeout(this.#timer);
  }

  /** Opens the page after `afterMs`, or now when undefined; only the first ask counts. */
  #schedule(afterMs: number | undefined): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    clearTimeout(this.#timer);
    if (afterMs === undefined) {
      this.#open();
      return;
    }
    this.#timer = setTimeout(this.#open, afterMs);
    this.#timer.unref();
  }
}
