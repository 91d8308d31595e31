import type { CdpClient } from '../cdp';

export interface SideEffect {
  kind: 'request' | 'download';
  method: string;
  url: string;
  at: number;
}

const MAX_PER_TAB = 200;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What a tab did that a rollback cannot undo: requests that may change a server (anything but
 * GET/HEAD/OPTIONS) and downloads. Recorded from attach on, so a transaction can list its own.
 */
export class SideEffects {
  readonly #byTab = new Map<number, SideEffect[]>();

  async watch(tabId: number, cdp: CdpClient): Promise<void> {
    const push = (effect: SideEffect): void => {
      const list = this.#byTab.get(tabId) ?? [];
      list.push(effect);
      this.#byTab.set(tabId, list.slice(-MAX_PER_TAB));
    };
    cdp.on('Network.requestWillBeSent', (e) => {
      if (SAFE_METHODS.has(e.request.method)) return;
      push({ kind: 'request', method: e.request.method, url: e.request.url, at: Date.now() });
    });
    cdp.on('Page.downloadWillBegin', (e) =>
      push({ kind: 'download', method: 'DOWNLOAD', url: e.url, at: Date.now() }),
    );
    // No Network.enable here: the network recorder's attach hook enables it with the buffer
    // sizes that keep response bodies, and enabling it again without them would drop those.
    await Promise.resolve();
  }

  since(tabIds: readonly number[], since: number): SideEffect[] {
    return tabIds.flatMap((id) => (this.#byTab.get(id) ?? []).filter((e) => e.at >= since));
  }

  forget(tabId: number): void {
    this.#byTab.delete(tabId);
  }
}
