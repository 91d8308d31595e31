import type { TabState } from './handlerContext';

/** A tab's memory before anything has happened in it. */
export function newTabState(): TabState {
  return {
    refsByKey: new Map(),
    childFrames: new Map(),
    childFrameParents: new Map(),
    worlds: new Map(),
    guardChild: undefined,
    refsByRef: new Map(),
    nextRef: 1,
    generation: 0,
    console: [],
    consoleShown: 0,
    dialog: undefined,
    network: [],
    lastOutline: undefined,
  };
}

/** Per-tab memory (refs, console) of this service-worker instance. */
export class TabStates {
  readonly #states = new Map<number, TabState>();

  get(tabId: number): TabState {
    let s = this.#states.get(tabId);
    if (!s) {
      s = newTabState();
      this.#states.set(tabId, s);
    }
    return s;
  }

  delete(tabId: number): void {
    this.#states.delete(tabId);
  }
}
