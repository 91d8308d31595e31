import type { BlockedLoad } from './originGuard';

const MAX_PER_TAB = 20;

/** Recently refused loads per tab, so a tool result can say "blocked" instead of a bare failure. */
export class BlockedLoads {
  readonly #byTab = new Map<number, BlockedLoad[]>();

  record(tabId: number, load: BlockedLoad): void {
    const list = this.#byTab.get(tabId) ?? [];
    list.push(load);
    this.#byTab.set(tabId, list.slice(-MAX_PER_TAB));
  }

  /** Loads refused since `since` (epoch ms) in a tab. */
  since(tabId: number, since: number): BlockedLoad[] {
    return (this.#byTab.get(tabId) ?? []).filter((l) => l.at >= since);
  }

  forget(tabId: number): void {
    this.#byTab.delete(tabId);
  }
}
