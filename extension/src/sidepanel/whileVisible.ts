/**
 * Layout work that only matters on screen, held while the page is hidden. A launched headed
 * browser opens the relay page as a background tab, and the user's side panel can sit hidden
 * behind another: the activity log fitted itself on every entry all the same, each fit a forced
 * layout (2,667 of them in 12.7 s of the bench's suite, session 33). Held work runs once, when
 * the page shows again.
 */

/** What of `document` the gate reads: a fake stands in for it in tests. */
export interface VisibilitySource {
  readonly visibilityState: DocumentVisibilityState;
  addEventListener(type: 'visibilitychange', listener: () => void): void;
}

export class WhileVisible {
  readonly #source: VisibilitySource;
  readonly #work: () => void;
  #scheduled = false;
  #held = false;

  constructor(work: () => void, source: VisibilitySource = document) {
    this.#work = work;
    this.#source = source;
    source.addEventListener('visibilitychange', () => {
      if (this.#held && this.#visible()) this.run();
    });
  }

  /**
   * Runs the work once in this task's microtasks, however often it is asked for in it; while
   * the page is hidden, once it shows. Not requestAnimationFrame: a background tab gets no
   * frames, so a log fitted there would never fit.
   */
  run(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#held = !this.#visible();
      if (!this.#held) this.#work();
    });
  }

  #visible(): boolean {
    return this.#source.visibilityState === 'visible';
  }
}
