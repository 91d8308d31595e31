import { BridgeError, ErrorCode } from '@browser-agent/protocol';
import type { CdpClient, CdpCommand, CdpEvent, CdpEventParams, CdpParams, CdpReturn } from './cdp';

type Listener = (params: unknown, sessionId?: string) => void;

const CDP_VERSION = '1.3';
const SWAP_RETRIES = 5;
const SWAP_RETRY_DELAY_MS = 50;

/**
 * Owns every chrome.debugger attachment of the extension. Attachments outlive the service
 * worker (verified on Chromium 156), so after a restart `attach` finds them again through
 * chrome.debugger.getTargets instead of failing with "Another debugger is already attached".
 */
export class DebuggerHub {
  readonly #attached = new Set<number>();
  readonly #listeners = new Map<number, Map<string, Set<Listener>>>();
  readonly #onAttach: (tabId: number, cdp: CdpClient) => Promise<void>;

  constructor(onAttach: (tabId: number, cdp: CdpClient) => Promise<void>) {
    this.#onAttach = onAttach;
  }

  async attach(tabId: number): Promise<CdpClient> {
    const cdp = this.client(tabId);
    if (this.#attached.has(tabId)) return cdp;
    try {
      await chrome.debugger.attach({ tabId }, CDP_VERSION);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // Our own attachment from before a worker restart (getTargets().attached cannot tell:
      // it is also true while any other client, e.g. DevTools or Playwright, is attached).
      if (!/Another debugger is already attached/i.test(message)) {
        throw new BridgeError(
          ErrorCode.DEBUGGER_DETACHED,
          `Could not attach to tab ${tabId}: ${message}`,
          'Close DevTools on that tab, or open a new tab with browser_tabs.',
        );
      }
    }
    this.#attached.add(tabId);
    await this.#onAttach(tabId, cdp);
    return cdp;
  }

  /** Attached and not told of a detach since: the tab still exists (closing it detaches). */
  isAttached(tabId: number): boolean {
    return this.#attached.has(tabId);
  }

  async detach(tabId: number): Promise<void> {
    if (!this.#attached.delete(tabId)) return;
    this.#listeners.delete(tabId);
    await chrome.debugger.detach({ tabId }).catch(() => undefined);
  }

  /** Wired from the top-level chrome.debugger.onDetach listener. */
  handleDetach(tabId: number): void {
    this.#attached.delete(tabId);
    this.#listeners.delete(tabId);
  }

  /** Wired from the top-level chrome.debugger.onEvent listener. */
  handleEvent(source: chrome.debugger.DebuggerSession, method: string, params: unknown): void {
    if (source.tabId === undefined) return;
    const set = this.#listeners.get(source.tabId)?.get(method);
    if (!set) return;
    for (const listener of [...set]) listener(params, source.sessionId);
  }

  client(tabId: number): CdpClient {
    return {
      send: <M extends CdpCommand>(method: M, params?: CdpParams<M>, sessionId?: string) =>
        this.#send(tabId, method, params, sessionId),
      on: <E extends CdpEvent>(event: E, listener: (p: CdpEventParams<E>, s?: string) => void) =>
        this.#on(tabId, event, listener as Listener),
    };
  }

  async #send<M extends CdpCommand>(
    tabId: number,
    method: M,
    params: CdpParams<M> | undefined,
    sessionId: string | undefined,
  ): Promise<CdpReturn<M>> {
    const target: chrome.debugger.DebuggerSession =
      sessionId === undefined ? { tabId } : { tabId, sessionId };
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          // chrome.debugger is untyped; devtools-protocol's mapping gives the result its type.
          const result: CdpReturn<M> = await chrome.debugger.sendCommand(
            target,
            method,
            params ?? {},
          );
          return result;
        } catch (err) {
          // During a cross-process swap (e.g. to an error page) the tab briefly has no page.
          if (attempt >= SWAP_RETRIES || !/Not attached to an active page/i.test(String(err)))
            throw err;
          await new Promise((r) => setTimeout(r, SWAP_RETRY_DELAY_MS));
        }
      }
    } catch (err) {
      throw translateCdpError(tabId, method, err);
    }
  }

  #on(tabId: number, event: string, listener: Listener): () => void {
    let byEvent = this.#listeners.get(tabId);
    if (!byEvent) {
      byEvent = new Map();
      this.#listeners.set(tabId, byEvent);
    }
    let set = byEvent.get(event);
    if (!set) {
      set = new Set();
      byEvent.set(event, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }
}

function translateCdpError(tabId: number, method: string, err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  if (/No tab with given id|No target with given id/i.test(message)) {
    return new BridgeError(
      ErrorCode.TAB_CLOSED,
      `Tab ${tabId} is closed.`,
      'Call browser_tabs with action "list" and select another tab.',
    );
  }
  if (/Detached while handling|Debugger is not attached/i.test(message)) {
    return new BridgeError(
      ErrorCode.DEBUGGER_DETACHED,
      `The debugger was detached from tab ${tabId} during ${method}.`,
      'Retry the call; if it keeps failing, open a new tab with browser_tabs.',
    );
  }
  return new Error(`${method} failed: ${message}`);
}
